// Voyagers' Venture on a player's phone: at the top the strip of what needs this player now (agree or
// disagree right there) and the table's story, then naming a bid, the three cuts (each checked here
// with its VV rule; the server has the last word), the private hand with the discard down to 8, and
// the reputation entry at the end. Every tap goes through the session's outbox.
import { tokensFor } from '../../api.js';
import { html, render } from '../../html.js';
import { t } from '../../i18n.js';
import * as V from '../../logic/voyagers.js';
import { checksFor, nowItems, tellers } from '../../logic/voyagers_table.js';
import { story } from '../../logic/story.js';
import { openGame } from '../../session.js';
import { listen, paintSwatches, swatch } from '../../ui.js';
import { checkedButton, feed, nowStrip, stripClick, tapItems } from '../parts.js';
import { bidPanel, displayCards, playersList, rankingTable } from './parts.js';

const FEED_LINES = 4;
const SCORE_NUMBERS = ['tips', 'ships', 'nobles', 'ship_count', 'gold', 'smuggled', 'resources'];
const SCORE_LABELS = { tips: 'vv_tips', ships: 'vv_ships', nobles: 'vv_nobles', ship_count: 'vv_ship_count', gold: 'vv_score_gold', smuggled: 'vv_smuggled', resources: 'vv_resources' };

