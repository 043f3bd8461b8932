// Pure: state + ruleset → which actions are possible now, and if not, which rule says no and why.
// No DOM, no I/O: the views turn these answers into disabled buttons with their reasons.
// The server has the last word; this only spares the player a refused tap.

const DEFAULT_COSTS = {
  sails: { cotton: 3, wood: 1 }, // U3
  cannons: { coal: 2, iron: 2 }, // U4
  crew: { food: 1 }, // U1, plus 1 wood or 1 cotton (pay_with)
  quest: { wood: 1, food: 1, iron: 1, cotton: 1 }, // U5
};
const COST_RULE = { sails: 'U3', cannons: 'U4', crew: 'U1', quest: 'U5' };
const LEVELS = ['bronze', 'silver', 'gold'];
const OK = Object.freeze({ ok: true });

function no(rule, key, params = {}) { return { ok: false, rule, key, params }; }

export function resourceIds(ruleset, state) {
  const list = ruleset && ruleset.resources;
  if (Array.isArray(list) && list.length) return list.map((r) => (typeof r === 'string' ? r : r.id));
  if (list && typeof list === 'object') return Object.keys(list);
  const player = state && state.players && state.players[0];
  return player ? Object.keys(player.resources || {}) : ['wood', 'cotton', 'iron', 'coal', 'food'];
}

export function playerById(state, id) {
  return (state && state.players || []).find((p) => p.id === id) || null;
}

export function activePlayer(state) {
  return state && state.turn ? playerById(state, state.turn.player) : null;
}

function isNumberMap(value) {
  return value && typeof value === 'object' && !Array.isArray(value)
    && Object.values(value).every((v) => typeof v === 'number');
}

/** The effects of the event in play (E1), looked up in the ruleset deck by the event's id. */
export function eventEffects(state, ruleset) {
  const event = state && state.event;
  if (!event) return [];
  if (Array.isArray(event.effects)) return event.effects;
  const card = ((ruleset && ruleset.events) || []).find((e) => e.id === event.id);
  return (card && card.effects) || [];
}

function effect(state, ruleset, kind) {
  return eventEffects(state, ruleset).filter((e) => e.kind === kind);
}

/** The price of `what` (sails, cannons, crew, quest) as {resource: count}, with the event's changes. */
export function costOf(ruleset, what, payWith, state = null) {
  const raw = ((ruleset && ruleset.costs) || {})[what];
  const cost = raw && isNumberMap(raw.pay) ? { ...raw.pay } : (isNumberMap(raw) ? { ...raw } : { ...DEFAULT_COSTS[what] });
  if (what === 'crew' || (raw && raw.choice)) {
    // U1: 1 food + 1 wood or 1 cotton, the player's choice
    const choice = (raw && raw.choice) || { of: ['wood', 'cotton'], count: 1 };
    const chosen = choice.of.includes(payWith) ? payWith : choice.of[0];
    cost[chosen] = (cost[chosen] || 0) + (choice.count || 1);
  }
  for (const e of effect(state, ruleset, 'cost')) {
    if (e.item !== what) continue;
    for (const [res, n] of Object.entries(e.add || {})) cost[res] = Math.max(0, (cost[res] || 0) + n);
  }
  for (const res of Object.keys(cost)) if (!cost[res]) delete cost[res];
  return cost;
}

export function missing(resources, cost) {
  const short = {};
  for (const [res, n] of Object.entries(cost)) {
    if ((resources[res] || 0) < n) short[res] = n - (resources[res] || 0);
  }
  return Object.keys(short).length ? short : null;
}

function capOf(ruleset, what, fallback) {
  const caps = (ruleset && ruleset.caps) || {};
  return typeof caps[what] === 'number' ? caps[what] : fallback;
}

export function total(map) {
  return Object.values(map || {}).reduce((sum, n) => sum + (Number(n) || 0), 0);
}

/** T1/T5: the checks that every turn action shares. */
export function turnCheck(state, me, { needRoll = true } = {}) {
  if (!state || state.phase !== 'playing') return no('T5', 'r_phase');
  const active = activePlayer(state);
  if (!state.turn || state.turn.player !== me) return no('T5', 'r_T5', { name: active ? active.name : '?' });
  if (needRoll && !state.turn.rolled) return no('T1', 'r_T1');
  if (state.combat) return no('C6', 'r_combat');
  return OK;
}

export function canRoll(state, me) {
  const base = turnCheck(state, me, { needRoll: false });
  if (!base.ok) return base;
  if (state.turn.rolled) return no('T1', 'r_T1b');
  return OK;
}

