// Pure: Quest 1607 at the table. The words of each event for the table's story, the outcome of the
// last fight, and what needs a player now (the phone's strip), most urgent first. No DOM, no I/O.
import { t, tx } from '../i18n.js';
import { formatDelta, resourcesOrNothing } from './format.js';
import { allowance, fishCount, playerById, total } from './quest1607_facts.js';

const res = resourcesOrNothing;

/** A player's name by id, in any state, or the id itself. */
function nameIn(state, pid) {
  return (playerById(state, pid) || {}).name || String(pid || '?');
}

/** A trade good's name (Q3) from the quest cards that ask for it, else its code. */
export function goodName(ruleset, good) {
  for (const quest of (ruleset && ruleset.quests) || []) {
    for (const r of quest.requirements || []) if (r.kind === 'cargo' && r.good === good) return tx(r.name);
  }
  return String(good);
}

/** The offer `id` as it was made (OfferMade), found by looking back in the events. */
export function offerMade(events, id) {
  for (let i = events.length - 1; i >= 0; i -= 1) {
    const e = events[i];
    if (e.type === 'OfferMade' && e.offer && e.offer.id === id) return e.offer;
  }
  return null;
}

function shotEffect(event) {
  if (event.effect === 'crew') return t('crew_loss', { n: event.crew_loss });
  if (event.effect === 'sails_hit') return event.sails_loss ? `${t('sails_hit')} (${t('sails')} −${event.sails_loss})` : t('sails_hit');
  return t('no_effect');
}

