// The host panel of Serenissima and Voyagers' Venture: a page of parts (../page.js) that follows the
// game as its host, with the whole story.
import { tokensFor } from '../api.js';
import { html } from '../html.js';
import { t } from '../i18n.js';
import { Page, later } from '../page.js';
import { phoneSheet } from './phone_cards.js';

/** The first evening's checklist as a card (./guide.js, loaded after the first screenful). */
export const guideCard = () => later(() => import('./guide.js').then((m) => m.ready.then(() => m.hostCard)));

/**
 * The host panel of game `code`: `cards` drawn for the host (ctx: {state, ruleset, session, code,
 * events}, the whole story), once `ready` (a sheet it waits for, if any) has loaded. A phone without the host's
 * token is told so. Resolves to what the router keeps.
 */
export async function hostPanel(root, cards, { code, ready = null }) {
  const hostToken = tokensFor(code).host;
  if (!hostToken) {
    root.innerHTML = String(html`<section class="card"><p>${t('not_joined')}</p><a class="button" data-link href="/join/${code}">${t('join')}</a></section>`);
    return {};
  }
  let state = null;
  const page = new Page(root, cards, () => (page.session && state
    ? { state, ruleset: page.session.ruleset, session: page.session, code, events: page.session.log.all() } : null));
  await Promise.all([ready, phoneSheet]);
  return page.open(code, hostToken, (s) => { state = s; page.schedule(); }, { history: 'all' });
}
