// Pure: Quest 1607's checks that a first screen asks on every update, for what needs a player or the
// host now: the host's start, whose turn it is, the roll, an offer to answer, the fight's shots and
// surrender, the edge of the map and the end of the turn. No DOM, no I/O. The phone's and the host's
// first screens load these alone; ./quest1607.js holds the rest of the mirror of the server's checks
// and answers every action with them (checkAction); tests/differential holds both to the server's answers.
import { OK, forbidden, lobbyStart, missing, no, playerById, seated } from './checks.js';
import { activePlayer, effects } from './quest1607_facts.js';
import './quest1607_words.js';

/** The game is on and a seated player acts (S5 before the start, V1 once it is over). */
export function playing(state, me) {
  if (!state || state.phase === 'lobby') return no('S5', 'r_phase');
  if (state.phase === 'finished') return no('V1', 'r_phase');
  return seated(state, me);
}

/** T5/T1/C6: the checks that every turn action shares. */
export function turnCheck(state, me, { needRoll = true } = {}) {
  const base = playing(state, me);
  if (!base.ok) return base;
  const active = activePlayer(state);
  if (state.turn.player !== me) return no('T5', 'r_T5', { name: active ? active.name : '?' });
  if (needRoll && !state.turn.rolled) return no('T1', 'r_T1');
  if (state.combat) return no('C6', 'r_combat');
  return OK;
}

/** T1: the active player rolls once a turn; the host's phone and the dice device roll for them. */
export function canRoll(state, me, { dice = false } = {}) {
  const forTable = (state && state.host) || dice;
  const actor = forTable && state.phase === 'playing' ? state.turn.player : me;
  const base = turnCheck(state, actor, { needRoll: false });
  if (!base.ok) return base;
  if (state.turn.rolled) return no('T1', 'r_T1b');
  return OK;
}

export function canReachEdge(state, me) {
  const base = turnCheck(state, me);
  if (!base.ok) return base;
  if (playerById(state, me).level !== 'done') return no('V1', 'r_gold');
  return OK;
}

export function canEndTurn(state, me) {
  return turnCheck(state, me);
}

/** M1 (house default): one side of a trade is the player whose turn it is. */
export function activeSide(state, ruleset, one, other) {
  if (!ruleset.trade_with_active_player || [one, other].includes(state.turn.player)) return OK;
  const active = activePlayer(state);
  return no('M1', 'r_offer_party', { name: active ? active.name : '?' });
}

export function embargo(state, ruleset) {
  return effects(state, ruleset).no_trade ? no('E1', 'r_event_ban', { title: state.event.title }) : OK;
}

/** The open offer `offer` answered by its `side` ('to' accepts or declines, 'from' withdraws). */
export function openOffer(state, me, offer, side) {
  const base = playing(state, me);
  if (!base.ok) return base;
  if (!offer || !(state.offers || []).some((o) => o.id === offer.id)) return no('M1', 'r_offer_gone');
  return offer[side] === me ? OK : forbidden('r_not_yours');
}

export function canAccept(state, ruleset, me, offer) {
  const open = openOffer(state, me, offer, 'to');
  if (!open.ok) return open;
  const checks = [embargo(state, ruleset), activeSide(state, ruleset, offer.from, offer.to)];
  const refused = checks.find((c) => !c.ok);
  if (refused) return refused;
  const from = playerById(state, offer.from);
  if (missing(from.resources, offer.give)) return no('M1', 'r_offer_short', { name: from.name });
  if (missing(playerById(state, me).resources, offer.get)) return no('M1', 'r_accept_have');
  return OK;
}

/** My side in the current fight: 'attacker', 'defender' or null. */
export function combatSide(state, me) {
  const combat = state && state.combat;
  if (!combat) return null;
  if (combat.attacker.player === me) return 'attacker';
  if (combat.defender.player === me) return 'defender';
  return null;
}

/** The fight is on and I am in it (C1, C6). */
export function fighter(state, me) {
  const base = playing(state, me);
  if (!base.ok) return base;
  if (!state.combat) return no('C1', 'r_no_combat');
  return combatSide(state, me) ? OK : no('C6', 'r_not_side');
}

export const firing = (combat) => combat.stage === 'firing' || combat.stage === 'surrender_offered';

export function canFire(state, me) {
  const base = fighter(state, me);
  if (!base.ok) return base;
  const combat = state.combat;
  if (!firing(combat)) return no('C6', 'r_stage', { stage: combat.stage });
  if (combat.shooter !== me) return no('C6', 'r_not_shooter', { name: (playerById(state, combat.shooter) || {}).name || '?' });
  return OK;
}

export function canSurrender(state, me, ruleset) {
  const base = fighter(state, me);
  if (!base.ok) return base;
  const combat = state.combat;
  if (!firing(combat) || combat.surrendering === me) return no('C8', 'r_stage', { stage: combat.stage });
  if (ruleset.surrender_by === 'defender' && combat.defender.player !== me) return no('C8', 'r_defender');
  return OK;
}

export function canAcceptSurrender(state, me) {
  const base = fighter(state, me);
  if (!base.ok) return base;
  const combat = state.combat;
  if (combat.stage !== 'surrender_offered' || combat.surrendering === me) return no('C8', 'r_stage', { stage: combat.stage });
  return OK;
}

/** S1: the host starts once enough players sit at the table. */
export function canStart(state, ruleset) {
  return lobbyStart(state, () => (state.players.length < ruleset.min_players
    ? no('S1', 'r_players', { n: ruleset.min_players, m: state.players.length }) : OK));
}
