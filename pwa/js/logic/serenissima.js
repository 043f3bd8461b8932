// Pure: Serenissima's state view (+ ruleset) in, what a player may do now out — each refusal names
// its rule (games/serenissima/RULES.md, SE1–SE19) and a string key with its parameters.
// The server has the last word; these checks only explain a disabled button before it is pressed.
import { tx } from '../i18n.js';

const OK = { ok: true };
const no = (rule, key, params = {}) => ({ ok: false, rule, key, params });

export function playerById(state, id) {
  return (state && state.players || []).find((p) => p.id === id) || null;
}

const nameOf = (state, id) => (playerById(state, id) || {}).name || String(id || '');
export const step = (state) => (state && state.round_phase ? state.round_phase.number : 0);

export function portById(ruleset, id) { return (ruleset.ports || []).find((p) => p.id === id) || null; }
export function seaById(ruleset, id) { return (ruleset.sea_areas || []).find((s) => s.id === id) || null; }
export function goodName(ruleset, id) {
  const good = (ruleset.goods || []).find((g) => g.id === id);
  return good ? tx(good.name) : String(id);
}
export const portName = (ruleset, id) => { const p = portById(ruleset, id); return p ? tx(p.name) : String(id); };
export const seaName = (ruleset, id) => { const s = seaById(ruleset, id); return s ? tx(s.name) : String(id); };

/** Where a galley lies, in words: its port, else its sea area. */
export function galleyPlace(ruleset, galley) {
  return galley.port ? { port: portName(ruleset, galley.port) } : { area: seaName(ruleset, galley.sea_area) };
}

export const totalSailors = (player) => player.home_sailors + player.galleys.reduce((n, g) => n + g.sailors, 0);

function playing(state) {
  return state && state.phase === 'playing' ? OK : no('SE4', 'se_r_playing');
}

function inPhase(state, number) {
  const base = playing(state);
  if (!base.ok) return base;
  return step(state) === number ? OK : no('SE4', 'se_r_phase', { now: step(state), need: number });
}

/** SE11: in phases 2–6 the first in turn order who has not finished the phase acts. */
export function turnCheck(state, me) {
  const base = playing(state);
  if (!base.ok) return base;
  if (step(state) === 1) return no('SE4', 'se_r_phase', { now: 1, need: 2 });
  return state.active === me ? OK : no('SE11', 'se_r_turn', { name: nameOf(state, state.active) });
}

// ---- phase 1 (SE5–SE9) -----------------------------------------------------------------------

export function bidCheck(state, me, ducats) {
  const base = inPhase(state, 1);
  if (!base.ok) return base;
  if (state.bidding && state.bidding.revealed) return no('SE6', 'se_r_revealed');
  const own = (playerById(state, me) || {}).ducats || 0;
  if (!Number.isInteger(ducats) || ducats < 0 || ducats > own) return no('SE5', 'se_r_bid_range', { n: own });
  return OK;
}

/** Who has bid and who is still awaited — never how much (SE5). */
export function bidProgress(state) {
  const waiting = new Set((state.bidding && state.bidding.waiting_for) || []);
  return state.players.map((p) => ({ id: p.id, name: p.name, character: p.character, in: !waiting.has(p.id) }));
}

/** The positions I–IV and who holds each (SE7). */
export function positions(state, ruleset) {
  const labels = ruleset.positions || ['I', 'II', 'III', 'IV'];
  return labels.map((label, i) => {
    const holder = state.players.find((p) => p.position === label);
    return { number: i + 1, label, holder: holder ? holder.id : null };
  });
}

export function pickCheck(state, ruleset, me, number) {
  const base = inPhase(state, 1);
  if (!base.ok) return base;
  const bidding = state.bidding || {};
  if (!bidding.revealed) return no('SE6', 'se_r_not_revealed');
  if (bidding.picker !== me) return no('SE7', 'se_r_not_picker', { name: nameOf(state, bidding.picker) });
  const field = positions(state, ruleset)[number - 1];
  if (field && field.holder) return no('SE7', 'se_r_pos_taken', { p: field.label, name: nameOf(state, field.holder) });
  return OK;
}

/** The revealed bids in picking order, each with the tie-break dice it rolled (SE6–SE9). */
export function revealRows(state) {
  const bidding = state.bidding || {};
  if (!bidding.revealed) return [];
  return (bidding.pick_order || []).map((pid, i) => ({
    id: pid, place: i + 1, name: nameOf(state, pid), bid: (playerById(state, pid) || {}).bid,
    rolls: (bidding.rolls || []).filter((r) => r.player === pid).map((r) => ({ bid: r.bid, value: r.die.value })),
  }));
}

