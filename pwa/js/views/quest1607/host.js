// The host panel: start, undo, adjust resources with a reason, what just happened (an undo or a
// correction says what it changed), the table's story, the dice handed to a table device (a link and
// its QR code), each player's phone (away, and their seat given to another phone), the dice seed's
// hash (and the seed once the game is over), links for the other devices, and the report charts from
// the event stream. A finished game's panel names the winner and opens with the report: nothing can
// change any more (V1), so it has no forms. It draws in place (morph), one component per card, so a
// half-typed reason, the focus and the scroll survive an update. What just happened (./news.js) and
// the undo's question (../undo_ask.js) are no part of its first draw: they load beside it, import().
import { ApiError, request, saveTokens, tokensFor } from '../../api.js';
import { html } from '../../html.js';
import { t } from '../../i18n.js';
import { morph } from '../../morph.js';
import { canStart } from '../../logic/quest1607_now.js';
import { playerById, resourceIds } from '../../logic/quest1607_facts.js';
import { explain, formatResources, resName, ruleLinked } from '../../logic/format.js';
import { tellers } from '../../logic/quest1607_table.js';
import { story } from '../../logic/story.js';
import { undoCheck } from '../../logic/checks.js';
import { openGame } from '../../session.js';
import { errorText, listen, paintSwatches, swatch, toast } from '../../ui.js';
import { feed, sheet } from '../common.js';
import { checkedButton, nowStrip, recordNote, stripClick, tapItems } from '../parts.js';
import '../seat_strings.js';

/** The first card: the game, its round or its winner, what just happened, start or undo, the links. */
function headCard({ state, ruleset, code, taps, now }) {
  const over = state.phase === 'finished';
  const start = state.phase === 'lobby' && canStart(state, ruleset);
  return html`<section class="card" id="host-head"><h1>${t('host_panel')} <span class="mono">${code}</span></h1>
    <p>${state.phase === 'lobby' ? t('lobby') : over ? t('finished') : t('round', { n: state.round })}</p>
    ${over ? html`<h2 id="host-winner">${t('winner', { name: (playerById(state, state.winner) || {}).name || '?' })}</h2>${recordNote(code)}` : ''}
    ${now && !over ? html`<p class="host-moment" id="host-moment">${t('host_moment', { what: now.text })}</p>` : ''}
    ${taps.length ? '' : html`<waiting-for></waiting-for>`}
    ${start ? (start.ok ? html`<button type="button" id="host-start" class="primary wide">${t('start_game')}</button>`
      : html`<button type="button" id="host-start" class="primary wide" disabled aria-describedby="host-start-why">${t('start_game')}</button><p class="why" id="host-start-why">${ruleLinked(explain(start))}</p>`) : ''}
    ${state.phase === 'playing' ? checkedButton(undoCheck(state), 'host-undo', t('undo')) : ''}
    <nav class="links">
      ${state.phase === 'lobby' ? html`<a class="button" data-link href="/join/${code}">${tokensFor(code).player ? t('lobby') : t('join_as_player')}</a>` : ''}
      ${tokensFor(code).player ? html`<a class="button" data-link href="/play/${code}">${t('open_play')}</a>` : ''}
      <a class="button" data-link href="/screen/${code}">${t('open_screen')}</a>
      <a class="button" data-link href="/dice/${code}">${t('open_dice')}</a>
    </nav></section>`;
}

/** T1: the dice on a table device, handed over with a link (and its QR code) that the device opens. */
function diceLink({ code }) {
  const link = tokensFor(code).diceLink;
  return html`<section class="card dice-link" id="dice-link" aria-labelledby="dice-link-h"><h2 id="dice-link-h">${t('dice_link_h')}</h2>
    ${link ? html`<p>${t('dice_link_help')}</p>
      <figure class="qr"><img src="${link.qr}" alt="${t('dice_link_h')}" width="180" height="180"></figure>
      <p class="mono wrap small"><a id="dice-url" class="link-target" href="${link.url}" target="_blank" rel="noopener">${link.url}</a></p>
      <button type="button" id="dice-copy">${t('copy_link')}</button>`
      : html`<button type="button" id="dice-make" class="primary">${t('dice_link_make')}</button>`}</section>`;
}

function playersCard({ state, ruleset }) {
  return html`<section class="card" id="host-players"><h2>${t('players')}</h2><ul class="players">${state.players.map((p) => html`<li class="player-line" data-key="${p.id}">
    ${swatch(ruleset, p.character)} <strong>${p.name}</strong> <span class="muted">${formatResources(p.resources, ', ')}</span></li>`)}</ul></section>`;
}

