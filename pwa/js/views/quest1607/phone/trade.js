// Trade on a player's phone: the offers made to them (accept, decline) and their own (withdraw), a new
// offer to another player (M1), the market (M2) and the bank (M3). What a form holds (to whom, how
// many of what) is this card's own state, so an update that arrives meanwhile leaves it as it was.
import { html } from '../../../html.js';
import { t } from '../../../i18n.js';
import { resName, resourceUnits } from '../../../logic/format.js';
import * as R from '../../../logic/quest1607.js';
import { labelOf } from '../../phone_cards.js';
import { checkedButton, stepper } from '../../parts.js';
import { choice, nonZero, stepped } from './card.js';
import './words.js';

function offerLine(state, o) {
  const name = (pid) => (R.playerById(state, pid) || {}).name || '?';
  return html`<span>${name(o.from)} → ${name(o.to)}: ${t('give')} ${resourceUnits(o.give)} · ${t('get')} ${resourceUnits(o.get)}</span>`;
}

export class TradeCard {
  constructor() {
    this.offer = { to: '', give: {}, get: {} };
    this.market = { give: '', get: '' };
    this.bank = { give: {}, get: '' };
    this.forms = {}; // form → its part (TradeForm below): a tap in one draws that one alone
  }

  /** The part of form `name` (offer, market, bank), drawn below the offers as a card of its own. */
  form(name) {
    this.forms[name] = this.forms[name] || new TradeForm(this, name);
    return this.forms[name];
  }

  /** The resources one may give (`own`) and ask for (`all`). */
  lists({ state, ruleset, player }) {
    const own = R.stockIds(ruleset, player);
    return [own, R.resourceIds(ruleset).filter((id) => own.includes(id) || state.players.some((p) => p.land_resource === id))];
  }

  /** Its moves, the players (their names and lands; not their stock: their objects change with it), and the other side of each offer. */
  read({ state, player, ruleset, shared }) {
    const sides = state.offers.map((o) => R.playerById(state, o.from === player.id ? o.to : o.from));
    return [...R.movesOf(state, player), ruleset, shared, state.players.map((p) => p.id).join(), ...sides];
  }

  view(ctx) {
    const { state, me } = ctx;
    if (state.phase !== 'playing') return '';
    const incoming = state.offers.filter((o) => o.to === me);
    const outgoing = state.offers.filter((o) => o.from === me);
    return html`<section class="card" id="trade" aria-labelledby="trade-h"><h2 id="trade-h">${t('trade')}</h2>
      ${incoming.length || outgoing.length ? '' : html`<p class="muted">${t('no_offers')}</p>`}
      ${incoming.length ? html`<h3>${t('offers_in')}</h3><ul class="offers">${incoming.map((o) => html`<li class="offer" id="offer-${o.id}">${offerLine(state, o)}
        <div class="row">${checkedButton(R.canAccept(state, ctx.ruleset, me, o), `accept-${o.id}`, t('accept'), { cls: 'primary', data: { act: 'accept', offer: o.id } })}
        <button type="button" data-act="decline" data-offer="${o.id}" id="decline-${o.id}">${t('decline')}</button></div></li>`)}</ul>` : ''}
      ${outgoing.length ? html`<h3>${t('offers_out')}</h3><ul class="offers">${outgoing.map((o) => html`<li class="offer" id="offer-${o.id}">${offerLine(state, o)}
        <button type="button" data-act="withdraw" data-offer="${o.id}" id="withdraw-${o.id}">${t('withdraw')}</button></li>`)}</ul>` : ''}
    </section>`;
  }

