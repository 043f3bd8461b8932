// Serenissima pieces that the phone, the screen and the host show alike: the round tracker, the
// bids (who has bid, then every bid at once), the positions and a ledger; and the game's sheet.
import { html } from '../../html.js';
import { t, tx } from '../../i18n.js';
import * as S from '../../logic/serenissima.js';
import { dieSvg, swatch } from '../../ui.js';
import { sheet } from '../common.js';
import './strings.js';

/** Serenissima's stylesheet: every page of the game waits for it before it first draws. */
export const ready = sheet('/css/serenissima.css');

/** Round r and its six phases in order, the current one (while the game runs) marked in words as well as in colour. */
export function tracker(state, ruleset) {
  const now = S.step(state);
  const over = state.phase === 'finished'; // the phase the game ended in is no longer "now"
  return html`<section class="se-tracker" aria-label="${t('se_phases')}">
    <h2>${t('se_round', { n: state.round })}</h2>
    <ol class="phases">${(ruleset.phases || []).map((p) => {
      const where = p.number < now ? 'done' : p.number === now && !over ? 'now' : 'later';
      // on a TV short of room, the phases other than the current one give way (views/screen_fit.js)
      return html`<li class="phase ${where}" ${where === 'now' ? html`aria-current="step"` : html`data-yield="2"`}>
        <span class="phase-no">${p.number}</span> <span class="phase-name">${tx(p.name)}</span>
        ${where === 'now' ? html`<span class="tag now">▶ ${t('se_now')}</span>` : where === 'done' ? html`<span class="tag">✓ ${t('se_done')}</span>` : ''}</li>`;
    })}</ol></section>`;
}

/**
 * Before the reveal: who has bid (never how much, SE5). After it: every bid, in picking order, with
 * the position each player took so far (SE7).
 */
export function bidsPanel(state, ruleset) {
  const bidding = state.bidding;
  if (!bidding) return '';
  if (!bidding.revealed) {
    const rows = S.bidProgress(state);
    const waiting = rows.filter((r) => !r.in).map((r) => r.name);
    return html`<section class="card se-bids" aria-live="polite"><h2>${t('se_has_bid')}</h2>
      <ul class="bid-status">${rows.map((r) => html`<li class="${r.in ? 'in' : 'waiting'}">${swatch(ruleset, r.character, false)}
        <strong>${r.name}</strong> <span class="tag">${r.in ? html`✓ ${t('se_bid_in')}` : html`… ${t('se_not_yet')}`}</span></li>`)}</ul>
      <p class="muted" data-yield="1">${waiting.length ? t('se_waiting_for', { names: waiting.join(', ') }) : t('se_all_in')}</p></section>`;
  }
  return html`<section class="card se-bids revealed" aria-live="polite"><h2>${t('se_reveal')}</h2>
    <ol class="reveal">${S.revealRows(state).map((r) => {
      const p = S.playerById(state, r.id);
      return html`<li><span class="place">${r.place}</span>${swatch(ruleset, p.character, false)}<strong>${r.name}</strong>
        ${p.position ? html`<span class="tag">${t('se_position', { p: p.position })}</span>` : ''}
        <span class="bid-amount">${t('se_bid_of', { n: r.bid })}</span>
        ${r.rolls.length ? html`<span class="tie"><span class="tie-label">${t('se_tie_dice')}</span> ${r.rolls.map((d) => dieSvg(d.value, 'white', t('se_tie_roll', { bid: d.bid, v: d.value })))}
          <span class="tie-values">${r.rolls.map((d) => d.value).join(' · ')}</span></span>` : ''}</li>`;
    })}</ol>
    ${bidding.picker ? html`<p class="picker">${t('se_picks_now', { name: S.playerById(state, bidding.picker).name })}</p>` : ''}</section>`;
}

/** The fields I–IV with whoever took them (SE7), which is the turn order (SE11). */
export function positionsPanel(state, ruleset) {
  return html`<section class="card se-positions"><h2>${t('se_turn_order')}</h2>
    <ol class="positions">${S.positions(state, ruleset).map((f) => {
      const p = f.holder && S.playerById(state, f.holder);
      const active = p && state.active === p.id;
      return html`<li class="${active ? 'active' : ''}"><span class="pos-label">${f.label}</span>
        ${p ? html`${swatch(ruleset, p.character, false)}<strong>${p.name}</strong>${active || p.finished_phase ? html`<span class="pos-tags">${active ? html`<span class="tag now">▶ ${t('se_now')}</span>` : ''}${p.finished_phase ? html`<span class="tag">✓ ${t('se_finished')}</span>` : ''}</span>` : ''}` : html`<span class="muted">—</span>`}</li>`;
    })}</ol></section>`;
}

function goodsList(ruleset, goods) {
  const entries = Object.entries(goods || {}).filter(([, n]) => n);
  if (!entries.length) return html`<p class="muted">${t('se_no_goods')}</p>`;
  return html`<ul class="se-goods">${entries.map(([g, n]) => html`<li><strong class="good-count">${n}</strong> × ${S.goodName(ruleset, g)}</li>`)}</ul>`;
}

function galleyLine(ruleset, g) {
  const where = S.galleyPlace(ruleset, g);
  return html`<li class="galley"><strong>${t('se_galley', { n: g.number })}</strong>
    <span>${where.port ? t('se_in_port', { port: where.port }) : t('se_at_sea', { area: where.area })}</span>
    <span class="sailors">${t('se_sailors')}: ${g.sailors}</span></li>`;
}

/** One player's ledger: ducats, home sailors, galleys with their sailors, goods (SE2, SE3). */
export function ledger(state, ruleset, p, { heading = null } = {}) {
  return html`<article class="ledger ${state.active === p.id ? 'active' : ''}">
    <header>${heading || html`${swatch(ruleset, p.character)} <strong>${p.name}</strong>`}
      ${p.position ? html`<span class="tag">${t('se_position', { p: p.position })}</span>` : ''}<away-mark player="${p.id}"></away-mark></header>
    <dl class="ledger-stats"><div><dt>${t('se_ducats')}</dt><dd id="ducats-${p.id}">${p.ducats}</dd></div>
      <div><dt>${t('se_home_sailors')}</dt><dd>${p.home_sailors}</dd></div></dl>
    <ul class="galleys">${p.galleys.map((g) => galleyLine(ruleset, g))}</ul>
    <h3 class="goods-h">${t('se_goods')}</h3>${goodsList(ruleset, p.goods)}
  </article>`;
}
