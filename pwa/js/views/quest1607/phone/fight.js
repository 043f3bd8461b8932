// The fight on a player's phone: who fights whom, whose shot it is and what it needs, the shots
// numbered as the TV numbers them (newest first), and what this player does now: fire, offer or
// accept a surrender (while a surrender is offered nobody fires: C8), keep (C7) or fish. When no
// fight is on, the last one's outcome while it is this turn's news. Keep and fish are this card's own.
import { html } from '../../../html.js';
import { t } from '../../../i18n.js';
import { resName, ruleLink, shotText } from '../../../logic/format.js';
import * as R from '../../../logic/quest1607.js';
import { outcome, outcomeIsFresh, outcomeText } from '../../../logic/quest1607_table.js';
import { swatch } from '../../../ui.js';
import { labelOf } from '../../phone_cards.js';
import { checkedButton, stepper } from '../../parts.js';
import { nonZero, stepped } from './card.js';
import './words.js';

const SHOTS_SHOWN = 4;

function side(ctx, who) {
  const p = R.playerById(ctx.state, who.player) || {};
  return html`${swatch(ctx.ruleset, p.character, false)} <strong>${p.name}</strong> (${t('ship', { n: who.ship })})`;
}

function shotList({ state, ruleset }, shots) {
  const shown = shots.slice(-SHOTS_SHOWN).reverse();
  if (!shown.length) return '';
  return html`<ol class="shots" reversed start="${shots.length}" aria-label="${t('shots_h')}">${shown.map((s) => {
    const shooter = R.playerById(state, s.shooter && s.shooter.player ? s.shooter.player : s.shooter);
    return html`<li>${shotText(s, shooter ? shooter.name : '?', ruleset)}</li>`;
  })}</ol>`;
}

export class FightCard {
  constructor() {
    this.keep = {};
    this.fish = {};
    this.sheet = null; // the choice open as a sheet: 'keep', 'fish' or none
    this.on = { click: this.click };
  }

  view(ctx) {
    if (this.sheet && this.decides(ctx) !== this.sheet) this.sheet = null; // chosen, or the fight moved on
    if (!ctx.state.combat) return this.outcome(ctx);
    const { state, ruleset } = ctx;
    const combat = state.combat;
    const firing = combat.stage === 'firing' || combat.stage === 'surrender_offered';
    const surrendering = combat.stage === 'surrender_offered' && R.playerById(state, combat.surrendering);
    return html`<section class="card combat" id="fight" aria-labelledby="combat-h"><h2 id="combat-h" tabindex="-1">${t('combat')}</h2>
      <p class="versus">${side(ctx, combat.attacker)} ${t('vs')} ${side(ctx, combat.defender)}</p>
      ${firing && !surrendering ? html`<p class="shooter">${t('shooter', { name: (R.playerById(state, combat.shooter) || {}).name || '?' })} · <span class="to-hit">${t('needs', { n: R.toHit(state, ruleset) })}</span> · ${ruleLink('C4')}</p>` : ''}
      ${surrendering ? html`<p class="surrender-by">${t('surrender_by', { name: surrendering.name })}</p>` : ''}
      ${combat.sunk ? html`<p class="sunk">${t('sunk')} ${(R.playerById(state, combat.sunk) || {}).name || ''}</p>` : ''}
      ${shotList(ctx, combat.shots)}
      ${this.controls(ctx)}
    </section>`;
  }

