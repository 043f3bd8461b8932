// Pure: what a Quest 1607 state view says without judging an action — whose turn it is, how far they
// may sail, what the event in play bends, how many the winner of a fight fishes out — for the shared
// devices, which show the table and check nothing (the phone's checks, ./quest1607.js, use them too).
import { playerById, total } from './players.js';

export { playerById, total };

/** The quest levels in order (Q2), from the ruleset. */
export const levels = (ruleset) => (ruleset && ruleset.levels) || [];

export function resourceIds(ruleset) {
  return ((ruleset && ruleset.resources) || []).map((r) => (typeof r === 'string' ? r : r.id));
}

/** The resources a player's stock shows: every basic one, and a land's own only when it is theirs or they hold some. */
export function stockIds(ruleset, player) {
  return ((ruleset && ruleset.resources) || []).filter((r) => typeof r === 'string' || !r.land
    || r.id === player.land_resource || (player.resources[r.id] || 0) > 0).map((r) => (typeof r === 'string' ? r : r.id));
}

/** What a card that judges `player`'s moves reads (js/page.js): the table but the others' stock, and `player`. */
export const movesOf = (state, player) => [state.phase, state.round, state.turn, state.combat, state.offers,
  state.event, state.attacked, state.options, state.winner, player];

export function activePlayer(state) {
  return state && state.turn ? playerById(state, state.turn.player) : null;
}

/** The effects of the event in play (E1): the view's `event.effects`, else the ruleset deck's card. */
function eventEffects(state, ruleset) {
  const event = state && state.event;
  if (!event) return [];
  if (Array.isArray(event.effects)) return event.effects;
  const card = ((ruleset && ruleset.events) || []).find((e) => e.id === event.id);
  return (card && card.effects) || [];
}

/** The rules as the event in play bends them (E1; DECKS.md), folded as the server folds them. */
export function effects(state, ruleset) {
  const out = { costs: {}, market_rate: ruleset.market.rate, bank_rate: ruleset.bank.rate, movement: 0,
    hit_shift: 0, extra_white: 0, no_combat: false, no_trade: false };
  for (const e of eventEffects(state, ruleset)) {
    if (e.kind === 'cost') (out.costs[e.item] = out.costs[e.item] || []).push(e.add);
    else if (e.kind === 'market_rate' || e.kind === 'bank_rate') out[e.kind] = e.rate;
    else if (e.kind === 'movement' || e.kind === 'hit_shift') out[e.kind] += e.add;
    else if (e.kind === 'extra_white') out.extra_white += e.count;
    else if (e.kind === 'no_combat' || e.kind === 'no_trade') out[e.kind] = true;
  }
  return out;
}

/**
 * The price of `what` (sails, cannons, crew, quest) as {resource: count}, bent by the event; crew adds
 * its choice (U1): `payWith`, or without one the first the player can pay (`have`), as the server does.
 */
export function costOf(ruleset, what, payWith, state = null, have = null) {
  const raw = ruleset.costs[what];
  const pay = { ...raw.pay };
  for (const add of effects(state, ruleset).costs[what] || []) {
    for (const [res, n] of Object.entries(add)) pay[res] = Math.max(0, (pay[res] || 0) + n);
  }
  for (const res of Object.keys(pay)) if (!pay[res]) delete pay[res];
  const choice = raw.choice;
  if (choice) {
    const fits = (res) => ((have || {})[res] || 0) >= (pay[res] || 0) + choice.count;
    const chosen = payWith == null ? (choice.of.find(fits) || choice.of[0]) : payWith;
    if (choice.of.includes(chosen)) pay[chosen] = (pay[chosen] || 0) + choice.count;
  }
  return pay;
}

/** The movement allowance (T3): max(movement die, lowest Sails), moved by the event; the server's when sent. */
export function allowance(state, player, ruleset = null) {
  if (state && state.turn && typeof state.turn.allowance === 'number') return state.turn.allowance;
  if (!state || !state.turn || !state.turn.dice) return 0;
  const die = state.turn.dice.move.value;
  const sails = (player && player.ships || []).map((s) => s.sails);
  const shift = eventEffects(state, ruleset).filter((e) => e.kind === 'movement').reduce((n, e) => n + e.add, 0);
  return Math.max(0, Math.max(die, Math.min(...sails)) + shift);
}

/** C7: how many the winner fishes: the ruleset's number, or all that lies in the water when less. */
export function fishCount(state, ruleset) {
  const water = state.combat && state.combat.water;
  return water ? Math.min(ruleset.fish, total(water)) : ruleset.fish;
}

/** The most recent roll in the stream, with what it brought. */
export function lastRoll(events) {
  for (let i = events.length - 1; i >= 0; i -= 1) if (events[i].type === 'DiceRolled') return events[i];
  return null;
}
