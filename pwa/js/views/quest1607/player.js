// Quest 1607 on a player's phone, a page of parts (../../page.js): the strip (what needs this player
// now), the event, the fight, the dice and sailing after a roll, the story, the stock, then ships,
// quests, trade and the attack form. Each draws in place, only when what it reads changed. What the
// page needs only a moment later comes by import() while the game loads: the first load stays small.
import { api, saveTokens, tokensFor } from '../../api.js';
import { html, render } from '../../html.js';
import { t, tx } from '../../i18n.js';
import { explain, formatDelta, resName, resourcesOrNothing, ruleLink } from '../../logic/format.js';
import { movesOf, playerById, stockIds } from '../../logic/quest1607_facts.js';
import { nowItems, tellers } from '../../logic/quest1607_table.js';
import * as R from '../../logic/quest1607_now.js';
import { story } from '../../logic/story.js';
import { swatch } from '../../ui.js';
import { later } from '../../page.js';
import { StripCard, labelOf, phoneSheet, playerPage } from '../phone_cards.js';
import { feed } from '../common.js';
import { checkedButton } from '../parts.js';
import './strings.js';

const FEED_LINES = 3;

/** The taps that need no form of their own, by their button's data-act (the strip's and the cards'). */
const TAPS = {
  roll: () => ({ type: 'roll' }),
  end_turn: () => ({ type: 'end_turn' }),
  fire: () => ({ type: 'fire' }),
  surrender: () => ({ type: 'surrender' }),
  accept_surrender: () => ({ type: 'accept_surrender' }),
  reach_edge: (d, { player }) => ({ type: 'reach_edge', ship: player.ships[0].number }),
  accept: (d) => ({ type: 'accept', offer_id: d.offer }),
  decline: (d) => ({ type: 'decline', offer_id: d.offer }),
  withdraw: (d) => ({ type: 'withdraw', offer_id: d.offer }),
  buy_quest: (d) => ({ type: 'buy_quest', level: d.level }),
  complete_quest: (d) => ({ type: 'complete_quest', quest_id: d.quest }),
  quest_step: (d) => ({ type: 'quest_step', quest_id: d.quest, step: Number(d.index), ship: Number(d.ship) }),
};

function actionFor(el, ctx) {
  const make = TAPS[el.dataset.act];
  return make ? make(el.dataset, ctx) : null;
}

/** What a tap is called in the strip while it waits, and in its answer: the button, and whose offer. */
function labelFor(el, action, { state }) {
  const label = labelOf(el);
  const offer = action.offer_id && state.offers.find((o) => o.id === action.offer_id);
  if (!offer) return label;
  const name = (pid) => (playerById(state, pid) || {}).name;
  return `${label}: ${name(offer.from)} → ${name(offer.to)}, ${resourcesOrNothing(offer.give)} / ${resourcesOrNothing(offer.get)}`;
}

/** The strip's first line: whose phone this is, and the round while the game runs. */
function who({ state, ruleset, player }) {
  return html`${swatch(ruleset, player.character, false)} <strong class="me-name">${player.name}</strong>
    ${state.phase === 'playing' ? html`<span class="muted">${t('round', { n: state.round })}</span>` : ''}`;
}

/** The strip's checks: the same rules as the buttons further down, so a refusal reads alike. */
function stripItems({ state, ruleset, me }) {
  return nowItems(state, ruleset, me, {
    roll: () => R.canRoll(state, me),
    fire: () => R.canFire(state, me),
    accept: (o) => R.canAccept(state, ruleset, me, o),
    acceptSurrender: () => R.canAcceptSurrender(state, me),
    surrender: () => R.canSurrender(state, me, ruleset),
    reachEdge: () => R.canReachEdge(state, me),
  });
}

/** What a change did to the player's stock, in words ('' for nothing): an undo's moment tells it. */
function stockChange(ruleset, before, after) {
  const change = {};
  for (const id of new Set([...Object.keys(before.resources), ...Object.keys(after.resources)])) {
    const n = (after.resources[id] || 0) - (before.resources[id] || 0);
    if (n) change[id] = n;
  }
  return Object.keys(change).length ? t('my_change', { delta: formatDelta(change) }) : '';
}

/** A part named `name` drawn from what `read` gives, while the game runs. */
const playing = (name, read, view) => ({ name, read, view: (ctx) => (ctx.state.phase === 'playing' ? view(ctx) : '') });

const feedCard = { name: 'feed', read: ({ events, state }) => [events, state.players], view: (ctx) => feed(story(ctx.events, tellers, ctx, { limit: FEED_LINES })) };

