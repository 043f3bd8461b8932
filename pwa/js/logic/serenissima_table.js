// Pure: Serenissima at the table. The words of each event for the table's story, and what needs a
// player now (the phone's strip), most urgent first. No DOM, no I/O. Its words live in
// views/serenissima/strings.js, which every Serenissima page loads before it draws.
// The story is made only of the events the server sent this viewer: before the reveal a BidPlaced
// carries its amount for its own bidder alone (SE5), so no other phone, host or screen can tell it.
import { t, tx } from '../i18n.js';
import { goodName, playerById, portName, positions, seaName, step } from './serenissima.js';

/** A player's name by id, in the current state, or the id itself. */
export function nameIn(state, pid) {
  return (playerById(state, pid) || {}).name || String(pid || '?');
}

const names = (state, ids) => ids.map((pid) => nameIn(state, pid)).join(', ');

function powerName(ruleset, id) {
  const power = ((ruleset && (ruleset.powers || ruleset.characters)) || []).find((p) => p.id === id);
  return power ? tx(power.name) : String(id || '');
}

function positionLabel(ruleset, number) {
  return ((ruleset && ruleset.positions) || ['I', 'II', 'III', 'IV'])[number - 1] || String(number);
}

/** "2 Wine", "1 Spices". */
export function goods(ruleset, count, good) {
  return t('se_count_good', { n: count, good: goodName(ruleset || {}, good) });
}

/** The versions the host took back: what they did no longer counts when looking back. */
function undoneVersions(events) {
  return new Set(events.filter((e) => e.type === 'ActionUndone').map((e) => e.undone_version));
}

/** The sale `id` as it was offered (SaleOffered), found by looking back in the events. */
export function saleOffered(events, id) {
  for (let i = events.length - 1; i >= 0; i -= 1) {
    const e = events[i];
    if (e.type === 'SaleOffered' && e.offer && e.offer.id === id) return e.offer;
  }
  return null;
}

/**
 * Who acts first after `version` in the phase then running (SE11): the first in that round's turn
 * order who had not finished the phase. Looked back for in the events, so an old line stays true.
 */
function activeAfter(events, version) {
  const undone = undoneVersions(events);
  let order = [];
  let finished = new Set();
  for (const e of events) {
    if (e.version > version) break;
    if (undone.has(e.version)) continue;
    if (e.type === 'GameStarted') order = [...(e.seats || [])];
    if (e.type === 'TurnOrderSet') order = [...e.order];
    if (e.type === 'PhaseBegan' || e.type === 'RoundBegan') finished = new Set();
    if (e.type === 'PhaseFinished') finished.add(e.player);
  }
  return order.find((pid) => !finished.has(pid)) || null;
}

/** The tie-break dice of a reveal in words: "Bram rolls 5, Cas rolls 3" (SE8, SE9). */
function rollsText(state, rolls) {
  return rolls.map((r) => t('se_told_roll', { name: nameIn(state, r.player), v: r.die.value })).join(', ');
}

/** Whether `type` happened in the same change (version) as `event`. */
function sameChange(ctx, event, ...types) {
  return (ctx.events || []).some((x) => x.version === event.version && types.includes(x.type));
}

