// Pure: Voyagers' Venture's state view (+ ruleset) in, what a player may do now out — each refusal
// names its rule (games/voyagers/RULES.md, VV1–VV20) and a string key with its parameters. The
// server has the last word (games/voyagers/decide.py); these checks mirror it to explain a disabled
// button before it is pressed, every number from the ruleset and its house rules, and
// tests/differential holds them to the server's answers over generated games.
import { OK, forbidden, hostOnly, joinCheck, lobbyStart, nameOf, no, playerById, seated, undoCheck } from './checks.js';

export { nameOf, playerById };


export const handLimit = (ruleset) => ruleset.hand_limit;
const minBid = (ruleset) => ruleset.house_rules.min_bid_cards;
const leastCards = (state, ruleset) => Math.min(minBid(ruleset), state.display.length);
const cardName = (state, id) => ((state.display || []).find((c) => c.id === id) || {}).name || id;

/** The game is running and the round is at `wanted` (else `rule` says no). */
function stage(state, wanted, rule) {
  if (!state || state.phase !== 'playing') return no(rule, 'vv_r_not_running');
  return state.stage === wanted ? OK : no(rule, 'vv_r_stage', { stage: state.stage });
}

/** A seated player's move at stage `wanted`. */
function playerStage(state, me, wanted, rule) {
  const base = stage(state, wanted, rule);
  return base.ok ? seated(state, me) : base;
}

/** A host's move at stage `wanted`. */
function hostStage(state, wanted, rule) {
  const host = hostOnly(state);
  return host.ok ? stage(state, wanted, rule) : host;
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
  const base = playerStage(state, me, 'naming', 'VV3');
  if (!base.ok) return base;
  if (state.waiting_for !== me) return no('VV3', 'vv_r_names_now', { name: nameOf(state, state.waiting_for) });
  const least = leastCards(state, ruleset);
  if (cards.length < least) return no('VV3', 'vv_r_least', { n: least, m: cards.length });
  return OK;
}

export function voteCheck(state, me) {
  const base = playerStage(state, me, 'voting', 'VV4');
  if (!base.ok) return base;
  const voter = state.bid.voters[0];
  return voter === me ? OK : no('VV4', 'vv_r_votes_now', { name: nameOf(state, voter) });
}

/** VV6: whoever disagrees must cut, so a bid that cannot be cut cannot be disagreed with. */
export function disagreeCheck(state, ruleset, me) {
  const base = voteCheck(state, me);
  if (!base.ok) return base;
  const gold = playerById(state, me).gold;
  const canCut = (gold >= ruleset.cuts.doubloons && outsideBid(state).length > 0) || state.bid.cards.length - ruleset.cuts.remove_at_least >= minBid(ruleset);
  return canCut ? OK : no('VV6', 'vv_r_no_cut', { n: state.bid.cards.length, gold });
}

/**
 * One of the three cuts of a bid (VV6–VV9):
 * doubloon {card}: 1 gold on a displayed card outside the bid; remove {cards}: ≥ 1 of the bid;
 * swap {remove, add}: ≥ 2 of the bid out, 1 displayed card outside it in.
 */
