// /dice/CODE, the table's dice device (views/quest1607/dice.js loads it): this turn's dice giant, with
// what they brought; in a fight the shot's dice instead — the to-hit roll against what the hit table
// asks, the damage die and what it does — and whom the fight waits for; after the end, who won. A page
// of two parts (../../page.js), the dice and the story, each drawn in place only when what it reads
// changed. A device the host handed the dice to (or that holds the host token) rolls for whoever's
// turn it is (T1); one holding a player's token, on theirs.
import { saveTokens, tokensFor } from '../../api.js';
import { html } from '../../html.js';
import { t } from '../../i18n.js';
import { activePlayer, allowance, lastRoll, playerById } from '../../logic/quest1607_facts.js';
import { resourceUnits } from '../../logic/format.js';
import { tellers } from '../../logic/quest1607_table.js';
import { story } from '../../logic/story.js';
import { Page } from '../../page.js';
import { dieSvg, swatch } from '../../ui.js';
import { feed, sheet } from '../common.js';
import { animateDice, broughtBy, deviceToken, land } from './dice.js';
import { damageFaces, fightTitle, fightWait, shotMeaning } from './fight.js';

const nameIn = (state, pid) => (playerById(state, pid) || {}).name || '?';
const diceOf = (dice) => html`${dieSvg(dice.move.value, 'move', t('movement'))}${dice.white.map((d) => dieSvg(d.value, 'white', t('dice')))}`;

/** Who the dice are for now: the player at turn, the fight, the winner, or the host to start. */
function heading({ state, ruleset }) {
  const active = activePlayer(state);
  if (state.phase === 'finished') return html`<h1 class="dice-turn">★ ${t('winner', { name: nameIn(state, state.winner) })}</h1>`;
  if (state.combat) return html`<h1 class="dice-turn">${fightTitle(state)}</h1>`;
  return html`<h1 class="dice-turn">${active ? html`${swatch(ruleset, active.character, false)} ${t('turn_of', { name: active.name })}` : t('waiting_host')}</h1>`;
}

/** This turn's dice, giant, what they brought and how far the player may sail; the roll button. */
function turnDice({ state, ruleset, roll }, mayRoll) {
  const dice = state.turn && state.turn.dice;
  const active = activePlayer(state);
  const same = roll && dice && roll.dice && roll.dice.move.index === dice.move.index;
  return html`<section class="turn-dice" id="turn-dice"><div class="dice-row giant" id="dice-row">${dice ? diceOf(dice) : ''}</div>
    ${dice ? html`<p class="brought">${t('brought')}: <strong>${resourceUnits(broughtBy(same ? roll : null, state, ruleset))}</strong></p>
      <p class="allowance">${t('allowance_short', { n: allowance(state, active) })}</p>` : state.phase === 'lobby' ? '' : html`<p class="muted">${t('no_roll')}</p>`}
    ${mayRoll && !state.turn.rolled ? html`<button type="button" id="table-roll" class="primary huge">${t('roll_for', { name: active.name })}</button>` : ''}</section>`;
}

/** C4–C5: the newest shot's dice big with what they mean, and whom the fight waits for now. */
function fightDice({ state, ruleset }) {
  const c = state.combat;
  const wait = fightWait(state, ruleset);
  const shot = c.shots.length ? shotMeaning(state, ruleset, c.shots[c.shots.length - 1], c.shots.length) : null;
  const dice = state.turn && state.turn.dice;
  const waiting = html`<p class="q-wait" id="fight-wait">${wait.text}${wait.why ? html`<span class="q-why">${wait.why}</span>` : ''}</p>`;
  return html`<section class="fight-dice" id="fight-dice" aria-live="polite">
    ${shot ? html`<h2 id="fight-shot">${t('fight_shot', { n: shot.n, name: shot.shooter })}</h2>
      <div class="fight-pair" id="fight-pair">
        <figure><figcaption>${t('fight_to_hit')}</figcaption>${dieSvg(shot.roll, 'white', t('fight_to_hit'))}<figcaption>${t('fight_needed', { n: shot.needed })}</figcaption></figure>
        ${shot.hit ? html`<figure><figcaption>${t('fight_damage')}</figcaption>${dieSvg(shot.damage, 'move', t('fight_damage'))}<figcaption>${shot.effect}</figcaption></figure>` : ''}
      </div>
      <p class="fight-verdict ${shot.hit ? 'hit' : 'miss'}">${shot.hit ? `${t('fight_hit')} ${shot.effect}` : t('fight_miss')}</p>
      ${shot.hit ? html`<ul class="damage-faces" aria-label="${t('fight_damage_die')}">${damageFaces(ruleset).map((f) => html`<li class="${f.face === shot.damage ? 'rolled' : ''}">${f.face}: ${f.text}</li>`)}</ul>` : ''}
      ${waiting}`
      : html`${waiting}<p>${t('fight_first', { name: nameIn(state, c.attacker.player) })}</p>`}
    ${dice ? html`<p class="muted">${t('fight_roll_of', { name: nameIn(state, state.turn.player) })}</p><div class="dice-row dice-small">${diceOf(dice)}</div>` : ''}</section>`;
}