function seedCard({ state }) {
  return html`<section class="card" id="host-seed"><h2>${t('seed_hash')}</h2><p class="mono wrap" id="seed-hash">${state.seed_hash || '—'}</p>
    ${state.seed ? html`<h2>${t('seed')}</h2><p class="mono wrap" id="seed">${state.seed}</p>` : ''}</section>`;
}

/** A count as the table says it, with a real minus sign. */
const signed = (n) => (n < 0 ? `−${-n}` : String(n));

/**
 * The host's correction of one player's stock, with a reason: each number is a change, added to what
 * the player holds (the rule corrects the stock to what lies on the table). As the host types, the
 * form shows the totals it will leave ("Wood: 1 → 3"); a total below zero, or the server's refusal,
 * is told beside the form, and nothing is sent until it is right.
 */
class AdjustForm {
  constructor() { this.player = ''; this.delta = {}; this.reason = ''; this.refused = ''; }

  /** The resources this player can hold: the basic ones, their own land's, and any they hold now. */
  resources(ruleset, player) {
    const basic = (ruleset.resources || []).filter((r) => typeof r === 'string' || !r.land).map((r) => (typeof r === 'string' ? r : r.id));
    return resourceIds(ruleset).filter((id) => basic.includes(id) || id === player.land_resource || (player.resources[id] || 0) > 0);
  }

  /** Each changed resource's total now and after the change: [[id, now, after]]. */
  totals(state) {
    const have = (playerById(state, this.player) || { resources: {} }).resources;
    return Object.entries(this.delta).filter(([, n]) => n).map(([id, n]) => [id, have[id] || 0, (have[id] || 0) + n]);
  }

  /** The totals it will leave, what is wrong with them (or the server's refusal), and Apply. */
  after(state) {
    const totals = this.totals(state);
    const line = (rows) => rows.map(([id, now, after]) => t('adjust_total', { res: resName(id), now, after: signed(after) })).join(' · ');
    const below = totals.filter(([, , after]) => after < 0);
    const why = below.length ? t('adjust_below', { what: line(below) }) : this.refused;
    return html`<p id="adjust-totals">${totals.length ? t('adjust_after', { what: line(totals) }) : t('adjust_none')}</p>
      ${why ? html`<p class="why" id="adjust-why" role="alert">${ruleLinked(why)}</p>` : ''}
      <button type="submit" class="primary" ${below.length || !totals.length ? html`disabled aria-describedby="adjust-why adjust-totals"` : ''}>${t('apply')}</button>`;
  }

  markup({ state, ruleset }) {
    if (!state.players.length || state.phase === 'finished') return '';
    if (!playerById(state, this.player)) this.player = state.players[0].id;
    const target = playerById(state, this.player);
    return html`<section class="card" id="host-adjust"><h2>${t('adjust')}</h2><p class="muted" id="adjust-help">${t('adjust_help')}</p><form id="adjust-form">
      <label>${t('player')} <select id="adjust-player">${state.players.map((p) => html`<option value="${p.id}" ${p.id === this.player ? html`selected` : ''}>${p.name}</option>`)}</select></label>
      <div class="adjust-grid">${this.resources(ruleset, target).map((id) => html`<label data-key="adjust-${id}">${resName(id)} <span class="muted">(${t('adjust_has', { n: target.resources[id] || 0 })})</span>
        <input type="number" inputmode="numeric" step="1" id="adjust-${id}" data-res="${id}" placeholder="±0" value="${this.delta[id] || ''}"></label>`)}</div>
      <label>${t('reason')} <input id="adjust-reason" required maxlength="200" value="${this.reason}"></label>
      <div id="adjust-after" aria-live="polite">${this.after(state)}</div></form></section>`;
  }

  /**
   * What the host typed or picked: 'form' when the form must be drawn again (another player),
   * 'after' when only its totals and its Apply change, else null.
   */
  input(el) {
    if (el.id === 'adjust-player') { this.player = el.value; this.delta = {}; this.refused = ''; return 'form'; }
    if (el.dataset.res) { this.delta[el.dataset.res] = Math.trunc(Number(el.value)) || 0; this.refused = ''; return 'after'; }
    if (el.id === 'adjust-reason') this.reason = el.value;
    return null;
  }

  action() {
    const resources = Object.fromEntries(Object.entries(this.delta).filter(([, v]) => v));
    return { type: 'adjust', player: this.player, resources, reason: this.reason };
  }

  clear(form) {
    this.delta = {};
    this.reason = '';
    this.refused = '';
    form.reset();
  }
}

