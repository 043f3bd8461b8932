// What every game page shares, the shared screen included (which needs nothing else of ./parts.js):
// a page's own style sheet (app.css alone is in index.html), and the table's story. Every string
// passes through `html`.
import { html } from '../html.js';
import { t } from '../i18n.js';

/**
 * Load a page's own style sheet once; resolves when it applies (or failed: the page draws anyway).
 * `first`: right after app.css, so that every sheet added later (a game's) still overrides it.
 */
export function sheet(href, first = false) {
  const there = document.querySelector(`link[href="${href}"]`);
  if (there) return there.sheet ? Promise.resolve() : new Promise((done) => { there.addEventListener('load', done); there.addEventListener('error', done); });
  const link = Object.assign(document.createElement('link'), { rel: 'stylesheet', href });
  const loaded = new Promise((done) => { link.onload = done; link.onerror = done; });
  const app = first && document.querySelector('link[href="/css/app.css"]');
  if (app) app.after(link);
  else document.head.append(link);
  return loaded;
}

/** The table's story, newest first: the last few lines on a phone, the big feed on a screen. */
export function feed(lines, { big = false } = {}) {
  return html`<section class="feed ${big ? 'feed-big' : 'card'}" aria-labelledby="feed-h"><h2 id="feed-h">${t('feed_h')}</h2>
    ${lines.length ? html`<ol class="feed-lines">${lines.map((l, i) => html`<li class="${i === 0 ? 'newest' : ''} ${l.moment ? 'moment' : ''} ${l.undone ? 'undone' : ''}" data-version="${l.version}">${l.text}</li>`)}</ol>`
      : html`<p class="muted">${t('feed_empty')}</p>`}</section>`;
}
