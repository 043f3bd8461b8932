// Voyagers' Venture's host panel: at the top what needs the host now (the cards to enter, next year's
// order, closing the last purchases, VV14, right there) and the table's story; the cards on display
// this year (the cards stay physical, VV2), next year's turn order (VV13), the gold count (VV20),
// undo, the seed's hash, each player's phone (away, and their seat given to another phone). Every
// tap goes through the session's outbox; once the game is over, the ranking and the record.
import { tokensFor } from '../../api.js';
import { html, render } from '../../html.js';
import { t } from '../../i18n.js';
import * as V from '../../logic/voyagers.js';
import { hostItems, tellers } from '../../logic/voyagers_table.js';
import { story } from '../../logic/story.js';
import { openGame } from '../../session.js';
import { listen, paintSwatches, swatch } from '../../ui.js';
import { checkedButton, feed, nowStrip, recordNote, stripClick, tapItems } from '../parts.js';
import { bidPanel, displayCards, playersList, rankingTable, yearLine } from './parts.js';
import { undoCheck } from '../../logic/checks.js';
import '../seat_strings.js';

const FEED_LINES = 6;

export async function mount(root, { code }) {
  const hostToken = tokensFor(code).host;
  if (!hostToken) {
    render(root, html`<section class="card"><p>${t('not_joined')}</p><a class="button" data-link href="/join/${code}">${t('join')}</a></section>`);
    return {};
  }
  const ui = { rows: [{ name: '', kind: 'common' }], order: null, gold: {} };
  let state = null;
  let session;

  function displayForm() {
    if (state.stage !== 'display') return '';
    const ready = ui.rows.some((r) => r.name.trim());
    return html`<section class="card vv-host-display"><h2 id="vv-host-display-h" tabindex="-1">${t('vv_host_display_h')}</h2>
      <form id="display-form">${ui.rows.map((r, i) => html`<div class="vv-display-row">
        <label>${t('vv_card_name', { n: i + 1 })}<input id="card-name-${i}" data-row="${i}" maxlength="60" value="${r.name}" autocomplete="off"></label>
        <label>${t('vv_card_kind')}<select id="card-kind-${i}" data-kind-row="${i}">${(session.ruleset.card_kinds || []).map((k) => html`<option value="${k.id}" ${r.kind === k.id ? html`selected` : ''}>${t(`vv_${k.id}`)}</option>`)}</select></label>
        <button type="button" class="ghost small" data-drop="${i}" aria-label="${t('vv_remove_card')} ${i + 1}" ${ui.rows.length === 1 ? html`disabled` : ''}>✕</button></div>`)}
        <div class="button-group"><button type="button" id="add-card">${t('vv_add_card')}</button>
        <button type="submit" id="display-send" class="primary" ${ready ? '' : html`disabled`}>${t('vv_display_send')}</button></div></form></section>`;
  }

  function orderForm() {
    if (state.stage !== 'order') return '';
    if (!ui.order) ui.order = [...state.turn_order];
    return html`<section class="card"><h2 id="vv-order-h" tabindex="-1">${t('vv_order_h')}</h2><ol class="vv-list">${ui.order.map((id, i) => {
      const p = V.playerById(state, id);
      return html`<li>${swatch(session.ruleset, p.character)} <strong>${p.name}</strong>
        <span class="count"><button type="button" class="small" data-up="${i}" aria-label="${t('vv_up')}: ${p.name}" ${i === 0 ? html`disabled` : ''}>↑</button>
        <button type="button" class="small" data-down="${i}" aria-label="${t('vv_down')}: ${p.name}" ${i === ui.order.length - 1 ? html`disabled` : ''}>↓</button></span></li>`;
    })}</ol><button type="button" id="order-send" class="primary wide">${t('vv_order_send')}</button></section>`;
  }

  function goldForm() {
    if (state.phase !== 'playing') return '';
    return html`<section class="card"><h2>${t('vv_gold_h')}</h2><ul class="vv-list">${state.players.map((p) => html`<li>
      <label class="grow">${p.name}<input type="number" min="0" inputmode="numeric" id="gold-${p.id}" data-gold="${p.id}" value="${ui.gold[p.id] ?? p.gold}"></label>
      <button type="button" data-set-gold="${p.id}">${t('vv_gold_set')}</button></li>`)}</ul></section>`;
  }

  function draw() {
    if (!state) return;
    const rs = session.ruleset;
    const mine = tokensFor(code);
    const events = session.log.all();
    const items = hostItems(state, rs);
    const over = state.phase === 'finished';
    const queued = new Set(session.outbox.pending.map((e) => e.action.type));
    for (const b of items.flatMap((i) => i.buttons)) if (b.act && queued.has(b.act)) b.waiting = true;
    const who = html`<strong>${t('host_panel')}</strong>${state.phase === 'playing' && state.round
      ? html` <span class="muted">${t('vv_year_short', { year: state.year, n: state.round, of: state.rounds })}</span>` : ''}`;
    render(root, html`${state.phase !== 'lobby' ? nowStrip(who, [...tapItems(session), ...items]) : ''}
      <h1>${t('host_panel')} · ${t('game_voyagers')}</h1>
      <section class="card">${yearLine(state)}<nav class="links">
        ${mine.player ? html`<a class="button" data-link href="/play/${code}">${t('open_play')}</a>` : ''}
        <a class="button" data-link href="/screen/${code}">${t('open_screen')}</a>
        ${state.phase === 'lobby' ? html`<a class="button" data-link href="/join/${code}">${t('lobby')}</a>` : ''}</nav>
        ${state.phase === 'playing' ? checkedButton(undoCheck(state), 'host-undo', t('undo')) : ''}
        <p>${t('seed_hash')}: <code id="seed-hash" class="mono wrap">${state.seed_hash}</code></p>
        ${state.seed ? html`<p>${t('seed')}: <code class="mono wrap">${state.seed}</code></p>` : ''}
        ${over ? recordNote(code) : ''}</section>
      ${over ? rankingTable(state, rs) : ''}
      ${state.phase !== 'lobby' ? feed(story(events, tellers, { state, ruleset: rs, events }, { limit: FEED_LINES })) : ''}
      ${displayForm()}${orderForm()}
      ${state.display.length ? html`<section class="card"><h2>${t('vv_display')}</h2>${displayCards(state)}</section>` : ''}
      ${bidPanel(state, rs)}${over ? '' : rankingTable(state, rs)}${playersList(state, rs)}${goldForm()}
      <seat-handover></seat-handover>`);
    paintSwatches(root);
  }

  async function act(action, label) {
    const answer = await session.act(action, label);
    draw();
    return answer;
  }

  const labelOf = (el) => el.textContent.trim().replace(/\s+/g, ' ');

  async function sendDisplay() {
    const base = `${state.year}-`;
    const cards = ui.rows.filter((r) => r.name.trim()).map((r, i) => ({ id: `${base}${i + 1}`, kind: r.kind, name: r.name.trim() }));
    if (await act({ type: 'display', cards }, t('vv_display_send'))) { ui.rows = [{ name: '', kind: 'common' }]; draw(); }
  }

  async function onClick(event) {
    if (stripClick(event, session)) return;
    const el = event.target.closest('button');
    if (!el || el.disabled) return;
    if (el.id === 'add-card') { ui.rows.push({ name: '', kind: 'common' }); draw(); root.querySelector(`#card-name-${ui.rows.length - 1}`)?.focus(); }
    if (el.dataset.drop) { ui.rows.splice(Number(el.dataset.drop), 1); draw(); }
    const swap = (i, j) => { [ui.order[i], ui.order[j]] = [ui.order[j], ui.order[i]]; draw(); };
    if (el.dataset.up) swap(Number(el.dataset.up), Number(el.dataset.up) - 1);
    if (el.dataset.down) swap(Number(el.dataset.down), Number(el.dataset.down) + 1);
    if (el.id === 'order-send') { if (await act({ type: 'turn_order', order: ui.order }, labelOf(el))) ui.order = null; }
    if (el.dataset.setGold) {
      const pid = el.dataset.setGold;
      const gold = Number(ui.gold[pid] ?? V.playerById(state, pid).gold);
      if (await act({ type: 'set_gold', player: pid, gold }, `${labelOf(el)}: ${V.nameOf(state, pid)} ${gold}`)) { delete ui.gold[pid]; draw(); }
    }
    if (el.dataset.act === 'close_purchases') await act({ type: 'close_purchases' }, labelOf(el));
    if (el.id === 'host-undo') await act({ type: 'undo' }, labelOf(el));
  }

  function onInput(event) {
    const el = event.target;
    if (el.dataset.row) {
      const was = ui.rows.some((r) => r.name.trim());
      ui.rows[Number(el.dataset.row)].name = el.value;
      if (was !== ui.rows.some((r) => r.name.trim())) draw();
    }
    if (el.dataset.kindRow) ui.rows[Number(el.dataset.kindRow)].kind = el.value;
    if (el.dataset.gold) ui.gold[el.dataset.gold] = Math.max(0, Math.floor(Number(el.value) || 0));
  }

  function onSubmit(event) {
    event.preventDefault();
    if (event.target.id === 'display-form') sendDisplay();
  }

  const off = listen(root, { click: onClick, input: onInput, change: onInput, submit: onSubmit });
  session = await openGame(code, hostToken, {
    onState: (s) => { state = s; if (s.stage !== 'order') ui.order = null; draw(); },
    onChange: draw,
    history: 'all',
  });
  return { refresh: draw, unmount() { off(); session.close(); } };
}