  offerForm({ state, ruleset, me, player }, own, all) {
    const others = state.players.filter((p) => p.id !== me);
    if (!others.some((p) => p.id === this.offer.to)) this.offer.to = (others.find((p) => p.id === state.turn.player) || others[0] || {}).id || '';
    const check = R.canOffer(state, ruleset, me, this.offer.to, this.offer.give, this.offer.get);
    return html`<details class="card trade-form" id="offer-form"><summary>${t('make_offer')}</summary>
      <label>${t('offer_to')} ${choice('offer-to', this.offer.to, others.map((p) => [p.id, p.name]))}</label>
      <div class="two-col"><div><h4>${t('give')}</h4>${own.map((id) => stepper(`offer.give.${id}`, this.offer.give[id] || 0, resName(id), { max: player.resources[id] || 0 }))}</div>
      <div><h4>${t('get')}</h4>${all.map((id) => stepper(`offer.get.${id}`, this.offer.get[id] || 0, resName(id)))}</div></div>
      ${checkedButton(check, 'offer-send', t('make_offer'), { cls: 'primary', data: { send: 'offer' } })}
    </details>`;
  }

  marketForm({ state, ruleset, me, shared }, own, all) {
    if (!own.includes(this.market.give)) this.market.give = own[0];
    if (!all.includes(this.market.get)) this.market.get = all.find((id) => id !== this.market.give);
    const options = (ids) => ids.map((id) => [id, resName(id)]);
    return html`<details class="card trade-form" id="market-form"><summary>${t('market', { rate: R.marketRate(state, ruleset) })}</summary>
      <div class="row"><label>${t('give')} ${R.marketRate(state, ruleset)}× ${choice('market-give', this.market.give, options(own))}</label>
      <label>${t('get')} 1× ${choice('market-get', this.market.get, options(all))}</label></div>
      ${checkedButton(R.canMarket(state, ruleset, me, this.market.give, this.market.get), 'market-send', t('exchange'), { data: { send: 'market' }, shared })}
    </details>`;
  }

  bankForm({ state, ruleset, me, player, shared }, own, all) {
    if (!all.includes(this.bank.get)) this.bank.get = all[0];
    return html`<details class="card trade-form" id="bank-form"><summary>${t('bank', { rate: R.bankRate(state, ruleset) })}</summary>
      ${own.map((id) => stepper(`bank.give.${id}`, this.bank.give[id] || 0, resName(id), { max: player.resources[id] || 0 }))}
      <label>${t('get')} 1× ${choice('bank-get', this.bank.get, all.map((id) => [id, resName(id)]))}</label>
      ${checkedButton(R.canBank(state, ruleset, me, this.bank.give, this.bank.get), 'bank-send', t('exchange'), { data: { send: 'bank' }, shared })}
    </details>`;
  }

  click(event) {
    if (stepped(event, this, ['offer', 'bank'])) return true;
    const el = event.target.closest('button[data-send]');
    if (!el || el.disabled) return null;
    const send = el.dataset.send;
    const action = send === 'offer' ? { type: 'offer', to: this.offer.to, give: nonZero(this.offer.give), get: nonZero(this.offer.get) }
      : send === 'market' ? { type: 'market', give: this.market.give, get: this.market.get }
        : { type: 'bank', give: nonZero(this.bank.give), get: this.bank.get };
    return { action, label: labelOf(el) };
  }

  change(event) {
    const [form, key] = (event.target.dataset.field || '').split('-');
    if (!['offer', 'market', 'bank'].includes(form)) return null;
    this[form][key] = event.target.value;
    return true;
  }

  sent(action, answer) {
    if (!answer) return;
    if (action.type === 'offer') this.offer = { to: this.offer.to, give: {}, get: {} };
    if (action.type === 'bank') this.bank.give = {};
  }
}

/** One of the trade card's forms as a part of its own: the card keeps what it holds and answers its taps. */
class TradeForm {
  constructor(card, form) {
    Object.assign(this, { card, form, name: `${form}-form` });
    const mine = (handle) => (event, ctx) => (event.target.closest(`#${this.name}`) ? handle.call(card, event, ctx) : null);
    this.on = { click: mine(card.click), change: mine(card.change) };
  }

  read(ctx) { return this.card.read(ctx); }

  view(ctx) { return ctx.state.phase === 'playing' ? this.card[`${this.form}Form`](ctx, ...this.card.lists(ctx)) : ''; }

  sent(action, answer) { this.card.sent(action, answer); }
}
