// Pure: Serenissima's state view (+ ruleset) in, what a player may do now out — each refusal names
// its rule (games/serenissima/RULES.md, SE1–SE19) and a string key with its parameters.
// The server has the last word (games/serenissima/decide.py); these checks mirror it to explain a
// disabled button before it is pressed, every number from the ruleset and its house rules, and
// tests/differential holds them to the server's answers over generated games.
import { tx } from '../i18n.js';
import { OK, forbidden, hostOnly, joinCheck, lobbyStart, nameOf, no, playerById, seated, undoCheck } from './checks.js';

export { nameOf, playerById };

export const step = (state) => (state && state.round_phase ? state.round_phase.number : 0);

export function portById(ruleset, id) { return (ruleset.ports || []).find((p) => p.id === id) || null; }
function seaById(ruleset, id) { return (ruleset.sea_areas || []).find((s) => s.id === id) || null; }
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

/** The game is on: SE4 before the start, SE19 once it is over. */
function playing(state) {
  if (!state || state.phase === 'lobby') return no('SE4', 'se_r_playing');
  return state.phase === 'finished' ? no('SE19', 'se_r_playing') : OK;
}

function inPhase(state, number) {
  const base = playing(state);
  if (!base.ok) return base;
  return step(state) === number ? OK : no('SE4', 'se_r_phase', { now: step(state), need: number });
}

/** SE11: a seated player; in phases 2–6 the first in turn order who has not finished the phase acts. */
export function turnCheck(state, me) {
  const base = playing(state);
  if (!base.ok) return base;
  const player = seated(state, me);
  if (!player.ok) return player;
  if (step(state) > 1 && state.active !== me) return no('SE11', 'se_r_turn', { name: nameOf(state, state.active) });
  return OK;
}

// ---- the lobby and the host (SE1, SE19) ------------------------------------------------------

/** SE1: the powers at the table make one of the ruleset's setups for that many players. */
export function startCheck(state, ruleset) {
  return lobbyStart(state, () => {
    const powers = state.players.map((p) => p.character).sort().join();
    const setups = (ruleset.setups || {})[String(state.players.length)] || [];
    return setups.some((s) => [...s].sort().join() === powers) ? OK : no('SE1', 'r_setup', { n: state.players.length });
  });
}

function endGameCheck(state) {
  const host = hostOnly(state);
  return host.ok ? playing(state) : host;
}

// ---- phase 1 (SE5–SE9) -----------------------------------------------------------------------

export function bidCheck(state, me, ducats) {
  const base = inPhase(state, 1);
  if (!base.ok) return base;
  const player = seated(state, me);
  if (!player.ok) return player;
  if (state.bidding && state.bidding.revealed) return no('SE6', 'se_r_revealed');
  const own = playerById(state, me).ducats;
  if (!Number.isInteger(ducats) || ducats < 0 || ducats > own) return no('SE5', 'se_r_bid_range', { n: own });
  return OK;
}

/** Who has bid and who is still awaited — never how much (SE5). */
export function bidProgress(state) {
  const waiting = new Set((state.bidding && state.bidding.waiting_for) || []);
  return state.players.map((p) => ({ id: p.id, name: p.name, character: p.character, in: !waiting.has(p.id) }));
}

/** The positions I–IV (from the ruleset) and who holds each (SE7). */
export function positions(state, ruleset) {
  return ruleset.positions.map((label, i) => {
    const holder = state.players.find((p) => p.position === label);
    return { number: i + 1, label, holder: holder ? holder.id : null };
  });
}

export function pickCheck(state, ruleset, me, number) {
  const base = inPhase(state, 1);
  if (!base.ok) return base;
  const player = seated(state, me);
  if (!player.ok) return player;
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
  const turn = turnCheck(state, me);
  if (!turn.ok) return turn;
  // SE3: sailors are placed at the start (round 1, before the bids are revealed) and in phase 2
  const settingUp = state.round === 1 && step(state) === 1 && !(state.bidding && state.bidding.revealed);
  if (!settingUp) {
    const phase = inPhase(state, 2);
    if (!phase.ok) return phase;
  }
  const total = totalSailors(playerById(state, me));
  const placed = home + Object.values(aboard).reduce((n, v) => n + v, 0);
  return placed === total ? OK : no('SE3', 'se_r_split', { n: total, m: placed });
}

