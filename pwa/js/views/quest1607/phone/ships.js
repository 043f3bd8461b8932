// A player's ships: each ship card with its Cannons, Sails and Crew, the goods it carries (by name),
// and its upgrades with their price (U1–U4; crew is paid with the resource the player picks). Then
// sailing: how far each ship went of its allowance (T3), and the last step to win (V1).
import { html } from '../../../html.js';
import { t } from '../../../i18n.js';
import { formatResources, resName } from '../../../logic/format.js';
import * as R from '../../../logic/quest1607.js';
import { goodName } from '../../../logic/quest1607_table.js';
import { dieSvg, swatch } from '../../../ui.js';
import { labelOf } from '../../phone_cards.js';
import { checkedButton, stepper } from '../../parts.js';
import { choice, stepped } from './card.js';
import './words.js';

const PARTS = ['cannons', 'sails', 'crew'];

export class ShipsCard {
  constructor() {
    this.payWith = {}; // ship number → the resource crew is paid with
    this.on = { click: this.click, change: this.change };
  }

  read({ state, player, ruleset, shared }) { return [...R.movesOf(state, player), ruleset, shared]; }

  view(ctx) {
    const { player } = ctx;
    return html`<section class="card" id="ships" aria-labelledby="ships-h"><h2 id="ships-h">${t('ships')}</h2>
      <div class="ships">${player.ships.map((ship) => this.ship(ctx, ship))}</div></section>`;
  }

  ship(ctx, ship) {
    const { ruleset, player, state } = ctx;
    return html`<article class="ship-card" id="ship-${ship.number}" aria-label="${t('ship', { n: ship.number })}">
      <header>${swatch(ruleset, player.character, false)}<span class="ship-no" aria-hidden="true">${ship.number}</span><span>${t('ship', { n: ship.number })}</span></header>
      <dl class="ship-stats">${PARTS.map((part) => html`<div class="stat"><dt>${t(part)}</dt><dd>${dieSvg(ship[part], 'stat', t(part))}</dd></div>`)}</dl>
      ${ship.sail_hits ? html`<p class="muted">${t('sail_hits')}: ${ship.sail_hits}</p>` : ''}
      ${ship.goods && ship.goods.length ? html`<p class="goods">${t('goods')}: ${ship.goods.map((g) => goodName(ruleset, g.good)).join(', ')}</p>` : ''}
      ${state.phase === 'playing' && !ctx.shared ? html`<div class="upgrades">${PARTS.map((part) => this.upgrade(ctx, ship, part))}</div>` : ''}
    </article>`;
  }

  upgrade({ state, ruleset, me, player, shared }, ship, part) {
    const choices = R.payChoices(ruleset);
    const payWith = this.payWith[ship.number] || choices[0];
    const cost = formatResources(R.costOf(ruleset, part, payWith, state, player.resources));
    const label = html`<span class="unit">${t('upgrade_part', { part: t(part) })}</span> <small>${cost}</small>`; // "Bemanning +1" never breaks
    const button = checkedButton(R.canUpgrade(state, ruleset, me, ship.number, part, payWith), `up-${ship.number}-${part}`, label,
      { data: { upgrade: part, ship: ship.number }, shared });
    return html`<div class="upgrade">${button}
      ${part === 'crew' && choices.length ? html`<label class="inline">${t('pay_with')} ${choice(`pay-${ship.number}`, payWith, choices.map((r) => [r, resName(r)]))}</label>` : ''}</div>`;
  }

  click(event, { ruleset }) {
    const el = event.target.closest('#ships button[data-upgrade]');
    if (!el || el.disabled) return null;
    const action = { type: 'upgrade', ship: Number(el.dataset.ship), part: el.dataset.upgrade };
    if (action.part === 'crew') action.pay_with = this.payWith[action.ship] || R.payChoices(ruleset)[0];
    return { action, label: labelOf(el) };
  }

  change(event) {
    const field = event.target.dataset.field || '';
    if (!field.startsWith('pay-')) return null;
    this.payWith[field.slice(4)] = event.target.value;
    return true;
  }
}

export class SailCard {
  constructor() {
    this.sail = {}; // ship number → squares to sail (1 until the player changes it)
    this.on = { click: this.click };
  }

  read({ state, player, shared }) { return [...R.movesOf(state, player), shared]; }

  view({ state, me, player, shared }) {
    if (state.phase !== 'playing') return '';
    // T3: the allowance is the roll of one's own turn; on another's turn (or before one's roll) the
    // turn's count is theirs, so the row shows no count of squares at all.
    const own = Boolean(state.turn && state.turn.player === me && state.turn.rolled);
    const allowance = own ? R.allowance(state, player) : 0;
    const rows = player.ships.map((ship) => {
      const moved = (own && state.turn.moved && state.turn.moved[String(ship.number)]) || 0;
      const left = Math.max(1, allowance - moved); // T3: what this ship may still sail
      const n = Math.min(this.sail[ship.number] ?? 1, left);
      this.sail[ship.number] = n;
      return html`<div class="sail-row"><span>${t('ship', { n: ship.number })}${own ? html` · ${moved}/${allowance}` : ''}</span>
        ${stepper(`sail.${ship.number}`, n, t('squares'), { min: 1, max: left })}
        ${checkedButton(R.canSail(state, me, ship.number, n), `sail-${ship.number}`, t('sail'), { data: { sail: ship.number }, shared })}</div>`;
    });
    const now = own ? `${state.round}-${me}` : ''; // after one's own roll, sailing is what comes next: open
    return html`<details class="card" id="sail-form" data-opened="${now}" ${now ? html`open` : ''}><summary><h2>${t('sail')}</h2></summary>${rows}
      ${checkedButton(R.canReachEdge(state, me), 'edge', t('reach_edge'), { data: { act: 'reach_edge' }, shared })}</details>`;
  }

  click(event) {
    if (!event.target.closest('#sail-form')) return null;
    if (stepped(event, this, ['sail'], { start: 1, min: 1 })) return true;
    const el = event.target.closest('button[data-sail]');
    if (!el || el.disabled) return null;
    const ship = Number(el.dataset.sail);
    return { action: { type: 'sail', ship, squares: this.sail[ship] ?? 1 }, label: labelOf(el) };
  }
}
