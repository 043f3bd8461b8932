// The dice on a player's phone: this turn's roll, what the white dice brought (T2) and, on your own
// turn, how far you may sail (T3). What the dice brought is in the roll's event; for a roll older than
// the events the page fetched, views/quest1607/dice.js works it out from the faces (it loads only then).
import { html } from '../../../html.js';
import { t } from '../../../i18n.js';
import { resourceUnits } from '../../../logic/format.js';
import { allowance } from '../../../logic/quest1607_facts.js';
import { dieSvg } from '../../../ui.js';

/** The roll event of `dice` among the events seen (it holds what the white dice brought). */
function rollOf(events, dice) {
  for (let i = events.length - 1; i >= 0; i -= 1) {
    const e = events[i];
    if (e.type === 'DiceRolled' && e.dice && e.dice.move.index === dice.move.index) return e;
  }
  return null;
}

export class DiceCard {
  /** `redraw()`: the page draws again (once the dice module has come, for a roll the events do not hold). */
  constructor(redraw) {
    this.redraw = redraw;
    this.dice = null; // views/quest1607/dice.js, once loaded
  }

  read({ state, player, events }) {
    const dice = state.turn && state.turn.dice;
    return [state.phase, state.turn, player, this.dice, dice && rollOf(events, dice)];
  }

  view({ state, ruleset, me, player, events }) {
    const dice = state.turn && state.turn.dice;
    if (state.phase !== 'playing' || !dice) return ''; // no roll yet: the strip says whose it is
    const roll = dice && rollOf(events, dice);
    if (dice && !roll) this.load();
    const brought = roll ? roll.gains : dice && this.dice ? this.dice.broughtBy(null, state, ruleset) : null;
    return html`<section class="card dicebox" id="dicebox" aria-labelledby="dice-h"><h2 id="dice-h">${t('dice')}</h2>
      <div class="dice-row" id="dice-row">${dieSvg(dice.move.value, 'move', t('movement'))}${dice.white.map((d) => dieSvg(d.value, 'white', t('dice')))}</div>
      ${brought ? html`<p class="brought">${t('brought')}: <strong>${resourceUnits(brought)}</strong></p>` : ''}
      ${state.turn.player === me ? html`<p class="allowance">${t('allowance', { n: allowance(state, player) })}</p>` : ''}
    </section>`;
  }

  load() {
    this.loading = this.loading || import('../dice.js').then((m) => { this.dice = m; this.redraw(); });
  }
}