  /** What this player may do in the fight now; nothing for a bystander. */
  controls(ctx) {
    const { state, ruleset, me, player } = ctx;
    const combat = state.combat;
    const info = R.salvage(state);
    if (this.decides(ctx) === 'keep') {
      const held = Object.keys(player.resources).filter((id) => player.resources[id] > 0);
      return this.decision('keep', t('keep_half', { n: R.keepCount(state, ruleset, player) }),
        held.map((id) => stepper(`keep.${id}`, this.keep[id] || 0, resName(id), { max: player.resources[id] })),
        checkedButton(R.canKeep(state, ruleset, me, this.keep), 'keep-send', t('keep'), { cls: 'primary', data: { act: 'keep' } }));
    }
    if (this.decides(ctx) === 'fish') {
      const water = info.water || {};
      return this.decision('fish', t('fish_n', { n: R.fishCount(state, ruleset) }),
        Object.keys(water).filter((id) => water[id] > 0).map((id) => stepper(`fish.${id}`, this.fish[id] || 0, resName(id), { max: water[id] })),
        checkedButton(R.canFish(state, ruleset, me, this.fish), 'fish-send', t('fish'), { cls: 'primary', data: { act: 'fish' } }));
    }
    if (!R.combatSide(state, me)) return '';
    if (combat.stage === 'surrender_offered') {
      // C8: the side that did not offer accepts; until then nobody fires
      return combat.surrendering === me ? '' : html`<div class="combat-actions">
        ${checkedButton(R.canAcceptSurrender(state, me), 'accept-surrender', t('accept_surrender'), { cls: 'primary', data: { act: 'accept_surrender' } })}</div>`;
    }
    if (combat.stage !== 'firing') return '';
    const surrender = R.canSurrender(state, me, ruleset);
    return html`<div class="combat-actions">
      ${combat.shooter === me ? checkedButton(R.canFire(state, me), 'fire', t('fire'), { cls: 'danger huge', data: { act: 'fire' } }) : ''}
      ${surrender.ok ? checkedButton(surrender, 'surrender', t('surrender'), { data: { act: 'surrender' } }) : ''}</div>`;
  }

  /** What the table waits on this player to choose after a sinking (C7): 'keep' (the sunk), 'fish' (the winner), or null. */
  decides({ state, me }) {
    const combat = state.combat;
    const info = R.salvage(state);
    if (combat && combat.stage === 'salvage' && info.sunkPlayer === me) return 'keep';
    if (combat && combat.stage === 'fishing' && info.winner === me) return 'fish';
    return null;
  }

  /**
   * A choice after a sinking: in the fight card, and, opened from the strip's "Choose", a sheet at
   * the bottom of the screen with all its counters and its button, over the page, where the thumb is.
   */
  decision(kind, text, steppers, send) {
    const open = this.sheet === kind;
    const dialog = open ? html` role="dialog" aria-modal="true" aria-labelledby="${kind}-h"` : '';
    return html`${open ? html`<div class="sheet-back" data-close-sheet="${kind}"></div>` : ''}
      <div class="decision ${open ? 'sheet' : ''}" id="${kind}-box"${dialog}><h3 id="${kind}-h" tabindex="-1">${text}</h3>
      ${steppers}<div class="sheet-buttons">${send}${open ? html`<button type="button" id="${kind}-later" data-close-sheet="${kind}">${t('sheet_later')}</button>` : ''}</div></div>`;
  }

  /** The last fight's outcome while it is still this turn's news: who won and what changed hands. */
  outcome({ state, events }) {
    const end = outcome(events, state);
    if (!outcomeIsFresh(end, events)) return '';
    return html`<section class="card outcome" id="outcome" aria-labelledby="outcome-h"><h2 id="outcome-h">${t('outcome_h')}</h2><p>${outcomeText(end, state)}</p></section>`;
  }

  click(event, ctx) {
    const opens = event.target.closest('#now button[data-open]');
    if (opens) { // the strip's "Choose": the sheet opens, its question in focus
      this.sheet = this.decides(ctx) === opens.dataset.open ? opens.dataset.open : null;
      queueMicrotask(() => { const h = document.getElementById(`${this.sheet}-h`); if (h) h.focus(); });
      return true;
    }
    const closes = event.target.closest('#fight [data-close-sheet]');
    if (closes) { this.sheet = null; return true; }
    if (!event.target.closest('#fight')) return null;
    if (stepped(event, this, ['keep', 'fish'])) return true;
    const el = event.target.closest('button[data-act]');
    if (!el || el.disabled || !['keep', 'fish'].includes(el.dataset.act)) return null; // fire, surrender: the page's taps
    return { action: { type: el.dataset.act, resources: nonZero(this[el.dataset.act]) }, label: labelOf(el) };
  }

  sent(action, answer) {
    if (answer && (action.type === 'keep' || action.type === 'fish')) { this[action.type] = {}; this.sheet = null; }
  }
}
