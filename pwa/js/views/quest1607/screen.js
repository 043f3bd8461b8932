// The shared screen (TV or tablet, landscape, public view, no token): whose turn it is and what just
// happened, the last roll, the event, the fight shot by shot with whom the table waits for, how it
// ended, every player's ships and quests, the table's story large, and the moments that matter read
// aloud. It is a page of parts (../../page.js): the head and each column (screen_parts.js). The headline's words,
// the fight and the end, the dice's tumble and the chart load beside the page and are drawn as they
// come. A TV never scrolls and cuts nothing: what does not fit gives way whole, the least needed first.
import { html } from '../../html.js';
import { t } from '../../i18n.js';
import { tellers } from '../../logic/quest1607_table.js';
import { Page } from '../../page.js';
import { sheet } from '../common.js';
import { SharedScreen, screenSheet } from '../tv.js';
import { EventPanel, FEED_LINES, RollPanel, head as headPanel, outcomePanel, playersPanel, side } from './screen_parts.js';

/** Wider than this, a shared screen is a TV that shows everything at once (tv.css agrees). */
const WIDE = 1100;

/**
 * While `box` holds more than it shows (or the page is taller than the screen, or `wide()` says a line
 * sticks out sideways), the next of `steps` gives way: each takes away or shrinks one whole thing and
 * says whether it could.
 */
function giveWay(box, steps, back = [], wide = () => false) {
  if (!box) return;
  const over = () => box.scrollHeight > box.clientHeight + 1 || document.documentElement.scrollHeight > window.innerHeight
    || wide();
  for (const step of steps) {
    while (over() && step()) { /* one more thing gave way */ }
  }
  for (const [el, cls] of back) { // what shrank early comes back if what went later made the room
    if (!el || !el.classList.contains(cls)) continue;
    el.classList.remove(cls);
    if (over()) el.classList.add(cls);
  }
}

/**
 * What gives way first in each of the TV's `columns` (the parts just drawn: 'players', 'main',
 * 'side'), one whole thing at a time. Returns whether the players' column crowds the others now.
 */
function fit(box, columns) {
  const gone = (selector) => () => {
    const el = box.querySelector(selector);
    if (el) el.remove();
    return Boolean(el);
  };
  const mark = (selector, cls) => () => {
    const el = box.querySelector(`${selector}:not(.${cls})`);
    if (el) el.classList.add(cls);
    return Boolean(el);
  };
  // the story's oldest lines, as many at once as the column is over, `least` kept
  const last = (selector, least) => () => {
    const all = [...box.querySelectorAll(selector)];
    const column = box.querySelector('#q-side');
    let over = Math.max(1, column.scrollHeight - column.clientHeight);
    let n = 0;
    while (all.length - n > least && over > 0) over -= all[all.length - 1 - n++].offsetHeight;
    all.slice(all.length - n).forEach((el) => el.remove());
    return n > 0;
  };
  const fewerShots = () => { // an older shot gives way, and the line that counts those not shown says so
    const shots = box.querySelectorAll('#q-fight .q-shots li');
    const earlier = box.querySelector('#q-earlier');
    if (shots.length <= 1 || !earlier) return false;
    shots[shots.length - 1].remove();
    const hidden = Number(earlier.dataset.shots) - shots.length + 1;
    earlier.hidden = false;
    earlier.textContent = `… ${t('earlier_shots', { n: hidden })}`;
    return true;
  };
  const crowded = box.classList.contains('crowded');
  const crowd = () => !box.classList.contains('crowded') && Boolean(box.classList.add('crowded') ?? true);
  if (columns.has('players')) {
    box.classList.remove('crowded');
    // the players first: on a crowded table their column takes room from the other two, which then fit
    giveWay(box.querySelector('#q-players'), [...['tight', 'tighter', 'tightest'].map((cls) => mark('#q-players', cls)),
      crowd, mark('#q-players', 'bare'), mark('#q-players', 'split'), mark('#q-players', 'shipless'), mark('#q-players', 'smaller')], [[box.querySelector('#q-players'), 'bare']],
    // a ship's words that do not fit beside each other on its card (Dutch's are long) stick out of it
    () => [...box.querySelectorAll('#q-players .sp-ships')].some((ships) => ships.scrollWidth > ships.clientWidth + 1));
  }
  if (columns.has('main')) {
    // in a fight the headline tells the newest shot and the sinking: the panel's copies of them go last
    giveWay(box.querySelector('#q-main'), [fewerShots, mark('#q-roll', 'compact'),
      gone('#q-fight ~ #q-roll, #q-roll.previous'), mark('#q-event', 'compact'), gone('#q-roll'), gone('#q-event'),
      gone('#q-fight .q-why'), gone('#q-earlier'), gone('#q-fight .q-shots'), gone('#q-fight .q-sunk'), mark('#q-final', 'compact')],
    [[box.querySelector('#q-event'), 'compact'], [box.querySelector('#q-roll'), 'compact']]);
  }
  if (columns.has('side')) {
    giveWay(box.querySelector('#q-side'), [last('#q-side .feed-lines li', 4), gone('#q-chart'), mark('#guide', 'compact'),
      last('#q-side .feed-lines li', 2), gone('#guide'), last('#q-side .feed-lines li', 1), gone('#q-side .screen-code'),
      gone('#q-side .feed-big')], [[box.querySelector('#guide'), 'compact']]);
  }
  return box.classList.contains('crowded') !== crowded;
}

