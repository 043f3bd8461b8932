// The attack form on a player's phone, while no fight is on: which of your ships attacks which ship
// of whom (C1). The board is on the table, so the form says what the board must show (C1, C2) and the
// phone checks the rest (C3 the ship just attacked rests, E1 an event that forbids fights).
import { html } from '../../../html.js';
import { t } from '../../../i18n.js';
import { ruleLinked } from '../../../logic/format.js';
import * as R from '../../../logic/quest1607.js';
import { labelOf } from '../../phone_cards.js';
import { checkedButton } from '../../parts.js';
import { choice } from './card.js';
import './words.js';

export class AttackCard {
  constructor() {
    this.ship = 1;
    this.target = '';
    this.targetShip = 1;
    this.on = { click: this.click, change: this.change };
  }

  /** Its moves, and the other players' ships (the targets). */
  read({ state, player, shared }) { return [...R.movesOf(state, player), shared, ...state.players.map((p) => p.ships)]; }

  view({ state, ruleset, me, player, shared }) {
    if (state.phase !== 'playing' || state.combat || shared) return ''; // the strip says why not now
    const others = state.players.filter((p) => p.id !== me);
    if (!others.some((p) => p.id === this.target)) this.target = others.length ? others[0].id : '';
    const target = R.playerById(state, this.target);
    const ships = (list) => list.map((s) => [s.number, t('ship', { n: s.number })]);
    const check = R.canAttack(state, ruleset, me, this.ship, this.target, this.targetShip);
    return html`<details class="card" id="attack-form"><summary><h2>${t('attack')}</h2></summary>
      <p class="muted" id="attack-rules">${ruleLinked(t('attack_rules'))}</p>
      <label>${t('your_ship')} ${choice('attack-ship', this.ship, ships(player.ships))}</label>
      <label>${t('target')} ${choice('attack-target', this.target, others.map((p) => [p.id, p.name]))}</label>
      <label>${t('their_ship')} ${choice('attack-target-ship', this.targetShip, ships(target ? target.ships : []))}</label>
      ${checkedButton(check, 'attack-send', t('attack'), { cls: 'danger', data: { send: 'attack' }, shared })}
    </details>`;
  }

  click(event) {
    const el = event.target.closest('#attack-form button[data-send]');
    if (!el || el.disabled) return null;
    return { action: { type: 'attack', ship: this.ship, target: this.target, target_ship: this.targetShip }, label: labelOf(el) };
  }

  change(event) {
    const field = event.target.dataset.field;
    const value = event.target.value;
    if (field === 'attack-ship') this.ship = Number(value);
    else if (field === 'attack-target') { this.target = value; this.targetShip = 1; }
    else if (field === 'attack-target-ship') this.targetShip = Number(value);
    else return null;
    return true;
  }
}