/** The words of each Serenissima event; `ctx` is {state, ruleset, events} (events: all, oldest first). */
export const tellers = {
  PlayerJoined: (e, ctx) => t('se_told_joined', { name: e.name, power: powerName(ctx.ruleset, e.character) }),
  GameStarted: () => ({ text: t('se_told_started'), moment: true }),
  SailorsPlaced: (e, ctx) => t('se_told_sailors', {
    name: nameIn(ctx.state, e.player), home: e.home,
    aboard: Object.entries(e.galleys || {}).map(([n, s]) => t('se_told_aboard', { n, s })).join(', '),
  }),
  BidPlaced: (e, ctx) => {
    if (sameChange(ctx, e, 'BidsRevealed')) return null; // the reveal's line tells every bid
    const again = (ctx.events || []).some((x) => x.type === 'BidPlaced' && x.player === e.player && x.version < e.version
      && !(ctx.events || []).some((y) => (y.type === 'RoundBegan' || y.type === 'BidsRevealed') && y.version > x.version && y.version < e.version));
    const name = nameIn(ctx.state, e.player);
    // only the bidder's own events carry the amount (SE5)
    if (typeof e.ducats === 'number') return t(again ? 'se_told_rebid_own' : 'se_told_bid_own', { name, n: e.ducats });
    return t(again ? 'se_told_rebid' : 'se_told_bid', { name });
  },
  BidsRevealed: (e, ctx) => {
    const state = ctx.state;
    const bids = (e.pick_order || Object.keys(e.bids || {}))
      .map((pid) => t('se_told_bid_of', { name: nameIn(state, pid), n: (e.bids || {})[pid] })).join(', ');
    const parts = [t('se_told_revealed', { bids })];
    if (e.rolls && e.rolls.length) parts.push(t('se_told_ties', { rolls: rollsText(state, e.rolls) }));
    parts.push(t('se_told_first_pick', { name: nameIn(state, e.pick_order[0]) }));
    return { text: parts.join(' '), moment: true };
  },
  PositionPicked: (e, ctx) => t('se_told_picked', { name: nameIn(ctx.state, e.player), p: positionLabel(ctx.ruleset, e.position) }),
  TurnOrderSet: (e, ctx) => ({ text: t('se_told_order', { names: names(ctx.state, e.order) }), moment: true }),
  // the phase's long name is on the round tracker; the line says who goes first
  PhaseBegan: (e, ctx) => {
    const first = activeAfter(ctx.events || [], e.version);
    return t(first ? 'se_told_phase_first' : 'se_told_phase', { n: e.number, name: first ? nameIn(ctx.state, first) : '' });
  },
  RoundBegan: (e) => ({ text: t('se_told_round', { n: e.round }), moment: true }),
  GalleyMoved: (e, ctx) => (e.port
    ? t('se_told_moved_port', { name: nameIn(ctx.state, e.player), n: e.galley, port: portName(ctx.ruleset || {}, e.port) })
    : t('se_told_moved_sea', { name: nameIn(ctx.state, e.player), n: e.galley, area: seaName(ctx.ruleset || {}, e.sea_area) })),
  GoodsBought: (e, ctx) => {
    const line = t('se_told_bought', { name: nameIn(ctx.state, e.player), goods: goods(ctx.ruleset, e.count, e.good), port: portName(ctx.ruleset || {}, e.port), paid: e.paid });
    return e.paid_to ? `${line} ${t('se_told_paid_to', { name: nameIn(ctx.state, e.paid_to) })}` : line;
  },
  SaleOffered: (e, ctx) => {
    const o = e.offer;
    return t('se_told_offered', { from: nameIn(ctx.state, o.from), to: nameIn(ctx.state, o.to), goods: goods(ctx.ruleset, o.count, o.good), price: o.price });
  },
  // a sale's answer is what its two sides wait for: a moment, on their phones and the TV's headline
  SaleAccepted: (e, ctx) => ({ text: t('se_told_sold', { from: nameIn(ctx.state, e.from), to: nameIn(ctx.state, e.to), goods: goods(ctx.ruleset, e.count, e.good), price: e.price }), moment: true }),
  SaleDeclined: (e, ctx) => {
    const o = saleOffered(ctx.events || [], e.offer_id) || { from: '?', to: '?' };
    return { text: t('se_told_declined', { from: nameIn(ctx.state, o.from), to: nameIn(ctx.state, o.to) }), moment: true };
  },
  SaleWithdrawn: (e, ctx) => {
    const o = saleOffered(ctx.events || [], e.offer_id) || { from: '?', to: '?' };
    return { text: t('se_told_withdrawn', { from: nameIn(ctx.state, o.from), to: nameIn(ctx.state, o.to) }), moment: true };
  },
  PhaseFinished: (e, ctx) => {
    const name = nameIn(ctx.state, e.player);
    const parts = [t('se_told_finished', { name, n: e.number })];
    if (e.lapsed && e.lapsed.length) parts.push(t('se_told_lapsed', { name }));
    // a phase, round or game that ends with this change is told by its own line
    if (!sameChange(ctx, e, 'PhaseBegan', 'RoundBegan', 'GameEnded')) {
      const next = activeAfter(ctx.events || [], e.version);
      if (next) parts.push(t('se_told_next', { name: nameIn(ctx.state, next) }));
    }
    // sales that lapse are news for both their sides: a moment
    return e.lapsed && e.lapsed.length ? { text: parts.join(' '), moment: true } : parts.join(' ');
  },
  GameEnded: (e) => ({ text: t('se_told_ended', { n: e.round }), moment: true }),
};

/**
 * What needs player `me` now, most urgent first: [{id, tone, text, buttons}]. `tone` is 'act'
 * (something to do), 'wait' (someone else decides about you) or 'info'. A button is
 * {id, label, act?, data?, check?, cls?, href?}; `checks` = {accept(offer), pick(number), finish()}
 * refuse a button with its rule. What concerns only other players is never something to do here.
 */
