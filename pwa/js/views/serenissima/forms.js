// Serenissima's forms on a player's phone, one card each with its own state (what the player is
// choosing or typing): the sealed bid (SE5), the sailors' split (SE3), a galley's move (SE17), buying
// goods (SE12–SE15) and sales between players (SE16). Each checks its button with the rule the
// server will apply (logic/serenissima.js); the server has the last word.
import { html } from '../../html.js';
import { t, tx } from '../../i18n.js';
import * as S from '../../logic/serenissima.js';
import { labelOf } from '../phone_cards.js';
import { checkedButton, stepper } from '../parts.js';
import { sheet } from '../common.js';
import './form_strings.js';

await sheet('/css/forms.css');

const running = (state) => state.phase === 'playing';

/** A sale in words: "Anna sells 2 Metal to Bram for 300 ducats". */
function saleLine(state, ruleset, o) {
  return t('se_sale_line', { from: S.nameOf(state, o.from), to: S.nameOf(state, o.to), count: o.count, good: S.goodName(ruleset, o.good), price: o.price });
}

/** A stepper's tap on this card's `group`: the key and the step, or null. */
function step(event, group) {
  const el = event.target.closest('button[data-step]');
  if (!el || el.disabled) return null;
  const [g, key] = el.dataset.step.split('.');
  return g === group ? { key, d: Number(el.dataset.d) } : null;
}

/** A tap on this card's button `id`, unless it is refused. */
const tapped = (event, id) => {
  const el = event.target.closest(`#${id}`);
  return el && !el.disabled ? el : null;
};

export class BidCard {
  constructor() {
    this.value = '';
    this.on = { input: this.typed, click: this.click, submit: this.click };
  }

  check({ state, me, player }) {
    if (this.value === '') return { ok: false, rule: 'SE5', key: 'se_r_bid_range', params: { n: player.ducats } };
    return S.bidCheck(state, me, Number(this.value));
  }

  view(ctx) {
    const { state, player } = ctx;
    if (!running(state) || !state.bidding || state.bidding.revealed) return '';
    const already = player.bid !== null && player.bid !== undefined;
    return html`<section class="card se-bid-form" id="se-bid"><h2 id="bid-h" tabindex="-1">${t('se_bid_h')}</h2>
      <p class="muted">${t('se_bid_help')}</p>
      ${already ? html`<p class="own-bid" id="own-bid">${t('se_your_bid', { n: player.bid })}</p>` : ''}
      <form id="bid-form" class="row">
        <label class="grow">${t('se_bid_label', { n: player.ducats })}
          <input id="bid-ducats" type="number" inputmode="numeric" min="0" max="${player.ducats}" step="1" value="${this.value}" autocomplete="off"></label>
      </form>
      <div id="bid-send-box">${checkedButton(this.check(ctx), 'bid-send', already ? t('se_bid_change') : t('se_bid_send'), { cls: 'primary wide' })}</div>
    </section>`;
  }

  typed(event) {
    if (event.target.id !== 'bid-ducats') return null;
    this.value = event.target.value.trim();
    return true;
  }

  click(event, ctx) {
    const el = event.type === 'submit' ? (event.target.id === 'bid-form' && document.getElementById('bid-send')) : tapped(event, 'bid-send');
    if (!el || el.disabled || !this.check(ctx).ok) return null;
    const ducats = Number(this.value);
    return { action: { type: 'bid', ducats }, label: `${labelOf(el)}: ${t('se_bid_of', { n: ducats })}` };
  }
}

export class SplitCard {
  constructor() {
    this.split = null;
    this.on = { click: this.click };
  }

  view({ state, me, player }) {
    if (!running(state)) return '';
    const total = S.totalSailors(player);
    if (!this.split) this.split = { home: player.home_sailors, galleys: Object.fromEntries(player.galleys.map((g) => [String(g.number), g.sailors])) };
    const { home, galleys } = this.split;
    const rest = total - home - Object.values(galleys).reduce((n, v) => n + v, 0);
    return html`<details class="card" id="split-form"><summary><h2>${t('se_split')}</h2></summary>
      <p class="muted">${t('se_split_help', { n: total })}</p>
      ${stepper('split.home', home, t('se_home_sailors'), { max: total })}
      ${player.galleys.map((g) => stepper(`split.${g.number}`, galleys[String(g.number)] || 0, t('se_galley', { n: g.number }), { max: total }))}
      <p class="${rest ? 'why' : 'muted'}">${rest > 0 ? t('se_split_left', { n: rest }) : rest < 0 ? t('se_split_over', { n: -rest }) : '✓'}</p>
      ${checkedButton(S.sailorsCheck(state, me, home, galleys), 'split-send', t('se_split_send'), { cls: 'primary' })}</details>`;
  }

