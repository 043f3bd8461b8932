// The host panel of every game: a page of parts (../page.js) that follows the game as its host, with
// the whole story.
import { tokensFor } from '../api.js';
import { html } from '../html.js';
import { t } from '../i18n.js';
import { Page, later } from '../page.js';
import { sheet } from './common.js';
import { nowStrip, stripClick, tapItems } from './parts.js';

/** The strip at the top: this device's own taps (those waiting for the network) and notes. */
export const hostStrip = {
  name: 'strip',
  read: ({ session }) => [session.notices, ...session.outbox.pending.filter((e) => e.waiting)],
  view: ({ session }) => {
    const taps = tapItems(session);
    return taps.length ? nowStrip(html`<strong>${t('host_panel')}</strong>`, taps) : '';
  },
  on: { click: (event, { session }) => { stripClick(event, session); return null; } },
};

/** The first evening's checklist as a card (./guide.js, loaded after the first screenful); `more`: members of its own (`sent`). */
export const guideCard = (more = {}) => later(() => import('./guide.js').then((m) => m.ready.then(() => ({
  name: 'guide', read: ({ state, ruleset }) => [ruleset, state.guide, state.phase, state.round], ...m.hostCard, ...more,
}))));

/**
 * The host panel of game `code`: `cards` drawn for the host (ctx: {state, ruleset, session, code,
 * events}, the whole story), once `ready` (a sheet it waits for, if any) has loaded; `navigate`: the
 * router's. A phone without the host's token is told so. Resolves to what the router keeps.
 */
export async function hostPanel(root, cards, { code, navigate = null, ready = null }) {
  const hostToken = tokensFor(code).host;
  if (!hostToken) {
    root.innerHTML = String(html`<section class="card"><p>${t('not_joined')}</p><a class="button" data-link href="/join/${code}">${t('join')}</a></section>`);
    return {};
  }
  let state = null;
  const page = new Page(root, cards, () => (page.session && state
    ? { state, ruleset: page.session.ruleset, session: page.session, code, events: page.session.log.all() } : null));
  page.navigate = navigate;
  await Promise.all([ready, sheet('/css/phone.css')]); // the strip and the forms: a phone's sheet (./phone_cards.js)
  return page.open(code, hostToken, (s) => { state = s; page.schedule(); }, { history: 'all' });
}
