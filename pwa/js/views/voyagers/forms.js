// Voyagers' Venture's forms on a player's phone, one card each with its own state (what the player
// ticks or types): naming a bid (VV3), the three cuts (VV6–VV9), the hand with the discard down to 8
// (VV12) and cards spent on the table (VV20), the reputation entry (VV15–VV19). Each checks its
// button with the rule the server will apply (logic/voyagers.js); the server has the last word.
import { html } from '../../html.js';
import { t } from '../../i18n.js';
import { ruleLink } from '../../logic/format.js';
import * as V from '../../logic/voyagers.js';
import { labelOf } from '../phone_cards.js';
import { checkedButton } from '../parts.js';
import { sheet } from '../common.js';
import './form_strings.js';
import { displayCards } from './parts.js';

await sheet('/css/forms.css');

const SCORE_NUMBERS = ['tips', 'ships', 'nobles', 'ship_count', 'gold', 'smuggled', 'resources'];
const SCORE_LABELS = { tips: 'vv_tips', ships: 'vv_ships', nobles: 'vv_nobles', ship_count: 'vv_ship_count', gold: 'vv_score_gold', smuggled: 'vv_smuggled', resources: 'vv_resources' };

/** A tap on this card's button `id`, unless it is refused. */
const tapped = (event, id) => {
  const el = event.target.closest(`#${id}`);
  return el && !el.disabled ? el : null;
};

/** Tick or untick `id` in `set`; keep only what `ids` still holds. */
function tick(set, id, on) { if (on) set.add(id); else set.delete(id); }
const keepOnly = (set, ids) => new Set([...set].filter((id) => ids.has(id)));

export class NameCard {
  constructor() {
    this.named = new Set();
    this.on = { change: this.ticked, click: this.click };
  }

  view({ state, ruleset, me }) {
    this.named = keepOnly(this.named, new Set(state.display.map((c) => c.id)));
    if (state.stage !== 'naming' || state.waiting_for !== me) return '';
    return html`<section class="card vv-name" id="vv-name"><h2 id="vv-name-h" tabindex="-1">${t('vv_name_h')}</h2><p class="muted">${t('vv_name_help')}</p>
      ${displayCards(state, { pick: { prefix: 'name', selected: this.named } })}
      ${checkedButton(V.nameCheck(state, ruleset, me, [...this.named]), 'name-send', t('vv_name_send'), { cls: 'primary wide' })}</section>`;
  }

  ticked(event) {
    if (!event.target.dataset.name) return null;
    tick(this.named, event.target.dataset.name, event.target.checked);
    return true;
  }

  click(event, { state }) {
    const el = tapped(event, 'name-send');
    return el ? { action: { type: 'name_bid', cards: state.display.map((c) => c.id).filter((id) => this.named.has(id)) }, label: labelOf(el) } : null;
  }

  sent(action, answer) { if (answer) this.named.clear(); }
}

const KINDS = [['doubloon', 'vv_cut_doubloon'], ['remove', 'vv_cut_remove'], ['swap', 'vv_cut_swap']];

export class CutCard {
  constructor() {
    this.reset();
    this.on = { change: this.chose, click: this.click };
  }

  reset() { Object.assign(this, { kind: '', card: '', cards: new Set(), add: '' }); }

  action() {
    if (this.kind === 'doubloon') return { kind: 'doubloon', card: this.card };
    if (this.kind === 'remove') return { kind: 'remove', cards: [...this.cards] };
    if (this.kind === 'swap') return { kind: 'swap', remove: [...this.cards], add: this.add };
    return { kind: '' };
  }

  view({ state, ruleset, me }) {
    if (state.stage !== 'cutting' || state.bid.cutter !== me) return '';
    const outside = V.outsideBid(state);
    const inBid = state.display.filter((card) => state.bid.cards.includes(card.id));
    const check = V.cutCheck(state, ruleset, me, this.action());
    const result = this.kind ? V.afterCut(state, this.action()).map((id) => (state.display.find((d) => d.id === id) || { name: id }).name || id) : [];
    const choose = (id, chosen) => html`<select id="${id}"><option value="">—</option>${outside.map((d) => html`<option value="${d.id}" ${chosen === d.id ? html`selected` : ''}>${d.name || d.id}</option>`)}</select>`;
    return html`<section class="card vv-cut" id="vv-cut"><h2 id="vv-cut-h" tabindex="-1">${t('vv_cut_h')}</h2><p class="muted">${t('vv_cut_help')}</p>
      <fieldset><legend>${t('vv_r_pick_kind')}</legend>${KINDS.map(([k, label]) => html`<label class="check"><input type="radio" name="cut-kind" id="cut-${k}" value="${k}" ${this.kind === k ? html`checked` : ''}> ${t(label)}</label>`)}</fieldset>
      ${this.kind === 'doubloon' ? html`<label>${t('vv_cut_card')}${choose('cut-card', this.card)}</label>` : ''}
      ${this.kind === 'remove' || this.kind === 'swap' ? displayCards(state, { cards: inBid, pick: { prefix: 'cutrm', selected: this.cards } }) : ''}
      ${this.kind === 'swap' ? html`<label>${t('vv_cut_add')}${choose('cut-add', this.add)}</label>` : ''}
      ${this.kind && check.ok ? html`<p>${t('vv_cut_result', { cards: result.join(', ') })}</p>` : ''}
      ${checkedButton(check, 'cut-send', t('vv_cut_send'), { cls: 'primary wide' })}</section>`;
  }