/** The words of each Quest 1607 event; `ctx` is {state, ruleset, events} (events: all, oldest first). */
export const tellers = {
  PlayerJoined: (e, ctx) => {
    const land = ((ctx.ruleset && ctx.ruleset.characters) || []).find((c) => c.id === e.character);
    return t('told_joined', { name: e.name, land: land ? tx(land.name) : e.character });
  },
  GameStarted: (e, ctx) => t('told_started', { name: nameIn(ctx.state, e.order[0]) }),
  DiceRolled: (e, ctx) => t('told_rolled', { name: nameIn(ctx.state, e.player), move: e.dice.move.value, gains: res(e.gains) }),
  ShipSailed: (e, ctx) => t('told_sailed', { name: nameIn(ctx.state, e.player), ship: e.ship, n: e.squares }),
  OfferMade: (e, ctx) => {
    const o = e.offer;
    return t('told_offer', { from: nameIn(ctx.state, o.from), to: nameIn(ctx.state, o.to), give: res(o.give), get: res(o.get) });
  },
  OfferAccepted: (e, ctx) => t('told_traded', { from: nameIn(ctx.state, e.from), to: nameIn(ctx.state, e.to), give: res(e.give), get: res(e.get) }),
  OfferDeclined: (e, ctx) => {
    const o = offerMade(ctx.events, e.offer_id) || { from: '?', to: e.player };
    return t('told_declined', { from: nameIn(ctx.state, o.from), to: nameIn(ctx.state, o.to) });
  },
  OfferWithdrawn: (e, ctx) => {
    const o = offerMade(ctx.events, e.offer_id) || { from: e.player, to: '?' };
    return t('told_withdrawn', { from: nameIn(ctx.state, o.from), to: nameIn(ctx.state, o.to) });
  },
  MarketTraded: (e, ctx) => t('told_market', { name: nameIn(ctx.state, e.player), give: res(e.give), get: res(e.get) }),
  BankTraded: (e, ctx) => t('told_bank', { name: nameIn(ctx.state, e.player), give: res(e.give), get: res(e.get) }),
  SailsUpgraded: (e, ctx) => upgraded(e, ctx),
  CannonsUpgraded: (e, ctx) => upgraded(e, ctx),
  CrewUpgraded: (e, ctx) => upgraded(e, ctx),
  ShipLaunched: (e, ctx) => t('told_launched', { name: nameIn(ctx.state, e.player), ship: e.ship }),
  QuestBought: (e, ctx) => t('told_bought', { name: nameIn(ctx.state, e.player), level: t(e.level), paid: res(e.paid) }),
  GoodsLoaded: (e, ctx) => t('told_loaded', { name: nameIn(ctx.state, e.player), good: goodName(ctx.ruleset, e.good), ship: e.ship }),
  GoodsDelivered: (e, ctx) => t('told_delivered', { name: nameIn(ctx.state, e.player), good: goodName(ctx.ruleset, e.good), ship: e.ship }),
  PlaceVisited: (e, ctx) => t('told_visited', { name: nameIn(ctx.state, e.player), place: tx(e.place) }),
  QuestCompleted: (e, ctx) => {
    const card = ((ctx.ruleset && ctx.ruleset.quests) || []).find((q) => q.id === e.card);
    return t('told_completed', { name: nameIn(ctx.state, e.player), level: t(e.level), title: card ? tx(card.title) : e.card });
  },
  EventDrawn: (e, ctx) => {
    const changes = Object.entries(e.changes || {}).filter(([, d]) => total(d) || Object.keys(d).length)
      .map(([pid, d]) => t('told_changes', { name: nameIn(ctx.state, pid), delta: formatDelta(d) }));
    const head = t('told_event', { id: e.event, title: tx(e.title) });
    return { text: changes.length ? `${head} (${changes.join('; ')})` : head, moment: true };
  },
  AttackStarted: (e, ctx) => ({
    text: t('told_attack', { a: nameIn(ctx.state, e.attacker.player), own: e.attacker.ship, d: nameIn(ctx.state, e.defender.player), ship: e.defender.ship }),
    moment: true,
  }),
  ShotFired: (e, ctx) => (e.hit
    ? t('told_shot_hit', { name: nameIn(ctx.state, e.shooter.player), roll: e.to_hit.value, needed: e.needed, effect: shotEffect(e), target: nameIn(ctx.state, e.target.player) })
    : t('told_shot_miss', { name: nameIn(ctx.state, e.shooter.player), roll: e.to_hit.value, needed: e.needed })),
  ShipSunk: (e, ctx) => t('told_sunk', { name: nameIn(ctx.state, e.player), ship: e.ship, home: e.at, crew: e.crew }),
  SurrenderOffered: (e, ctx) => t('told_surrender_offered', { name: nameIn(ctx.state, e.player) }),
  // a surrender accepted and the last catch come with the fight's end, whose line tells them
  SurrenderAccepted: () => null,
  ResourcesKept: (e, ctx) => t('told_kept', { name: nameIn(ctx.state, e.player), kept: res(e.kept), water: res(e.water) }),
  ResourcesFished: () => null,
  CombatEnded: (e, ctx) => {
    const end = outcome(ctx.events, ctx.state, e.version);
    return { text: end ? outcomeText(end, ctx.state) : t('told_fight_won', { winner: nameIn(ctx.state, e.winner) }), moment: true };
  },
  TurnEnded: (e, ctx) => {
    const parts = [t('told_turn', { name: nameIn(ctx.state, e.player), next: nameIn(ctx.state, e.next) })];
    if (e.skipped && e.skipped.length) parts.push(t('told_skipped', { names: e.skipped.map((p) => nameIn(ctx.state, p)).join(', '), n: e.skipped.length }));
    if (e.lapsed && e.lapsed.length) parts.push(t('told_lapsed'));
    const before = [...ctx.events].reverse().find((x) => x.type === 'TurnEnded' && x.version < e.version);
    if (e.round > (before ? before.round : 1)) parts.push(t('told_round', { n: e.round }));
    return parts.join(' · ');
  },
  ResourcesAdjusted: (e, ctx) => ({
    text: t('told_adjusted', { name: nameIn(ctx.state, e.player), delta: formatDelta(e.resources), reason: e.reason }),
    moment: true,
  }),
  GameWon: (e, ctx) => ({ text: t('told_won', { name: nameIn(ctx.state, e.player) }), moment: true }),
};

function upgraded(e, ctx) {
  return t('told_upgraded', { name: nameIn(ctx.state, e.player), part: t(e.part), ship: e.ship, level: e.level, paid: res(e.paid) });
}

/**
 * The last fight that ended at or before `version` (the newest when left out), from the events:
 * {version, winner, loser, how: 'sunk'|'surrender', ship, handed, kept, fished, lost, skip}.
 */
