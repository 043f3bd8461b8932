// Pure, shared by the three games' rule checks (quest1607.js, serenissima.js, voyagers.js): the shape of
// an answer, and the look-ups every game makes in a state view. No DOM, no I/O, no number of any rule:
// every number comes from the game's ruleset (GET /api/games/{code}/ruleset), its options or its event.
//
// An answer is OK, or a refusal {ok: false, rule, key, params} that names the rule (rules.json) and the
// words (an i18n key with its parameters). Two refusals are not a rule of the game but the server's
// other answers to a well-formed action: `forbidden` (403: not yours to do) and `conflict` (409: the
// lobby has moved on); they carry no rule.

import { playerById } from './players.js';

export const OK = Object.freeze({ ok: true });

/** A refusal by rule `rule` (rules.json), said by the string `key` with `params`. */
export function no(rule, key, params = {}) { return { ok: false, rule, key, params }; }

/** The server's 403: this actor may not do this at all (someone else's offer, a host-only move). */
export function forbidden(key, params = {}) { return { ok: false, rule: null, forbidden: true, key, params }; }

/** The server's 409: the lobby has moved on (the game started, the character is taken, the table is full). */
export function conflict(key, params = {}) { return { ok: false, rule: null, conflict: true, key, params }; }

export { nameOf, playerById, total } from './players.js';

/** What `have` lacks to pay `cost`, by resource, or null when it can pay. */
export function missing(have, cost) {
  const short = {};
  for (const [res, n] of Object.entries(cost || {})) {
    if (((have || {})[res] || 0) < n) short[res] = n - ((have || {})[res] || 0);
  }
  return Object.keys(short).length ? short : null;
}

/** The game's house rules: in the ruleset (Serenissima, Voyagers' Venture) or in its options (Quest 1607). */
export function houseRules(ruleset, state = null) {
  return (ruleset && ruleset.house_rules) || (ruleset && ruleset.options && ruleset.options.house_rules)
    || (state && state.options && state.options.house_rules) || {};
}

/** Only a seated player makes this move (the host, the TV and the dice device are refused). */
export function seated(state, me) {
  return playerById(state, me) ? OK : forbidden('r_only_players');
}

/** Only the host makes this move. */
export function hostOnly(state) {
  return state && state.host ? OK : forbidden('r_host_only');
}

/**
 * Joining (S1, SE1, VV20): in the lobby only, while a seat is free and the character is not taken.
 * The most players: the house rule `max_players` where the game has one, else one per character.
 */
export function joinCheck(state, ruleset, character) {
  if (!state || state.phase !== 'lobby') return conflict('r_started');
  const characters = (ruleset && ruleset.characters) || [];
  const most = Math.min(houseRules(ruleset, state).max_players ?? characters.length, characters.length);
  if (state.players.length >= most) return conflict('r_full', { n: state.players.length });
  if (state.players.some((p) => p.character === character)) return conflict('r_taken');
  return OK;
}

/** The host starts a game in the lobby; `table` then says whether these players make a table (S1, SE1, VV20). */
export function lobbyStart(state, table) {
  const host = hostOnly(state);
  if (!host.ok) return host;
  if (state.phase !== 'lobby') return conflict('r_started');
  return table();
}

/**
 * What an undo would take back: the events of change `version` (the game's latest), or none when
 * the page has not seen them or that change was itself an undo (one step back, never two).
 */
export function lastChange(events, version) {
  const change = (events || []).filter((e) => e.version === version);
  return change.some((e) => e.type === 'ActionUndone') ? [] : change;
}

/** The host takes the last change back: one step, not twice in a row, and never a roll or a draw. */
export function undoCheck(state) {
  const host = hostOnly(state);
  if (!host.ok) return host;
  return state.can_undo ? OK : no('undo', 'r_undo_none');
}