export function cutCheck(state, ruleset, me, cut) {
  const base = playerStage(state, me, 'cutting', 'VV6');
  if (!base.ok) return base;
  if (state.bid.cutter !== me) return no('VV6', 'vv_r_cuts_now', { name: nameOf(state, state.bid.cutter) });
  const inBid = new Set(state.bid.cards);
  const outside = new Set(outsideBid(state).map((c) => c.id));
  if (cut.kind === 'doubloon') {
    if (!cut.card) return no('VV7', 'vv_r_pick_outside');
    if (!outside.has(cut.card)) return no('VV7', 'vv_r_in_bid', { card: cardName(state, cut.card) });
    const gold = playerById(state, me).gold;
    return gold >= ruleset.cuts.doubloons ? OK : no('VV7', 'vv_r_gold', { n: gold, m: ruleset.cuts.doubloons });
  }
  if (cut.kind === 'remove') {
    const removed = cut.cards || [];
    if (removed.length < ruleset.cuts.remove_at_least) return no('VV8', 'vv_r_remove_least', { n: ruleset.cuts.remove_at_least, m: removed.length });
    if (removed.some((c) => !inBid.has(c))) return no('VV8', 'vv_r_not_in_bid');
    const least = minBid(ruleset);
    const kept = state.bid.cards.length - removed.length;
    return kept >= least ? OK : no('VV8', 'vv_r_keep', { n: least, m: kept });
  }
  if (cut.kind === 'swap') {
    const removed = cut.remove || [];
    if (removed.some((c) => !inBid.has(c))) return no('VV9', 'vv_r_not_in_bid');
    if (removed.length < ruleset.cuts.swap_remove_at_least) return no('VV9', 'vv_r_remove_least', { n: ruleset.cuts.swap_remove_at_least, m: removed.length });
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
  const base = playerStage(state, me, 'discarding', 'VV12');
  if (!base.ok) return base;
  const excess = overLimit(ruleset, playerById(state, me));
  if (!excess) return no('VV12', 'vv_r_within_limit', { n: handLimit(ruleset) });
  return cards.length === excess ? OK : no('VV12', 'vv_r_discard', { n: excess, m: cards.length, limit: handLimit(ruleset) });
}

/** VV15–VV18: the reputation of the numbers entered, part by part. */
export function reputationParts(ruleset, entry) {
  const bonus = ruleset.reputation;
  const parts = [
    ['tips', entry.tips || 0], ['ships', entry.ships || 0], ['nobles', entry.nobles || 0],
    ['fastest_fleet', entry.fastest_fleet ? bonus.fastest_fleet : 0],
    ['gold', Math.floor((entry.gold || 0) / bonus.gold_per_point)],
    ['smuggled', -bonus.smuggled_penalty * (entry.smuggled || 0)],
  ];
  return { parts, total: parts.reduce((n, [, v]) => n + v, 0) };
}

/** VV15–VV19: a player enters their own numbers (the host anyone's); one fastest-fleet token (VV16). */
export function scoreCheck(state, me, entry, player = me) {
  const base = stage(state, 'scoring', 'VV15');
  if (!base.ok) return base;
  if (!state.host && player !== me) return forbidden('vv_r_own_score');
  if (entry.ship_count > 0 && !(entry.lowest_ship_card >= 1)) return no('VV19', 'vv_r_lowest');
  const holder = state.players.find((p) => p.id !== player && p.score && p.score.fastest_fleet);
  if (entry.fastest_fleet && holder) return no('VV16', 'vv_r_fastest', { name: holder.name });
  return OK;
}

/** VV14: cards are spent on the table (ships, nobles) until the count begins. */
export function playCheck(state, me, cards) {
  const player = seated(state, me);
  if (!player.ok) return player;
  if (!state || state.phase !== 'playing' || state.stage === 'scoring') return no('VV14', 'vv_r_no_more_cards');
  return cards.length ? OK : no('VV20', 'vv_r_pick_cards');
}

/** VV20: the host starts once the house rule's least players are seated. */
export function startCheck(state, ruleset) {
  const least = ruleset.house_rules.min_players;
  return lobbyStart(state, () => (state.players.length < least
    ? no('VV20', 'r_players', { n: least, m: state.players.length }) : OK));
}

const displayCheck = (state) => hostStage(state, 'display', 'VV2');
const turnOrderCheck = (state) => hostStage(state, 'order', 'VV13');
const closePurchasesCheck = (state) => hostStage(state, 'purchase', 'VV14');

/** VV20: the host sets a player's gold while the game runs. */
function setGoldCheck(state) {
  const host = hostOnly(state);
  if (!host.ok) return host;
  return state.phase === 'playing' ? OK : no('VV20', 'vv_r_not_running');
}

// ---- an action as the server takes it ----------------------------------------------------------

/** The check of `action` (the JSON the server takes) by `me` (a player id, or null for the host). */
export function checkAction(state, ruleset, me, action) {
  const a = action;
  if (state.phase === 'finished' && a.type !== 'join') return no('VV19', 'r_over'); // the end is final
  switch (a.type) {
    case 'join': return joinCheck(state, ruleset, a.character);
    case 'start': return startCheck(state, ruleset);
    case 'undo': return undoCheck(state);
    case 'display': return displayCheck(state);
    case 'turn_order': return turnOrderCheck(state);
    case 'close_purchases': return closePurchasesCheck(state);
    case 'set_gold': return setGoldCheck(state);
    case 'name_bid': return nameCheck(state, ruleset, me, a.cards);
    case 'agree': return voteCheck(state, me);
    case 'disagree': return disagreeCheck(state, ruleset, me);
    case 'cut': return cutCheck(state, ruleset, me, a);
    case 'discard': return discardCheck(state, ruleset, me, a.cards);
    case 'play_cards': return playCheck(state, me, a.cards);
    case 'score': return scoreCheck(state, me, a, a.player);
    default: return null;
  }
}