export function outcome(events, state, version = Infinity) {
  let end = -1;
  for (let i = events.length - 1; i >= 0; i -= 1) {
    if (events[i].type === 'CombatEnded' && events[i].version <= version) { end = i; break; }
  }
  if (end < 0) return null;
  const e = events[end];
  const found = { version: e.version, winner: e.winner, loser: e.loser, how: e.how, ship: null, handed: {}, kept: {}, fished: {}, lost: {}, skip: 0 };
  for (let i = end; i >= 0; i -= 1) {
    const x = events[i];
    if (x.type === 'AttackStarted') break;
    if (x.type === 'SurrenderAccepted') { found.handed = x.resources; found.skip = x.skip_turns; }
    if (x.type === 'ShipSunk') { found.ship = x.ship; found.skip = x.skip_turns; }
    if (x.type === 'ResourcesKept') { found.kept = x.kept; found.lost = x.water; }
    if (x.type === 'ResourcesFished') found.fished = x.resources;
  }
  if (total(found.fished)) {
    const lost = { ...found.lost };
    for (const [r, n] of Object.entries(found.fished)) lost[r] = (lost[r] || 0) - n;
    found.lost = Object.fromEntries(Object.entries(lost).filter(([, n]) => n > 0));
  }
  return found;
}

/** The outcome of a fight in one or two sentences: who won, what changed hands, who skips. */
export function outcomeText(end, state) {
  const names = { winner: nameIn(state, end.winner), loser: nameIn(state, end.loser) };
  const parts = end.how === 'surrender'
    ? [t('outcome_surrender', { ...names, res: res(end.handed) })]
    : [t('outcome_sunk', { ...names, ship: end.ship ?? 1 })];
  if (end.how !== 'surrender' && (total(end.kept) || total(end.fished))) {
    parts.push(t('outcome_salvage', { ...names, kept: res(end.kept), fished: res(end.fished) }));
  }
  // what nobody kept nor fished went down with the ship; when that was nothing, nothing is said of it
  if (end.how !== 'surrender' && total(end.lost)) parts.push(t('outcome_lost', { lost: res(end.lost) }));
  if (end.skip) parts.push(t('outcome_skip', names));
  return parts.join(' ');
}

/** Whether the fight that ended in `end` is still the news of this turn (no turn ended since). */
export function outcomeIsFresh(end, events) {
  return Boolean(end) && !events.some((e) => e.version > end.version && (e.type === 'TurnEnded' || e.type === 'AttackStarted'));
}

/**
 * What needs player `me` now, most urgent first: [{id, tone, text, buttons}]. `tone` is 'act'
 * (something to do), 'wait' (someone else decides about you) or 'info'. A button is
 * {id, label, act, data, check?, cls}; the page makes it a real button (`check` refuses it).
 * What concerns only other players is never something to do here; after the end there is only who won.
 */
export function nowItems(state, ruleset, me, checks) {
  if (!state || state.phase === 'lobby') return [];
  if (state.phase === 'finished') {
    const won = state.winner === me;
    return [{ id: 'over', tone: won ? 'act' : 'info', text: won ? t('now_you_won') : t('now_over', { name: nameIn(state, state.winner) }), buttons: [] }];
  }
  const items = [];
  const player = playerById(state, me);
  const combat = state.combat;
  if (combat) items.push(...fightItems(state, ruleset, me, combat, checks));
  for (const o of state.offers.filter((x) => x.to === me)) {
    items.push({
      id: `offer-${o.id}`, tone: 'act',
      text: t('now_offer', { from: nameIn(state, o.from), give: res(o.give), get: res(o.get) }),
      buttons: [
        { id: `do-accept-${o.id}`, label: t('accept'), act: 'accept', data: { offer: o.id }, check: checks.accept(o), cls: 'primary' },
        { id: `do-decline-${o.id}`, label: t('decline'), act: 'decline', data: { offer: o.id } },
      ],
    });
  }
  const turn = state.turn;
  const mine = turn && turn.player === me;
  if (mine && !combat) items.push(...turnItems(state, player, checks));
  else if (player && player.level === 'done' && !combat) items.push({ id: 'win', tone: 'info', text: t('now_win_later'), buttons: [] });
  if (player && player.skip_turns > 0) {
    const why = player.skip_reason || {};
    const key = why.rule === 'C8' ? 'now_skip_c8' : 'now_skip_c7';
    items.push({ id: 'skip', tone: 'info', text: t(key, { name: nameIn(state, why.by) }), buttons: [] });
  }
  for (const o of state.offers.filter((x) => x.from === me)) {
    items.push({ id: `mine-${o.id}`, tone: 'wait', text: t('now_your_offer', { to: nameIn(state, o.to), give: res(o.give), get: res(o.get) }), buttons: [] });
  }
  if (!mine && !(combat && (combat.attacker.player === me || combat.defender.player === me))) {
    items.push({ id: 'status', tone: 'info', text: combat
      ? t('now_fight_others', { a: nameIn(state, combat.attacker.player), d: nameIn(state, combat.defender.player) })
      : t('turn_of', { name: nameIn(state, turn && turn.player) }), buttons: [] });
  }
  return items;
}

