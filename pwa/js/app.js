// The entry point: the client-side router (it reads location.pathname), the language switch,
// the offline banner and the service worker. Each page is a module loaded when first needed.
import { lang, setLanguage, t } from './i18n.js';
import { gameOf, pageModule } from './games.js';

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
  document.body.dataset.page = name;
  // Every page opens at its top (not where the last one was scrolled to), focus on its content
  window.scrollTo(0, 0);
  if (event !== undefined) root.focus({ preventScroll: true });
  // Each game has its own phone, screen and host pages: the game of the code picks the module.
  const book = name === 'rulebook';
  const game = book ? code.toLowerCase() : code && name !== 'lobby' ? await gameOf(code) : null;
  const path = game && !book ? pageModule(game, name) : `./views/${name}.js`;
  const view = await import(path);
  if (turn !== routing) return; // a newer navigation took over while this one loaded
  current = await view.mount(root, { code, navigate, hash: location.hash, game });
  if (turn === routing) (current && current.scroll ? current.scroll() : window.scrollTo(0, 0));
}

function paintChrome() {
  document.documentElement.lang = lang();
  const button = document.getElementById('lang');
  button.textContent = lang() === 'nl' ? 'EN' : 'NL';
  // The name a voice command uses starts with what the button shows (WCAG 2.5.3)
  button.setAttribute('aria-label', `${button.textContent} · ${t('language')}: ${t('switch_lang')}`);
  document.querySelector('.skip').textContent = t('skip');
  const banner = document.getElementById('offline');
  banner.textContent = t('offline');
  banner.hidden = navigator.onLine !== false;
}

document.getElementById('lang').addEventListener('click', () => {
  setLanguage(lang() === 'nl' ? 'en' : 'nl');
  paintChrome();
  if (current && current.refresh) current.refresh();
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

history.scrollRestoration = 'manual'; // a page draws after it loads: the browser's restored scroll lands anywhere
window.addEventListener('popstate', route);
window.addEventListener('online', paintChrome);
window.addEventListener('offline', paintChrome);

if ('serviceWorker' in navigator && window.isSecureContext) {
  window.addEventListener('load', () => {
    navigator.serviceWorker.register('/sw.js').catch(() => { /* the app works without it */ });
  });
}

paintChrome();
route();
