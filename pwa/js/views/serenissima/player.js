// Serenissima on a player's phone: at the top, what needs this player now (the strip) and what just
// happened at the table (the feed); then the ledger, the sailors' split, the sealed bid (only your own
// amount, and who is still awaited), the pick of a position, then phase 2: galleys, goods, sales.
import { tokensFor } from '../../api.js';
import { html, render } from '../../html.js';
import { t, tx } from '../../i18n.js';
import * as S from '../../logic/serenissima.js';
import { nowItems, tellers } from '../../logic/serenissima_table.js';
import { story } from '../../logic/story.js';
import { openGame } from '../../session.js';
import { listen, paintSwatches, swatch } from '../../ui.js';
import { checkedButton, feed, nowStrip, stepper, stripClick, tapItems } from '../parts.js';
import { bidsPanel, ledger, positionsPanel, tracker } from './parts.js';

const FEED_LINES = 4;

export async function mount(root, { code, navigate }) {
  const mine = tokensFor(code);
  if (!mine.player) { navigate(`/join/${code}`, { replace: true }); return {}; }
  const me = mine.player.id;
  const ui = { bid: '', split: null, move: { galley: 1, dest: '' }, buy: { port: '', good: '', count: 1 },
    sale: { to: '', good: '', count: 1, price: 0 } };
  let state = null;
  let session;
  let shownBidButton = ''; // the bid button as last drawn, so typing redraws it only when it changes

  const rs = () => session.ruleset;
  const name = (id) => (S.playerById(state, id) || {}).name || id;

  /** The strip's first line: whose phone this is, and where the round stands. */
  function who(player) {
    const now = S.step(state);
    return html`${swatch(rs(), player.character)} <strong class="me-name">${player.name}</strong>
      ${state.phase === 'playing' ? html`<span class="muted">${t('se_round', { n: state.round })} · ${t('se_phase', { n: now })}</span>` : ''}
      ${player.position ? html`<span class="tag">${t('se_position', { p: player.position })}</span>` : ''}`;
  }

  /** The strip's checks: the same rules as the buttons further down, so a refusal reads alike. */
  const checks = () => ({
    accept: (o) => S.acceptCheck(state, rs(), me, o),
    pick: (number) => S.pickCheck(state, rs(), me, number),
    finish: () => S.finishCheck(state, me),
  });

  /** The bid's button: refused with SE5 until the amount is a whole number within one's ducats. */
  function bidButton(player) {
    const value = ui.bid === '' ? null : Number(ui.bid);
    const check = value === null ? { ok: false, rule: 'SE5', key: 'se_r_bid_range', params: { n: player.ducats } } : S.bidCheck(state, me, value);
    const already = player.bid !== null && player.bid !== undefined;
    return checkedButton(check, 'bid-send', already ? t('se_bid_change') : t('se_bid_send'), { cls: 'primary wide' });
  }

  function bidCard(player) {
    if (!state.bidding || state.bidding.revealed) return '';
    const button = bidButton(player);
    shownBidButton = String(button);
    const already = player.bid !== null && player.bid !== undefined;
    return html`<section class="card se-bid-form"><h2 id="bid-h" tabindex="-1">${t('se_bid_h')}</h2>
      <p class="muted">${t('se_bid_help')}</p>
      ${already ? html`<p class="own-bid" id="own-bid">${t('se_your_bid', { n: player.bid })}</p>` : ''}
      <form id="bid-form" class="row">
        <label class="grow">${t('se_bid_label', { n: player.ducats })}
          <input id="bid-ducats" type="number" inputmode="numeric" min="0" max="${player.ducats}" step="1" value="${ui.bid}" autocomplete="off"></label>
      </form>
      <div id="bid-send-box">${button}</div>
    </section>`;
  }

  function pickCard() {
    const bidding = state.bidding;
    if (!bidding || !bidding.revealed || !bidding.picker) return '';
    const fields = S.positions(state, rs());
    return html`<section class="card se-pick"><h2 id="pick-h" tabindex="-1">${t('se_pick_h')}</h2>
      <p>${bidding.picker === me ? t('se_you_pick') : t('se_picks_now', { name: name(bidding.picker) })}</p>
      <div class="button-group positions-pick">${fields.map((f) => {
        const check = S.pickCheck(state, rs(), me, f.number);
        const label = f.holder ? `${f.label} · ${t('se_taken_by', { name: name(f.holder) })}` : f.label;
        return checkedButton(check, `pick-${f.number}`, label, { cls: 'pos', data: { pick: f.number } });
      })}</div></section>`;
  }

  function splitCard(player) {
    const total = S.totalSailors(player);
    if (!ui.split) {
      ui.split = { home: player.home_sailors, galleys: Object.fromEntries(player.galleys.map((g) => [String(g.number), g.sailors])) };
    }
    const placed = ui.split.home + Object.values(ui.split.galleys).reduce((n, v) => n + v, 0);
    const check = S.sailorsCheck(state, me, ui.split.home, ui.split.galleys);
    const rest = total - placed;
    return html`<details class="card" id="split-form" ${ui.openSplit ? html`open` : ''}><summary><h2>${t('se_split')}</h2></summary>
      <p class="muted">${t('se_split_help', { n: total })}</p>
      ${stepper('split.home', ui.split.home, t('se_home_sailors'), { max: total })}
      ${player.galleys.map((g) => stepper(`split.${g.number}`, ui.split.galleys[String(g.number)] || 0, t('se_galley', { n: g.number }), { max: total }))}
      <p class="${rest ? 'why' : 'muted'}">${rest > 0 ? t('se_split_left', { n: rest }) : rest < 0 ? t('se_split_over', { n: -rest }) : '✓'}</p>
      ${checkedButton(check, 'split-send', t('se_split_send'), { cls: 'primary' })}</details>`;
  }

  function moveCard(player) {
    if (S.step(state) < 2 || state.phase !== 'playing') return '';
    const check = ui.move.dest ? S.moveCheck(state, me) : { ok: false, rule: 'SE17', key: 'se_r_choose', params: {} };
    return html`<section class="card"><h2>${t('se_move_h')}</h2>
      <label>${t('se_which_galley')}<select id="move-galley">${player.galleys.map((g) => html`<option value="${g.number}" ${g.number === ui.move.galley ? html`selected` : ''}>${t('se_galley', { n: g.number })}</option>`)}</select></label>
      <label>${t('se_move_to')}<select id="move-dest"><option value="">—</option>
        <optgroup label="${t('se_ports')}">${rs().ports.map((p) => html`<option value="port:${p.id}" ${ui.move.dest === `port:${p.id}` ? html`selected` : ''}>${tx(p.name)}</option>`)}</optgroup>
        <optgroup label="${t('se_seas')}">${rs().sea_areas.map((s) => html`<option value="sea:${s.id}" ${ui.move.dest === `sea:${s.id}` ? html`selected` : ''}>${tx(s.name)}</option>`)}</optgroup>
      </select></label>
      ${checkedButton(check, 'move-send', t('se_move_send'))}</section>`;
  }

  function buyCard() {
    if (S.step(state) !== 2 || state.phase !== 'playing') return '';
    const reach = S.portsInReach(state, rs(), me);
    if (ui.buy.port && !reach.some((p) => p.id === ui.buy.port)) ui.buy.port = '';
    if (!ui.buy.port && reach.length) ui.buy.port = reach[0].id;
    const port = S.portById(rs(), ui.buy.port);
    if (port && !port.goods.includes(ui.buy.good)) ui.buy.good = port.goods[0];
    const price = port ? S.priceAt(state, rs(), me, port.id) : 0;
    const check = S.buyCheck(state, rs(), me, ui.buy.port, ui.buy.good, ui.buy.count);
    return html`<section class="card"><h2 id="buy-h" tabindex="-1">${t('se_buy_h')}</h2>
      ${reach.length ? html`<label>${t('se_port')}<select id="buy-port">${reach.map((p) => html`<option value="${p.id}" ${p.id === ui.buy.port ? html`selected` : ''}>${tx(p.name)}</option>`)}</select></label>
      <label>${t('se_good')}<select id="buy-good">${(port ? port.goods : []).map((g) => html`<option value="${g}" ${g === ui.buy.good ? html`selected` : ''}>${S.goodName(rs(), g)}</option>`)}</select></label>
      ${stepper('buy.count', ui.buy.count, t('se_count'), { min: 1 })}
      <p>${t('se_price', { price, total: price * ui.buy.count })}</p>` : html`<p class="muted">${t('se_no_port')}</p>`}
      ${checkedButton(check, 'buy-send', t('se_buy_send'), { cls: 'primary' })}</section>`;
  }

  function saleLine(o) {
    return t('se_sale_line', { from: name(o.from), to: name(o.to), count: o.count, good: S.goodName(rs(), o.good), price: o.price });
  }

  function salesCard(player) {
    if (S.step(state) !== 2 || state.phase !== 'playing') return '';
    const others = state.players.filter((p) => p.id !== me);
    if (!ui.sale.to && others.length) ui.sale.to = others[0].id;
    const held = Object.entries(player.goods || {}).filter(([, n]) => n).map(([g]) => g);
    if (!held.includes(ui.sale.good)) ui.sale.good = held[0] || '';
    const check = S.offerCheck(state, rs(), me, ui.sale.to, ui.sale.good, ui.sale.count);
    const offers = state.offers || [];
    return html`<section class="card"><h2 id="sales-h" tabindex="-1">${t('se_sales_h')}</h2>
      ${offers.length ? html`<ul class="offers">${offers.map((o) => html`<li class="offer"><p>${saleLine(o)}</p>
        ${o.to === me ? html`<div class="button-group">${checkedButton(S.acceptCheck(state, rs(), me, o), `accept-${o.id}`, t('se_accept'), { cls: 'primary', data: { accept: o.id } })}
          <button type="button" data-decline="${o.id}">${t('se_decline')}</button></div>` : ''}
        ${o.from === me ? html`<button type="button" data-withdraw="${o.id}">${t('se_withdraw')}</button>` : ''}</li>`)}</ul>` : ''}
      <label>${t('se_sale_to')}<select id="sale-to">${others.map((p) => html`<option value="${p.id}" ${p.id === ui.sale.to ? html`selected` : ''}>${p.name}</option>`)}</select></label>
      <label>${t('se_good')}<select id="sale-good">${held.map((g) => html`<option value="${g}" ${g === ui.sale.good ? html`selected` : ''}>${S.goodName(rs(), g)}</option>`)}</select></label>
      ${stepper('sale.count', ui.sale.count, t('se_count'), { min: 1 })}
      <label>${t('se_sale_price')}<input id="sale-price" type="number" min="0" step="10" inputmode="numeric" value="${ui.sale.price}"></label>
      ${checkedButton(check, 'sale-send', t('se_sale_send'))}</section>`;
  }

  function draw() {
    if (!state) return;
    const player = S.playerById(state, me);
    if (!player) { render(root, html`<section class="card"><p>${t('not_joined')}</p></section>`); return; }
    if (state.phase === 'lobby') { navigate(`/join/${code}`, { replace: true }); return; }
    const playing = state.phase === 'playing';
    const events = session.log.all();
    const ctx = { state, ruleset: rs(), events };
    const items = nowItems(state, rs(), me, checks());
    // a strip button whose tap waits in the outbox shows it (a spinner), so nobody taps it twice
    const queued = new Set((session.outbox ? session.outbox.pending : []).map((e) => JSON.stringify(e.action)));
    for (const b of items.flatMap((i) => i.buttons)) {
      const action = b.act ? actionFor({ id: '', dataset: { act: b.act, ...b.data } }) : null;
      if (action && queued.has(JSON.stringify(action))) b.waiting = true;
    }
    render(root, html`
      ${nowStrip(who(player), [...tapItems(session), ...items])}
      ${feed(story(events, tellers, ctx, { limit: FEED_LINES }))}
      ${playing ? bidCard(player) : ''}
      ${playing ? bidsPanel(state, rs()) : ''}
      ${playing ? pickCard() : ''}
      ${ledger(state, rs(), player, { heading: html`<h2>${t('se_ledger')}</h2>` })}
      ${playing ? splitCard(player) : ''}
      ${moveCard(player)}
      ${buyCard()}
      ${salesCard(player)}
      ${S.step(state) > 1 ? positionsPanel(state, rs()) : ''}
      ${tracker(state, rs())}
      ${playing ? html`<seat-move></seat-move>` : ''}
      ${playing && S.step(state) > 1 ? html`<section class="actionbar">${checkedButton(S.finishCheck(state, me), 'finish-phase', t('se_finish'), { cls: 'primary wide' })}</section>` : ''}
    `);
    paintSwatches(root);
  }

  /** The action a button stands for (a strip button says it in data-act, a card's by its id or data), or null. */
  function actionFor(el) {
    const d = el.dataset;
    const offer = d.offer || d.accept || d.decline || d.withdraw;
    switch (d.act || el.id) {
      case 'bid-send': return { type: 'bid', ducats: Number(ui.bid) };
      case 'pick_position': return { type: 'pick_position', position: Number(d.pick) };
      case 'split-send': return { type: 'place_sailors', home: ui.split.home, galleys: ui.split.galleys };
      case 'move-send': {
        const [kind, id] = ui.move.dest.split(':');
        return { type: 'move_galley', galley: ui.move.galley, [kind === 'port' ? 'port' : 'sea_area']: id };
      }
      case 'buy-send': return { type: 'buy', port: ui.buy.port, good: ui.buy.good, count: ui.buy.count };
      case 'sale-send': return { type: 'offer_sale', to: ui.sale.to, good: ui.sale.good, count: ui.sale.count, price: ui.sale.price };
      case 'accept_sale': return { type: 'accept_sale', offer_id: offer };
      case 'decline_sale': return { type: 'decline_sale', offer_id: offer };
      case 'withdraw_sale': return { type: 'withdraw_sale', offer_id: offer };
      case 'finish_phase': case 'finish-phase': return { type: 'finish_phase' };
      default:
        if (d.pick) return { type: 'pick_position', position: Number(d.pick) };
        if (d.accept) return { type: 'accept_sale', offer_id: offer };
        if (d.decline) return { type: 'decline_sale', offer_id: offer };
        if (d.withdraw) return { type: 'withdraw_sale', offer_id: offer };
        return null;
    }
  }

  /** What a tap is called in the strip while it waits, and in its answer: the button, and whose sale. */
  function labelOf(action, button) {
    const label = button.textContent.trim().replace(/\s+/g, ' ');
    if (action.type === 'pick_position') return t('se_position', { p: (S.positions(state, rs())[action.position - 1] || {}).label });
    if (action.type === 'bid') return `${label}: ${t('se_bid_of', { n: action.ducats })}`;
    const offer = action.offer_id && (state.offers || []).find((o) => o.id === action.offer_id);
    return offer ? `${label}: ${saleLine(offer)}` : label;
  }

  async function onClick(event) {
    // the strip's link to the sailors' split unfolds it; stripClick brings it in under the strip
    if (event.target.closest('#now a[href="#split-form"]')) {
      ui.openSplit = true;
      root.querySelector('#split-form')?.setAttribute('open', '');
    }
    if (stripClick(event, session)) return;
    const el = event.target.closest('button');
    if (!el || el.disabled) return;
    if (el.dataset.step) {
      const [group, key] = el.dataset.step.split('.');
      const d = Number(el.dataset.d);
      if (group === 'split') {
        if (key === 'home') ui.split.home = Math.max(0, ui.split.home + d);
        else ui.split.galleys[key] = Math.max(0, (ui.split.galleys[key] || 0) + d);
        ui.openSplit = true;
      }
      if (group === 'buy') ui.buy.count = Math.max(1, ui.buy.count + d);
      if (group === 'sale') ui.sale.count = Math.max(1, ui.sale.count + d);
      draw();
      return;
    }
    const action = actionFor(el);
    if (!action) return;
    el.disabled = true;
    const answer = await session.act(action, labelOf(action, el));
    if (answer) {
      if (action.type === 'place_sailors') { ui.split = null; ui.openSplit = false; }
      if (action.type === 'move_galley') ui.move.dest = '';
    }
    draw();
  }

  function onInput(event) {
    const el = event.target;
    if (el.id === 'bid-ducats') {
      // Only the button follows the typing: the field is never redrawn under the fingers, and the
      // button only when it changes (a blur's change event must not swap it under a tap).
      ui.bid = el.value.trim();
      const box = root.querySelector('#bid-send-box');
      const button = state && bidButton(S.playerById(state, me));
      if (box && button && event.type === 'input' && String(button) !== shownBidButton) {
        shownBidButton = String(button);
        render(box, button);
      }
    }
    if (el.id === 'move-galley') ui.move.galley = Number(el.value);
    if (el.id === 'move-dest') { ui.move.dest = el.value; draw(); }
    if (el.id === 'buy-port') { ui.buy.port = el.value; draw(); }
    if (el.id === 'buy-good') { ui.buy.good = el.value; draw(); }
    if (el.id === 'sale-to') { ui.sale.to = el.value; draw(); }
    if (el.id === 'sale-good') { ui.sale.good = el.value; draw(); }
    if (el.id === 'sale-price') ui.sale.price = Math.max(0, Math.floor(Number(el.value) || 0));
  }

  function onToggle(event) { if (event.target.id === 'split-form') ui.openSplit = event.target.open; }

  function onSubmit(event) {
    event.preventDefault();
    if (event.target.id === 'bid-form') root.querySelector('#bid-send')?.click();
  }

  const off = listen(root, { click: onClick, input: onInput, change: onInput, submit: onSubmit });
  root.addEventListener('toggle', onToggle, true);
  session = await openGame(code, mine.player.token, { onState: (s) => { state = s; draw(); }, onChange: draw });
  return {
    refresh: draw,
    unmount() { off(); root.removeEventListener('toggle', onToggle, true); session.close(); },
  };
}
