// The shared screen (TV or tablet, landscape, public view, no token): whose turn it is and what just
// happened, the last roll, the event, the fight shot by shot with whom the table waits for, how it
// ended, every player's ships and quests, the table's story large, and the moments that matter read
// aloud. It draws in place (morph), one component per section (screen_parts.js). The headline's words,
// the fight and the end, the dice's tumble and the chart load beside the page and are drawn as they
// come. A TV never scrolls and cuts nothing: what does not fit gives way whole, the least needed first.
import { html } from '../../html.js';
import { t } from '../../i18n.js';
import { morph } from '../../morph.js';
import { tellers } from '../../logic/quest1607_table.js';
import { paintSwatches } from '../../ui.js';
import { sheet } from '../common.js';
import { SharedScreen, screenSheet } from '../tv.js';
import { EventPanel, RollPanel, head, outcomePanel, playersPanel, side } from './screen_parts.js';

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

/** What gives way first in each column of a TV, one whole thing at a time. */
function fit(root) {
  if (window.innerWidth <= WIDE) return;
  const gone = (selector) => () => {
    const el = root.querySelector(selector);
    if (el) el.remove();
    return Boolean(el);
  };
  const mark = (selector, cls) => () => {
    const el = root.querySelector(`${selector}:not(.${cls})`);
    if (el) el.classList.add(cls);
    return Boolean(el);
  };
  const last = (selector, least) => () => {
    const all = root.querySelectorAll(selector);
    if (all.length <= least) return false;
    all[all.length - 1].remove();
    return true;
  };
  const fewerShots = () => { // an older shot gives way, and the line that counts those not shown says so
    const shots = root.querySelectorAll('#q-fight .q-shots li');
    const earlier = root.querySelector('#q-earlier');
    if (shots.length <= 1 || !earlier) return false;
    shots[shots.length - 1].remove();
    const hidden = Number(earlier.dataset.shots) - shots.length + 1;
    earlier.hidden = false;
    earlier.textContent = `… ${t('earlier_shots', { n: hidden })}`;
    return true;
  };
  // the players first: on a crowded table their column takes room from the other two, which then fit
  giveWay(root.querySelector('#q-players'), [...['tight', 'tighter', 'tightest'].map((cls) => mark('#q-players', cls)),
    mark('.q-screen', 'crowded'), mark('#q-players', 'bare'), mark('#q-players', 'split')], [[root.querySelector('#q-players'), 'bare']],
  // a ship's words that do not fit beside each other on its card (Dutch's are long) stick out of it
  () => [...root.querySelectorAll('#q-players .sp-ships')].some((ships) => ships.scrollWidth > ships.clientWidth + 1));
  // in a fight the headline tells the newest shot and the sinking: the panel's copies of them go last
  giveWay(root.querySelector('#q-main'), [fewerShots, mark('#q-roll', 'compact'),
    gone('#q-fight ~ #q-roll, #q-roll.previous'), mark('#q-event', 'compact'), gone('#q-roll'), gone('#q-event'),
    gone('#q-fight .q-why'), gone('#q-earlier'), gone('#q-fight .q-shots'), gone('#q-fight .q-sunk'), mark('#q-final', 'compact')],
  [[root.querySelector('#q-event'), 'compact'], [root.querySelector('#q-roll'), 'compact']]);
  giveWay(root.querySelector('#q-side'), [last('#q-side .feed-lines li', 4), gone('#q-chart'), mark('#guide', 'compact'),
    last('#q-side .feed-lines li', 2), gone('#guide'), last('#q-side .feed-lines li', 1), gone('#q-side .screen-code'),
    gone('#q-side .feed-big')], [[root.querySelector('#guide'), 'compact']]);
}

/**
 * Draw again when an element `selectors` names changes its height by itself (a player's "away" mark,
 * "waiting for" someone away: elements that draw their own content), so the screen fits again.
 */
function watchSize(root, selectors, redraw) {
  if (!('ResizeObserver' in window)) return () => {};
  const heights = new Map();
  let queued = 0;
  const observer = new ResizeObserver((entries) => {
    const changed = entries.some((e) => heights.has(e.target) && heights.get(e.target) !== e.contentRect.height);
    for (const e of entries) heights.set(e.target, e.contentRect.height);
    if (changed && !queued) queued = requestAnimationFrame(() => { queued = 0; redraw(); });
  });
  const follow = () => selectors.map((s) => root.querySelector(s)).filter((el) => el && !heights.has(el)).forEach((el) => {
    heights.set(el, null);
    observer.observe(el);
  });
  const added = new MutationObserver(follow);
  added.observe(root, { childList: true, subtree: true });
  return () => { observer.disconnect(); added.disconnect(); cancelAnimationFrame(queued); };
}

export async function mount(root, { code }) {
  const styled = Promise.all([screenSheet(), sheet('/css/tv.css')]);
  let state = null;
  let session;
  const later = {}; // what loads beside the page: each module once it has come
  const tv = new SharedScreen(code, tellers, () => draw());
  const roll = new RollPanel();
  const event = new EventPanel();

  function draw() {
    if (!state) return;
    const view = { state, ruleset: session.ruleset, events: session.log.all(), tv, later };
    const { fight } = later;
    const c = state.combat;
    const fighting = c && fight ? fight.fightPanel(view) : '';
    morph(root, html`<div class="screen q-screen">
      ${head(view)}
      <section class="q-main" id="q-main">${state.phase === 'lobby' ? tv.joinCode(state) : ''}${state.phase === 'finished' && fight ? fight.finalPanel(view) : ''}${c
        ? html`${fighting}${event.markup(view)}${roll.markup(view)}`
        : html`${outcomePanel(view)}${roll.markup(view)}${event.markup(view)}`}</section>
      ${playersPanel(view)}
      ${side(view)}
    </div>`);
    paintSwatches(root);
    // the elements that draw themselves (views/seats.js) stay in place: they draw this state too
    root.querySelectorAll('waiting-for, away-mark, seat-handover').forEach((el) => el.update && el.update());
    roll.after(root, view);
    event.after(root, view);
    fit(root);
    tv.announce(session.log, state.version, { state, ruleset: session.ruleset, events: view.events });
  }

  const beside = { news: import('./news.js'), fight: import('./screen_fight.js'), dice: import('./dice.js'), charts: import('../../charts.js') };
  for (const [name, loading] of Object.entries(beside)) loading.then((m) => { later[name] = m; draw(); });
  await styled;
  const stop = watchSize(root, ['#q-head', '#q-cards'], draw);
  let page;
  ({ session, page } = await tv.open((s) => { state = s; draw(); }, draw));
  return { ...page, unmount: () => { stop(); page.unmount(); } };
}
