// Voyagers' Venture on the shared screen (public view, no token): the headline says the year, whom
// the round waits for (after the end, who won) and what just happened; then the display with its
// doubloons, the table's story large beneath it, the current bid with who has agreed, the players,
// the final ranking — and the moments that matter read aloud (who took which cards, the end of a
// division and of a year, the ranking and its winner, the host's undo). A TV does not scroll: what
// does not fit gives way whole (../screens.js).
import { html } from '../../html.js';
import { t } from '../../i18n.js';
import { story } from '../../logic/story.js';
import { tableNow, tellers } from '../../logic/voyagers_table.js';
import { feed } from '../common.js';
import { lastMoment, mountScreen } from '../screens.js';
import { bidPanel, displayCards, playersList, rankingTable, ready, yearLine } from './parts.js';

const FEED_LINES = 9;
/** The headline tells a moment while it is among the story's newest lines. */
const HEADLINE_LINES = 3;
const MIN_LINES = 3;

function headline(ctx) {
  const { state, events } = ctx;
  // after the end, the headline says the end (and who won) alone
  const moment = state.phase === 'finished' ? null : lastMoment(story(events, tellers, ctx, { limit: HEADLINE_LINES }));
  return html`<section class="screen-turn vv-head" id="vv-head"><h1>${t('game_voyagers')}</h1>${yearLine(state)}
    ${moment && moment.text !== tableNow(state) ? html`<p class="head-moment" id="head-moment">${moment.text}</p>` : ''}
    <waiting-for class="screen-waiting"></waiting-for></section>`;
}

function board(ctx) {
  const { state, ruleset, tv, events } = ctx;
  const over = state.phase === 'finished';
  const lines = tv.told(story(events, tellers, ctx, { limit: FEED_LINES }), FEED_LINES);
  return html`${rankingTable(state, ruleset)}<div class="vv-main" data-fill>
    <div class="vv-col" data-fit>${over ? '' : html`<section class="card vv-display" id="vv-display" data-yield="3"><h2>${t('vv_display')}</h2>${displayCards(state)}</section>`}
      ${feed(lines, { big: true })}</div>
    <div class="vv-col" data-fit>${bidPanel(state, ruleset)}${playersList(state, ruleset)}</div>
    <aside class="vv-side screen-side" data-fit>${tv.joinCode(state)}${tv.guide(state, ruleset)}</aside>
  </div>`;
}

export function mount(root, { code }) {
  return mountScreen(root, {
    code, tellers, ready, least: MIN_LINES,
    cls: 'vv-screen',
    parts: [{ name: 'control', view: (ctx) => ctx.tv.control() }, { name: 'headline', view: headline }, { name: 'board', view: board }],
  });
}