/**
 * Draw again when an element `selectors` names changes its height by itself (a player's "away" mark,
 * "waiting for" someone away: elements that draw their own content), so the screen fits again.
 * Returns {stop, drawn}: `drawn()` after each draw takes the heights it left as they are.
 */
function watchSize(root, selectors, redraw) {
  if (!('ResizeObserver' in window)) return { stop: () => {}, drawn: () => {} };
  const heights = new Map(); // border-box heights, as the observer's entries give them (reading the page here would lay it out)
  const height = (el) => el.getBoundingClientRect().height;
  const measured = (e) => (e.borderBoxSize && e.borderBoxSize[0] ? e.borderBoxSize[0].blockSize : e.contentRect.height);
  let queued = 0;
  const observer = new ResizeObserver((entries) => {
    const changed = entries.some((e) => heights.has(e.target) && heights.get(e.target) !== measured(e));
    for (const e of entries) heights.set(e.target, measured(e));
    if (changed && !queued) queued = requestAnimationFrame(() => { queued = 0; redraw(); });
  });
  const follow = () => selectors.map((s) => root.querySelector(s)).filter((el) => el && !heights.has(el)).forEach((el) => {
    heights.set(el, null);
    observer.observe(el);
  });
  const added = new MutationObserver(follow);
  added.observe(root, { childList: true, subtree: true });
  return {
    stop: () => { observer.disconnect(); added.disconnect(); cancelAnimationFrame(queued); },
    drawn: () => { for (const el of heights.keys()) if (el.isConnected) heights.set(el, height(el)); },
  };
}

/**
 * How many lines the story draws next: those it fitted, and one more when its column has the room for
 * one (the page is laid out here already): drawing one that cannot stay costs a layout more per change.
 */
function storyRoom(box) {
  const lines = box.querySelectorAll('#q-side .feed-lines li');
  const column = box.querySelector('#q-side');
  if (!lines.length || !column || !column.lastElementChild) return FEED_LINES;
  const free = column.getBoundingClientRect().bottom - column.lastElementChild.getBoundingClientRect().bottom;
  return Math.min(FEED_LINES, lines.length + (free >= lines[0].offsetHeight ? 1 : 0));
}

