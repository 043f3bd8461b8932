// The dice: the tumble every page shows, what a roll brought, and /dice/CODE, the table device that
// shows each roll big (its page, dice_table.js, loads when the route opens: a phone that only needs
// the tumble does not carry it).
import { html } from '../../html.js';
import { t } from '../../i18n.js';
import { morph } from '../../morph.js';
import { activePlayer } from '../../logic/quest1607_facts.js';
import { dieSvg } from '../../ui.js';

const reducedMotion = () => window.matchMedia && window.matchMedia('(prefers-reduced-motion: reduce)').matches;

/** Dice that have just come to rest: `el` lands for a moment (app.css). */
export function land(el) {
  el.classList.add('landed');
  setTimeout(() => el.classList.remove('landed'), 400);
}

/** Tumble the dice in `container` for a moment, then settle on the server's values. */
export function animateDice(container, dice) {
  if (!container || !dice) return;
  const final = () => html`${dieSvg(dice.move.value, 'move', t('movement'))}${dice.white.map((d) => dieSvg(d.value, 'white', t('dice')))}`;
  if (reducedMotion()) { morph(container, final()); return; }
  const faces = () => 1 + Math.floor(Math.random() * 6);
  let frames = 8;
  container.classList.add('rolling');
  const tick = () => {
    if (frames <= 0) {
      container.classList.remove('rolling');
      morph(container, final());
      land(container);
      return;
    }
    frames -= 1;
    morph(container, html`${dieSvg(faces(), 'move', '')}${dice.white.map(() => dieSvg(faces(), 'white', ''))}`);
    setTimeout(tick, 70);
  };
  tick();
}

/** What a roll brought, from its DiceRolled event (gains) or, before one is seen, from the faces. */
export function broughtBy(event, state, ruleset) {
  if (event && event.gains) return event.gains;
  const dice = state && state.turn && state.turn.dice;
  const player = activePlayer(state);
  if (!dice || !player) return {};
  const gains = {};
  for (const d of dice.white) {
    let res = (ruleset.white_die || {})[String(d.value)];
    if (res === 'land') res = player.land_resource;
    if (res) gains[res] = (gains[res] || 0) + 1;
  }
  return gains;
}

/** The device token a dice link carries in its fragment (which never reaches a server), or null. */
export function deviceToken(hash) {
  const match = /(?:^#|&)device=([A-Za-z0-9_-]{8,64})(?:&|$)/.exec(hash || '');
  return match ? match[1] : null;
}

export async function mount(root, options) {
  const { mountDice } = await import('./dice_table.js');
  return mountDice(root, options);
}
