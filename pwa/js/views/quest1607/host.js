// The host panel: start, undo, adjust resources with a reason, what just happened (an undo or a
// correction says what it changed), the table's story, the dice handed to a table device (a link and
// its QR code), each player's phone (away, and their seat given to another phone), the dice seed's
// hash (and the seed once the game is over), links for the other devices, and the report charts from
// the event stream. A finished game's panel names the winner and opens with the report: nothing can
// change any more (V1), so it has no forms. A page of parts (../page.js), one per card, each drawn in
// place only when what it reads changed, so a half-typed reason, the focus and the scroll survive an
// update. What just happened (./news.js), the start's check, the report (./host_report.js) and the
// undo's question (../undo_ask.js) are no part of its first draw: they load beside it, import().
import { ApiError, tokensFor } from '../../api.js';
import { html } from '../../html.js';
import { extend, t } from '../../i18n.js';
import { playerById, resourceIds } from '../../logic/quest1607_facts.js';
import { explain, resName, resourceUnits, ruleLinked } from '../../logic/format.js';
import { tellers } from '../../logic/quest1607_table.js';
import { story } from '../../logic/story.js';
import { undoCheck } from '../../logic/checks.js';
import { later } from '../../page.js';
import { errorText, playerWho, toast } from '../../ui.js';
import { feed } from '../common.js';
import { checkedButton, recordNote, tapItems } from '../parts.js';
import { guideCard, hostPanel, hostStrip } from '../host_panel.js';
import '../seat_strings.js';
import { diceLink } from './dice_link.js';

// the correction form's words: the host panel's own
extend({
  en: {
    reason: 'Reason',
    apply: 'Apply',
    adjust_help: 'Add or remove: each number is a change (3 adds three, −2 takes two away), so that the stock matches what lies on the table.',
    adjust_has: 'has {n}',
    adjust_total: '{res}: {now} → {after}',
    adjust_after: 'After: {what}',
    adjust_none: 'Type a change to see the new totals.',
    adjust_below: 'A stock cannot go below zero: {what}.',
  },
  nl: {
    reason: 'Reden',
    apply: 'Toepassen',
    adjust_help: 'Erbij of eraf: elk getal is een verandering (3 legt er drie bij, −2 neemt er twee af), zodat de voorraad klopt met wat op tafel ligt.',
    adjust_has: 'heeft {n}',
    adjust_total: '{res}: {now} → {after}',
    adjust_after: 'Daarna: {what}',
    adjust_none: 'Typ een verandering om de nieuwe totalen te zien.',
    adjust_below: 'Een voorraad kan niet onder nul: {what}.',
  },
});

// What the head needs that loads beside its first draw: what just happened, in the story's words
// (./news.js), and the start's check (the lobby's)
let news = null;
let canStart = null;

/** Say what a change the host made did once it went through (`body`: the answer): its moment, else "sent". */
function told(body, { log, ruleset, live }) {
  if (!body) return;
  // an answer over HTTP may come before its state, and brings it: its events may not be in the story
  // yet; over the socket, the state came first, in the patch the whole table got
  const events = log.latest < body.version ? [...log.all(), ...body.events] : log.all();
  const now = news && news(body.state || live.state, events, ruleset);
  toast(now && now.version === body.version ? now.text : t('sent'));
}

/** The `sent` of the parts that act through page.send. */
function sent(action, body) { told(body, this.page.session); }

/** The first card: the game, its round or its winner, what just happened, start or undo, the links. */
const head = {
  name: 'head',
  coming: true, // until news and canStart have come
  read: ({ state, ruleset, session, events }) => [ruleset, state.phase, state.round, state.winner, state.players, state.can_undo, events, tapItems(session).length > 0],
  view({ state, ruleset, session, events, code }) {
    const over = state.phase === 'finished';
    const start = state.phase === 'lobby' && canStart && canStart(state, ruleset);
    const now = news && news(state, events, ruleset);
    return html`<section class="card" id="host-head"><h1>${t('host_panel')} <span class="mono">${code}</span></h1>
      <p>${state.phase === 'lobby' ? t('lobby') : over ? t('finished') : t('round', { n: state.round })}</p>
      ${over ? html`<h2 id="host-winner">${t('winner', { name: (playerById(state, state.winner) || {}).name || '?' })}</h2>${recordNote(code)}` : ''}
      ${now && !over ? html`<p class="host-moment" id="host-moment">${t('host_moment', { what: now.text })}</p>` : ''}
      ${tapItems(session).length ? '' : html`<waiting-for></waiting-for>`}
      ${start ? (start.ok ? html`<button type="button" id="host-start" class="primary wide">${t('start_game')}</button>`
        : html`<button type="button" id="host-start" class="primary wide" disabled aria-describedby="host-start-why">${t('start_game')}</button><p class="why" id="host-start-why">${ruleLinked(explain(start))}</p>`) : ''}
      ${state.phase === 'playing' ? checkedButton(undoCheck(state), 'host-undo', t('undo')) : ''}
      <nav class="links">
        ${state.phase === 'lobby' ? html`<a class="button" data-link href="/join/${code}">${tokensFor(code).player ? t('lobby') : t('join_as_player')}</a>` : ''}
        ${tokensFor(code).player ? html`<a class="button" data-link href="/play/${code}">${t('open_play')}</a>` : ''}
        <a class="button" data-link href="/screen/${code}">${t('open_screen')}</a>
      </nav></section>`;
  },
  on: {
    /** Start goes at once; an undo after the host's yes to the question (../undo_ask.js). */
    click(event, ctx) {
      const el = event.target.closest('#host-start, #host-undo');
      if (!el || el.disabled) return null;
      if (el.id === 'host-start') return { action: { type: 'start', ...(tokensFor(ctx.code).randomOrder ? { random_order: true } : {}) }, label: t('start_game') };
      import('../undo_ask.js').then((m) => m.askUndo(ctx, tellers))
        .then((undo) => undo && this.page.send(this, { action: undo, label: t('undo') }, el));
      return null;
    },
  },
  sent,
};
Promise.all([import('./news.js'), import('../../logic/quest1607_now.js')]).then(([m, now]) => {
  news = m.news;
  canStart = now.canStart;
}).finally(() => {
  head.coming = false;
  if (head.page) head.page.schedule(head);
});

