// What Serenissima's and Voyagers' Venture's TVs share besides views/tv.js: a page of parts (../page.js),
// the headline's newest moment, and one screen that never scrolls nor crops. On a TV
// (wider than 1100 px) the part marked data-fill reaches down to the screen's bottom edge; when the
// page does not fit, the story's oldest lines give way first, then the pieces marked data-yield
// (lowest number first) in the part that does not fit (or in the headline, above every part), each
// whole, never cut, and last the story's lines it kept down to its newest.
import { Page } from '../page.js';
import { SharedScreen, screenSheet } from './tv.js';

const WIDE = 1100;

/** The newest line of the story that is a moment (what the table waits to hear), or null. */
export const lastMoment = (lines) => lines.find((line) => line.moment) || null;

const overflows = () => document.documentElement.scrollHeight > window.innerHeight
  || document.documentElement.scrollWidth > window.innerWidth;

const cuts = (el) => el.scrollHeight > el.clientHeight + 1;

/** Where a piece may give way: anywhere on a page too big, else in a box (or around a story) that cuts. */
const tooFull = (root) => (overflows() ? [root] : [...root.querySelectorAll('[data-fit]')]
  .filter((box) => cuts(box) || [...box.querySelectorAll('.feed-big')].some(cuts)));

/** Fit the TV page in `root` to one screen; `least` story lines stay while anything else can go. */
function fitScreen(root, tv, least) {
  if (window.innerWidth <= WIDE) return;
  const main = root.querySelector('[data-fill]');
  const fill = () => {
    if (!main) return;
    main.style.height = '';
    const top = main.getBoundingClientRect().top + window.scrollY;
    const below = document.documentElement.scrollHeight - (main.getBoundingClientRect().bottom + window.scrollY);
    main.style.height = `${Math.max(0, window.innerHeight - top - below)}px`;
  };
  fill();
  tv.fitStory(root, least);
  const yielding = [...root.querySelectorAll('[data-yield]')].sort((a, b) => a.dataset.yield - b.dataset.yield);
  // a piece outside every column (in the headline) gives way for any of them, which then reach further down
  const within = (el, boxes) => boxes.some((box) => box.contains(el)) || !el.closest('[data-fit]');
  for (let boxes = tooFull(root); boxes.length; boxes = tooFull(root)) {
    const next = yielding.find((el) => !el.hidden && within(el, boxes));
    if (!next) break;
    next.hidden = true;
    if (main && !main.contains(next)) fill();
  }
  tv.fitStory(root, 1); // nothing else could go: the story keeps what fits whole, its newest line at least
}

/**
 * Open the shared screen of game `code`: a page (../page.js) of `parts`, each drawn by its
 * `view(ctx)` from ctx = {state, ruleset, events, tv} (the tellers' ctx too), in a box of class `cls`,
 * once `ready` (the game's sheet) has loaded; `least` story lines stay on a TV.
 */
export async function mountScreen(root, { code, tellers, parts, cls, least, ready }) {
  const box = document.createElement('div'); // the screen, once its first draw is in it
  root.replaceChildren(box);
  let session = null;
  const tv = new SharedScreen(code, tellers, () => page.schedule());
  const page = new Page(box, parts, () => {
    const state = session && session.live.state;
    return state && { state, ruleset: session.ruleset, events: session.log.all(), tv };
  });
  page.after = (drawn, ctx) => {
    if (!box.className) box.className = `screen ${cls}`;
    if (drawn.size) fitScreen(box, tv, least);
    tv.announce(session.log, ctx.state.version, ctx);
  };
  const whole = () => page.refresh(); // a TV fits again at its new size
  window.addEventListener('resize', whole);
  await Promise.all([ready, screenSheet()]);
  let kept;
  ({ session, page: kept } = await tv.open(() => page.schedule(), () => page.schedule()));
  page.session = session; // its elements that draw themselves (views/seats.js) draw from it
  page.schedule();
  return { refresh: whole, unmount: () => { window.removeEventListener('resize', whole); page.kept().unmount(); kept.unmount(); } };
}