/** The active player's own turn: roll first; then sail, trade, build — or, all Gold done, win (V1). */
function turnItems(state, player, checks) {
  const items = [];
  if (!state.turn.rolled) items.push({ id: 'roll', tone: 'act', text: t('now_roll'), buttons: [{ id: 'do-roll', label: t('roll'), act: 'roll', data: {}, check: checks.roll(), cls: 'primary' }] });
  if (player.level === 'done') {
    const edge = { id: 'do-edge', label: t('reach_edge'), act: 'reach_edge', data: {}, check: checks.reachEdge(), cls: 'primary' };
    items.push({ id: 'win', tone: 'act', text: t('now_win', { button: t('reach_edge') }), buttons: [edge] });
  } else if (state.turn.rolled) {
    // T3: what the ships may still sail this turn (the most any one of them may), counted down as they sail
    const moved = state.turn.moved || {};
    const left = Math.max(0, ...player.ships.map((s) => allowance(state, player) - (moved[s.number] || 0)));
    const key = !left ? 'now_turn_sailed' : Object.values(moved).some(Boolean) ? 'now_turn_left' : 'now_turn';
    items.push({ id: 'turn', tone: 'act', text: t(key, { n: left }), buttons: [] });
  }
  return items;
}

/**
 * The fight, for its two sides: whose shot it is, a surrender to accept (then nobody fires: C8),
 * what the sunk keeps and the winner fishes (C7). The defender may offer to surrender from here.
 */
function fightItems(state, ruleset, me, combat, checks) {
  const side = combat.attacker.player === me ? 'attacker' : combat.defender.player === me ? 'defender' : null;
  if (!side) return [];
  const [own, other] = side === 'attacker' ? [combat.attacker, combat.defender] : [combat.defender, combat.attacker];
  const otherName = nameIn(state, other.player);
  if (combat.stage === 'salvage') {
    if (combat.sunk === me) return [{ id: 'keep', tone: 'act', text: t('now_keep', { n: combat.keep }), buttons: [{ id: 'do-keep', label: t('now_choose'), data: { open: 'keep' }, cls: 'primary' }] }];
    return [{ id: 'keep', tone: 'wait', text: t('now_wait_keep', { name: otherName }), buttons: [] }];
  }
  if (combat.stage === 'fishing') {
    if (combat.winner === me) return [{ id: 'fish', tone: 'act', text: t('now_fish', { n: fishCount(state, ruleset) }), buttons: [{ id: 'do-fish', label: t('now_choose'), data: { open: 'fish' }, cls: 'primary' }] }];
    return [{ id: 'fish', tone: 'wait', text: t('now_wait_fish', { name: otherName }), buttons: [] }];
  }
  if (combat.stage === 'surrender_offered') {
    if (combat.surrendering === me) return [{ id: 'surrendered', tone: 'wait', text: t('now_you_surrendered', { name: otherName }), buttons: [] }];
    const loser = playerById(state, combat.surrendering);
    const accept = { id: 'do-accept-surrender', label: t('accept_surrender'), act: 'accept_surrender', data: {}, check: checks.acceptSurrender(), cls: 'primary' };
    return [{ id: 'surrender', tone: 'act', text: t('now_surrender_to_you', { name: otherName, res: res(loser ? loser.resources : {}) }), buttons: [accept] }];
  }
  const surrender = side === 'defender' && checks.surrender().ok ? [{ id: 'do-surrender', label: t('surrender'), act: 'surrender', data: {} }] : [];
  if (combat.shooter === me) {
    const fire = { id: 'do-fire', label: t('fire'), act: 'fire', data: {}, check: checks.fire(), cls: 'danger' };
    return [{ id: 'fire', tone: 'act', text: t('now_fire', { name: otherName, ship: other.ship }), buttons: [fire, ...surrender] }];
  }
  const first = side === 'defender' && combat.shots.length === 0;
  const key = first ? 'now_attacked' : side === 'defender' ? 'now_under_fire' : 'now_return_fire';
  return [{ id: 'under-fire', tone: 'wait', text: t(key, { name: otherName, ship: own.ship }), buttons: surrender }];
}
