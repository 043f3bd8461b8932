// Pure: a fight in words for the table's devices (the TV and the dice tablet): who faces whom, whom
// the table waits for in each stage (fire, accept a surrender, keep, fish), what the sinking did, and
// what each die of a shot meant (the to-hit roll against the hit table, the damage die's effect).
import { t } from '../../i18n.js';
import { resourcesOrNothing } from '../../logic/format.js';
import { effects, playerById, toHit } from '../../logic/quest1607.js';
import { tellers } from '../../logic/quest1607_table.js';
import './screen_strings.js';

const nameIn = (state, pid) => (playerById(state, pid) || {}).name || String(pid || '?');
const value = (d) => (d && typeof d === 'object' ? d.value : d);
const shipOf = (state, side) => ((playerById(state, side.player) || {}).ships || []).find((s) => s.number === side.ship) || {};

/** "Fight: Anna (ship 1) against Bram (ship 1)". */
export function fightTitle(state) {
  const c = state.combat;
  return t('fight_h', { a: nameIn(state, c.attacker.player), as: c.attacker.ship, d: nameIn(state, c.defender.player), ds: c.defender.ship });
}

/** C4: why the shooter needs what they need: "Cannons 4 against Crew 3 on the hit table". */
function needWhy(state, ruleset) {
  const c = state.combat;
  const [own, other] = c.shooter === c.attacker.player ? [c.attacker, c.defender] : [c.defender, c.attacker];
  const why = t('wait_fire_why', { k: shipOf(state, own).cannons, b: shipOf(state, other).crew });
  const shift = effects(state, ruleset).hit_shift;
  return shift ? `${why}, ${t('wait_fire_shift', { shift: shift > 0 ? `+${shift}` : `−${-shift}` })}` : why;
}

/** Whom the table waits for in this stage of the fight, and for what: {who, text, why}. */
export function fightWait(state, ruleset) {
  const c = state.combat;
  if (c.stage === 'salvage') return { who: c.sunk, text: t('wait_keep', { name: nameIn(state, c.sunk), n: c.keep }) };
  if (c.stage === 'fishing') {
    const water = c.water || {};
    const n = Math.min(ruleset.fish, Object.values(water).reduce((a, b) => a + b, 0));
    return { who: c.winner, text: t('wait_fish', { name: nameIn(state, c.winner), n, water: resourcesOrNothing(water) }) };
  }
  if (c.stage === 'surrender_offered') {
    const other = c.surrendering === c.attacker.player ? c.defender.player : c.attacker.player;
    return { who: other, text: t('wait_accept', { name: nameIn(state, c.surrendering), other: nameIn(state, other) }) };
  }
  const n = toHit(state, ruleset);
  return { who: c.shooter, text: t('wait_fire', { name: nameIn(state, c.shooter), n }), why: needWhy(state, ruleset) };
}

/** C7: the sinking of this fight in words (where the ship went, who skips), or ''. */
export function sinkingLine(state, events) {
  const c = state.combat;
  if (!c || !c.sunk) return '';
  for (let i = events.length - 1; i >= 0; i -= 1) {
    const e = events[i];
    if (e.type === 'AttackStarted') break;
    if (e.type === 'ShipSunk') {
      const skip = e.skip_turns ? ` ${t('outcome_skip', { loser: nameIn(state, e.player) })}` : '';
      return `${tellers.ShipSunk(e, { state })}.${skip}`;
    }
  }
  return '';
}

/** The damage die's faces and what each does (C5), from the ruleset: [{face, text}]. */
export function damageFaces(ruleset) {
  return Object.entries(ruleset.damage || {}).map(([face, d]) => ({
    face: Number(face),
    text: d.effect === 'crew' ? t('crew_loss', { n: d.loss || 1 }) : d.effect === 'sails_hit' ? t('sails_hit') : t('no_effect'),
  }));
}

/** One shot's dice and what they meant: {n, shooter, roll, needed, hit, damage, effect}. */
export function shotMeaning(state, ruleset, shot, n) {
  const shooter = shot.shooter && shot.shooter.player ? shot.shooter.player : shot.shooter;
  const damage = shot.hit ? value(shot.damage) : null;
  const face = damage === null ? null : damageFaces(ruleset).find((f) => f.face === damage);
  return { n, shooter: nameIn(state, shooter), roll: value(shot.to_hit), needed: shot.needed, hit: Boolean(shot.hit), damage, effect: face ? face.text : '' };
}