export async function mount(root, { code }) {
  const styled = Promise.all([screenSheet(), sheet('/css/tv.css')]);
  const later = {}; // what loads beside the page: each module once it has come
  const box = document.createElement('div'); // the screen, once its first draw is in it
  root.replaceChildren(box);
  const roll = new RollPanel();
  const event = new EventPanel();
  const head = { name: 'head', read: ({ state, events }) => [events, state.phase, state.turn, state.round, state.winner, state.players, later.news],
    view: headPanel };
  const main = {
    name: 'main',
    read: ({ state, events }) => [events, state.phase, state.turn, state.event, state.combat, state.winner, state.players, later.fight, later.dice],
    view(ctx) {
      const { state } = ctx;
      const { fight } = later;
      const c = state.combat;
      return html`<section class="q-main" id="q-main">${state.phase === 'lobby' ? ctx.tv.joinCode(state) : ''}${state.phase === 'finished' && fight ? fight.finalPanel(ctx) : ''}${c
        ? html`${fight ? fight.fightPanel(ctx) : ''}${event.markup(ctx)}${roll.markup(ctx)}`
        : html`${outcomePanel(ctx)}${roll.markup(ctx)}${event.markup(ctx)}`}</section>`;
    },
    drawn(slot, ctx) {
      roll.after(slot, ctx);
      event.after(slot, ctx);
    },
  };
  const players = { name: 'players', read: ({ state }) => [state.players, state.phase, state.turn, state.winner, state.options, later.news],
    view: playersPanel };
  // the story and the rest: drawn at each change (no read), with one line more than fitted last time
  const sidePart = { name: 'side', lines: FEED_LINES, view: (ctx) => side(ctx, sidePart.lines) };
  const columns = [main, players, sidePart];
  let session;
  const tv = new SharedScreen(code, tellers, () => page.schedule(sidePart));
  const page = new Page(box, [head, ...columns], () => {
    const state = session && session.live.state;
    return state && { state, ruleset: session.ruleset, events: session.log.all(), tv, later };
  });
  // a head that changed by itself fits the columns (page.after); the players' cards fit again
  const sizes = watchSize(box, ['#q-head', '#q-cards'], () => page.schedule(players));
  let headHeight = -1;
  page.after = (drawn, ctx) => {
    if (!box.className) box.className = 'screen q-screen';
    if (window.innerWidth > WIDE) {
      // a taller head leaves every column less room: each fits again; a shorter one, more: each is drawn whole again
      const height = box.querySelector('#q-head').offsetHeight;
      const grew = height > headHeight;
      if (height < headHeight && columns.some((c) => !drawn.has(c))) { headHeight = height; sidePart.lines = FEED_LINES; page.schedule(...columns); return; }
      headHeight = height;
      const crowding = fit(box, new Set(grew ? columns.map((part) => part.name) : [...drawn].map((part) => part.name)));
      if (crowding && columns.some((c) => !drawn.has(c))) { sidePart.lines = FEED_LINES; page.schedule(...columns); return; }
      sidePart.lines = storyRoom(box);
      sizes.drawn();
    }
    tv.announce(session.log, ctx.state.version, ctx);
  };
  const whole = () => { sidePart.lines = FEED_LINES; page.refresh(); };
  window.addEventListener('resize', whole); // a TV fits again at its new size
  const beside = { news: import('./news.js'), fight: import('./screen_fight.js'), dice: import('./dice.js'), charts: import('../../charts.js'), stats: import('../../logic/stats.js') };
  for (const [name, loading] of Object.entries(beside)) loading.then((m) => { later[name] = m; page.schedule(); });
  await styled;
  let kept;
  ({ session, page: kept } = await tv.open(() => page.schedule(), () => page.schedule()));
  page.session = session; // its elements that draw themselves (views/seats.js) draw from it
  page.schedule();
  return { refresh: whole, unmount: () => { window.removeEventListener('resize', whole); sizes.stop(); page.kept().unmount(); kept.unmount(); } };
}
