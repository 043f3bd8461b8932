// The service worker: the app shell in a versioned cache (install awaits addAll, activate drops old
// versions). API calls and the WebSocket always go to the network: the server is the truth. Only a
// ruleset and its rule texts are kept too, network first, so the rulebook opens without the network
// once it was seen.
const VERSION = 'shipmate-v28';
const SHELL = [
  '/index.html', '/manifest.webmanifest', '/css/app.css', '/css/screen.css', '/css/phone.css', '/css/forms.css',
  '/js/app.js', '/js/i18n.js', '/js/i18n.en.js', '/js/i18n.nl.js', '/js/html.js', '/js/api.js', '/js/conn.js', '/js/ui.js', '/js/session.js',
  '/js/outbox.js', '/js/logic/checks.js', '/js/logic/quest1607.js', '/js/logic/quest1607_facts.js', '/js/logic/quest1607_now.js', '/js/logic/format.js', '/js/logic/actions.js', '/js/logic/stats.js',
  '/js/logic/story.js', '/js/logic/quest1607_table.js', '/js/logic/patch.js', '/js/charts.js',
  '/js/views/home.js', '/js/views/lobby.js', '/js/views/quest1607/player.js', '/js/views/quest1607/screen.js',
  '/js/views/quest1607/host.js', '/js/views/quest1607/dice.js', '/js/games.js', '/js/views/parts.js', '/js/views/common.js', '/js/views/tv.js', '/js/views/home_strings.js', '/css/front.css',
  // Quest 1607's shared screen, dice device and host panel: the parts they load beside them, and their sheet.
  '/js/views/quest1607/screen_parts.js', '/js/views/quest1607/screen_fight.js', '/js/views/quest1607/screen_strings.js', '/js/views/quest1607/screen_strings.en.js',
  '/js/views/quest1607/screen_strings.nl.js',
  '/js/views/quest1607/news.js', '/js/views/quest1607/fight.js', '/js/views/quest1607/dice_table.js', '/js/views/quest1607/host_report.js', '/js/views/undo_ask.js', '/css/tv.css',
  // Quest 1607's phone: its words and its cards (the first screenful's and those it loads beside it).
  '/js/views/quest1607/strings.js', '/js/views/quest1607/strings.en.js', '/js/views/quest1607/strings.nl.js', '/js/views/quest1607/phone/card.js', '/js/views/quest1607/phone/roll.js', '/js/views/quest1607/phone/moments.js', '/js/views/quest1607/phone/event_advice.js', '/js/views/quest1607/dice_link.js', '/js/logic/quest1607_words.js', '/js/logic/players.js',
  '/js/views/quest1607/phone/fight.js', '/js/views/quest1607/phone/below.js', '/js/views/quest1607/phone/ships.js', '/js/views/quest1607/phone/quests.js',
  '/js/views/quest1607/phone/trade.js', '/js/views/quest1607/phone/attack.js', '/js/views/quest1607/phone/words.js',
  // Seats and presence: loaded beside every game page (import()), with their own sheet.
  '/js/views/seats.js', '/js/views/seat_strings.js', '/js/views/seat_strings.en.js', '/js/views/seat_strings.nl.js', '/js/logic/seats.js', '/css/seats.css',
  // Serenissima and Voyagers' Venture: loaded only when a game of theirs opens (import()).
  '/js/morph.js', '/js/page.js', '/js/views/phone_cards.js', '/js/views/host_panel.js', '/js/views/screens.js', '/js/logic/moments.js',
  '/js/logic/serenissima.js', '/js/logic/serenissima_table.js', '/js/logic/serenissima_moments.js', '/js/views/serenissima/strings.js', '/js/views/serenissima/strings.en.js',
  '/js/views/serenissima/strings.nl.js',
  '/js/views/serenissima/parts.js', '/js/views/serenissima/player.js', '/js/views/serenissima/screen.js', '/js/views/serenissima/host.js',
  '/js/views/serenissima/forms.js', '/js/views/serenissima/form_strings.js', '/css/serenissima.css',
  '/js/logic/voyagers.js', '/js/logic/voyagers_table.js', '/js/logic/voyagers_moments.js', '/js/views/voyagers/strings.js', '/js/views/voyagers/strings.en.js',
  '/js/views/voyagers/strings.nl.js',
  '/js/views/voyagers/parts.js', '/js/views/voyagers/player.js', '/js/views/voyagers/screen.js', '/js/views/voyagers/host.js',
  '/js/views/voyagers/forms.js', '/js/views/voyagers/host_forms.js', '/js/views/voyagers/form_strings.js', '/css/voyagers.css',
  // The rulebook page and a rule opened over a page: loaded only when opened (import()).
  '/js/views/rulebook.js', '/js/views/rule_dialog.js', '/js/views/rule_strings.js', '/css/rules.css',
  // The turn cue and the first evening's guide, with the guide's sheet.
  '/js/cue.js', '/js/views/guide.js', '/css/guide.css',
  '/icons/icon-192.png', '/icons/icon-512.png', '/icons/maskable-192.png', '/icons/maskable-512.png',
];
const APP_ROUTES = /^\/($|join\/|play\/|screen\/|host\/|dice\/|rules\/)/;
const RULESETS = /^\/api\/(rulesets\/[a-z0-9]+(\/rules)?|games\/[A-Za-z0-9]{6}\/(ruleset|rules))$/;

self.addEventListener('install', (event) => {
  event.waitUntil((async () => {
    const cache = await caches.open(VERSION);
    await cache.addAll(SHELL);
    await self.skipWaiting();
  })());
});

self.addEventListener('activate', (event) => {
  event.waitUntil((async () => {
    const names = await caches.keys();
    await Promise.all(names.filter((n) => n.startsWith('shipmate-') && n !== VERSION).map((n) => caches.delete(n)));
    await self.clients.claim();
  })());
});

self.addEventListener('fetch', (event) => {
  const request = event.request;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  if (url.origin === self.location.origin && RULESETS.test(url.pathname)) {
    // A ruleset: the network first (a game's house rules as they are now), the last copy when offline.
    event.respondWith((async () => {
      const cache = await caches.open(VERSION);
      try {
        const response = await fetch(request);
        if (response.ok) await cache.put(request, response.clone());
        return response;
      } catch (error) {
        return (await cache.match(request)) || Promise.reject(error);
      }
    })());
    return;
  }
  if (url.origin !== self.location.origin || url.pathname.startsWith('/api/') || url.pathname.startsWith('/ws/')) return;
  if (request.mode === 'navigate' && APP_ROUTES.test(url.pathname)) {
    // Pages: the network first (fresh code after a deploy), the cached shell when offline.
    event.respondWith(fetch(request).catch(async () => (await caches.match('/index.html')) || Response.error()));
    return;
  }
  event.respondWith((async () => {
    const cached = await caches.match(request);
    if (cached) return cached;
    return fetch(request);
  })());
});
