// The dice: the animation every page uses, and /dice/CODE, the table device that shows each roll
// big. A device that the host handed the dice to (it opened the link /dice/CODE#device=TOKEN from
// the host panel) or that holds the host token rolls for whoever's turn it is (T1: the server rolls
// for the active player); a device holding only a player's token rolls on that player's turn.
import { saveTokens, tokensFor } from '../../api.js';
import { html, render } from '../../html.js';
import { t } from '../../i18n.js';
import { activePlayer, allowance } from '../../logic/quest1607.js';
import { formatResources } from '../../logic/format.js';
import { tellers } from '../../logic/quest1607_table.js';
import { lastRoll } from '../../logic/stats.js';
import { story } from '../../logic/story.js';
import { openGame } from '../../session.js';
import { dieSvg, listen, paintSwatches, swatch, vibrate } from '../../ui.js';
import { feed } from '../parts.js';

const reducedMotion = () => window.matchMedia && window.matchMedia('(prefers-reduced-motion: reduce)').matches;

/** Tumble the dice in `container` for a moment, then settle on the server's values. */
export function animateDice(container, dice) {
  if (!container || !dice) return;
  const final = () => html`${dieSvg(dice.move.value, 'move', t('movement'))}${dice.white.map((d) => dieSvg(d.value, 'white', t('dice')))}`;
  if (reducedMotion()) { render(container, final()); return; }
  const faces = () => 1 + Math.floor(Math.random() * 6);
  let frames = 8;
  container.classList.add('rolling');
  const tick = () => {
    if (frames <= 0) {
      container.classList.remove('rolling');
      render(container, final());
      container.classList.add('landed');
      setTimeout(() => container.classList.remove('landed'), 400);
      return;
    }
    frames -= 1;
    render(container, html`${dieSvg(faces(), 'move', '')}${dice.white.map(() => dieSvg(faces(), 'white', ''))}`);
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

export async function mount(root, { code, hash }) {
  const linked = deviceToken(hash);
  if (linked) {
    saveTokens(code, { dice: linked });
    history.replaceState(null, '', location.pathname); // the token stays on this device, not in the address bar
  }
  const mine = tokensFor(code);
  const rollsForTable = Boolean(mine.host || mine.dice);
  const token = mine.host || mine.dice || (mine.player && mine.player.token) || null;
  let state = null;
  let session;
  let rollEvent = null;
  let lastKey = null;

  function draw() {
    if (!state) return;
    const rs = session.ruleset;
    const active = activePlayer(state);
    const dice = state.turn && state.turn.dice;
    const sameTurn = rollEvent && dice && rollEvent.dice && rollEvent.dice.move.index === dice.move.index;
    render(root, html`<section class="dice-device">
      <h1 class="dice-turn">${active ? html`${swatch(rs, active.character, false)} ${t('turn_of', { name: active.name })}` : t('waiting_host')}</h1>
      <div class="dice-row giant" id="dice-row">${dice ? html`${dieSvg(dice.move.value, 'move', t('movement'))}${dice.white.map((d) => dieSvg(d.value, 'white', t('dice')))}` : ''}</div>
      ${dice ? html`<p class="brought">${t('brought')}: <strong>${formatResources(broughtBy(sameTurn ? rollEvent : null, state, rs))}</strong></p>
        <p class="allowance">${t('allowance_short', { n: allowance(state, active) })}</p>` : html`<p class="muted">${t('no_roll')}</p>`}
      ${active && state.phase === 'playing' && !state.turn.rolled && (rollsForTable || (mine.player && active.id === mine.player.id))
        ? html`<button type="button" id="table-roll" class="primary huge">${t('roll_for', { name: active.name })}</button>`
        : ''}
      <p class="muted small">${rollsForTable ? t('dice_linked') : t('dice_table_info')}</p>
    </section>
    ${feed(story(session.log.all(), tellers, { state, ruleset: rs, events: session.log.all() }, { limit: 6 }))}`);
    paintSwatches(root);
    const key = dice ? dice.move.index : null;
    if (key !== null && lastKey !== null && key !== lastKey) {
      animateDice(root.querySelector('#dice-row'), dice);
      vibrate([50, 30, 90]);
    }
    lastKey = key;
  }

  async function onClick(event) {
    const button = event.target.closest('#table-roll');
    if (!button) return;
    button.disabled = true;
    await session.act({ type: 'roll' }, button.textContent.trim());
    draw();
  }

  const off = listen(root, { click: onClick });
  session = await openGame(code, token, {
    onState: (s) => { state = s; draw(); },
    onChange: draw,
    onEvents: (events) => { const roll = lastRoll(events); if (roll) rollEvent = roll; },
  });
  return { refresh: draw, unmount() { off(); session.close(); } };
}
