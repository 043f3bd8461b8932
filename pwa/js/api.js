// HTTP access to the server and the tokens this device keeps (localStorage, one entry per game code).
import { lang } from './i18n.js';
import { newKey } from './logic/actions.js';

const TOKENS_KEY = 'shipmate.games';

export class ApiError extends Error {
  constructor(status, body) {
    super((body && body.message) || `HTTP ${status}`);
    this.status = status;
    this.body = body || {};
    this.rule = this.body.rule || null;
  }
}

export async function request(method, path, { token, body, idempotencyKey } = {}) {
  const headers = { Accept: 'application/json', 'Accept-Language': lang() };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  if (token) headers.Authorization = `Bearer ${token}`;
  if (idempotencyKey) headers['Idempotency-Key'] = idempotencyKey;
  const response = await fetch(path, {
    method, headers, body: body === undefined ? undefined : JSON.stringify(body), cache: 'no-store',
  });
  let data = null;
  try { data = await response.json(); } catch { data = null; }
  if (!response.ok) throw new ApiError(response.status, data);
  return data;
}

export const api = {
  createGame: (options, game = 'quest1607') => request('POST', '/api/games', { body: { game, options } }),
  join: (code, name, character) => request('POST', `/api/games/${encodeURIComponent(code)}/players`, { body: { name, character } }),
  state: (code, token) => request('GET', `/api/games/${encodeURIComponent(code)}`, { token }),
  ruleset: (code, language) => request('GET', `/api/games/${encodeURIComponent(code)}/ruleset${language ? `?lang=${language}` : ''}`),
  defaultRuleset: (game) => request('GET', `/api/rulesets/${encodeURIComponent(game)}`),
  events: (code, since, token) => request('GET', `/api/games/${encodeURIComponent(code)}/events?since=${since}`, { token }),
  /** Post an action; a retry of the same action passes the same `key`, so it is applied once. */
  act: (code, token, action, key = newKey()) => request('POST', `/api/games/${encodeURIComponent(code)}/actions`, { token, body: action, idempotencyKey: key }),
};

export function qrUrl(code) { return `/api/games/${encodeURIComponent(code)}/qr.svg`; }

export function normaliseCode(text) {
  return String(text || '').toUpperCase().replace(/[^A-Z0-9]/g, '').slice(0, 6);
}

function readAll() {
  try { return JSON.parse(localStorage.getItem(TOKENS_KEY) || '{}') || {}; } catch { return {}; }
}

function writeAll(all) {
  try { localStorage.setItem(TOKENS_KEY, JSON.stringify(all)); } catch { /* storage full or blocked */ }
}

/** What this device holds for a game: {player: {id, token, name}, host: token}. */
export function tokensFor(code) { return readAll()[code] || {}; }

export function saveTokens(code, patch) {
  const all = readAll();
  all[code] = { ...(all[code] || {}), ...patch, saved: Date.now() };
  writeAll(all);
}

export function forgetGame(code) {
  const all = readAll();
  delete all[code];
  writeAll(all);
}

export function knownGames() {
  return Object.entries(readAll())
    .map(([code, entry]) => ({ code, ...entry }))
    .sort((a, b) => (b.saved || 0) - (a.saved || 0));
}