/** The movement allowance (T3): max(coloured die, lowest Sails among the player's ships). */
export function allowance(state, player) {
  if (state && state.turn && typeof state.turn.allowance === 'number') return state.turn.allowance;
  if (!state || !state.turn || !state.turn.dice) return 0;
  const die = state.turn.dice.move.value;
  const sails = (player && player.ships || []).map((s) => s.sails);
  return Math.max(die, sails.length ? Math.min(...sails) : 0);
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
  const ship = player.ships.find((s) => s.number === shipNumber);
  if (!ship) return no(COST_RULE[part], 'r_no_target');
  if (part === 'sails' || part === 'cannons') {
    const cap = capOf(ruleset, part, 6);
    if (ship[part] >= cap) return no(COST_RULE[part], 'r_cap', { what: part, cap });
  }
  if (part === 'crew' && ship.crew + 1 >= 7) {
    const cap = capOf(ruleset, 'ships', 3);
    if (player.ships.length >= cap) return no('U2', 'r_ships_cap', { cap });
  }
  const cost = costOf(ruleset, part, payWith, state);
  const short = missing(player.resources, cost);
  if (short) return no(COST_RULE[part], 'r_cost', { what: part, cost, have: pick(player.resources, cost) });
  return OK;
}

function pick(resources, cost) {
  const out = {};
  for (const res of Object.keys(cost)) out[res] = resources[res] || 0;
  return out;
}

export function marketRate(state, ruleset) {
  const changed = effect(state, ruleset, 'market_rate')[0];
  return changed ? changed.rate : ((ruleset && ruleset.market && ruleset.market.rate) || 4);
}

export function bankRate(state, ruleset) {
  const changed = effect(state, ruleset, 'bank_rate')[0];
  return changed ? changed.rate : ((ruleset && ruleset.bank && ruleset.bank.rate) || 5);
}

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
  const size = bankRate(state, ruleset);
  const n = total(give);
  if (n !== size) return no('M3', 'r_bank', { n });
  if (!get) return no('M3', 'r_same');
  if (missing(playerById(state, me).resources, give)) return no('M3', 'r_bank_have');
  return OK;
}

/** The level a player may carry out now (Q2), or 'done'. */
export function currentLevel(player) {
  return player.level || 'bronze';
}

export function canBuyQuest(state, ruleset, me, level) {
  const base = turnCheck(state, me);
  if (!base.ok) return base;
  const player = playerById(state, me);
  const cost = costOf(ruleset, 'quest', null, state);
  if (missing(player.resources, cost)) {
    return no('U5', 'r_cost', { what: 'quest_card', cost, have: pick(player.resources, cost) });
  }
  return OK;
}

function stepDone(progress, index, key) {
  if (Array.isArray(progress)) {
    const entry = progress[index];
    return entry && typeof entry === 'object' ? Boolean(entry.done) : Boolean(entry);
  }
  if (progress && typeof progress === 'object') return Boolean(progress[key] ?? progress[index]);
  return false;
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
    let done = stepDone(quest.progress, index, String(index));
    let ready = done;
    if (player && kind === 'deliver') ready = !missing(player.resources, r.resources || {});
    if (player && kind === 'ship_level') ready = player.ships.some((s) => s[r.part] >= r.at_least);
    if (player && kind === 'fleet') ready = player.ships.length >= r.ships;
    if (kind === 'deliver' || kind === 'ship_level' || kind === 'fleet') done = done || ready;
    return { index, requirement: r, kind, done, manual: kind === 'visit' || kind === 'cargo' };
  });
  return { steps, done: steps.filter((s) => s.done).length, total: steps.length };
}

export function canQuestStep(state, me, quest) {
  const base = turnCheck(state, me);
  if (!base.ok) return base;
  const player = playerById(state, me);
  if (quest.level !== currentLevel(player)) return no('Q2', 'r_level_locked', { level: currentLevel(player) });
  return OK;
}

export function canCompleteQuest(state, me, quest) {
  const step = canQuestStep(state, me, quest);
  if (!step.ok) return step;
  const progress = questProgress(quest, playerById(state, me));
  if (progress.total && progress.done < progress.total) return no('Q1', 'r_req');
  return OK;
}

export function canOffer(state, ruleset, me, to, give, get) {
  if (!state || state.phase !== 'playing') return no('M1', 'r_phase');
  if (effect(state, ruleset, 'no_trade').length) return no('E1', 'r_event_ban', { title: state.event.title });
  const active = activePlayer(state);
  if (!active || (me !== active.id && to !== active.id)) {
    return no('M1', 'r_offer_party', { name: active ? active.name : '?' });
  }
  if (me === active.id && !state.turn.rolled) return no('T1', 'r_T1');
  if (!to || to === me || total(give) <= 0 || total(get) <= 0) return no('M1', 'r_offer_empty');
  if (missing(playerById(state, me).resources, give)) return no('M1', 'r_offer_have');
  return OK;
}

export function canAccept(state, me, offer) {
  if (!offer || offer.to !== me) return no('M1', 'r_offer_party');
  if (missing(playerById(state, me).resources, offer.get || {})) return no('M1', 'r_accept_have');
  return OK;
}

export function canEndTurn(state, me) {
  return turnCheck(state, me);
}

/** S1: the host starts once at least two players sit at the table. */
export function canStart(state, minPlayers = 2) {
  if (!state || state.phase !== 'lobby') return no('S5', 'r_phase');
  if (state.players.length < minPlayers) return no('S1', 'r_players', { n: minPlayers, m: state.players.length });
  return OK;
}