/** E1: the event in play, until the next quest is completed. */
const eventCard = playing('event', ({ state }) => [state.phase, state.event], ({ state }) => (state.event ? html`<section class="event-banner" id="event" aria-label="${t('event')}">
  <strong>${ruleLink(state.event.id)} · ${tx(state.event.title)}</strong><p>${tx(state.event.text)}</p></section>` : ''));

const stockCard = {
  name: 'stock',
  read: ({ ruleset, player }) => [ruleset, player.resources, player.land_resource],
  view: ({ ruleset, player }) => html`<section class="card" id="stock" aria-labelledby="res-h"><h2 id="res-h">${t('resources')}</h2>
    <ul class="resources">${stockIds(ruleset, player).map((id) => html`<li class="res res-${id}"><span class="res-count" id="res-${id}">${player.resources[id] || 0}</span><span class="res-name">${resName(id)}</span></li>`)}</ul></section>`,
};

/** End turn, in the bar at the bottom while the game runs. */
const endBar = playing('endbar', ({ state, player, shared }) => [...movesOf(state, player), shared], ({ state, me, shared }) => html`<div class="actionbar" id="actionbar">
  ${checkedButton(R.canEndTurn(state, me), 'end-turn', t('end_turn'), { cls: 'primary wide', data: { act: 'end_turn' }, shared })}</div>`);

/** The taps of every card that need no state of their own (the strip's buttons are the strip's). */
const taps = {
  name: 'taps',
  read: () => [],
  view: () => '',
  on: {
    click(event, ctx) {
      const el = event.target.closest('button[data-act]');
      const action = el && !el.disabled && !el.closest('#now, #now-reach') ? actionFor(el, ctx) : null;
      return action ? { action, label: labelFor(el, action, ctx) } : null;
    },
  },
};

/** A token the server no longer knows (or a game it does not): forget it and say so, with the way back. */
function unknown(root, code, error, navigate) {
  saveTokens(code, { player: null });
  if (error.body.error === 'seat_moved') { navigate(`/join/${code}#seat-moved`, { replace: true }); return; }
  render(root, html`<section class="card"><p>${error.status === 404 ? t('unknown_game', { code }) : t('not_joined')}</p>
    <a class="button primary" data-link href="/join/${code}">${t('join')}</a></section>`);
}

export async function mount(root, { code, navigate }) {
  const mine = tokensFor(code);
  if (!mine.player) { navigate(`/join/${code}`, { replace: true }); return {}; }
  const me = mine.player.id;
  const changes = {}; // version → what it changed in my stock, seen live (an undo tells it)
  const strip = new StripCard({ who, items: stripItems, actionFor, labelFor,
    reads: ({ state, player }) => [...movesOf(state, player), ...state.offers.map((o) => playerById(state, o.from))],
    moments: (ctx) => (strip.momentsOf ? strip.momentsOf(ctx, me, { changes }) : []) });
  const below = import('./phone/below.js');
  const trade = below.then((m) => m.card('TradeCard'));
  const cards = [
    // what the player can do now first: after one's roll, the dice and sailing come before the story
    strip, eventCard, later(() => import('./phone/fight.js').then((m) => new m.FightCard())),
    later(() => import('./phone/roll.js').then((m) => new m.DiceCard(() => page.schedule()))), // none before a roll
    later(() => below.then((m) => m.card('SailCard'))), feedCard, stockCard,
    ...['ShipsCard', 'questsCard'].map((name) => later(() => below.then((m) => m.card(name)))),
    later(() => trade), ...['offer', 'market', 'bank'].map((form) => later(() => trade.then((card) => card.form(form)))),
    later(() => below.then((m) => m.card('AttackCard'))),
    playing('seatmove', ({ state }) => [state.phase], () => html`<seat-move></seat-move>`), endBar, taps,
  ];
  const page = playerPage(root, cards, { code, navigate, me, playerOf: playerById, changes, change: stockChange });
  const context = page.context;
  page.context = () => { // and the reason every turn action shares (not your turn, roll first, a fight is on), told once by the strip
    const ctx = context();
    const base = ctx && R.turnCheck(ctx.state, me);
    return ctx && { ...ctx, shared: base.ok ? '' : explain(base) };
  };
  import('./phone/moments.js').then((m) => { strip.momentsOf = m.momentItems; page.schedule(strip); });
  let first = null; // the state over HTTP: the page draws even while its socket cannot connect
  try {
    first = await api.state(code, mine.player.token);
  } catch (error) {
    if (error.status === 401 || error.status === 404) { unknown(root, code, error, navigate); page.kept().unmount(); return {}; }
  }
  await phoneSheet;
  const kept = await page.open(code, mine.player.token, page.follow);
  if (first) page.session.live.apply(first.version, first, []);
  return kept;
}
