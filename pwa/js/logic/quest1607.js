// Pure: Quest 1607's state view + ruleset → which actions are possible now, and if not, which rule says
// no and why. No DOM, no I/O: the views turn these answers into disabled buttons with their reasons.
// The server has the last word; this mirror of its checks (games/quest1607/decide.py) only spares the
// player a refused tap. Every number comes from the ruleset (GET /api/games/{code}/ruleset: the house
// rules already merged in, the game's options beside them) or from the event in play (`event.effects`
// in the view); tests/differential holds it to the server's answers over generated games.
import { OK, forbidden, joinCheck, missing, no, playerById, total, undoCheck } from './checks.js';
import { allowance, costOf, effects, fishCount } from './quest1607_facts.js';
import {
  activeSide, canAccept, canAcceptSurrender, canEndTurn, canFire, canReachEdge, canRoll, canStart, canSurrender, embargo,
  fighter, firing, openOffer, playing, turnCheck,
} from './quest1607_now.js';

export { missing, playerById, total };
export { activePlayer, allowance, costOf, effects, fishCount, levels, movesOf, resourceIds, stockIds } from './quest1607_facts.js';
export { canAccept, canAcceptSurrender, canEndTurn, canFire, canReachEdge, canRoll, canStart, canSurrender, turnCheck };
export { combatSide } from './quest1607_now.js';

const COST_RULE = { sails: 'U3', cannons: 'U4', crew: 'U1', quest: 'U5' };

/** The resources crew may be paid with besides its fixed price (U1), from the ruleset. */
export function payChoices(ruleset) {
  const choice = ruleset && ruleset.costs && ruleset.costs.crew && ruleset.costs.crew.choice;
  return choice ? choice.of : [];
}

function pick(resources, cost) {
  const out = {};
  for (const res of Object.keys(cost)) out[res] = resources[res] || 0;
  return out;
}

// ---- sailing and upgrades (T3, U1–U4) ----------------------------------------------------------

function shipOf(state, me, number) {
  return (playerById(state, me).ships || []).find((s) => s.number === number) || null;
}

export function canSail(state, me, shipNumber, squares) {
  const base = turnCheck(state, me);
  if (!base.ok) return base;
  const moved = (state.turn.moved || {})[String(shipNumber)] || 0;
  const left = allowance(state, playerById(state, me)) - moved;
  if (!(squares >= 1) || squares > left) return no('T3', 'r_allowance', { n: Math.max(left, 0) });
  return OK;
}

export function canUpgrade(state, ruleset, me, shipNumber, part, payWith) {
  const base = turnCheck(state, me);
  if (!base.ok) return base;
  const player = playerById(state, me);
  const ship = shipOf(state, me, shipNumber);
  if (!ship) return no(COST_RULE[part], 'r_no_target');
  const level = ship[part] + 1;
  const caps = ruleset.caps;
  if (part !== 'crew' && level > caps[part]) return no(COST_RULE[part], 'r_cap', { what: part, cap: caps[part] });
  if (part === 'crew' && level >= ruleset.new_ship_at_crew && player.ships.length >= caps.ships) {
    return no('U2', 'r_ships_cap', { crew: level, cap: caps.ships });
  }
  const cost = costOf(ruleset, part, payWith, state, player.resources);
  if (missing(player.resources, cost)) return no(COST_RULE[part], 'r_cost', { what: part, cost, have: pick(player.resources, cost) });
  return OK;
}

export function marketRate(state, ruleset) { return effects(state, ruleset).market_rate; }

export function bankRate(state, ruleset) { return effects(state, ruleset).bank_rate; }

export function canMarket(state, ruleset, me, give, get) {
  const base = turnCheck(state, me);
  if (!base.ok) return base;
  if (!give || !get || give === get) return no('M2', 'r_same');
  const rate = marketRate(state, ruleset);
  const have = playerById(state, me).resources[give] || 0;
  if (have < rate) return no('M2', 'r_market', { n: have, rate, res: give });
  return OK;
}

export function canBank(state, ruleset, me, give, get) {
  const base = turnCheck(state, me);
  if (!base.ok) return base;
  const rate = bankRate(state, ruleset);
  const n = total(give);
  if (n !== rate) return no('M3', 'r_bank', { n, rate });
  if (!get) return no('M3', 'r_same');
  if (missing(playerById(state, me).resources, give)) return no('M3', 'r_bank_have');
  return OK;
}

// ---- quests (Q1–Q3, U5) ----------------------------------------------------------------------

/** The level a player may carry out now (Q2), or 'done'. */
function currentLevel(player) {
  return player.level;
}

export function canBuyQuest(state, ruleset, me) {
  const base = turnCheck(state, me);
  if (!base.ok) return base;
  const player = playerById(state, me);
  const cost = costOf(ruleset, 'quest', null, state, player.resources);
  if (missing(player.resources, cost)) {
    return no('U5', 'r_cost', { what: 'quest_card', cost, have: pick(player.resources, cost) });
  }
  return OK;
}