export function canAttack(state, ruleset, me, ship, target, targetShip) {
  const base = turnCheck(state, me);
  if (!base.ok) return base;
  if (effect(state, ruleset, 'no_combat').length) return no('E1', 'r_event_ban', { title: state.event.title });
  if (!ship || !target || !targetShip || target === me) return no('C1', 'r_no_target');
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

function otherSide(combat, side) {
  return side === 'attacker' ? combat.defender.player : combat.attacker.player;
}

export function canFire(state, me) {
  const combat = state && state.combat;
  if (!combat) return no('C6', 'r_no_combat');
  if (!combatSide(state, me)) return no('C6', 'r_not_side');
  if (combat.stage !== 'firing' && combat.stage !== 'surrender_offered') return no('C6', 'r_stage', { stage: combat.stage });
  if (combat.shooter !== me) {
    const shooter = playerById(state, combat.shooter);
    return no('C6', 'r_not_shooter', { name: shooter ? shooter.name : '?' });
  }
  return OK;
}

export function canSurrender(state, me, ruleset = null) {
  const combat = state && state.combat;
  if (!combat) return no('C8', 'r_no_combat');
  const side = combatSide(state, me);
  if (!side) return no('C8', 'r_not_side');
  if (ruleset && ruleset.surrender_by === 'defender' && side !== 'defender') return no('C8', 'r_defender');
  const open = combat.stage === 'firing' || combat.stage === 'surrender_offered';
  if (!open || surrenderedBy(combat) === me) return no('C8', 'r_stage', { stage: combat.stage });
  return OK;
}

/** Who offered to surrender: the server may name them; otherwise whoever is not expected to answer. */
function surrenderedBy(combat) {
  return combat.surrendering || combat.surrendered_by || null;
}

export function canAcceptSurrender(state, me) {
  const combat = state && state.combat;
  if (!combat) return no('C8', 'r_no_combat');
  const side = combatSide(state, me);
  if (!side) return no('C8', 'r_not_side');
  if (combat.stage !== 'surrender_offered') return no('C8', 'r_stage', { stage: combat.stage });
  const by = surrenderedBy(combat);
  if (by && by === me) return no('C8', 'r_stage', { stage: combat.stage });
  return OK;
}

/** C7: the sunk player, the winner, and what lies in the water. */
export function salvage(state) {
  const combat = state && state.combat;
  if (!combat) return null;
  const sunk = combat.sunk || combat.loser || null;
  const sunkPlayer = (sunk && typeof sunk === 'object') ? sunk.player : sunk;
  const winner = combat.winner && typeof combat.winner === 'object' ? combat.winner.player : combat.winner;
  const water = combat.water || combat.lost || null;
  return { sunkPlayer, winner: winner || (sunkPlayer ? otherSide(combat, combatSide(state, sunkPlayer)) : null), water };
}

export function keepCount(state, ruleset, player) {
  if (state.combat && typeof state.combat.keep === 'number') return state.combat.keep;
  const divisor = (ruleset && ruleset.keep_divisor) || 2;
  return Math.floor(total(player.resources) / divisor); // C7 house default: half of the total, rounded down
}

export function canKeep(state, ruleset, me, keep) {
  const combat = state && state.combat;
  if (!combat || combat.stage !== 'salvage') return no('C7', 'r_stage', { stage: combat ? combat.stage : '-' });
  const info = salvage(state);
  if (info.sunkPlayer && info.sunkPlayer !== me) return no('C7', 'r_not_side');
  if (!combatSide(state, me)) return no('C7', 'r_not_side');
  const player = playerById(state, me);
  const n = keepCount(state, ruleset, player);
  if (total(keep) !== n) return no('C7', 'r_keep', { n, m: total(keep) });
  if (missing(player.resources, keep)) return no('C7', 'r_bank_have');
  return OK;
}

export function fishCount(state, ruleset) {
  const info = salvage(state);
  const inWater = info && info.water ? total(info.water) : null;
  const rate = (ruleset && ruleset.fish) || 2;
  return inWater === null ? rate : Math.min(rate, inWater);
}

export function canFish(state, ruleset, me, fish) {
  const combat = state && state.combat;
  if (!combat || combat.stage !== 'fishing') return no('C7', 'r_stage', { stage: combat ? combat.stage : '-' });
  const info = salvage(state);
  if (info.winner && info.winner !== me) return no('C7', 'r_not_side');
  if (!combatSide(state, me)) return no('C7', 'r_not_side');
  const n = fishCount(state, ruleset);
  if (total(fish) !== n) return no('C7', 'r_fish', { n, m: total(fish) });
  if (info.water && missing(info.water, fish)) return no('C7', 'r_fish', { n, m: total(fish) });
  return OK;
}

export function canReachEdge(state, me) {
  const base = turnCheck(state, me);
  if (!base.ok) return base;
  if (playerById(state, me).level !== 'done') return no('V1', 'r_gold');
  return OK;
}

export { LEVELS };
