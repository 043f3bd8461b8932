// /dice/CODE, the table's dice device (views/quest1607/dice.js loads it): this turn's dice giant, with
// what they brought; in a fight the shot's dice instead — the to-hit roll against what the hit table
// asks, the damage die and what it does — and whom the fight waits for; after the end, who won. It
// draws in place (morph), one component per section. A device the host handed the dice to (or that
// holds the host token) rolls for whoever's turn it is (T1); one holding a player's token, on theirs.
import { saveTokens, tokensFor } from '../../api.js';
import { html } from '../../html.js';
import { t } from '../../i18n.js';
import { morph } from '../../morph.js';
import { activePlayer, allowance, playerById } from '../../logic/quest1607_facts.js';
import { formatResources } from '../../logic/format.js';
import { tellers } from '../../logic/quest1607_table.js';
import { lastRoll } from '../../logic/stats.js';
import { story } from '../../logic/story.js';
import { openGame } from '../../session.js';
import { dieSvg, listen, paintSwatches, swatch } from '../../ui.js';
import { feed, sheet } from '../common.js';
import { animateDice, broughtBy, deviceToken } from './dice.js';
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
class TurnDice {
  constructor() { this.key = null; }

  markup({ state, ruleset, roll, mayRoll }) {
    const dice = state.turn && state.turn.dice;
    const active = activePlayer(state);
    const same = roll && dice && roll.dice && roll.dice.move.index === dice.move.index;
    return html`<section class="turn-dice" id="turn-dice"><div class="dice-row giant" id="dice-row">${dice ? diceOf(dice) : ''}</div>
      ${dice ? html`<p class="brought">${t('brought')}: <strong>${formatResources(broughtBy(same ? roll : null, state, ruleset))}</strong></p>
        <p class="allowance">${t('allowance_short', { n: allowance(state, active) })}</p>` : html`<p class="muted">${t('no_roll')}</p>`}
      ${mayRoll && !state.turn.rolled ? html`<button type="button" id="table-roll" class="primary huge">${t('roll_for', { name: active.name })}</button>` : ''}</section>`;
  }

  after(root, { state }) {
    const dice = state.turn && state.turn.dice;
    const key = dice ? dice.move.index : null;
    if (key !== null && this.key !== null && key !== this.key) {
      animateDice(root.querySelector('#dice-row'), dice);
    }
    this.key = key;
  }
}

/** C4–C5: the newest shot's dice big with what they mean, and whom the fight waits for now. */
class FightDice {
  constructor() { this.shots = null; }

  markup({ state, ruleset }) {
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

  after(root, { state }) {
    const n = state.combat ? state.combat.shots.length : null;
    if (n && this.shots !== null && n !== this.shots) {
      const pair = root.querySelector('#fight-pair');
      pair.classList.add('landed');
      setTimeout(() => pair.classList.remove('landed'), 400);
    }
    this.shots = n;
  }
}

export async function mountDice(root, { code, hash }) {
  const linked = deviceToken(hash);
  if (linked) {
    saveTokens(code, { dice: linked });
    history.replaceState(null, '', location.pathname); // the token stays on this device, not in the address bar
  }
  const styled = sheet('/css/tv.css');
  const mine = tokensFor(code);
  const rollsForTable = Boolean(mine.host || mine.dice);
  const token = mine.host || mine.dice || (mine.player && mine.player.token) || null;
  let state = null;
  let session;
  let roll = null;
  const turn = new TurnDice();
  const fight = new FightDice();

  function draw() {
    if (!state) return;
    const events = session.log.all();
    const active = activePlayer(state);
    const view = { state, ruleset: session.ruleset, events, roll,
      mayRoll: state.phase === 'playing' && active && (rollsForTable || (mine.player && active.id === mine.player.id)) };
    const over = state.phase === 'finished';
    morph(root, html`<section class="dice-device" id="dice-device">${heading(view)}
      ${over ? html`<p class="dice-over" id="dice-over">${t('dice_over', { name: nameIn(state, state.winner) })}</p>`
        : state.combat ? fight.markup(view) : turn.markup(view)}
      ${over ? '' : html`<p class="muted small">${rollsForTable ? t('dice_linked') : t('dice_table_info')}</p>`}</section>
      ${feed(story(events, tellers, { state, ruleset: session.ruleset, events }, { limit: 6 }))}`);
    paintSwatches(root);
    if (!over && !state.combat) turn.after(root, view);
    if (state.combat) fight.after(root, view);
  }

  async function onClick(event) {
    const button = event.target.closest('#table-roll');
    if (!button) return;
    button.disabled = true;
    await session.act({ type: 'roll' }, button.textContent.trim());
    draw();
  }

  await styled;
  const off = listen(root, { click: onClick });
  session = await openGame(code, token, {
    onState: (s) => { state = s; draw(); },
    onChange: draw,
    onEvents: (events) => { roll = lastRoll(events) || roll; },
  });
  return { refresh: draw, unmount() { off(); session.close(); } };
}