const feedCard = {
  name: 'feed',
  read: ({ state, events }) => [state.phase, state.players, events],
  view: (ctx) => (ctx.state.phase !== 'lobby' ? feed(story(ctx.events, tellers, ctx, { limit: 6 })) : ''),
};

const playersCard = {
  name: 'players',
  read: ({ state, ruleset }) => [ruleset, state.players],
  view: ({ state, ruleset }) => html`<section class="card" id="host-players"><h2>${t('players')}</h2><ul class="players">${state.players.map((p) => html`<li class="player-line" data-key="${p.id}">
    ${playerWho(ruleset, p)} <span class="muted stock">${resourceUnits(p.resources, ', ')}</span></li>`)}</ul></section>`,
};

/** Each player's phone: the element draws itself (../seats.js). */
const seats = { name: 'seats', read: () => [], view: () => html`<seat-handover></seat-handover>` };

const seedCard = {
  name: 'seed',
  read: ({ state }) => [state.seed_hash, state.seed],
  view: ({ state }) => html`<section class="card" id="host-seed"><h2>${t('seed_hash')}</h2><p class="mono wrap" id="seed-hash">${state.seed_hash || '—'}</p>
    ${state.seed ? html`<h2>${t('seed')}</h2><p class="mono wrap" id="seed">${state.seed}</p>` : ''}</section>`,
};

/** A count as the table says it, with a real minus sign. */
const signed = (n) => (n < 0 ? `−${-n}` : String(n));

/**
 * The host's correction of one player's stock, with a reason: each number is a change, added to what
 * the player holds (the rule corrects the stock to what lies on the table). As the host types, the
 * form shows the totals it will leave ("Wood: 1 → 3"); a total below zero, or the server's refusal,
 * is told beside the form, and nothing is sent until it is right.
 */
class AdjustForm {
  constructor() {
    Object.assign(this, { name: 'adjust', player: '', delta: {}, reason: '', refused: '' });
    this.on = { input: this.typed, change: this.typed, submit: this.send };
  }

  read({ state, ruleset }) { return [ruleset, state.phase, state.players]; }

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

  view({ state, ruleset }) {
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

  /** What the host typed or picked: another player or a count draws the form again (its totals, its Apply). */
  typed(event) {
    const el = event.target;
    if (el.id === 'adjust-player') { this.player = el.value; this.delta = {}; this.refused = ''; return true; }
    if (el.dataset.res) { this.delta[el.dataset.res] = Math.trunc(Number(el.value)) || 0; this.refused = ''; return true; }
    if (el.id === 'adjust-reason') this.reason = el.value;
    return null;
  }

  /**
   * Send the correction through the outbox itself, not page.send: a refusal's words (which
   * page.send does not hear) stay beside the form, with what the host typed.
   */
  send(event, { session }) {
    const form = event.target;
    if (form.id !== 'adjust-form') return null;
    session.outbox.push(this.action(), t('adjust'), ({ status, body }) => {
      if (status < 400) {
        this.clear(form);
        told(body, session);
      } else this.refused = errorText(new ApiError(status, body));
      this.page.schedule(this);
    });
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
    for (const input of form.querySelectorAll('input')) input.value = ''; // the focused one too
  }
}

export function mount(root, { code, navigate }) {
  // the report: at the top once the game is over, at the bottom while it runs
  const report = (phase) => later(() => import('./host_report.js').then((m) => m.reportCard(phase)));
  return hostPanel(root, [hostStrip, head, guideCard({ sent }), report('finished'), feedCard, diceLink(), playersCard, seats,
    new AdjustForm(), seedCard, report('playing')], { code, navigate });
}

