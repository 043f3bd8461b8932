// The entry point: the client-side router (it reads location.pathname), the language switch,
// the offline banner and the service worker. Each page is a module loaded when first needed.
import { lang, setLanguage, t } from './i18n.js';
import { gameOf, pageModule } from './games.js';
import { tokensFor } from './api.js';
import { setConnection } from './ui.js';

const ROUTES = [
  [/^\/?$/, 'home'],
  [/^\/join\/([A-Za-z0-9]{6})\/?$/, 'lobby'],
  [/^\/play\/([A-Za-z0-9]{6})\/?$/, 'player'],
  [/^\/screen\/([A-Za-z0-9]{6})\/?$/, 'screen'],
  [/^\/host\/([A-Za-z0-9]{6})\/?$/, 'host'],
  [/^\/dice\/([A-Za-z0-9]{6})\/?$/, 'dice'],
  [/^\/rules\/(quest1607|serenissima|voyagers)\/?$/, 'rulebook'],
];

const root = document.getElementById('app');
let current = null;
let routing = 0;

function match(pathname) {
  for (const [pattern, name] of ROUTES) {
    const m = pattern.exec(pathname);
    if (m) return { name, code: m[1] ? m[1].toUpperCase() : null };
  }
  return { name: 'home', code: null };
}

export function navigate(path, { replace = false } = {}) {
  if (replace) history.replaceState(null, '', path);
  else history.pushState(null, '', path);
  route(path);
}

async function route(event) {
  const turn = ++routing;
  const { name, code } = match(location.pathname);
  if (current && current.unmount) current.unmount();
  current = null;
  // Nothing of the page that was stays to be tapped (its handlers are gone) while the next one loads.
  root.replaceChildren(Object.assign(document.createElement('p'), { className: 'loading', textContent: '…' }));
  document.body.dataset.page = name;
  hostLink();
  // Every page opens at its top (not where the last one was scrolled to), focus on its content
  window.scrollTo(0, 0);
  if (event !== undefined) root.focus({ preventScroll: true });
  // Each game has its own phone, screen and host pages: the game of the code picks the module.
  const book = name === 'rulebook';
  const game = book ? code.toLowerCase() : code && name !== 'lobby' ? await gameOf(code) : null;
  const path = game && !book ? pageModule(game, name) : `./views/${name}.js`;
  const view = await import(path);
  if (turn !== routing) return; // a newer navigation took over while this one loaded
  const was = lang();
  current = await view.mount(root, { code, navigate, hash: location.hash, game });
  if (lang() !== was) current?.refresh?.();
  if (turn === routing) (current && current.scroll ? current.scroll() : window.scrollTo(0, 0));
}

/** A host who plays too reaches the host panel from their own phone page: a link in the bar. */
function hostLink() {
  const { name, code } = match(location.pathname);
  const host = name === 'player' && code && tokensFor(code).host;
  let link = document.getElementById('to-host');
  if (!host) { if (link) link.remove(); return; }
  if (!link) {
    link = Object.assign(document.createElement('a'), { id: 'to-host', className: 'button small' });
    link.dataset.link = '';
    document.getElementById('conn').before(link);
  }
  link.href = `/host/${code}`;
  link.textContent = t('host_panel');
}

function paintChrome() {
  hostLink();
  document.documentElement.lang = lang();
  const button = document.getElementById('lang');
  button.textContent = lang() === 'nl' ? 'EN' : 'NL';
  button.disabled = false; // index.html holds it off until the page's words are there to switch from
  // The name a voice command uses starts with what the button shows (WCAG 2.5.3)
  button.setAttribute('aria-label', `${button.textContent} · ${t('language')}: ${t('switch_lang')}`);
  document.querySelector('.skip').textContent = t('skip');
  const banner = document.getElementById('offline');
  banner.textContent = t('offline');
  banner.hidden = navigator.onLine !== false;
  setConnection();
}

document.getElementById('lang').addEventListener('click', async () => {
  await setLanguage(lang() === 'nl' ? 'en' : 'nl');
  paintChrome();
  current?.refresh?.();
});

document.addEventListener('click', (event) => {
  const link = event.target.closest('a[data-link], a.rule-link');
  if (!link || event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey) return;
  const url = new URL(link.href, location.href);
  if (url.origin !== location.origin) return;
  event.preventDefault();
  if (link.matches('.rule-link')) import('./views/rule_dialog.js').then((m) => m.open(link, url));
  else navigate(url.pathname + url.search + url.hash);
});

history.scrollRestoration = 'manual'; // a page draws after it loads: a restored scroll lands anywhere
window.addEventListener('popstate', (e) => e.state?.over || route(e)); // over: views/rule_dialog.js
window.addEventListener('online', paintChrome);
window.addEventListener('offline', paintChrome);

if ('serviceWorker' in navigator && window.isSecureContext) {
  // The page's words load before this runs (i18n.js awaits them): the load event may be past already
  const register = () => navigator.serviceWorker.register('/sw.js').catch(() => { /* the app works without it */ });
  if (document.readyState === 'complete') register();
  else window.addEventListener('load', register);
}

paintChrome();
route();