  click(event) {
    // the strip's link to the split unfolds it; the strip brings it in under itself
    if (event.target.closest('#now a[href="#split-form"]')) document.getElementById('split-form')?.setAttribute('open', '');
    const s = step(event, 'split');
    if (s) {
      if (s.key === 'home') this.split.home = Math.max(0, this.split.home + s.d);
      else this.split.galleys[s.key] = Math.max(0, (this.split.galleys[s.key] || 0) + s.d);
      return true;
    }
    const el = tapped(event, 'split-send');
    return el ? { action: { type: 'place_sailors', ...this.split }, label: labelOf(el) } : null;
  }

  sent(action, answer) {
    if (!answer) return;
    this.split = null;
    document.getElementById('split-form')?.removeAttribute('open');
  }
}

export class MoveCard {
  constructor() {
    this.galley = 1;
    this.dest = '';
    this.on = { change: this.chose, click: this.click };
  }

  view({ state, ruleset, me, player }) {
    if (S.step(state) < 2 || !running(state)) return '';
    const check = this.dest ? S.moveCheck(state, me) : { ok: false, rule: 'SE17', key: 'se_r_choose', params: {} };
    const option = (value, label, chosen) => html`<option value="${value}" ${chosen ? html`selected` : ''}>${label}</option>`;
    return html`<section class="card" id="se-move"><h2>${t('se_move_h')}</h2>
      <label>${t('se_which_galley')}<select id="move-galley">${player.galleys.map((g) => option(g.number, t('se_galley', { n: g.number }), g.number === this.galley))}</select></label>
      <label>${t('se_move_to')}<select id="move-dest"><option value="">—</option>
        <optgroup label="${t('se_ports')}">${ruleset.ports.map((p) => option(`port:${p.id}`, tx(p.name), this.dest === `port:${p.id}`))}</optgroup>
        <optgroup label="${t('se_seas')}">${ruleset.sea_areas.map((s) => option(`sea:${s.id}`, tx(s.name), this.dest === `sea:${s.id}`))}</optgroup>
      </select></label>
      ${checkedButton(check, 'move-send', t('se_move_send'))}</section>`;
  }

  chose(event) {
    if (event.target.id === 'move-galley') this.galley = Number(event.target.value);
    else if (event.target.id === 'move-dest') this.dest = event.target.value;
    else return null;
    return true;
  }

  click(event) {
    const el = tapped(event, 'move-send');
    if (!el) return null;
    const [kind, id] = this.dest.split(':');
    return { action: { type: 'move_galley', galley: this.galley, [kind === 'port' ? 'port' : 'sea_area']: id }, label: labelOf(el) };
  }

  sent(action, answer) { if (answer) this.dest = ''; }
}

export class BuyCard {
  constructor() {
    Object.assign(this, { port: '', good: '', count: 1 });
    this.on = { change: this.chose, click: this.click };
  }

  view({ state, ruleset, me }) {
    if (S.step(state) !== 2 || !running(state)) return '';
    const reach = S.portsInReach(state, ruleset, me);
    if (!reach.some((p) => p.id === this.port)) this.port = reach.length ? reach[0].id : '';
    const port = S.portById(ruleset, this.port);
    if (port && !port.goods.includes(this.good)) [this.good] = port.goods;
    const price = port ? S.priceAt(state, ruleset, me, port.id) : 0;
    const check = S.buyCheck(state, ruleset, me, this.port, this.good, this.count);
    return html`<section class="card" id="se-buy"><h2 id="buy-h" tabindex="-1">${t('se_buy_h')}</h2>
      ${reach.length ? html`<label>${t('se_port')}<select id="buy-port">${reach.map((p) => html`<option value="${p.id}" ${p.id === this.port ? html`selected` : ''}>${tx(p.name)}</option>`)}</select></label>
      <label>${t('se_good')}<select id="buy-good">${(port ? port.goods : []).map((g) => html`<option value="${g}" ${g === this.good ? html`selected` : ''}>${S.goodName(ruleset, g)}</option>`)}</select></label>
      ${stepper('buy.count', this.count, t('se_count'), { min: 1 })}
      <p>${t('se_price', { price, total: price * this.count })}</p>` : html`<p class="muted">${t('se_no_port')}</p>`}
      ${checkedButton(check, 'buy-send', t('se_buy_send'), { cls: 'primary' })}</section>`;
  }

