// Serenissima on the shared screen (public view, no token): the round and its six phases, who has
// bid (never how much) and then every bid at once with the tie-break dice and the positions taken,
// the turn order, the ledgers, the table's story large, and the moments that matter read aloud (the
// reveal, the turn order, a new round, the end of the game, the host's undo).
import { html, render } from '../../html.js';
import { t } from '../../i18n.js';
import * as S from '../../logic/serenissima.js';
import { tellers } from '../../logic/serenissima_table.js';
import { story } from '../../logic/story.js';
import { paintSwatches } from '../../ui.js';
import { feed } from '../parts.js';
import { SharedScreen } from '../tv.js';
import { bidsPanel, ledger, positionsPanel, tracker } from './parts.js';

const FEED_LINES = 9;
const FEED_LINES_AT_LEAST = 4;

export async function mount(root, { code }) {
  let state = null;
  let session;
  const tv = new SharedScreen(code, tellers, () => draw());

  /**
   * A TV does not scroll: on a wide screen the columns reach down to the screen's bottom edge, and
   * the oldest lines of the story give way until everything fits.
   */
  function fitFeed() {
    if (window.innerWidth <= 1100) return;
    const main = root.querySelector('.se-main');
    const edge = main.getBoundingClientRect();
    const below = document.documentElement.scrollHeight - (edge.bottom + window.scrollY); // the page's margin under it
    main.style.minHeight = `${Math.max(0, window.innerHeight - (edge.top + window.scrollY) - below)}px`;
    tv.fitStory(root, FEED_LINES_AT_LEAST);
  }

  function draw() {
    if (!state) return;
    const rs = session.ruleset;
    const events = session.log.all();
    const ctx = { state, ruleset: rs, events };
    render(root, html`<div class="screen se-screen">
      ${tv.control()}
      <section class="screen-turn"><h1>${t('game_serenissima')}</h1>
        ${state.phase === 'finished' ? html`<p>${t('se_over')}</p>` : ''}
        ${state.phase === 'lobby' ? html`<p>${t('waiting_host')}</p>` : ''}<waiting-for class="screen-waiting"></waiting-for></section>
      <div class="se-main">
        <div class="se-col">${state.round ? tracker(state, rs) : ''}
          ${state.phase === 'playing' ? bidsPanel(state, rs) : ''}
          ${S.step(state) > 1 ? positionsPanel(state, rs) : ''}</div>
        <section class="se-ledgers" aria-label="${t('se_ledgers')}"><h2>${t('se_ledgers')}</h2>
          <div class="ledger-grid">${state.players.map((p) => ledger(state, rs, p))}</div></section>
        <aside class="screen-side">${tv.joinCode(state)}
          ${feed(tv.told(story(events, tellers, ctx, { limit: FEED_LINES }), FEED_LINES), { big: true })}</aside>
      </div></div>`);
    paintSwatches(root);
    fitFeed();
    tv.announce(session.log, state.version, ctx);
  }

  let page;
  ({ session, page } = await tv.open((s) => { state = s; draw(); }, draw));
  return page;
}
