// Pure: Voyagers' Venture's state view (+ ruleset) in, what a player may do now out — each refusal
// names its rule (games/voyagers/RULES.md, VV1–VV20) and a string key with its parameters. The
// server has the last word; these checks explain a disabled button before it is pressed.

const OK = { ok: true };
const no = (rule, key, params = {}) => ({ ok: false, rule, key, params });

export function playerById(state, id) {
  return (state && state.players || []).find((p) => p.id === id) || null;
}
/** A player's name by id, or the id itself. */
export const nameOf = (state, id) => (playerById(state, id) || {}).name || String(id || '');

export const handLimit = (ruleset) => ruleset.hand_limit || 8;
const leastCards = (state, ruleset) => Math.min((ruleset.house_rules || {}).min_bid_cards ?? 1, state.display.length);
const cardName = (state, id) => ((state.display || []).find((c) => c.id === id) || {}).name || id;

function stage(state, wanted, rule) {
  if (!state || state.phase !== 'playing') return no(rule, 'vv_r_not_running');
  return state.stage === wanted ? OK : no(rule, 'vv_r_stage', { stage: state.stage });
}

/** Cards on display that are not in the current bid (VV7, VV9). */
export function outsideBid(state) {
  const bid = new Set((state.bid && state.bid.cards) || []);
  return state.display.filter((c) => !bid.has(c.id));
}

/** VV4: the players who already agreed to the bid on the table (clockwise from its bidder). */
export function agreedSoFar(state) {
  const bid = state.bid;
  if (!bid) return [];
  const seats = state.players.map((p) => p.id);
  const at = seats.indexOf(bid.bidder);
  const clockwise = [...seats.slice(at + 1), ...seats.slice(0, at)];
  const waiting = new Set(bid.voters);
  return clockwise.filter((p) => !playerById(state, p).received && !waiting.has(p));
}

export function nameCheck(state, ruleset, me, cards) {
  const base = stage(state, 'naming', 'VV3');
  if (!base.ok) return base;
  if (state.waiting_for !== me) return no('VV3', 'vv_r_names_now', { name: nameOf(state, state.waiting_for) });
  const least = leastCards(state, ruleset);
  if (cards.length < least) return no('VV3', 'vv_r_least', { n: least, m: cards.length });
  return OK;
}

export function voteCheck(state, me) {
  const base = stage(state, 'voting', 'VV4');
  if (!base.ok) return base;
  const voter = state.bid.voters[0];
  return voter === me ? OK : no('VV4', 'vv_r_votes_now', { name: nameOf(state, voter) });
}

/** VV6: whoever disagrees must cut, so a bid that cannot be cut cannot be disagreed with. */
export function disagreeCheck(state, ruleset, me) {
  const base = voteCheck(state, me);
  if (!base.ok) return base;
  const gold = playerById(state, me).gold;
  const least = (ruleset.house_rules || {}).min_bid_cards ?? 1;
  const canCut = (gold >= 1 && outsideBid(state).length > 0) || state.bid.cards.length - 1 >= least;
  return canCut ? OK : no('VV6', 'vv_r_no_cut', { n: state.bid.cards.length, gold });
}

/**
 * One of the three cuts of a bid (VV6–VV9):
 * doubloon {card}: 1 gold on a displayed card outside the bid; remove {cards}: ≥ 1 of the bid;
 * swap {remove, add}: ≥ 2 of the bid out, 1 displayed card outside it in.
 */
export function cutCheck(state, ruleset, me, cut) {
  const base = stage(state, 'cutting', 'VV6');
  if (!base.ok) return base;
  if (state.bid.cutter !== me) return no('VV6', 'vv_r_cuts_now', { name: nameOf(state, state.bid.cutter) });
  const inBid = new Set(state.bid.cards);
  const outside = new Set(outsideBid(state).map((c) => c.id));
  if (cut.kind === 'doubloon') {
    if (!cut.card) return no('VV7', 'vv_r_pick_outside');
    if (!outside.has(cut.card)) return no('VV7', 'vv_r_in_bid', { card: cardName(state, cut.card) });
    const gold = playerById(state, me).gold;
    return gold >= 1 ? OK : no('VV7', 'vv_r_gold', { n: gold });
  }
  if (cut.kind === 'remove') {
    const removed = cut.cards || [];
    if (removed.length < 1) return no('VV8', 'vv_r_remove_least', { n: 1, m: 0 });
    if (removed.some((c) => !inBid.has(c))) return no('VV8', 'vv_r_not_in_bid');
    const least = (ruleset.house_rules || {}).min_bid_cards ?? 1;
    const kept = state.bid.cards.length - removed.length;
    return kept >= least ? OK : no('VV8', 'vv_r_keep', { n: least, m: kept });
  }
  if (cut.kind === 'swap') {
    const removed = cut.remove || [];
    if (removed.some((c) => !inBid.has(c))) return no('VV9', 'vv_r_not_in_bid');
    if (removed.length < 2) return no('VV9', 'vv_r_remove_least', { n: 2, m: removed.length });
    if (!cut.add) return no('VV9', 'vv_r_pick_outside');
    return outside.has(cut.add) ? OK : no('VV9', 'vv_r_in_bid', { card: cardName(state, cut.add) });
  }
  return no('VV6', 'vv_r_pick_kind');
}

/** The bid that a cut leaves (what the others are asked to agree to next, VV10). */
export function afterCut(state, cut) {
  const cards = state.bid.cards;
  if (cut.kind === 'remove') return cards.filter((c) => !(cut.cards || []).includes(c));
  if (cut.kind === 'swap') return [...cards.filter((c) => !(cut.remove || []).includes(c)), cut.add].filter(Boolean);
  return cards;
}

/** VV12: how many cards a player must discard face-down (0 when within the limit). */
export function overLimit(ruleset, player) {
  return Math.max(0, (player.hand ? player.hand.length : player.hand_count) - handLimit(ruleset));
}

export function discardCheck(state, ruleset, me, cards) {
  const base = stage(state, 'discarding', 'VV12');
  if (!base.ok) return base;
  const excess = overLimit(ruleset, playerById(state, me));
  if (!excess) return no('VV12', 'vv_r_within_limit', { n: handLimit(ruleset) });
  return cards.length === excess ? OK : no('VV12', 'vv_r_discard', { n: excess, m: cards.length, limit: handLimit(ruleset) });
}

/** VV15–VV18: the reputation of the numbers entered, part by part. */
export function reputationParts(ruleset, entry) {
  const bonus = ruleset.reputation || { fastest_fleet: 2, gold_per_point: 2, smuggled_penalty: 1 };
  const parts = [
    ['tips', entry.tips || 0], ['ships', entry.ships || 0], ['nobles', entry.nobles || 0],
    ['fastest_fleet', entry.fastest_fleet ? bonus.fastest_fleet : 0],
    ['gold', Math.floor((entry.gold || 0) / bonus.gold_per_point)],
    ['smuggled', -bonus.smuggled_penalty * (entry.smuggled || 0)],
  ];
  return { parts, total: parts.reduce((n, [, v]) => n + v, 0) };
}

export function scoreCheck(state, me, entry) {
  const base = stage(state, 'scoring', 'VV15');
  if (!base.ok) return base;
  const holder = state.players.find((p) => p.id !== me && p.score && p.score.fastest_fleet);
  if (entry.fastest_fleet && holder) return no('VV16', 'vv_r_fastest', { name: holder.name });
  if (entry.ship_count > 0 && !(entry.lowest_ship_card >= 1)) return no('VV19', 'vv_r_lowest');
  return OK;
}
