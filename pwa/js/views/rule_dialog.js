// A rule opened over the page from a link that cites it (a refusal, a disabled control's reason, a
// fight's to-hit line, an event card's ID): a modal <dialog> with the rule's ID, chapter and text in this device's
// language, a link to the whole rulebook and a close button. Closing it (Escape too) puts the focus
// and the scroll back exactly where the player was, even when the page was drawn anew meanwhile.
// The whole rulebook opens over a game's page too, the page and its socket open beneath it (reading
// the rules is not leaving the table): "Back to the game", Escape or the phone's Back close it and
// put the player back where they were.
import { html, render } from '../html.js';
import { t, tx } from '../i18n.js';
import { bookFor, mount, ruleEntry } from './rulebook.js';
import { styled } from './rule_strings.js';

const CODE = /^\/(?:join|play|screen|host|dice)\/([A-Za-z0-9]{6})\/?$/;

/** Each ruleset asked once per page load (the game's own, else the game's defaults). */
const rulesets = new Map();
function rulesetOf(game, code) {
  const key = `${game}/${code || ''}`;
  if (!rulesets.has(key)) rulesets.set(key, bookFor(game, code).catch((error) => { rulesets.delete(key); throw error; }));
  return rulesets.get(key);
}

let dialog = null;

/** Where the link sat: the element with an id around it (a reason's line keeps its id when redrawn). */
function placeOf(link) {
  const holder = link.closest('[id]');
  return { holder: holder ? holder.id : null, href: link.getAttribute('href'), scroll: window.scrollY };
}

function back(place) {
  const holder = place.holder && document.getElementById(place.holder);
  const link = holder && [...holder.querySelectorAll('a.rule-link')].find((a) => a.getAttribute('href') === place.href);
  const target = link || holder;
  if (target) target.focus({ preventScroll: true });
  window.scrollTo(0, place.scroll);
}

/** Open the rule `url` names (/rules/<game>#ID) over the page; `link` is the link that was clicked. */
export async function open(link, url) {
  const place = placeOf(link);
  const game = url.pathname.split('/')[2];
  const id = decodeURIComponent(url.hash.slice(1));
  const code = ((CODE.exec(location.pathname) || [])[1] || '').toUpperCase() || null;
  await styled;
  let body;
  try {
    const rs = await rulesetOf(game, code);
    const book = rs.rules;
    // An event card (Quest 1607's G1…) stands in the chapter of the rule on events, E1
    const card = (rs.events || []).find((e) => e.id === id);
    const rule = book.rules[id] || (card && book.rules.E1 && { ...card, chapter: book.rules.E1.chapter });
    const chapter = rule && book.chapters.find((c) => c.id === rule.chapter);
    body = rule ? html`${ruleEntry(id, rule)}<p class="muted">${t('rb_chapter', { title: tx(chapter.title) })}</p>`
      : html`<p>${t('rb_unknown', { id })}</p>`;
  } catch {
    body = html`<p class="why">${t('rb_unavailable')}</p>`;
  }
  if (dialog) dialog.close();
  dialog = document.createElement('dialog');
  dialog.className = 'rule-dialog';
  dialog.setAttribute('aria-labelledby', `${id}-h`);
  render(dialog, html`<div class="rd-body">${body}</div>
    <div class="rd-buttons"><a href="${url.pathname}${code ? `?code=${code}` : ''}#${id}" data-link id="rd-whole">${t('rb_whole')}</a>
    <button type="button" class="primary" id="rd-close">${t('rb_close')}</button></div>`);
  const shown = dialog;
  let leaving = false;
  shown.querySelector('#rd-close').addEventListener('click', () => shown.close());
  shown.querySelector('#rd-whole').addEventListener('click', (event) => {
    leaving = true;
    shown.close();
    if (!code) return; // no game beneath: the rulebook's own page opens (the app follows the link)
    event.preventDefault();
    openBook(game, code, id, place);
  });
  shown.addEventListener('close', () => {
    shown.remove();
    if (dialog === shown) dialog = null;
    if (!leaving) back(place);
  });
  document.body.append(shown);
  shown.showModal();
  shown.querySelector('#rd-close').focus();
}

/**
 * The whole rulebook of `game` as game `code` plays it, over the game's page, at rule `id`. The
 * browser's Back closes it as its own button does: an entry of the same address is pushed for it,
 * the game's own marked `over` meanwhile, so that the router leaves the page be when Back returns
 * there. The app going to another page closes it too.
 */
async function openBook(game, code, id, place) {
  const book = document.createElement('dialog');
  book.className = 'rule-book';
  book.setAttribute('aria-labelledby', 'rb-h');
  render(book, html`<div class="rbk-bar"><button type="button" class="primary" id="rbk-back">${t('rb_back')}</button></div>
    <div class="rbk-body"></div>`);
  let how = 'button'; // how it closes: its button or Escape, the browser's Back, or the app leaving the page
  let drawn = null;
  const onPop = () => {
    window.removeEventListener('popstate', onPop);
    history.replaceState(null, '', location.href); // the game's entry, as it was
    if (book.open) { how = 'back'; book.close(); }
  };
  const left = new MutationObserver(() => { how = 'leave'; book.close(); }); // the router drew another page
  book.querySelector('#rbk-back').addEventListener('click', () => book.close());
  book.addEventListener('close', () => {
    left.disconnect();
    if (drawn) drawn.unmount();
    book.remove();
    if (how === 'leave') window.removeEventListener('popstate', onPop);
    else if (how === 'button') history.back(); // its entry goes; onPop takes that popstate
    if (how !== 'leave') back(place);
  });
  history.replaceState({ over: true }, '', location.href);
  history.pushState(null, '', location.href);
  window.addEventListener('popstate', onPop);
  left.observe(document.body, { attributeFilter: ['data-page'] });
  document.body.append(book);
  book.showModal();
  book.querySelector('#rbk-back').focus();
  const made = await mount(book.querySelector('.rbk-body'), { game, code, hash: `#${id}`, over: true });
  if (book.isConnected) drawn = made;
  else made.unmount(); // closed while it loaded
}