export async function mount(root, { code }) {
  const styled = sheet('/css/phone.css'); // the strip and the forms: a phone's sheet (views/phone_cards.js)
  const hostToken = tokensFor(code).host;
  if (!hostToken) {
    morph(root, html`<section class="card"><p>${t('not_joined')}</p><a class="button" data-link href="/join/${code}">${t('join')}</a></section>`);
    return {};
  }
  const adjust = new AdjustForm();
  let report = () => ''; // the report's charts, once host_report.js has come (they are below the first screenful)
  let guide = null; // the first evening's checklist (../guide.js), once it has come
  let news = () => null; // what just happened, in the story's words (./news.js), once it has come
  let coming = 3; // news, report and guide: the page is busy until each has come and drawn it again
  let state = null;
  let session;

  function draw() {
    if (!state) return;
    const view = { state, ruleset: session.ruleset, events: session.log.all(), code, taps: tapItems(session) };
    view.now = news(state, view.events, view.ruleset);
    const over = state.phase === 'finished';
    morph(root, html`
      ${view.taps.length ? nowStrip(html`<strong>${t('host_panel')}</strong>`, view.taps) : ''}
      ${headCard(view)}
      ${guide ? guide.hostChecklist(state, session.ruleset) : ''}
      ${over ? report(view) : ''}
      ${state.phase !== 'lobby' ? feed(story(view.events, tellers, view, { limit: 6 })) : ''}
      ${state.phase === 'playing' ? diceLink(view) : ''}
      ${playersCard(view)}
      <seat-handover></seat-handover>
      ${adjust.markup(view)}
      ${seedCard(view)}
      ${state.phase === 'playing' ? report(view) : ''}`);
    root.setAttribute('aria-busy', String(coming > 0));
    paintSwatches(root);
    // the elements that draw themselves (views/seats.js) stay in place: they draw this state too
    root.querySelectorAll('waiting-for, away-mark, seat-handover').forEach((el) => el.update && el.update());
  }

  async function makeDiceLink() {
    try {
      const made = await request('POST', `/api/games/${encodeURIComponent(code)}/dice-device`, { token: hostToken });
      saveTokens(code, { diceLink: { url: made.url, qr: made.qr } });
    } catch (error) { toast(errorText(error), 'error'); }
    draw();
  }

  /** An undo or a correction that went through says what it changed (the moment it made). */
  function done(version) {
    const now = news(state, session.log.all(), session.ruleset);
    toast(now && now.version === version ? now.text : t('sent'));
  }

  async function act(action, label) {
    const answer = await session.act(action, label);
    if (answer) done(answer.version);
    return answer;
  }

  async function onClick(event) {
    if (stripClick(event, session)) return;
    const ticked = guide && guide.guideAction(event);
    if (ticked) { await act(ticked.action, ticked.label); return; }
    if (event.target.closest('#dice-make')) { await makeDiceLink(); return; }
    if (event.target.closest('#dice-copy')) {
      try { await navigator.clipboard.writeText(tokensFor(code).diceLink.url); toast(t('copied')); } catch { /* no clipboard: the link is on screen */ }
      return;
    }
    if (event.target.closest('#host-start')) {
      await act({ type: 'start', ...(tokensFor(code).randomOrder ? { random_order: true } : {}) }, t('start_game'));
    } else if (event.target.closest('#host-undo')) {
      const { askUndo } = await import('../undo_ask.js');
      const undo = await askUndo({ state, ruleset: session.ruleset, events: session.log.all(), code }, tellers);
      if (undo) await act(undo, t('undo'));
    }
  }

  /** Send the correction; a refusal stays beside the form, with what the host typed. */
  async function onSubmit(event) {
    if (event.target.id !== 'adjust-form') return;
    event.preventDefault();
    const answer = await session.outbox.push(adjust.action(), t('adjust'));
    if (answer.status < 400) {
      adjust.clear(event.target);
      done(answer.body.version);
    } else adjust.refused = errorText(new ApiError(answer.status, answer.body));
    draw();
  }

  /** A keystroke redraws only the form's totals and its Apply; another player, the whole page. */
  function onInput(event) {
    const changed = adjust.input(event.target);
    const after = root.querySelector('#adjust-after');
    if (changed === 'form' || (changed && !after)) draw();
    else if (changed) morph(after, adjust.after(state));
  }

  const came = () => { coming -= 1; draw(); };
  import('./news.js').then((m) => { news = m.news; }).finally(came);
  import('./host_report.js').then((m) => { report = m.report; }).finally(came);
  import('../guide.js').then((m) => m.ready.then(() => { guide = m; })).finally(came);
  const off = listen(root, { click: onClick, submit: onSubmit, input: onInput, change: onInput });
  await styled;
  session = await openGame(code, hostToken, {
    onState: (s) => { state = s; draw(); },
    onChange: draw,
    history: 'all',
  });
  return { refresh: draw, unmount() { off(); root.removeAttribute('aria-busy'); session.close(); } };
}
