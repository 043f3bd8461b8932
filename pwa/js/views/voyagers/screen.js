// Voyagers' Venture on the shared screen (public view, no token): the year and what the round waits
// for, the display with its doubloons, the table's story large beneath it, the current bid with who
// has agreed, the players, the final ranking — and the moments that matter read aloud (who took which
// cards, the end of a division and of a year, the ranking and its winner, the host's undo).
import { html, render } from '../../html.js';
import { t } from '../../i18n.js';
import { story } from '../../logic/story.js';
import { tellers } from '../../logic/voyagers_table.js';
import { paintSwatches } from '../../ui.js';
import { feed } from '../parts.js';
import { SharedScreen } from '../tv.js';
import { bidPanel, displayCards, playersList, rankingTable, yearLine } from './parts.js';

const FEED_LINES = 9;
const MIN_LINES = 3;

export async function mount(root, { code }) {
  let state = null;
  let session;
  const tv = new SharedScreen(code, tellers, () => draw());

  function draw() {
    if (!state) return;
    const rs = session.ruleset;
    const events = session.log.all();
    const ctx = { state, ruleset: rs, events };
    render(root, html`<div class="screen vv-screen">
      ${tv.control()}
      <section class="screen-turn"><h1>${t('game_voyagers')}</h1>${yearLine(state)}<waiting-for class="screen-waiting"></waiting-for></section>
      ${rankingTable(state, rs)}
      <div class="vv-main">
        <div>${state.phase === 'finished' ? '' : html`<section class="card vv-display"><h2>${t('vv_display')}</h2>${displayCards(state)}</section>`}
          ${feed(tv.told(story(events, tellers, ctx, { limit: FEED_LINES }), FEED_LINES), { big: true })}</div>
        <div>${bidPanel(state, rs)}${playersList(state, rs)}</div>
        <aside class="vv-side">${tv.joinCode(state)}</aside>
      </div></div>`);
    paintSwatches(root);
    tv.fitStory(root, MIN_LINES);
    tv.announce(session.log, state.version, ctx);
  }

  let page;
  ({ session, page } = await tv.open((s) => { state = s; draw(); }, draw));
  return page;
}
