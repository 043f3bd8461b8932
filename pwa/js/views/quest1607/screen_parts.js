// The sections of Quest 1607's shared screen, one component each: the head (whose turn or who won,
// and what just happened), the roll, the event, a fight's outcome, each player's card, and the side
// (the join code, the story, the dice so far); the fight itself and the end are in screen_fight.js,
// loaded beside, as are the headline's words, the dice's tumble and the chart with its counts (`later`: each module
// once it has come). A component is a function of the page's ctx ({state, ruleset, events, tv, later});
// the two that remember something between draws (the dice that tumble, the event that glows) are
// small classes.
import { html, trusted } from '../../html.js';
import { t, tx } from '../../i18n.js';
import { allowance, lastRoll, playerById } from '../../logic/quest1607_facts.js';
import { formatDelta, resourceUnits, ruleLink } from '../../logic/format.js';
import { outcome, outcomeIsFresh, outcomeText, tellers } from '../../logic/quest1607_table.js';
import { story } from '../../logic/story.js';
import { dieSvg, swatch } from '../../ui.js';
import { feed } from '../common.js';

export const FEED_LINES = 9;
export const LEVELS = ['bronze', 'silver', 'gold'];
export const nameIn = (state, pid) => (playerById(state, pid) || {}).name || '?';
const diceOf = (dice) => html`${dieSvg(dice.move.value, 'move', t('movement'))}${dice.white.map((d) => dieSvg(d.value, 'white', t('dice')))}`;

/** Whose turn it is (or who won) and the moment that just happened. */
export function head({ state, ruleset, events, later }) {
  const now = later.news ? later.news.news(state, events, ruleset) : null;
  const active = state.turn && playerById(state, state.turn.player);
  const title = state.phase === 'lobby' ? t('lobby')
    : state.phase === 'finished' ? html`★ ${t('winner', { name: nameIn(state, state.winner) })}`
      : html`${swatch(ruleset, active.character, false)} ${t('turn_of', { name: active.name })} <small>${t('round', { n: state.round })}</small>`;
  return html`<header class="q-head" id="q-head">
    <h1 class="screen-turn" aria-live="polite">${title}</h1>
    ${now ? html`<p class="q-news ${now.kinds.includes('GameWon') ? 'won' : ''}" id="q-news" aria-live="polite"><span class="q-news-h">${t('news_h')}</span> ${now.text}</p>` : ''}
    <waiting-for class="screen-waiting"></waiting-for></header>`;
}

/** The dice of this turn big, or before its roll the last one, smaller, with whose it was. */
export class RollPanel {
  constructor() { this.key = undefined; } // undefined: not drawn yet (null: no dice this turn yet)

  markup({ state, ruleset, events, later }) {
    if (state.phase !== 'playing') return '';
    const dice = state.turn && state.turn.dice;
    const roll = lastRoll(events);
    if (dice) {
      const active = playerById(state, state.turn.player);
      const event = roll && roll.dice && roll.dice.move.index === dice.move.index ? roll : null;
      return html`<section class="q-roll screen-roll" id="q-roll" aria-label="${t('dice')}"><div class="dice-row big" id="dice-row">${diceOf(dice)}</div>
        <p class="q-brought">${t('brought')}: <strong>${resourceUnits(event ? event.gains : later.dice ? later.dice.broughtBy(null, state, ruleset) : {})}</strong> · ${t('allowance_short', { n: allowance(state, active) })}</p></section>`;
    }
    if (!roll || !roll.dice) return html`<section class="q-roll screen-roll" id="q-roll"><p class="muted">${t('no_roll')}</p></section>`;
    return html`<section class="q-roll screen-roll previous" id="q-roll" aria-label="${t('last_roll')}"><p class="muted">${t('last_roll')}: ${nameIn(state, roll.player)}</p>
      <div class="dice-row">${diceOf(roll.dice)}</div><p class="muted">${t('brought')}: ${resourceUnits(roll.gains)}</p></section>`;
  }

  /** A new roll tumbles before it settles on the server's faces. */
  after(root, { state, later }) {
    const dice = state.turn && state.turn.dice;
    const key = dice ? dice.move.index : null;
    if (key !== null && this.key !== undefined && key !== this.key && later.dice) later.dice.animateDice(root.querySelector('#dice-row'), dice);
    this.key = key;
  }
}

/** E1: the event in play, what it says and what it did to whom; a new one glows. */
export class EventPanel {
  constructor() { this.shown = null; }