// ---- phase 2 (SE12–SE17) ---------------------------------------------------------------------

/** SE14/SE15: the ruleset's price in a neutral or own port; the house price in a foreign one. */
export function priceAt(state, ruleset, me, portId) {
  return foreign(state, me, portId) ? ruleset.house_rules.foreign_price : ruleset.good_price;
}

const foreign = (state, me, portId) => {
  const controller = (state.ports || {})[portId];
  return controller != null && controller !== me;
};

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
  return cost <= own ? OK : no(foreign(state, me, portId) ? 'SE15' : 'SE14', 'se_r_ducats', { n: own, m: cost });
}

/** Galleys move in phases 2–6, on one's turn. */
export function moveCheck(state, me) {
  const turn = turnCheck(state, me);
  if (!turn.ok) return turn;
  return step(state) === 1 ? no('SE4', 'se_r_phase', { now: 1, need: 2 }) : OK;
}

/** SE16: the sea areas where both players have a galley. */
function sharedSeas(state, a, b) {
  const pa = playerById(state, a);
  const pb = playerById(state, b);
  if (!pa || !pb) return [];
  const seas = new Set(pa.galleys.map((g) => g.sea_area));
  return [...new Set(pb.galleys.map((g) => g.sea_area).filter((s) => seas.has(s)))];
}

/** A sale is offered in phase 2 from or to the player whose turn it is; goods and seas count when it is accepted. */
export function offerCheck(state, ruleset, me, to, good, count) {
  const base = inPhase(state, 2);
  if (!base.ok) return base;
  const player = seated(state, me);
  if (!player.ok) return player;
  if (!to || to === me || !good || !(count >= 1)) return no('SE16', 'se_r_choose');
  if (state.active !== me && state.active !== to) return no('SE11', 'se_r_sale_side', { name: nameOf(state, state.active) });
  return OK;
}

/** An offer still open, answered by its `side` ('to' accepts or declines, 'from' withdraws). */
function openOffer(state, me, offer, side) {
  if (!offer || !(state.offers || []).some((o) => o.id === offer.id)) return no('SE16', 'se_r_offer_gone');
  return offer[side] === me ? OK : forbidden('r_not_yours');
}

export function acceptCheck(state, ruleset, me, offer) {
  const base = inPhase(state, 2);
  if (!base.ok) return base;
  const open = openOffer(state, me, offer, 'to');
  if (!open.ok) return open;
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

function declineCheck(state, me, offer) { return openOffer(state, me, offer, 'to'); }

function withdrawCheck(state, me, offer) { return openOffer(state, me, offer, 'from'); }

export function finishCheck(state, me) {
  const base = playing(state);
  if (!base.ok) return base;
  if (step(state) === 1) return no('SE7', 'se_r_phase1');
  return turnCheck(state, me);
}

// ---- an action as the server takes it ----------------------------------------------------------

/** The check of `action` (the JSON the server takes) by `me` (a player id, or null for the host). */
export function checkAction(state, ruleset, me, action) {
  const a = action;
  const offer = () => (state.offers || []).find((o) => o.id === a.offer_id) || { id: a.offer_id };
  if (state.phase === 'finished' && a.type !== 'join') return no('SE19', 'r_over'); // the end is final
  switch (a.type) {
    case 'join': return joinCheck(state, ruleset, a.character);
    case 'start': return startCheck(state, ruleset);
    case 'end_game': return endGameCheck(state);
    case 'undo': return undoCheck(state);
    case 'place_sailors': return sailorsCheck(state, me, a.home, a.galleys);
    case 'bid': return bidCheck(state, me, a.ducats);
    case 'pick_position': return pickCheck(state, ruleset, me, a.position);
    case 'move_galley': return moveCheck(state, me);
    case 'buy': return buyCheck(state, ruleset, me, a.port, a.good, a.count);
    case 'offer_sale': return offerCheck(state, ruleset, me, a.to, a.good, a.count);
    case 'accept_sale': return acceptCheck(state, ruleset, me, offer());
    case 'decline_sale': return declineCheck(state, me, offer());
    case 'withdraw_sale': return withdrawCheck(state, me, offer());
    case 'finish_phase': return finishCheck(state, me);
    default: return null;
  }
}
