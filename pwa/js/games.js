// Which game a code belongs to, so the router can load that game's page modules. The answer is kept
// per code in localStorage (a game never changes kind); the public view tells it the first time.
import { request } from './api.js';

const KINDS_KEY = 'shipmate.kinds';
export const GAMES = ['quest1607', 'serenissima', 'voyagers'];
/** The pages each game has its own module for; the others (home, lobby) are shared. */
const OWN_PAGES = {
  quest1607: ['player', 'screen', 'host', 'dice'], serenissima: ['player', 'screen', 'host'],
  voyagers: ['player', 'screen', 'host'],
};

function readKinds() {
  try { return JSON.parse(localStorage.getItem(KINDS_KEY) || '{}') || {}; } catch { return {}; }
}

export function rememberGame(code, game) {
  const kinds = readKinds();
  kinds[code] = game;
  try { localStorage.setItem(KINDS_KEY, JSON.stringify(kinds)); } catch { /* storage blocked */ }
}

/** The game of `code` as this device last saw it, or null. */
export function knownGame(code) {
  const known = readKinds()[code];
  return GAMES.includes(known) ? known : null;
}

/** The game of `code` ("quest1607" when it cannot be told: that page then says what is wrong). */
export async function gameOf(code) {
  const known = knownGame(code);
  if (known) return known;
  try {
    const view = await request('GET', `/api/games/${encodeURIComponent(code)}`);
    if (view && GAMES.includes(view.game)) { rememberGame(code, view.game); return view.game; }
  } catch { /* unknown game or offline: the page module reports it */ }
  return 'quest1607';
}

/** The module path of a page for a game: its own, or its screen for a dice link of a game without dice. */
export function pageModule(game, page) {
  const own = OWN_PAGES[game] || OWN_PAGES.quest1607;
  const mine = own.includes(page) ? page : 'screen'; // only Quest 1607 has a dice device
  return `./views/${game in OWN_PAGES ? game : 'quest1607'}/${mine}.js`;
}
