// DOM helpers that every page shares: dice faces, character swatches, toasts, banners.
import { ApiError } from './api.js';
import { html, escapeHtml, trusted } from './html.js';
import { t, tx } from './i18n.js';
import { cited, ruleHref } from './logic/format.js';

const PIPS = {
  1: [[50, 50]], 2: [[28, 28], [72, 72]], 3: [[28, 28], [50, 50], [72, 72]],
  4: [[28, 28], [72, 28], [28, 72], [72, 72]], 5: [[28, 28], [72, 28], [50, 50], [28, 72], [72, 72]],
  6: [[28, 25], [72, 25], [28, 50], [72, 50], [28, 75], [72, 75]],
};

/** A die face as inline SVG; `kind` is "move" (coloured) or "white"; values over 6 show the number. */
export function dieSvg(value, kind = 'white', label = '') {
  const v = Number(value) || 0;
  const pips = PIPS[v];
  const body = pips
    ? pips.map(([x, y]) => `<circle cx="${x}" cy="${y}" r="9"/>`).join('')
    : `<text x="50" y="66" text-anchor="middle" font-size="48">${escapeHtml(v)}</text>`;
  const name = label ? `${label}: ${v}` : String(v);
  return html`<svg class="die die-${kind}" viewBox="0 0 100 100" role="img" aria-label="${name}"><rect x="4" y="4" width="92" height="92" rx="18"/><g class="pips">${trusted(body)}</g></svg>`;
}

// Okabe–Ito colours: distinguishable with every common colour-vision deficiency.
const SAFE = {
  red: '#D55E00', blue: '#0072B2', green: '#009E73', yellow: '#F0E442', orange: '#E69F00',
  purple: '#CC79A7', pink: '#CC79A7', sky: '#56B4E9', lightblue: '#56B4E9', black: '#222222',
  white: '#F5F5F5', brown: '#8C5A2B', grey: '#888888', gray: '#888888',
};
const PATTERNS = ['solid', 'stripes', 'dots', 'cross', 'zigzag', 'checks', 'rings', 'diag'];

export function characterStyle(ruleset, id) {
  const list = (ruleset && ruleset.characters) || [];
  const index = Math.max(0, list.findIndex((c) => c.id === id));
  const c = list[index] || {};
  const raw = String(c.colour || c.color || 'grey').toLowerCase();
  const colour = /^#[0-9a-f]{3,8}$/.test(raw) ? raw : (SAFE[raw.replace(/[^a-z]/g, '')] || '#888888');
  return { colour, pattern: PATTERNS[index % PATTERNS.length], name: tx(c.name) || String(id || ''), index };
}

const painted = new Set(); // the colours the shell's sheet has a rule for

/**
 * Colours are data: each gets a rule in the shell's own sheet (css/app.css, through the CSSOM, which the
 * page's CSP allows where it forbids style=""), once. No element carries a style of its own, so a draw
 * that leaves a swatch as it was leaves it alone.
 */
function paint(colour) {
  if (painted.has(colour)) return;
  const shell = [...document.styleSheets].find((sheet) => sheet.href && new URL(sheet.href).pathname === '/css/app.css');
  if (!shell) return; // not loaded yet: the next swatch drawn paints
  painted.add(colour);
  shell.insertRule(`.swatch[data-colour="${colour}"] { --c: ${colour}; }`, shell.cssRules.length);
}

/** A player on a line of players: their flag, then their name and their land after it, so a long name
 * wrapping never leaves a land beside another's name. */
export function playerWho(ruleset, player) {
  return html`${swatch(ruleset, player.character, false)}<span class="who"><strong>${player.name}</strong> <span class="muted">${characterStyle(ruleset, player.character).name}</span></span>`;
}

/** A small flag: the character's colour AND pattern AND name, so colour never stands alone. */
export function swatch(ruleset, id, withName = true) {
  const s = characterStyle(ruleset, id);
  paint(s.colour);
  return html`<span class="flag"><span class="swatch pat-${s.pattern} col-${s.index}" data-colour="${s.colour}" aria-hidden="true"></span>${withName ? html`<span class="flag-name">${s.name}</span>` : ''}</span>`;
}

let toastTimer = null;
export function toast(message, kind = 'info') {
  let box = document.getElementById('toast');
  if (!box) {
    box = document.createElement('div');
    box.id = 'toast';
    box.setAttribute('role', 'status');
    box.setAttribute('aria-live', 'polite');
    document.body.append(box);
  }
  const id = /^[A-Z]{1,2}\d\d?(?= · )/.exec(message)?.[0] || ''; // the rule it cites, linked
  box.innerHTML = (id && `<a class="rule-link" href="${ruleHref(id)}">${id}</a>`) + escapeHtml(message.slice(id.length));
  box.className = `toast show ${kind}`;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => { box.className = 'toast'; }, 4000);
}

/** A refusal in the player's words, citing its rule ("U3 · …"); never a browser's network message. */
export function errorText(error) {
  if (!(error instanceof ApiError)) return t('net_error');
  const body = error.body || {};
  const message = body.message || t('error');
  return cited(body.rule, message);
}

/** The connection badge in the header: hidden while live; no status repaints it. */
export function setConnection(status) {
  const badge = document.getElementById('conn');
  if (!badge) return;
  if (status) badge.hidden = status === 'open';
  badge.textContent = t(badge.hidden ? 'connected' : navigator.onLine === false ? 'no_network' : 'reconnecting');
}

export function vibrate(pattern) {
  if (navigator.vibrate) { try { navigator.vibrate(pattern); } catch { /* not allowed */ } }
}

/** Attach delegated listeners to a page's root; returns the function that removes them all. */
export function listen(root, handlers) {
  const entries = Object.entries(handlers);
  entries.forEach(([type, fn]) => root.addEventListener(type, fn));
  return () => entries.forEach(([type, fn]) => root.removeEventListener(type, fn));
}