/**
 * The dice, one card: whom they are for, this turn's dice or the fight's, or who won. `forTable`:
 * this device rolls for whoever's turn it is, else only for player `me` (null: it only watches).
 */
class DiceCard {
  constructor(forTable, me) {
    Object.assign(this, { name: 'dice', forTable, me });
    // the roll (null: none yet this turn) and the fight's shots drawn last; undefined before the first draw
    this.roll = undefined;
    this.shots = undefined;
    this.on = { click: this.click };
  }

  /** The turn, the fight, the roll's event, and the players they name. */
  read({ state, ruleset, roll }) {
    const c = state.combat;
    const named = [state.turn && state.turn.player, state.winner, c && c.attacker.player, c && c.defender.player];
    return [ruleset, state.phase, state.turn, c, state.event, roll, ...named.map((pid) => playerById(state, pid))];
  }

  view(ctx) {
    const { state } = ctx;
    const over = state.phase === 'finished';
    const active = activePlayer(state);
    const mayRoll = state.phase === 'playing' && active && (this.forTable || active.id === this.me);
    return html`<section class="dice-device" id="dice-device">${heading(ctx)}
      ${over ? html`<p class="dice-over" id="dice-over">${t('dice_over', { name: nameIn(state, state.winner) })}</p>`
        : state.combat ? fightDice(ctx) : turnDice(ctx, mayRoll)}
      ${over ? '' : html`<p class="muted small" id="dice-note">${!this.forTable ? t('dice_table_info') : state.phase === 'lobby' ? t('dice_at_start') : t('dice_linked')}</p>`}</section>`;
  }

  click(event) {
    const button = event.target.closest('#table-roll');
    return button && !button.disabled ? { action: { type: 'roll' }, label: button.textContent.trim() } : null;
  }

  /** A new roll tumbles once drawn, a new shot's dice land; the first draw shows them at rest. */
  drawn(slot, { state }) {
    if (state.combat) {
      const n = state.combat.shots.length;
      if (n && this.shots !== undefined && n !== this.shots) land(slot.querySelector('#fight-pair'));
      this.shots = n;
    } else if (state.phase !== 'finished') {
      const dice = state.turn && state.turn.dice;
      const roll = dice ? dice.move.index : null;
      if (roll !== null && this.roll !== undefined && roll !== this.roll) animateDice(slot.querySelector('#dice-row'), dice);
      this.roll = roll;
    }
  }
}

const feedCard = {
  name: 'feed',
  read: ({ state, events }) => [state.players, events],
  view: (ctx) => feed(story(ctx.events, tellers, ctx, { limit: 6 })),
};

export async function mountDice(root, { code, hash, navigate }) {
  const linked = deviceToken(hash);
  if (linked) {
    saveTokens(code, { dice: linked });
    history.replaceState(null, '', location.pathname); // the token stays on this device, not in the address bar
  }
  const mine = tokensFor(code);
  const forTable = Boolean(mine.host || mine.dice);
  const token = mine.host || mine.dice || (mine.player && mine.player.token) || null;
  let state = null;
  let roll = null; // the newest roll seen live: its event says what it brought
  const page = new Page(root, [new DiceCard(forTable, mine.player ? mine.player.id : null), feedCard],
    () => (page.session && state ? { state, ruleset: page.session.ruleset, events: page.session.log.all(), roll } : null));
  page.navigate = navigate;
  await sheet('/css/tv.css');
  return page.open(code, token, (s) => { state = s; page.schedule(); }, { onEvents: (events) => { roll = lastRoll(events) || roll; } });
}