// ---- sailors (SE3) ---------------------------------------------------------------------------

export function sailorsCheck(state, me, home, aboard) {
  const player = playerById(state, me);
  if (!player) return no('SE3', 'se_r_playing');
  const settingUp = state.phase === 'playing' && state.round === 1 && step(state) === 1
    && !(state.bidding && state.bidding.revealed);
  if (!settingUp) {
    const turn = turnCheck(state, me);
    if (step(state) !== 2) return no('SE3', 'se_r_split_when');
    if (!turn.ok) return turn;
  }
  const total = totalSailors(player);
  const placed = home + Object.values(aboard).reduce((n, v) => n + v, 0);
  return placed === total ? OK : no('SE3', 'se_r_split', { n: total, m: placed });
}

// ---- phase 2 (SE12–SE17) ---------------------------------------------------------------------

/** SE15: 100 ducats in a neutral or own port; the house price in a foreign one. */
export function priceAt(state, ruleset, me, portId) {
  const controller = (state.ports || {})[portId];
  if (controller == null || controller === me) return ruleset.good_price;
  return (ruleset.house_rules || {}).foreign_price ?? ruleset.good_price;
}

/** SE12: the ports next to a sea area where one of my galleys lies. */
export function portsInReach(state, ruleset, me) {
  const player = playerById(state, me);
  if (!player) return [];
  const seas = new Set(player.galleys.map((g) => g.sea_area));
  return (ruleset.ports || []).filter((p) => seas.has(p.sea_area));
}

export function buyCheck(state, ruleset, me, portId, good, count) {
  const base = inPhase(state, 2);
  if (!base.ok) return base;
  const turn = turnCheck(state, me);
  if (!turn.ok) return turn;
  const port = portById(ruleset, portId);
  if (!port || !good || !(count >= 1)) return no('SE12', 'se_r_choose');
  if (!portsInReach(state, ruleset, me).some((p) => p.id === portId)) {
    return no('SE12', 'se_r_no_galley', { port: tx(port.name) });
  }
  if (!port.goods.includes(good)) {
    return no('SE13', 'se_r_port_goods', { port: tx(port.name), list: port.goods.map((g) => goodName(ruleset, g)).join(', ') });
  }
  const cost = priceAt(state, ruleset, me, portId) * count;
  const own = playerById(state, me).ducats;
  const rule = cost / count === ruleset.good_price ? 'SE14' : 'SE15';
  return cost <= own ? OK : no(rule, 'se_r_ducats', { n: own, m: cost });
}

export function moveCheck(state, me) { return turnCheck(state, me); }

/** SE16: the sea areas where both players have a galley. */
export function sharedSeas(state, a, b) {
  const pa = playerById(state, a);
  const pb = playerById(state, b);
  if (!pa || !pb) return [];
  const seas = new Set(pa.galleys.map((g) => g.sea_area));
  return [...new Set(pb.galleys.map((g) => g.sea_area).filter((s) => seas.has(s)))];
}

export function offerCheck(state, ruleset, me, to, good, count) {
  const base = inPhase(state, 2);
  if (!base.ok) return base;
  if (!to || !good || !(count >= 1)) return no('SE16', 'se_r_choose');
  if (state.active !== me && state.active !== to) return no('SE11', 'se_r_sale_side', { name: nameOf(state, state.active) });
  const held = (playerById(state, me).goods || {})[good] || 0;
  if (held < count) return no('SE16', 'se_r_goods', { name: nameOf(state, me), n: held, good: goodName(ruleset, good), m: count });
  if (!sharedSeas(state, me, to).length) return no('SE16', 'se_r_sea', { a: nameOf(state, me), b: nameOf(state, to) });
  return OK;
}

export function acceptCheck(state, ruleset, offer) {
  const base = inPhase(state, 2);
  if (!base.ok) return base;
  if (!sharedSeas(state, offer.from, offer.to).length) {
    return no('SE16', 'se_r_sea', { a: nameOf(state, offer.from), b: nameOf(state, offer.to) });
  }
  const held = (playerById(state, offer.from).goods || {})[offer.good] || 0;
  if (held < offer.count) {
    return no('SE16', 'se_r_goods', { name: nameOf(state, offer.from), n: held, good: goodName(ruleset, offer.good), m: offer.count });
  }
  const own = playerById(state, offer.to).ducats;
  return own >= offer.price ? OK : no('SE16', 'se_r_ducats', { n: own, m: offer.price });
}

export function finishCheck(state, me) {
  const base = playing(state);
  if (!base.ok) return base;
  if (step(state) === 1) return no('SE7', 'se_r_phase1');
  return turnCheck(state, me);
}
