// Pure: statistics folded from the game's event stream (GET /events?since=0 plus live updates).
import { total } from './quest1607_facts.js';

const dieValue = (d) => (d && typeof d === 'object' ? d.value : d);

/** Every die the server rolled so far, by face: {all: [n1..n6], move: […], white: […], combat: […]}. */
export function diceDistribution(events) {
  const dist = { all: [0, 0, 0, 0, 0, 0], move: [0, 0, 0, 0, 0, 0], white: [0, 0, 0, 0, 0, 0], combat: [0, 0, 0, 0, 0, 0] };
  const add = (kind, value) => {
    const v = Number(dieValue(value));
    if (v >= 1 && v <= 6) { dist[kind][v - 1] += 1; dist.all[v - 1] += 1; }
  };
  for (const e of events) {
    if (e.type === 'DiceRolled' && e.dice) {
      add('move', e.dice.move);
      (e.dice.white || []).forEach((d) => add('white', d));
    } else if (e.type === 'ShotFired') {
      add('combat', e.to_hit);
      if (e.damage) add('combat', e.damage);
    }
  }
  return dist;
}

/** Dice luck per player: how many dice they threw and their mean face against the fair 3.5. */
export function luckPerPlayer(events) {
  const per = {};
  const add = (pid, value) => {
    const v = Number(dieValue(value));
    if (!pid || !(v >= 1 && v <= 6)) return;
    per[pid] ??= { dice: 0, sum: 0, hits: 0, shots: 0 };
    per[pid].dice += 1;
    per[pid].sum += v;
  };
  for (const e of events) {
    if (e.type === 'DiceRolled' && e.dice) {
      add(e.player, e.dice.move);
      (e.dice.white || []).forEach((d) => add(e.player, d));
    } else if (e.type === 'ShotFired') {
      const shooter = e.shooter && e.shooter.player ? e.shooter.player : e.shooter;
      add(shooter, e.to_hit);
      if (per[shooter]) { per[shooter].shots += 1; if (e.hit) per[shooter].hits += 1; }
    }
  }
  for (const entry of Object.values(per)) entry.mean = entry.dice ? entry.sum / entry.dice : 0;
  return per;
}

function plus(map, delta, sign = 1) {
  const out = { ...map };
  for (const [k, n] of Object.entries(delta || {})) out[k] = (out[k] || 0) + sign * n;
  return out;
}

const LEVEL_INDEX = { bronze: 0, silver: 1, gold: 2, done: 3 };

// How each event changes players' resources, applied with sign 1 (and -1 to take it back).
const RESOURCE_CHANGES = {
  DiceRolled: (e, r, k) => { r[e.player] = plus(r[e.player], e.gains, k); },
  MarketTraded: (e, r, k) => { r[e.player] = plus(plus(r[e.player], e.give, -k), e.get, k); },
  BankTraded: (e, r, k) => { r[e.player] = plus(plus(r[e.player], e.give, -k), e.get, k); },
  OfferAccepted: (e, r, k) => {
    r[e.from] = plus(plus(r[e.from], e.give, -k), e.get, k);
    r[e.to] = plus(plus(r[e.to], e.get, -k), e.give, k);
  },
  SailsUpgraded: (e, r, k) => { r[e.player] = plus(r[e.player], e.paid, -k); },
  CannonsUpgraded: (e, r, k) => { r[e.player] = plus(r[e.player], e.paid, -k); },
  CrewUpgraded: (e, r, k) => { r[e.player] = plus(r[e.player], e.paid, -k); },
  QuestBought: (e, r, k) => { r[e.player] = plus(r[e.player], e.paid, -k); },
  QuestCompleted: (e, r, k) => { r[e.player] = plus(r[e.player], e.paid, -k); },
  EventDrawn: (e, r, k) => { for (const [pid, d] of Object.entries(e.changes || {})) r[pid] = plus(r[pid], d, k); },
  SurrenderAccepted: (e, r, k) => { r[e.player] = plus(r[e.player], e.resources, -k); r[e.to] = plus(r[e.to], e.resources, k); },
  ResourcesKept: (e, r, k) => { r[e.player] = plus(r[e.player], e.water, -k); },
  ResourcesFished: (e, r, k) => { r[e.player] = plus(r[e.player], e.resources, k); },
  ResourcesAdjusted: (e, r, k) => { r[e.player] = plus(r[e.player], e.resources, k); },
};

/** What the given events did to each player's resources: {pid: {resource: n}}. */
export function changesOf(events) {
  const res = {};
  for (const e of events) RESOURCE_CHANGES[e.type]?.(e, res, 1);
  return res;
}

/**
 * Per player and round: total resources held and the quest level reached (0 Bronze … 3 done).
 * Returns {players: [{id, name, character}], rounds: [1, 2, …], resources: {pid: [...]}, levels: {pid: [...]}}.
 */
export function timeline(events) {
  const players = [];
  const res = {};
  const done = {};
  const rounds = [];
  const series = { resources: {}, levels: {} };
  const byVersion = new Map();
  let round = 0;
  const snap = () => {
    rounds.push(round);
    for (const p of players) {
      (series.resources[p.id] ??= []).push(total(res[p.id]));
      (series.levels[p.id] ??= []).push(done[p.id] || 0);
    }
  };
  for (const e of events) {
    if (e.type === 'PlayerJoined') {
      players.push({ id: e.player_id, name: e.name, character: e.character });
      res[e.player_id] = {};
    } else if (e.type === 'GameStarted') {
      round = 1;
    } else if (e.type === 'TurnEnded' && e.round !== round) {
      snap();
      round = e.round;
    } else if (e.type === 'QuestCompleted') {
      done[e.player] = LEVEL_INDEX[e.level_after] ?? (done[e.player] || 0);
    } else if (e.type === 'ActionUndone') {
      // the host took a change back: so are its changes to the stocks
      for (const x of byVersion.get(e.undone_version) || []) RESOURCE_CHANGES[x.type]?.(x, res, -1);
    }
    if (!byVersion.has(e.version)) byVersion.set(e.version, []);
    byVersion.get(e.version).push(e);
    const change = RESOURCE_CHANGES[e.type];
    if (change) change(e, res, 1);
  }
  if (round > 0) snap();
  return { players, rounds, resources: series.resources, levels: series.levels };
}


/**
 * The marks of a count's axis from `min` to `max`: a "nice" step (1, 2 or 5 times a power of ten, 1 at least)
 * for at most `most` steps, from a multiple of it at or below `min` to one at or above `max`:
 * 0 to 7 → [0, 2, 4, 6, 8].
 */
export function niceTicks(min, max, most = 5) {
  const span = Math.max(max - min, 1);
  const power = Math.max(1, 10 ** Math.floor(Math.log10(span / most))); // a count never steps by less than 1
  const step = [1, 2, 5, 10].map((f) => f * power).find((s) => Math.ceil(max / s) - Math.floor(min / s) <= most);
  const ticks = [Math.floor(min / step) * step];
  while (ticks[ticks.length - 1] < max) ticks.push(ticks[ticks.length - 1] + step);
  return ticks;
}