export async function mount(root, { code, navigate }) {
  const mine = tokensFor(code);
  if (!mine.player) { navigate(`/join/${code}`, { replace: true }); return {}; }
  const me = mine.player.id;
  const ui = { named: new Set(), hand: new Set(), cut: { kind: '', card: '', cards: new Set(), add: '' },
    score: { tips: 0, ships: 0, nobles: 0, ship_count: 0, gold: 0, smuggled: 0, resources: 0, fastest_fleet: false, lowest_ship_card: '' } };
  let state = null;
  let session;
  const rs = () => session.ruleset;

  function cutAction() {
    const c = ui.cut;
    if (c.kind === 'doubloon') return { kind: 'doubloon', card: c.card };
    if (c.kind === 'remove') return { kind: 'remove', cards: [...c.cards] };
    if (c.kind === 'swap') return { kind: 'swap', remove: [...c.cards], add: c.add };
    return { kind: '' };
  }

  function nameCard() {
    if (state.stage !== 'naming' || state.waiting_for !== me) return '';
    const check = V.nameCheck(state, rs(), me, [...ui.named]);
    return html`<section class="card vv-name"><h2 id="vv-name-h" tabindex="-1">${t('vv_name_h')}</h2><p class="muted">${t('vv_name_help')}</p>
      ${displayCards(state, { pick: { prefix: 'name', selected: ui.named } })}
      ${checkedButton(check, 'name-send', t('vv_name_send'), { cls: 'primary wide' })}</section>`;
  }

  function cutCard() {
    if (state.stage !== 'cutting' || state.bid.cutter !== me) return '';
    const c = ui.cut;
    const outside = V.outsideBid(state);
    const inBid = state.display.filter((card) => state.bid.cards.includes(card.id));
    const action = cutAction();
    const check = V.cutCheck(state, rs(), me, action);
    const result = c.kind ? V.afterCut(state, action).map((id) => (state.display.find((d) => d.id === id) || { name: id }).name || id) : [];
    const kinds = [['doubloon', 'vv_cut_doubloon'], ['remove', 'vv_cut_remove'], ['swap', 'vv_cut_swap']];
    return html`<section class="card vv-cut"><h2 id="vv-cut-h" tabindex="-1">${t('vv_cut_h')}</h2><p class="muted">${t('vv_cut_help')}</p>
      <fieldset><legend>${t('vv_r_pick_kind')}</legend>${kinds.map(([k, label]) => html`<label class="check"><input type="radio" name="cut-kind" id="cut-${k}" value="${k}" ${c.kind === k ? html`checked` : ''}> ${t(label)}</label>`)}</fieldset>
      ${c.kind === 'doubloon' ? html`<label>${t('vv_cut_card')}<select id="cut-card"><option value="">—</option>${outside.map((d) => html`<option value="${d.id}" ${c.card === d.id ? html`selected` : ''}>${d.name || d.id}</option>`)}</select></label>` : ''}
      ${c.kind === 'remove' || c.kind === 'swap' ? displayCards(state, { cards: inBid, pick: { prefix: 'cutrm', selected: c.cards } }) : ''}
      ${c.kind === 'swap' ? html`<label>${t('vv_cut_add')}<select id="cut-add"><option value="">—</option>${outside.map((d) => html`<option value="${d.id}" ${c.add === d.id ? html`selected` : ''}>${d.name || d.id}</option>`)}</select></label>` : ''}
      ${c.kind && check.ok ? html`<p>${t('vv_cut_result', { cards: result.join(', ') })}</p>` : ''}
      ${checkedButton(check, 'cut-send', t('vv_cut_send'), { cls: 'primary wide' })}</section>`;
  }

  function handCard(player) {
    const hand = player.hand || [];
    const excess = V.overLimit(rs(), player);
    const chosen = [...ui.hand];
    const discarding = state.stage === 'discarding' && excess > 0;
    const playable = state.phase === 'playing' && state.stage !== 'scoring';
    return html`<section class="card vv-hand"><h2 id="vv-hand-h" tabindex="-1">${t('vv_hand_h')} · ${t('vv_hand_count', { n: hand.length })}</h2>
      ${discarding ? html`<p class="why">VV12 · ${t('vv_discard_help', { n: hand.length, m: excess, limit: V.handLimit(rs()) })}</p>` : ''}
      ${hand.length ? displayCards(state, { cards: hand, pick: playable ? { prefix: 'hand', selected: ui.hand } : null }) : html`<p class="muted">${t('vv_hand_empty')}</p>`}
      ${discarding ? checkedButton(V.discardCheck(state, rs(), me, chosen), 'discard-send', t('vv_discard_send'), { cls: 'primary' }) : ''}
      ${playable && hand.length ? checkedButton(V.playCheck(state, me, chosen), 'play-send', t('vv_play_send'), { cls: 'ghost' }) : ''}
    </section>`;
  }

  function scoreCard(player) {
    if (state.stage !== 'scoring') return '';
    const s = ui.score;
    const entry = { ...s, lowest_ship_card: s.lowest_ship_card === '' ? null : Number(s.lowest_ship_card) };
    const { total } = V.reputationParts(rs(), entry);
    return html`<section class="card vv-score"><h2 id="vv-score-h" tabindex="-1">${t('vv_score_h')}</h2>
      ${player.score ? html`<p class="own-bid">✓ ${t('vv_scored')} · ${t('vv_score_total', { n: player.score.reputation })}</p>` : ''}
      <form id="score-form" class="two-col">${SCORE_NUMBERS.map((k) => html`<label>${t(SCORE_LABELS[k])}<input type="number" min="0" inputmode="numeric" id="score-${k}" data-score="${k}" value="${s[k]}"></label>`)}
        <label>${t('vv_lowest')}<input type="number" min="1" inputmode="numeric" id="score-lowest" value="${s.lowest_ship_card}"></label>
        <label class="check"><input type="checkbox" id="score-fastest" ${s.fastest_fleet ? html`checked` : ''}> ${t('vv_fastest_fleet')}</label></form>
      <p class="vv-total" aria-live="polite"><strong>${t('vv_score_total', { n: total })}</strong></p>
      ${checkedButton(V.scoreCheck(state, me, entry), 'score-send', t('vv_score_send'), { cls: 'primary wide' })}</section>`;
  }

  function draw() {
    if (!state) return;
    const player = V.playerById(state, me);
    if (state.phase === 'lobby') { navigate(`/join/${code}`, { replace: true }); return; }
    if (!player) { render(root, html`<section class="card"><p>${t('not_joined')}</p></section>`); return; }
    const hand = new Set((player.hand || []).map((c) => c.id));
    ui.hand = new Set([...ui.hand].filter((id) => hand.has(id)));
    const shown = new Set(state.display.map((c) => c.id));
    ui.named = new Set([...ui.named].filter((id) => shown.has(id)));
    const ctx = { state, ruleset: rs(), events: session.log.all() };
    // the display, unless the naming card shows it with its tick boxes, or nothing is on it for good
    const showDisplay = !(state.stage === 'naming' && state.waiting_for === me)
      && (state.display.length > 0 || state.stage === 'display');
    const who = html`${swatch(rs(), player.character)} <strong class="me-name">${player.name}</strong>
      <span class="tag">${t('vv_gold')} ${player.gold}</span>
      ${state.phase === 'playing' && state.round ? html`<span class="muted">${t('vv_year_short', { year: state.year, n: state.round, of: state.rounds })}</span>` : ''}`;
    const items = nowItems(state, rs(), me, checksFor(state, rs(), me));
    const queued = new Set(session.outbox.pending.map((e) => JSON.stringify(e.action)));
    for (const b of items.flatMap((i) => i.buttons)) {
      const action = b.act && actionFor({ dataset: { act: b.act, ...(b.data || {}) } });
      if (action && queued.has(JSON.stringify(action))) b.waiting = true;
    }
    render(root, html`
      ${nowStrip(who, [...tapItems(session), ...items])}
      ${feed(story(ctx.events, tellers, ctx, { limit: FEED_LINES }))}
      ${nameCard()}${cutCard()}${scoreCard(player)}${rankingTable(state, rs())}
      ${showDisplay ? html`<section class="card"><h2>${t('vv_display')}</h2>${displayCards(state)}</section>` : ''}
      ${bidPanel(state, rs())}
      ${handCard(player)}
      ${playersList(state, rs())}
      ${state.phase === 'playing' ? html`<seat-move></seat-move>` : ''}`);
    paintSwatches(root);
  }

  /** The action a button stands for (a strip button by its data-act, a card's button by its id). */
  function actionFor(el) {
    const d = el.dataset || {};
    switch (d.act || el.id) {
      case 'agree': return { type: 'agree' };
      case 'disagree': return { type: 'disagree' };
      case 'name_empty': return { type: 'name_bid', cards: [] };
      case 'name-send': return { type: 'name_bid', cards: state.display.map((c) => c.id).filter((id) => ui.named.has(id)) };
      case 'cut-send': return { type: 'cut', ...cutAction() };
      case 'discard-send': return { type: 'discard', cards: [...ui.hand] };
      case 'play-send': return { type: 'play_cards', cards: [...ui.hand] };
      case 'score-send': {
        const s = ui.score;
        return { type: 'score', player: me, ...Object.fromEntries(SCORE_NUMBERS.map((k) => [k, s[k]])),
          fastest_fleet: s.fastest_fleet, lowest_ship_card: s.ship_count > 0 ? Number(s.lowest_ship_card) : null };
      }
      default: return null;
    }
  }

  /** What a tap is called while it waits for the network: the button, and whose bid a vote is on. */
  function labelOf(action, el) {
    const label = el.textContent.trim().replace(/\s+/g, ' ');
    if ((action.type === 'agree' || action.type === 'disagree') && state.bid) return t('vv_label_bid', { label, name: V.nameOf(state, state.bid.bidder) });
    return label;
  }

  async function onClick(event) {
    if (stripClick(event, session)) return;
    const el = event.target.closest('button');
    if (!el || el.disabled) return;
    const action = actionFor(el);
    if (!action) return;
    el.disabled = true;
    const answer = await session.act(action, labelOf(action, el));
    if (answer) {
      if (action.type === 'name_bid') ui.named.clear();
      if (action.type === 'cut') ui.cut = { kind: '', card: '', cards: new Set(), add: '' };
      if (action.type === 'discard' || action.type === 'play_cards') ui.hand.clear();
    }
    draw();
  }

  function toggle(set, id, on) { if (on) set.add(id); else set.delete(id); }

  function onInput(event) {
    const el = event.target;
    if (el.dataset.name) { toggle(ui.named, el.dataset.name, el.checked); draw(); }
    if (el.dataset.hand) { toggle(ui.hand, el.dataset.hand, el.checked); draw(); }
    if (el.dataset.cutrm) { toggle(ui.cut.cards, el.dataset.cutrm, el.checked); draw(); }
    if (el.name === 'cut-kind') { ui.cut = { kind: el.value, card: '', cards: new Set(), add: '' }; draw(); }
    if (el.id === 'cut-card') { ui.cut.card = el.value; draw(); }
    if (el.id === 'cut-add') { ui.cut.add = el.value; draw(); }
    if (el.dataset.score) { ui.score[el.dataset.score] = Math.max(0, Math.floor(Number(el.value) || 0)); redrawSoon(); }
    if (el.id === 'score-lowest') { ui.score.lowest_ship_card = el.value; redrawSoon(); }
    if (el.id === 'score-fastest') { ui.score.fastest_fleet = el.checked; draw(); }
  }

  let pending = 0;
  function redrawSoon() { clearTimeout(pending); pending = setTimeout(draw, 150); }

  const off = listen(root, { click: onClick, change: onInput, input: (e) => { if (e.target.type === 'number') onInput(e); },
    submit: (e) => e.preventDefault() });
  session = await openGame(code, mine.player.token, { onState: (s) => { state = s; draw(); }, onChange: draw });
  return { refresh: draw, unmount() { off(); clearTimeout(pending); session.close(); } };
}
