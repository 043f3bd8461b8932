// The shared screen (TV or tablet, landscape, public view, no token): whose turn, the last roll, the
// event, the fight shot by shot and how it ended, every player's ships and quests, the table's story
// large, and the moments that matter read aloud (the fight's outcome, the event, undo, the winner).
import { html, render, trusted } from '../../html.js';
import { t, tx } from '../../i18n.js';
import { activePlayer, allowance, playerById } from '../../logic/quest1607.js';
import { formatResources, shotText } from '../../logic/format.js';
import { outcome, outcomeIsFresh, outcomeText, tellers } from '../../logic/quest1607_table.js';
import { diceDistribution, lastRoll } from '../../logic/stats.js';
import { story } from '../../logic/story.js';
import { barChart } from '../../charts.js';
import { dieSvg, paintSwatches, swatch } from '../../ui.js';
import { animateDice, broughtBy } from './dice.js';
import { feed } from '../parts.js';
import { SharedScreen } from '../tv.js';

const SHOTS_SHOWN = 4;
const FEED_LINES = 9;

export async function mount(root, { code }) {
  let state = null;
  let session;
  let shownEvent = null;
  let lastKey = null;
  const tv = new SharedScreen(code, tellers, () => draw());

  function playerPanel(p) {
    const rs = session.ruleset;
    const active = state.turn && state.turn.player === p.id;
    const per = (state.options && state.options.quests_per_level) || (rs.quests_per_level && rs.quests_per_level.default) || 2;
    return html`<article class="sp ${active ? 'active' : ''}">
      <header>${swatch(rs, p.character)} <strong class="sp-name">${p.name}</strong>${active ? html`<span class="tag now">▶ ${t('playing_now')}</span>` : ''}<away-mark player="${p.id}"></away-mark></header>
      <div class="sp-ships">${p.ships.map((s) => html`<div class="mini-ship"><span class="ship-no">${s.number}</span>
        <span title="${t('cannons')}">${t('cannons')} ${s.cannons}</span><span>${t('sails')} ${s.sails}</span><span>${t('crew')} ${s.crew}</span></div>`)}</div>
      <p class="sp-quests">${['bronze', 'silver', 'gold'].map((l) => html`<span class="level level-${l} ${p.level === l ? 'current' : ''}">${t(l)} ${p.completed[l] || 0}/${per}</span>`)} · ${t('quest_count', { n: p.quest_count ?? 0 })}</p>
      <p class="sp-res">${formatResources(p.resources, ' · ')}</p>
    </article>`;
  }

  /** The fight: the newest shot first and biggest, then a few before it (the TV shows no scrollbar). */
  function combatPanel() {
    const c = state.combat;
    if (!c) return '';
    const a = playerById(state, c.attacker.player);
    const d = playerById(state, c.defender.player);
    const shown = c.shots.slice(-SHOTS_SHOWN).reverse();
    return html`<section class="screen-combat" aria-live="polite"><h2>${t('combat')}: ${a.name} ${t('vs')} ${d.name}</h2>
      ${c.stage === 'firing' || c.stage === 'surrender_offered' ? html`<p class="shooter">${t('shooter', { name: (playerById(state, c.shooter) || {}).name || '?' })}</p>` : ''}
      ${c.stage === 'surrender_offered' ? html`<p class="surrender-by">${t('surrender_by', { name: (playerById(state, c.surrendering) || {}).name || '?' })}</p>` : ''}
      ${c.sunk ? html`<p class="sunk">${t('sunk')} ${(playerById(state, c.sunk) || {}).name || ''}</p>` : ''}
      ${c.shots.length > SHOTS_SHOWN ? html`<p class="muted earlier">… ${t('earlier_shots', { n: c.shots.length - SHOTS_SHOWN })}</p>` : ''}
      <ol class="shots" reversed start="${c.shots.length}">${shown.map((s, i) => {
        const shooter = playerById(state, s.shooter && s.shooter.player ? s.shooter.player : s.shooter);
        const roll = s.to_hit && typeof s.to_hit === 'object' ? s.to_hit.value : s.to_hit;
        return html`<li class="${i === 0 ? 'latest' : ''}">${dieSvg(roll, 'white', '')} ${shotText(s, shooter ? shooter.name : '?', session.ruleset)}</li>`;
      })}</ol></section>`;
  }

  /** How the last fight ended, while it is this turn's news: who won, what changed hands. */
  function outcomePanel() {
    const events = session.log.all();
    const end = outcome(events, state);
    if (!outcomeIsFresh(end, events)) return '';
    return html`<section class="screen-combat screen-outcome" aria-live="polite"><h2>${t('outcome_h')}</h2><p>${outcomeText(end, state)}</p></section>`;
  }

  /** Before this turn's roll, the table still sees the last one, and whose it was. */
  function previousRoll(roll) {
    if (!roll || !roll.dice) return html`<p class="muted">${t('no_roll')}</p>`;
    const who = playerById(state, roll.player);
    return html`<div class="previous"><p class="muted">${t('last_roll')}: ${who ? who.name : '?'}</p>
      ${dieSvg(roll.dice.move.value, 'move', t('movement'))}${roll.dice.white.map((d) => dieSvg(d.value, 'white', t('dice')))}
      <p class="muted">${t('brought')}: ${formatResources(roll.gains)}</p></div>`;
  }

  function draw() {
    if (!state) return;
    const rs = session.ruleset;
    const active = activePlayer(state);
    const dice = state.turn && state.turn.dice;
    const events = session.log.all();
    const ctx = { state, ruleset: rs, events };
    const roll = lastRoll(events);
    const dist = diceDistribution(events);
    const totalDice = dist.all.reduce((a, b) => a + b, 0);
    render(root, html`<div class="screen">
      ${tv.control()}
      <section class="screen-main">
        <h1 class="screen-turn" aria-live="polite">${state.phase === 'lobby' ? t('lobby')
          : state.phase === 'finished' ? t('winner', { name: (playerById(state, state.winner) || {}).name || '?' })
          : html`${swatch(rs, active.character, false)} ${t('turn_of', { name: active.name })} <small>${t('round', { n: state.round })}</small>`}</h1>
        <waiting-for class="screen-waiting"></waiting-for>
        <div class="screen-roll"><div class="dice-row big" id="dice-row">${dice ? html`${dieSvg(dice.move.value, 'move', t('movement'))}${dice.white.map((d) => dieSvg(d.value, 'white', t('dice')))}` : previousRoll(roll)}</div>
          ${dice ? html`<p>${t('brought')}: <strong>${formatResources(broughtBy(roll && roll.dice && roll.dice.move.index === dice.move.index ? roll : null, state, rs))}</strong> · ${t('allowance_short', { n: allowance(state, active) })}</p>` : ''}</div>
        ${state.event ? html`<section class="screen-event" aria-live="assertive"><h2>${t('event')} ${state.event.id}: ${tx(state.event.title)}</h2><p>${tx(state.event.text)}</p></section>` : ''}
        ${state.combat ? combatPanel() : outcomePanel()}
      </section>
      <section class="screen-players" aria-label="${t('players')}">${state.players.map(playerPanel)}</section>
      <aside class="screen-side">
        ${tv.joinCode(state)}
        ${feed(tv.told(story(events, tellers, ctx, { limit: FEED_LINES }), FEED_LINES), { big: true })}
        <div class="screen-chart">${trusted(barChart({
          title: `${t('dice_dist')} (${t('throws', { n: totalDice })})`,
          bars: dist.all.map((n, i) => ({ label: String(i + 1), value: n })),
          reference: totalDice / 6, referenceLabel: t('expected'), width: 420, height: 200,
        }))}</div>
      </aside>
    </div>`);
    paintSwatches(root);
    const key = dice ? dice.move.index : null;
    if (key !== null && lastKey !== null && key !== lastKey) animateDice(root.querySelector('#dice-row'), dice);
    lastKey = key;
    // E1: a new event glows (it is read aloud with the other moments)
    const eventId = state.event ? state.event.id : '';
    if (shownEvent !== null && eventId && eventId !== shownEvent) root.querySelector('.screen-event')?.classList.add('fresh');
    shownEvent = eventId;
    tv.fitStory(root);
    tv.announce(session.log, state.version, ctx);
  }

  let page;
  ({ session, page } = await tv.open((s) => { state = s; draw(); }, draw));
  return page;
}