function stepDone(progress, index) {
  const entry = Array.isArray(progress) ? progress[index] : null;
  return entry && typeof entry === 'object' ? Boolean(entry.done) : Boolean(entry);
}

/** What all the quest's deliveries ask together (Q1: paid when the quest is handed in). */
function deliveries(quest) {
  const pay = {};
  for (const r of quest.requirements || []) {
    if (r.kind !== 'deliver') continue;
    for (const [res, n] of Object.entries(r.resources || {})) pay[res] = (pay[res] || 0) + n;
  }
  return pay;
}

/**
 * Each requirement of a quest with whether it is met: the server's progress for steps on the board
 * (visit, cargo, win_fight), and the player's own state for what the phone can see (deliver, levels).
 * `manual` marks the steps the player reports with quest_step.
 */
export function questProgress(quest, player = null) {
  const req = Array.isArray(quest.requirements) ? quest.requirements : [];
  const steps = req.map((r, index) => {
    const kind = r && r.kind;
    let done = stepDone(quest.progress, index);
    if (player && kind === 'deliver') done = !missing(player.resources, r.resources || {});
    if (player && kind === 'ship_level') done = player.ships.some((s) => s[r.part] >= r.at_least);
    if (player && kind === 'fleet') done = player.ships.length >= r.ships;
    return { index, requirement: r, kind, done, manual: kind === 'visit' || kind === 'cargo' };
  });
  return { steps, done: steps.filter((s) => s.done).length, total: steps.length };
}

/** Q2, then for one step (`step`, optionally on ship `ship`): Q1 not done yet, Q3 the cargo's ship. */
export function canQuestStep(state, me, quest, step = null, ship = null) {
  const base = turnCheck(state, me);
  if (!base.ok) return base;
  const player = playerById(state, me);
  if (quest.level !== currentLevel(player)) return no('Q2', 'r_level_locked', { level: currentLevel(player) });
  if (step === null) return OK;
  const requirement = (quest.requirements || [])[step];
  if (stepDone(quest.progress, step)) return no('Q1', 'r_step_done');
  if (requirement && requirement.kind === 'cargo') {
    const loadedOn = ((quest.progress || [])[step] || {}).ship ?? null;
    if (loadedOn === null && ship == null) return no('Q3', 'r_cargo_ship');
    if (loadedOn !== null && ship != null && ship !== loadedOn) return no('Q3', 'r_cargo_on', { n: loadedOn });
  }
  return OK;
}

export function canCompleteQuest(state, me, quest) {
  const step = canQuestStep(state, me, quest);
  if (!step.ok) return step;
  const player = playerById(state, me);
  const unmet = (quest.requirements || []).some((r, index) => {
    if (r.kind === 'ship_level') return player.ships.every((s) => s[r.part] < r.at_least);
    if (r.kind === 'fleet') return player.ships.length < r.ships;
    return r.kind !== 'deliver' && !stepDone(quest.progress, index);
  });
  if (unmet || missing(player.resources, deliveries(quest))) return no('Q1', 'r_req');
  return OK;
}

// ---- trade between players (M1, E1) ----------------------------------------------------------

/** An offer gives or asks (either side alone will do); what is given is checked when it is accepted. */
export function canOffer(state, ruleset, me, to, give, get) {
  const base = playing(state, me);
  if (!base.ok) return base;
  if (!to || to === me || (total(give) <= 0 && total(get) <= 0)) return no('M1', 'r_offer_empty');
  const side = activeSide(state, ruleset, me, to);
  if (!side.ok) return side;
  if (!state.turn.rolled) return no('T1', 'r_T1');
  return embargo(state, ruleset);
}

function canDecline(state, me, offer) { return openOffer(state, me, offer, 'to'); }

function canWithdraw(state, me, offer) { return openOffer(state, me, offer, 'from'); }

// ---- the host ----------------------------------------------------------------------------------

/** The host corrects a player's resources (never below zero), once the game has started. */
function canAdjust(state, player, delta) {
  if (!state.host) return forbidden('r_host_only');
  if (state.phase === 'lobby') return no('S5', 'r_phase');
  const have = (playerById(state, player) || {}).resources || {};
  const below = Object.entries(delta || {}).some(([res, n]) => (have[res] || 0) + n < 0);
  return below ? no('adjust', 'r_below_zero') : OK;
}

// ---- combat (C1–C8) --------------------------------------------------------------------------

export function canAttack(state, ruleset, me, ship, target, targetShip) {
  const base = turnCheck(state, me);
  if (!base.ok) return base;
  const aimed = playerById(state, target);
  if (!shipOf(state, me, ship) || !aimed || target === me || !aimed.ships.some((s) => s.number === targetShip)) {
    return no('C1', 'r_no_target');
  }
  if (effects(state, ruleset).no_combat) return no('E1', 'r_event_ban', { title: state.event.title });
  const last = (state.attacked || {})[`${target}/${targetShip}`];
  if (last !== undefined && state.round <= last + 1) return no('C3', 'r_rested', { last, next: last + 2 }); // C3: a ship just attacked rests a round
  return OK;
}