export function nowItems(state, ruleset, me, checks) {
  if (!state || state.phase === 'lobby') return [];
  if (state.phase === 'finished') return [{ id: 'over', tone: 'info', text: t('se_now_over', { n: state.round }), buttons: [] }];
  const player = playerById(state, me);
  if (!player) return [];
  const now = step(state);
  const items = [];
  const bidding = state.bidding;
  if (now === 1 && bidding && !bidding.revealed) {
    const waiting = (bidding.waiting_for || []).filter((pid) => pid !== me);
    if ((bidding.waiting_for || []).includes(me)) {
      items.push({ id: 'bid', tone: 'act', text: t('se_now_bid'), buttons: [{ id: 'do-bid', label: t('se_now_to_bid'), href: '#bid-h', cls: 'primary' }] });
    } else {
      const bid = typeof player.bid === 'number' ? player.bid : '?';
      items.push({ id: 'bid', tone: 'info', text: t('se_now_bid_in', { n: bid, names: names(state, waiting) }), buttons: [] });
    }
    const home = player.galleys.every((g) => !g.sailors);
    if (state.round === 1 && home) {
      items.push({ id: 'sailors', tone: 'info', text: t('se_now_sailors'), buttons: [{ id: 'do-sailors', label: t('se_split'), href: '#split-form', cls: 'small' }] });
    }
    return items;
  }
  if (now === 1 && bidding && bidding.revealed) {
    const order = bidding.pick_order || [];
    if (bidding.picker === me) {
      const place = order.indexOf(me) + 1;
      const free = positions(state, ruleset).filter((f) => !f.holder);
      items.push({
        id: 'pick', tone: 'act', text: t(place === 1 ? 'se_now_pick_first' : 'se_now_pick', { n: place }),
        buttons: free.map((f) => ({ id: `do-pick-${f.number}`, label: f.label, act: 'pick_position', data: { pick: f.number }, check: checks.pick(f.number), cls: 'pos' })),
      });
    } else if (player.position) {
      items.push({ id: 'status', tone: 'info', text: t('se_now_picked', { p: player.position, name: nameIn(state, bidding.picker) }), buttons: [] });
    } else {
      const from = order.indexOf(bidding.picker);
      const ahead = order.slice(from, order.indexOf(me));
      items.push({ id: 'status', tone: 'info', text: t('se_now_pick_wait', { name: nameIn(state, bidding.picker), names: names(state, ahead) }), buttons: [] });
    }
    return items;
  }
  for (const o of (state.offers || []).filter((x) => x.to === me)) {
    items.push({
      id: `sale-${o.id}`, tone: 'act',
      text: t('se_now_sale', { from: nameIn(state, o.from), goods: goods(ruleset, o.count, o.good), price: o.price }),
      buttons: [
        { id: `do-accept-${o.id}`, label: t('se_accept'), act: 'accept_sale', data: { offer: o.id }, check: checks.accept(o), cls: 'primary' },
        { id: `do-decline-${o.id}`, label: t('se_decline'), act: 'decline_sale', data: { offer: o.id } },
      ],
    });
  }
  const active = state.active;
  if (active === me) {
    const house = now > 2;
    items.push({
      id: 'turn', tone: 'act', text: t(house ? 'se_now_turn_house' : 'se_now_turn_2', { n: now }),
      buttons: house ? [{ id: 'do-finish', label: t('se_finish'), act: 'finish_phase', data: {}, check: checks.finish(), cls: 'primary' }] : [],
    });
  }
  for (const o of (state.offers || []).filter((x) => x.from === me)) {
    items.push({
      id: `mine-${o.id}`, tone: 'wait',
      text: t('se_now_your_sale', { to: nameIn(state, o.to), goods: goods(ruleset, o.count, o.good), price: o.price }),
      buttons: [{ id: `do-withdraw-${o.id}`, label: t('se_withdraw'), act: 'withdraw_sale', data: { offer: o.id }, cls: 'small' }],
    });
  }
  if (active !== me) {
    const order = state.turn_order || [];
    const upcoming = order.filter((pid) => !(playerById(state, pid) || {}).finished_phase);
    let key = 'se_now_status';
    if (player.finished_phase) key = 'se_now_status_done';
    else if (upcoming[1] === me) key = 'se_now_status_next';
    items.push({ id: 'status', tone: 'info', text: t(key, { n: now, name: nameIn(state, active) }), buttons: [] });
  }
  return items;
}

// ---- the TV's headline ---------------------------------------------------------------------

/** The TV's headline: what the table waits for now, in one line. */
export function tableNow(state) {
  if (!state || state.phase === 'lobby') return t('waiting_host');
  if (state.phase === 'finished') return t('se_now_over', { n: state.round });
  const bidding = state.bidding;
  if (bidding && !bidding.revealed) {
    const waiting = bidding.waiting_for || [];
    return waiting.length ? t('se_head_bids', { n: state.round, names: names(state, waiting) }) : t('se_all_in');
  }
  if (bidding && bidding.picker) return t('se_head_pick', { name: nameIn(state, bidding.picker) });
  return state.active ? t('se_head_turn', { n: step(state), name: nameIn(state, state.active) }) : t('se_phase', { n: step(state) });
}
