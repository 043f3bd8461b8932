// Serenissima on the shared screen (public view, no token): the headline says what the table waits
// for now and what just happened (a sale answered, the host's undo, the end); then the round and its
// six phases, who has bid (never how much) and then every bid at once with the tie-break dice and
// the positions taken, the turn order, the ledgers, the table's story large, and the moments that
// matter read aloud. A TV does not scroll: what does not fit gives way whole (../screens.js) — the
// phases not played now, then the turn order (the headline names it too), then the galleys.
import { html } from '../../html.js';
import { t } from '../../i18n.js';
import * as S from '../../logic/serenissima.js';
import { tableNow, tellers } from '../../logic/serenissima_table.js';
import { story } from '../../logic/story.js';
import { swatch } from '../../ui.js';
import { feed } from '../common.js';
import { lastMoment, mountScreen } from '../screens.js';
import { bidsPanel, positionsPanel, ready, tracker } from './parts.js';

const FEED_LINES = 9;
/** The headline tells a moment while it is among the story's newest lines. */
const HEADLINE_LINES = 3;
const FEED_LINES_AT_LEAST = 3;

/** The headline: the game, what the table waits for now, and the newest moment. */
function headline(ctx) {
  const { state, events } = ctx;
  // after the end, the headline says the end (and who won) alone
  const lines = story(events, tellers, ctx, { limit: HEADLINE_LINES });
  const moment = state.phase === 'finished' ? null : lastMoment(lines);
  const now = tableNow(state);
  // the story's newest line, which the story tells first in gold: where a column has no room, the headline's copy goes last
  return html`<section class="screen-turn se-head" id="se-head"><h1>${t('game_serenissima')}</h1>
    <p class="head-now" id="head-now">${now}</p>
    ${moment && moment.text !== now ? html`<p class="head-moment" id="head-moment" ${moment === lines[0] ? html`data-yield="9"` : ''}>${moment.text}</p>` : ''}
    <waiting-for class="screen-waiting"></waiting-for></section>`;
}

/**
 * One player's ledger on the TV, in few lines to read from across the room: ducats and home
 * sailors in one line, a line per galley, the goods in one line (SE2, SE3).
 */
function tvLedger(state, ruleset, p) {
  const goods = Object.entries(p.goods || {}).filter(([, n]) => n).map(([g, n]) => `${n} × ${S.goodName(ruleset, g)}`);
  return html`<article class="ledger tv-ledger ${state.active === p.id ? 'active' : ''}" id="ledger-${p.id}">
    <header>${swatch(ruleset, p.character)} <strong>${p.name}</strong>
      ${p.position ? html`<span class="tag">${t('se_position', { p: p.position })}</span>` : ''}<away-mark player="${p.id}"></away-mark></header>
    <p class="tv-stats"><strong id="ducats-${p.id}">${t('se_tv_ducats', { n: p.ducats })}</strong> · ${t('se_tv_home', { n: p.home_sailors })}</p>
    <ul class="galleys" data-yield="4">${p.galleys.map((g) => {
      const where = S.galleyPlace(ruleset, g);
      return html`<li class="galley">${t('se_tv_galley', { g: g.number, where: where.port || where.area, n: g.sailors })}</li>`;
    })}</ul>
    <p class="tv-goods">${goods.length ? `${t('se_goods')}: ${goods.join(', ')}` : t('se_no_goods')}</p>
  </article>`;
}

function board(ctx) {
  const { state, ruleset, tv, events } = ctx;
  const lines = tv.told(story(events, tellers, ctx, { limit: FEED_LINES }), FEED_LINES);
  return html`<div class="se-main" data-fill>
    <div class="se-col" data-fit>${state.round ? tracker(state, ruleset) : ''}
      ${state.phase === 'playing' ? bidsPanel(state, ruleset) : ''}
      ${S.step(state) > 1 ? html`<div data-yield="3">${positionsPanel(state, ruleset)}</div>` : ''}</div>
    ${state.phase === 'lobby' ? html`<section class="se-ledgers" aria-labelledby="ledgers-h" data-fit><h2 id="ledgers-h">${t('players_joined')}</h2>
      <ul class="se-joined">${state.players.map((p) => html`<li>${swatch(ruleset, p.character)} <strong>${p.name}</strong></li>`)}</ul></section>`
    : html`<section class="se-ledgers" aria-labelledby="ledgers-h" data-fit><h2 id="ledgers-h">${t('se_ledgers')}</h2>
      <div class="ledger-grid">${state.players.map((p) => tvLedger(state, ruleset, p))}</div></section>`}
    <aside class="screen-side" data-fit>${tv.joinCode(state)}${tv.guide(state, ruleset)}${feed(lines, { big: true })}</aside>
  </div>`;
}

export function mount(root, { code }) {
  return mountScreen(root, {
    code, tellers, ready, least: FEED_LINES_AT_LEAST,
    cls: 'se-screen',
    parts: [{ name: 'control', view: (ctx) => ctx.tv.control() }, { name: 'headline', view: headline }, { name: 'board', view: board }],
  });
}
