// The host panel: start, undo, adjust resources with a reason, the table's story, the dice handed to
// a table device (a link and its QR code), each player's phone (away, and their seat given to another
// phone), the dice seed's hash (and the seed once the game is over), links for the other devices, and
// the report charts from the event stream. A finished game's panel names the winner and opens with
// the report: nothing can change any more (V1), so it has no forms.
import { request, saveTokens, tokensFor } from '../../api.js';
import { html, render, trusted } from '../../html.js';
import { t } from '../../i18n.js';
import { canStart, playerById, resourceIds } from '../../logic/quest1607.js';
import { explain, formatResources, resName } from '../../logic/format.js';
import { tellers } from '../../logic/quest1607_table.js';
import { luckPerPlayer, timeline } from '../../logic/stats.js';
import { story } from '../../logic/story.js';
import { barChart, lineChart } from '../../charts.js';
import { openGame } from '../../session.js';
import { characterStyle, errorText, listen, paintSwatches, swatch, toast } from '../../ui.js';
import { checkedButton, feed, nowStrip, recordNote, stripClick, tapItems } from '../parts.js';
import { undoCheck } from '../../logic/checks.js';
import '../seat_strings.js';

export async function mount(root, { code }) {
  const hostToken = tokensFor(code).host;
  if (!hostToken) {
    render(root, html`<section class="card"><p>${t('not_joined')}</p><a class="button" data-link href="/join/${code}">${t('join')}</a></section>`);
    return {};
  }
  const ui = { player: '', delta: {}, reason: '' };
  let state = null;
  let session;

  function report() {
    const rs = session.ruleset;
    const events = session.log.all();
    const line = timeline(events);
    const luck = luckPerPlayer(events);
    const colour = (pid) => characterStyle(rs, (playerById(state, pid) || {}).character).colour;
    const rounds = line.rounds.map(String);
    const size = { width: 480, height: 280 };
    const res = lineChart({ ...size,
      title: t('res_over_rounds'), x: rounds,
      series: line.players.map((p) => ({ name: p.name, colour: colour(p.id), values: line.resources[p.id] || [] })),
    });
    const levels = lineChart({ ...size,
      title: t('levels_over_rounds'), x: rounds, yLabels: [t('bronze'), t('silver'), t('gold'), t('done')],
      series: line.players.map((p) => ({ name: p.name, colour: colour(p.id), values: line.levels[p.id] || [] })),
    });
    const dice = barChart({ ...size,
      title: t('dice_luck'), reference: 3.5, referenceLabel: `${t('expected')} 3.5`, format: (v) => v.toFixed(2),
      bars: state.players.map((p) => ({ label: `${p.name} (${(luck[p.id] || { dice: 0 }).dice})`, value: (luck[p.id] || { mean: 0 }).mean, colour: colour(p.id) })),
    });
    return html`<section class="card report" id="report"><h2>${state.phase === 'finished' ? t('report') : t('report_so_far')}</h2>${trusted(res)}${trusted(levels)}${trusted(dice)}</section>`;
  }

  function draw() {
    if (!state) return;
    const rs = session.ruleset;
    const ids = resourceIds(rs, state);
    if (!ui.player && state.players.length) ui.player = state.players[0].id;
    const target = playerById(state, ui.player);
    const taps = tapItems(session);
    const over = state.phase === 'finished';
    render(root, html`
      ${taps.length ? nowStrip(html`<strong>${t('host_panel')}</strong>`, taps) : ''}
      <section class="card"><h1>${t('host_panel')} <span class="mono">${code}</span></h1>
        <p>${state.phase === 'lobby' ? t('lobby') : over ? t('finished') : t('round', { n: state.round })}</p>
        ${over ? html`<h2 id="host-winner">${t('winner', { name: (playerById(state, state.winner) || {}).name || '?' })}</h2>
          ${recordNote(code)}` : ''}
        ${taps.length ? '' : html`<waiting-for></waiting-for>`}
        ${state.phase === 'lobby' ? (canStart(state, rs).ok ? html`<button type="button" id="host-start" class="primary wide">${t('start_game')}</button>`
          : html`<button type="button" id="host-start" class="primary wide" disabled aria-describedby="host-start-why">${t('start_game')}</button><p class="why" id="host-start-why">${explain(canStart(state, rs))}</p>`) : ''}
        ${state.phase === 'playing' ? checkedButton(undoCheck(state), 'host-undo', t('undo')) : ''}
        <nav class="links">
          ${state.phase === 'lobby' ? html`<a class="button" data-link href="/join/${code}">${tokensFor(code).player ? t('lobby') : t('join_as_player')}</a>` : ''}
          ${tokensFor(code).player ? html`<a class="button" data-link href="/play/${code}">${t('open_play')}</a>` : ''}
          <a class="button" data-link href="/screen/${code}">${t('open_screen')}</a>
          <a class="button" data-link href="/dice/${code}">${t('open_dice')}</a>
        </nav>
      </section>
      ${over ? report() : ''}
      ${state.phase !== 'lobby' ? feed(story(session.log.all(), tellers, { state, ruleset: rs, events: session.log.all() }, { limit: 6 })) : ''}
      ${state.phase === 'playing' ? diceLink() : ''}
      <section class="card"><h2>${t('players')}</h2><ul class="players">${state.players.map((p) => html`<li class="player-line">${swatch(rs, p.character)} <strong>${p.name}</strong> <span class="muted">${formatResources(p.resources, ', ')}</span></li>`)}</ul></section>
      <seat-handover></seat-handover>
      ${state.players.length && !over ? html`<section class="card"><h2>${t('adjust')}</h2>
        <form id="adjust-form">
          <label>${t('player')} <select id="adjust-player">${state.players.map((p) => html`<option value="${p.id}" ${p.id === ui.player ? html`selected` : ''}>${p.name}</option>`)}</select></label>
          <div class="adjust-grid">${ids.map((id) => html`<label>${resName(id)} <span class="muted">(${target ? target.resources[id] || 0 : 0})</span>
            <input type="number" inputmode="numeric" step="1" id="adjust-${id}" data-res="${id}" value="${ui.delta[id] || 0}"></label>`)}</div>
          <label>${t('reason')} <input id="adjust-reason" required maxlength="200" value="${ui.reason}"></label>
          <button type="submit" class="primary">${t('apply')}</button>
        </form></section>` : ''}
      <section class="card"><h2>${t('seed_hash')}</h2><p class="mono wrap" id="seed-hash">${state.seed_hash || '—'}</p>
        ${state.seed ? html`<h2>${t('seed')}</h2><p class="mono wrap" id="seed">${state.seed}</p>` : ''}</section>
      ${state.phase === 'playing' ? report() : ''}
    `);
    paintSwatches(root);
  }

  /** T1: the dice on a table device, handed over with a link (and its QR code) that the device opens. */
  function diceLink() {
    const link = tokensFor(code).diceLink;
    return html`<section class="card dice-link" aria-labelledby="dice-link-h"><h2 id="dice-link-h">${t('dice_link_h')}</h2>
      ${link ? html`<p>${t('dice_link_help')}</p>
        <figure class="qr"><img src="${link.qr}" alt="${t('dice_link_h')}" width="180" height="180"></figure>
        <p class="mono wrap small"><a id="dice-url" href="${link.url}" target="_blank" rel="noopener">${link.url}</a></p>
        <button type="button" id="dice-copy">${t('copy_link')}</button>`
        : html`<button type="button" id="dice-make" class="primary">${t('dice_link_make')}</button>`}</section>`;
  }

  async function makeDiceLink() {
    try {
      const made = await request('POST', `/api/games/${encodeURIComponent(code)}/dice-device`, { token: hostToken });
      saveTokens(code, { diceLink: { url: made.url, qr: made.qr } });
    } catch (error) { toast(errorText(error), 'error'); }
    draw();
  }

  async function act(action, label) {
    const answer = await session.act(action, label);
    if (answer) toast(t('sent'));
    return answer;
  }

  async function onClick(event) {
    if (stripClick(event, session)) return;
    if (event.target.closest('#dice-make')) { await makeDiceLink(); return; }
    if (event.target.closest('#dice-copy')) {
      try { await navigator.clipboard.writeText(tokensFor(code).diceLink.url); toast(t('copied')); } catch { /* no clipboard: the link is on screen */ }
      return;
    }
    if (event.target.closest('#host-start')) {
      const action = { type: 'start' };
      if (tokensFor(code).randomOrder) action.random_order = true;
      await act(action, t('start_game'));
    } else if (event.target.closest('#host-undo')) {
      await act({ type: 'undo' }, t('undo'));
    }
  }

  async function onSubmit(event) {
    if (event.target.id !== 'adjust-form') return;
    event.preventDefault();
    const resources = {};
    for (const [k, v] of Object.entries(ui.delta)) if (Number(v)) resources[k] = Number(v);
    const answer = await act({ type: 'adjust', player: ui.player, resources, reason: ui.reason }, t('adjust'));
    if (answer) { ui.delta = {}; ui.reason = ''; draw(); }
  }

  function onInput(event) {
    const el = event.target;
    if (el.id === 'adjust-player') { ui.player = el.value; draw(); }
    if (el.dataset.res) ui.delta[el.dataset.res] = Number(el.value) || 0;
    if (el.id === 'adjust-reason') ui.reason = el.value;
  }

  const off = listen(root, { click: onClick, submit: onSubmit, input: onInput, change: onInput });
  session = await openGame(code, hostToken, {
    onState: (s) => { state = s; draw(); },
    onChange: draw,
    history: 'all',
  });

  return { refresh: draw, unmount() { off(); session.close(); } };
}