  chose(event) {
    const el = event.target;
    if (el.name === 'cut-kind') { this.reset(); this.kind = el.value; } else if (el.dataset.cutrm) tick(this.cards, el.dataset.cutrm, el.checked);
    else if (el.id === 'cut-card') this.card = el.value;
    else if (el.id === 'cut-add') this.add = el.value;
    else return null;
    return true;
  }

  click(event) {
    const el = tapped(event, 'cut-send');
    return el ? { action: { type: 'cut', ...this.action() }, label: labelOf(el) } : null;
  }

  sent(action, answer) { if (answer) this.reset(); }
}

export class HandCard {
  constructor() {
    this.chosen = new Set();
    this.on = { change: this.ticked, click: this.click };
  }

  view({ state, ruleset, me, player }) {
    const hand = player.hand || [];
    this.chosen = keepOnly(this.chosen, new Set(hand.map((c) => c.id)));
    const excess = V.overLimit(ruleset, player);
    const chosen = [...this.chosen];
    const discarding = state.stage === 'discarding' && excess > 0;
    const playable = state.phase === 'playing' && state.stage !== 'scoring';
    return html`<section class="card vv-hand" id="vv-hand"><h2 id="vv-hand-h" tabindex="-1">${t('vv_hand_h')} · ${t('vv_hand_count', { n: hand.length })}</h2>
      ${discarding ? html`<p class="why">${ruleLink('VV12')} · ${t('vv_discard_help', { n: hand.length, m: excess, limit: V.handLimit(ruleset) })}</p>` : ''}
      ${hand.length ? displayCards(state, { cards: hand, pick: playable ? { prefix: 'hand', selected: this.chosen } : null }) : html`<p class="muted">${t('vv_hand_empty')}</p>`}
      ${discarding ? checkedButton(V.discardCheck(state, ruleset, me, chosen), 'discard-send', t('vv_discard_send'), { cls: 'primary' }) : ''}
      ${playable && hand.length ? checkedButton(V.playCheck(state, me, chosen), 'play-send', t('vv_play_send'), { cls: 'ghost' }) : ''}
    </section>`;
  }

  ticked(event) {
    if (!event.target.dataset.hand) return null;
    tick(this.chosen, event.target.dataset.hand, event.target.checked);
    return true;
  }

  click(event) {
    const el = tapped(event, 'discard-send') || tapped(event, 'play-send');
    if (!el) return null;
    return { action: { type: el.id === 'discard-send' ? 'discard' : 'play_cards', cards: [...this.chosen] }, label: labelOf(el) };
  }

  sent(action, answer) { if (answer) this.chosen.clear(); }
}

export class ScoreCard {
  constructor() {
    this.score = { tips: 0, ships: 0, nobles: 0, ship_count: 0, gold: 0, smuggled: 0, resources: 0, fastest_fleet: false, lowest_ship_card: '' };
    this.on = { input: this.typed, change: this.typed, click: this.click, submit: () => null };
  }

  entry() {
    const s = this.score;
    return { ...s, lowest_ship_card: s.lowest_ship_card === '' ? null : Number(s.lowest_ship_card) };
  }

  view({ state, ruleset, me, player }) {
    if (state.stage !== 'scoring') return '';
    const s = this.score;
    const { total } = V.reputationParts(ruleset, this.entry());
    return html`<section class="card vv-score" id="vv-score"><h2 id="vv-score-h" tabindex="-1">${t('vv_score_h')}</h2>
      ${player.score ? html`<p class="own-bid">✓ ${t('vv_scored')} · ${t('vv_score_total', { n: player.score.reputation })}</p>` : ''}
      <form id="score-form" class="two-col">${SCORE_NUMBERS.map((k) => html`<label>${t(SCORE_LABELS[k])}<input type="number" min="0" inputmode="numeric" id="score-${k}" data-score="${k}" value="${s[k]}"></label>`)}
        <label>${t('vv_lowest')}<input type="number" min="1" inputmode="numeric" id="score-lowest" value="${s.lowest_ship_card}"></label>
        <label class="check"><input type="checkbox" id="score-fastest" ${s.fastest_fleet ? html`checked` : ''}> ${t('vv_fastest_fleet')}</label></form>
      <p class="vv-total" aria-live="polite"><strong>${t('vv_score_total', { n: total })}</strong></p>
      ${checkedButton(V.scoreCheck(state, me, this.entry()), 'score-send', t('vv_score_send'), { cls: 'primary wide' })}</section>`;
  }

  typed(event) {
    const el = event.target;
    if (el.dataset.score) this.score[el.dataset.score] = Math.max(0, Math.floor(Number(el.value) || 0));
    else if (el.id === 'score-lowest') this.score.lowest_ship_card = el.value;
    else if (el.id === 'score-fastest') this.score.fastest_fleet = el.checked;
    else return null;
    return true;
  }

  click(event, { me }) {
    const el = tapped(event, 'score-send');
    if (!el) return null;
    const s = this.score;
    return { action: { type: 'score', player: me, ...Object.fromEntries(SCORE_NUMBERS.map((k) => [k, s[k]])),
      fastest_fleet: s.fastest_fleet, lowest_ship_card: s.ship_count > 0 ? Number(s.lowest_ship_card) : null }, label: labelOf(el) };
  }
}
