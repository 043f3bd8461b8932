// Voyagers' Venture pieces the phone, the screen and the host share: the year and what the round
// waits for, the display with its doubloons, the bid and who has agreed, the players, the ranking.
import { html } from '../../html.js';
import { t } from '../../i18n.js';
import * as V from '../../logic/voyagers.js';
import { tableNow } from '../../logic/voyagers_table.js';
import { swatch } from '../../ui.js';
import { sheet } from '../common.js';
import './strings.js';

/** Voyagers' Venture's stylesheet: every page of the game waits for it before it first draws. */
export const ready = sheet('/css/voyagers.css');

const nameOf = (state, id) => (V.playerById(state, id) || {}).name || '';

/** "Year 1486 · round 1 of 6" and, in words, who or what the round waits for. */
export function yearLine(state) {
  if (state.phase === 'finished') return html`<p class="vv-year">${t('vv_over')}</p><p class="vv-stage" id="head-now">${tableNow(state)}</p>`;
  if (!state.round) return html`<p class="vv-stage" id="head-now">${t('waiting_host')}</p>`;
  return html`<p class="vv-year"><strong>${t('vv_year', { year: state.year, n: state.round, of: state.rounds })}</strong></p>
    <p class="vv-stage" id="head-now">${tableNow(state)}</p>`;
}

/** One displayed card: its name, its deck and its doubloons in words; a tick box when `pick` is given. */
function cardItem(card, { inBid = false, pick = null } = {}) {
  const body = html`<span class="card-name">${card.name || card.id}</span>
    <span class="kind">${card.kind === 'fleet' ? t('vv_fleet') : t('vv_common')}</span>
    ${card.doubloons ? html`<span class="coins">● ${t('vv_doubloons', { n: card.doubloons })}</span>` : ''}
    ${inBid ? html`<span class="tag now">${t('vv_in_bid')}</span>` : ''}`;
  if (!pick) return html`<li class="vv-card ${inBid ? 'in-bid' : ''}" data-card-id="${card.id}">${body}</li>`;
  return html`<li class="vv-card ${inBid ? 'in-bid' : ''}" data-card-id="${card.id}"><label>
    <input type="checkbox" id="${pick.prefix}-${card.id}" data-${pick.prefix}="${card.id}" ${pick.selected.has(card.id) ? html`checked` : ''}>
    <span>${body}</span></label></li>`;
}

export function displayCards(state, { pick = null, cards = state.display } = {}) {
  const bid = new Set((state.bid && state.bid.cards) || []);
  if (!cards.length) return html`<p class="muted">${t('vv_no_display')}</p>`;
  return html`<ul class="vv-cards">${cards.map((c) => cardItem(c, { inBid: bid.has(c.id), pick }))}</ul>`;
}

/** The bid on the table: who wants which cards, who agreed so far and who is asked next (VV4). */
export function bidPanel(state, ruleset) {
  const bid = state.bid;
  if (!bid) return '';
  const cards = bid.cards.map((id) => (state.display.find((c) => c.id === id) || { id, name: id }));
  const agreed = V.agreedSoFar(state);
  const next = state.stage === 'voting' ? bid.voters[0] : bid.cutter;
  return html`<section class="card vv-bid" id="vv-bid" aria-live="polite"><h2>${t('vv_bid_h')}</h2>
    <p>${swatch(ruleset, (V.playerById(state, bid.bidder) || {}).character, false)} <strong>${t('vv_bid_by', { name: nameOf(state, bid.bidder) })}</strong></p>
    <ul class="vv-cards">${cards.map((c) => cardItem(c))}</ul>
    <p class="vv-agreed"><strong>${t('vv_agreed')}:</strong> ${agreed.length ? agreed.map((p) => html`<span class="tag">✓ ${nameOf(state, p)}</span>`) : t('vv_nobody_yet')}</p>
    ${next ? html`<p class="vv-next"><strong>${state.stage === 'cutting' ? t('vv_stage_cutting', { name: nameOf(state, next) }) : html`${t('vv_next_voter')}: ${nameOf(state, next)}`}</strong></p>` : ''}
  </section>`;
}

export function playersList(state, ruleset) {
  const order = state.turn_order && state.turn_order.length ? state.turn_order : state.players.map((p) => p.id);
  return html`<section class="card vv-players" id="vv-players"><h2>${t('vv_turn_order')}</h2><ol class="vv-list">${order.map((id) => {
    const p = V.playerById(state, id);
    const now = state.phase === 'playing' && state.waiting_for === id;
    // after the end nobody is "now", and nobody has cards still to receive
    const took = state.phase !== 'playing' ? '' : html`<span class="tag">${p.received ? html`✓ ${t('vv_received')}` : t('vv_to_receive')}</span>`;
    return html`<li class="${now ? 'active' : ''}">${swatch(ruleset, p.character)} <strong>${p.name}</strong>
      ${now ? html`<span class="tag now">▶ ${t('vv_now')}</span>` : ''}<away-mark player="${p.id}"></away-mark>${took}
      <span class="count">${t('vv_hand_count', { n: p.hand_count })} · ${t('vv_gold')} ${p.gold}</span></li>`;
  })}</ol></section>`;
}

/** VV15–VV19: places, reputation part by part, and what set each player apart from the one above. */
export function rankingTable(state, ruleset) {
  const rows = state.ranking || state.players.filter((p) => p.score).map((p) => ({ player: p.id, place: null, reputation: p.score.reputation, behind_by: null }));
  if (!rows.length) return '';
  return html`<section class="card vv-rank" id="vv-rank"><h2>${t('vv_ranking')}</h2><table class="vv-ranking">
    <thead><tr><th scope="col">${t('vv_place')}</th><th scope="col">${t('vv_players')}</th><th scope="col">${t('vv_breakdown')}</th></tr></thead>
    <tbody>${rows.map((r, i) => {
      const p = V.playerById(state, r.player);
      const { parts } = V.reputationParts(ruleset, p.score || {});
      const tie = i === 0 ? '' : r.behind_by ? t(`vv_tb_${r.behind_by}`) : t('vv_tb_shared');
      return html`<tr class="${p.id === state.you ? 'mine' : ''}"><td class="total">${r.place ?? '—'}</td><td>${swatch(ruleset, p.character, false)} <strong>${p.name}</strong><br><span class="total">${r.reputation}</span>
        ${tie ? html`<br><span class="tie-by">${t('vv_tie')}: ${tie}</span>` : ''}</td>
        <td>${parts.map(([k, v]) => html`<span class="tag">${t(`vv_part_${k}`)} ${v >= 0 ? `+${v}` : `−${-v}`}</span>`)}</td></tr>`;
    })}</tbody></table></section>`;
}