  chose(event) {
    if (event.target.id === 'buy-port') this.port = event.target.value;
    else if (event.target.id === 'buy-good') this.good = event.target.value;
    else return null;
    return true;
  }

  click(event) {
    const s = step(event, 'buy');
    if (s) { this.count = Math.max(1, this.count + s.d); return true; }
    const el = tapped(event, 'buy-send');
    return el ? { action: { type: 'buy', port: this.port, good: this.good, count: this.count }, label: labelOf(el) } : null;
  }
}

export class SalesCard {
  constructor() {
    Object.assign(this, { to: '', good: '', count: 1, price: 0 });
    this.on = { change: this.chose, input: this.typed, click: this.click };
  }

  offers({ state, ruleset, me }) {
    const offers = state.offers || [];
    if (!offers.length) return '';
    return html`<ul class="offers">${offers.map((o) => html`<li class="offer"><p>${saleLine(state, ruleset, o)}</p>
      ${o.to === me ? html`<div class="button-group">${checkedButton(S.acceptCheck(state, ruleset, me, o), `accept-${o.id}`, t('se_accept'), { cls: 'primary', data: { accept: o.id } })}
        <button type="button" data-decline="${o.id}">${t('se_decline')}</button></div>` : ''}
      ${o.from === me ? html`<button type="button" data-withdraw="${o.id}">${t('se_withdraw')}</button>` : ''}</li>`)}</ul>`;
  }

  view(ctx) {
    const { state, ruleset, me, player } = ctx;
    if (S.step(state) !== 2 || !running(state)) return '';
    const others = state.players.filter((p) => p.id !== me);
    if (!this.to && others.length) this.to = others[0].id;
    const held = Object.entries(player.goods || {}).filter(([, n]) => n).map(([g]) => g);
    if (!held.includes(this.good)) this.good = held[0] || '';
    const check = S.offerCheck(state, ruleset, me, this.to, this.good, this.count);
    return html`<section class="card" id="se-sales"><h2 id="sales-h" tabindex="-1">${t('se_sales_h')}</h2>${this.offers(ctx)}
      <label>${t('se_sale_to')}<select id="sale-to">${others.map((p) => html`<option value="${p.id}" ${p.id === this.to ? html`selected` : ''}>${p.name}</option>`)}</select></label>
      <label>${t('se_good')}<select id="sale-good">${held.map((g) => html`<option value="${g}" ${g === this.good ? html`selected` : ''}>${S.goodName(ruleset, g)}</option>`)}</select></label>
      ${stepper('sale.count', this.count, t('se_count'), { min: 1 })}
      <label>${t('se_sale_price')}<input id="sale-price" type="number" min="0" step="10" inputmode="numeric" value="${this.price}"></label>
      ${checkedButton(check, 'sale-send', t('se_sale_send'))}</section>`;
  }

  chose(event) {
    if (event.target.id === 'sale-to') this.to = event.target.value;
    else if (event.target.id === 'sale-good') this.good = event.target.value;
    else return this.typed(event);
    return true;
  }

  typed(event) {
    if (event.target.id === 'sale-price') this.price = Math.max(0, Math.floor(Number(event.target.value) || 0));
    return null;
  }

  click(event) {
    const s = step(event, 'sale');
    if (s) { this.count = Math.max(1, this.count + s.d); return true; }
    const el = tapped(event, 'sale-send');
    return el ? { action: { type: 'offer_sale', to: this.to, good: this.good, count: this.count, price: this.price }, label: labelOf(el) } : null;
  }
}