/** C4: what the shooter must roll to hit: the hit table (Cannons against Crew), moved by the event, within the bounds. */
export function toHit(state, ruleset) {
  const combat = state && state.combat;
  if (!combat || !firing(combat)) return null;
  const [own, other] = combat.shooter === combat.attacker.player
    ? [combat.attacker, combat.defender] : [combat.defender, combat.attacker];
  const shooter = shipOf(state, own.player, own.ship);
  const target = shipOf(state, other.player, other.ship);
  const table = ruleset.hit_table;
  const sides = Object.keys(table).length;
  const row = table[String(Math.min(shooter.cannons, sides))];
  const cell = row[String(Math.min(Math.max(target.crew, 1), sides))];
  const bounds = ruleset.hit_bounds;
  return Math.min(bounds.max, Math.max(bounds.min, cell + effects(state, ruleset).hit_shift));
}

/** C7: the sunk player, the winner, and what lies in the water (as the server's fight says). */
export function salvage(state) {
  const combat = state && state.combat;
  if (!combat) return null;
  return { sunkPlayer: combat.sunk || null, winner: combat.winner || null, water: combat.water || null };
}

/** C7: how many resources the sunk player keeps: the server's count, else the total over the house divisor. */
export function keepCount(state, ruleset, player) {
  if (state.combat && typeof state.combat.keep === 'number') return state.combat.keep;
  return Math.floor(total(player.resources) / ruleset.keep_divisor);
}

export function canKeep(state, ruleset, me, keep) {
  const base = fighter(state, me);
  if (!base.ok) return base;
  const combat = state.combat;
  if (combat.stage !== 'salvage' || combat.sunk !== me) return no('C7', 'r_stage', { stage: combat.stage });
  const player = playerById(state, me);
  const n = keepCount(state, ruleset, player);
  if (total(keep) !== n) return no('C7', 'r_keep', { n, m: total(keep) });
  if (missing(player.resources, keep)) return no('C7', 'r_bank_have');
  return OK;
}

export function canFish(state, ruleset, me, fish) {
  const base = fighter(state, me);
  if (!base.ok) return base;
  const combat = state.combat;
  if (combat.stage !== 'fishing' || combat.winner !== me) return no('C7', 'r_stage', { stage: combat.stage });
  const n = fishCount(state, ruleset);
  if (total(fish) !== n || missing(combat.water || {}, fish)) return no('C7', 'r_fish', { n, m: total(fish) });
  return OK;
}

// ---- an action as the server takes it ----------------------------------------------------------

/**
 * The check of `action` (the JSON the server takes) by `me` (a player id; null for the host, the
 * screen or the dice device, `dice` saying which): the same answer the server gives, in the phone's words.
 */
export function checkAction(state, ruleset, me, action, { dice = false } = {}) {
  const a = action;
  const offer = () => (state.offers || []).find((o) => o.id === a.offer_id) || { id: a.offer_id };
  const quest = () => ((playerById(state, me) || {}).quests || []).find((q) => q.id === a.quest_id);
  if (state.phase === 'finished' && a.type !== 'join') return no('V1', 'r_over'); // the end is final
  switch (a.type) {
    case 'roll': return canRoll(state, me, { dice });
    case 'sail': return canSail(state, me, a.ship, a.squares);
    case 'end_turn': return canEndTurn(state, me);
    case 'upgrade': return canUpgrade(state, ruleset, me, a.ship, a.part, a.pay_with);
    case 'market': return canMarket(state, ruleset, me, a.give, a.get);
    case 'bank': return canBank(state, ruleset, me, a.give, a.get);
    case 'buy_quest': return canBuyQuest(state, ruleset, me, a.level);
    case 'quest_step': {
      const base = turnCheck(state, me);
      return base.ok ? canQuestStep(state, me, quest(), a.step, a.ship) : base;
    }
    case 'complete_quest': {
      const base = turnCheck(state, me);
      return base.ok ? canCompleteQuest(state, me, quest()) : base;
    }
    case 'reach_edge': return canReachEdge(state, me);
    case 'offer': return canOffer(state, ruleset, me, a.to, a.give, a.get);
    case 'accept': return canAccept(state, ruleset, me, offer());
    case 'decline': return canDecline(state, me, offer());
    case 'withdraw': return canWithdraw(state, me, offer());
    case 'attack': return canAttack(state, ruleset, me, a.ship, a.target, a.target_ship);
    case 'fire': return canFire(state, me);
    case 'surrender': return canSurrender(state, me, ruleset);
    case 'accept_surrender': return canAcceptSurrender(state, me);
    case 'keep': return canKeep(state, ruleset, me, a.resources);
    case 'fish': return canFish(state, ruleset, me, a.resources);
    case 'adjust': return canAdjust(state, a.player, a.resources);
    case 'start': return canStart(state, ruleset);
    case 'join': return joinCheck(state, ruleset, a.character);
    case 'undo': return undoCheck(state);
    default: return null;
  }
}