  markup({ state, events }) {
    const e = state.event;
    if (!e || state.phase === 'finished') return '';
    const drawn = [...events].reverse().find((x) => x.type === 'EventDrawn' && x.event === e.id);
    const changes = drawn ? Object.entries(drawn.changes || {}).filter(([, d]) => Object.values(d).some((n) => n)) : [];
    return html`<section class="q-event screen-event" id="q-event" aria-live="assertive"><h2>${t('event')} ${ruleLink(e.id)}: ${tx(e.title)}</h2>
      <p class="q-event-text">${tx(e.text)}</p>
      ${changes.length ? html`<p class="q-event-changes">${changes.map(([pid, d]) => html`<span>${nameIn(state, pid)} ${formatDelta(d)}</span>`)}</p>` : ''}</section>`;
  }

  after(root, { state }) {
    const id = state.event ? state.event.id : '';
    if (this.shown !== null && id && id !== this.shown) root.querySelector('#q-event')?.classList.add('fresh');
    this.shown = id;
  }
}

/** How the last fight ended, while it is this turn's news: who won, what changed hands, who skips. */
export function outcomePanel({ state, events }) {
  const end = outcome(events, state);
  if (!outcomeIsFresh(end, events)) return '';
  return html`<section class="q-fight screen-combat screen-outcome" id="q-outcome" aria-live="polite"><h2>${t('outcome_h')}</h2><p>${outcomeText(end, state)}</p></section>`;
}

/** The quest levels a player has done (✓) and the one they are on, with its count (Q2). */
function levels(p, per) {
  const at = p.level === 'done' ? LEVELS.length : LEVELS.indexOf(p.level);
  return LEVELS.slice(0, at + 1).map((l, i) => (i < at ? html`<span class="level done">✓ ${t(l)}</span>`
    : html`<span class="level current">${t(l)} ${p.completed[l] || 0}/${per}</span>`));
}

/** One player's card: flag, name and land, playing now (or the winner), ships, quests, resources. */
function playerCard({ state, ruleset, later }, p) {
  const per = (state.options && state.options.quests_per_level) || 2;
  const playing = state.phase === 'playing' && state.turn && state.turn.player === p.id;
  const won = state.phase === 'finished' && state.winner === p.id;
  const land = ((ruleset.characters || []).find((c) => c.id === p.character) || {}).name;
  return html`<article class="sp ${playing || won ? 'active' : ''}" data-key="${p.id}">
    <header>${swatch(ruleset, p.character, false)} <strong class="sp-name">${p.name}</strong> <span class="sp-land">${tx(land)}</span>${playing ? html`<span class="tag now">▶ ${t('playing_now')}</span>` : ''}${won && later.news ? html`<span class="tag now">★ ${t('news_winner_tag')}</span>` : ''}<away-mark player="${p.id}" short></away-mark></header>
    <ul class="sp-ships">${p.ships.map((s) => html`<li class="mini-ship" data-key="ship-${s.number}"><span class="ship-no">${s.number}</span>
      <span><span class="lbl">${t('cannons')}</span> ${s.cannons}</span><span><span class="lbl">${t('sails')}</span> ${s.sails}</span><span><span class="lbl">${t('crew')}</span> ${s.crew}</span></li>`)}</ul>
    <p class="sp-quests">${levels(p, per)} <span class="sp-cards">${t('quest_count', { n: p.quest_count ?? 0 })}</span></p>
    <p class="sp-res">${resourceUnits(p.resources, ' · ')}</p></article>`;
}

/** The players' cards; on a crowded table the ships' numbers go without their words, named once above. */
export function playersPanel(view) {
  return html`<section class="q-players screen-players" id="q-players" aria-label="${t('players')}">
    <p class="sp-legend" aria-hidden="true">${t('ships')}: ${t('cannons')} · ${t('sails')} · ${t('crew')}</p>
    <div class="q-cards" id="q-cards">${view.state.players.map((p) => playerCard(view, p))}</div></section>`;
}

/** The side: how to join, the table's story large (its newest `limit` lines), and the dice so far (`chart`, once loaded). */
export function side({ state, ruleset, events, tv, later }, limit = FEED_LINES) {
  const dist = later.stats ? later.stats.diceDistribution(events) : { all: [] };
  const thrown = dist.all.reduce((a, b) => a + b, 0);
  const lines = tv.told(story(events, tellers, { state, ruleset, events }, { limit }), limit);
  return html`<aside class="screen-side q-side" id="q-side">${tv.control()}${state.phase === 'lobby' ? '' : tv.joinCode(state)}${tv.guide(state, ruleset)}${feed(lines, { big: true })}
    ${thrown && later.charts ? html`<div class="screen-chart q-chart" id="q-chart">${trusted(later.charts.barChart({
      title: t('dice_dist'), bars: dist.all.map((n, i) => ({ label: String(i + 1), value: n })),
      reference: thrown / 6, referenceLabel: `${t('expected')} · ${t('throws', { n: thrown })}`, width: 340, height: 180, text: 18,
    }))}</div>` : ''}</aside>`;
}
