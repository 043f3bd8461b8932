// What every shared screen does besides drawing its game: it keeps the display awake, and it reads
// aloud the moments that matter (a game's tellers mark them) as they happen — never the past at load.
// Browsers let a page speak only after a tap: the first time, the screen asks for one with a big
// button; a screen started once on this device goes on by itself after a reload, and its sound comes
// back at the first tap anywhere (a small hint says so). The join QR code shows only in the lobby, and
// the story tells who came back to the table (views/seats.js).
import { qrUrl } from '../api.js';
import { html } from '../html.js';
import { lang, t } from '../i18n.js';
import { moments } from '../logic/story.js';
import { openGame } from '../session.js';
import { sheet } from './common.js';

const STARTED_KEY = 'shipmate.screens';
/** Wider than this, a shared screen is a TV that shows everything at once (screen.css agrees). */
const WIDE = 1100;

function startedBefore(code) {
  try { return (JSON.parse(localStorage.getItem(STARTED_KEY) || '[]') || []).includes(code); } catch { return false; }
}

function rememberStarted(code) {
  try {
    const codes = JSON.parse(localStorage.getItem(STARTED_KEY) || '[]') || [];
    if (!codes.includes(code)) localStorage.setItem(STARTED_KEY, JSON.stringify([code, ...codes].slice(0, 20)));
  } catch { /* storage blocked: the screen asks again after a reload */ }
}

/** Every shared screen's layout (the phones and the host panel do without it). */
export const screenSheet = () => sheet('/css/screen.css', true);

function speak(text) {
  if (!('speechSynthesis' in window) || !text) return;
  const utterance = new SpeechSynthesisUtterance(text);
  utterance.lang = lang() === 'nl' ? 'nl-NL' : 'en-GB';
  const voice = speechSynthesis.getVoices().find((v) => v.lang && v.lang.toLowerCase().startsWith(lang()));
  if (voice) utterance.voice = voice;
  speechSynthesis.speak(utterance);
}

export class SharedScreen {
  /**
   * @param {string} code
   * @param {object} tellers   the game's words for its events (logic/*_table.js)
   * @param {Function} redraw  draws the page again (the start button or the hint changed)
   */
  constructor(code, tellers, redraw) {
    this.code = code;
    this.tellers = tellers;
    this.redraw = redraw;
    this.started = startedBefore(code);
    this.heard = false;
    this.wakeLock = null;
    this.spokenUpTo = null; // the version announced up to (null: the story has not caught up yet)
    this.onVisible = () => { if (document.visibilityState === 'visible' && this.started && !this.wakeLock) this.keepAwake(); };
    this.onFirstTap = () => {
      this.heard = true;
      document.removeEventListener('pointerdown', this.onFirstTap, true);
      if (this.started) { this.keepAwake(); this.redraw(); }
    };
    this.onClick = (event) => {
      if (!event.target.closest('#screen-start')) return;
      this.started = true;
      this.heard = true;
      rememberStarted(code);
      this.keepAwake();
      if (document.documentElement.requestFullscreen) document.documentElement.requestFullscreen().catch(() => {});
      this.redraw();
    };
    document.addEventListener('visibilitychange', this.onVisible);
    document.addEventListener('pointerdown', this.onFirstTap, true);
    document.addEventListener('click', this.onClick);
    if (this.started) this.keepAwake();
  }

  async keepAwake() {
    if (!('wakeLock' in navigator) || document.visibilityState !== 'visible') return;
    try {
      this.wakeLock = await navigator.wakeLock.request('screen');
      this.wakeLock.addEventListener('release', () => { this.wakeLock = null; });
    } catch { /* refused (no secure context or battery saver): the screen may sleep */ }
  }

  /** The big start button the first time; then, until a tap, a small hint that sound waits for one. */
  control() {
    if (!this.started) return html`<button type="button" id="screen-start" class="screen-start">${t('tap_to_start')}</button>`;
    return this.heard ? '' : html`<p class="screen-hint" id="screen-hint">🔈 ${t('tap_for_sound')}</p>`;
  }

  /** Read aloud the moments among the changes since the last announcement; `ctx` is the tellers'. */
  announce(log, version, ctx) {
    const latest = log.latest;
    if (this.spokenUpTo === null) { if (latest >= version) this.spokenUpTo = latest; return; }
    if (latest <= this.spokenUpTo) return;
    for (const line of moments(log.all(), this.tellers, ctx, this.spokenUpTo)) speak(line.text);
    this.spokenUpTo = latest;
  }

  /** The first evening's guide (./guide.js, loaded once a state may show it). */
  guide(state, ruleset) {
    if (!state.guide || state.guide.skipped) return '';
    this.guiding = this.guiding || import('./guide.js').then((m) => m.ready.then(() => { this.panel = m.tvPanel; this.redraw(); }));
    return this.panel ? this.panel(state, ruleset) : '';
  }

  /** How to join: the QR code large in the lobby; during play only the code, small. */
  joinCode(state) {
    if (state.phase !== 'lobby') return html`<p class="screen-code">${t('join_code')} <span class="mono">${this.code}</span></p>`;
    return html`<figure class="qr"><img src="${qrUrl(this.code)}" alt="${t('scan_to_join')}" width="200" height="200"><figcaption>${t('scan_to_join')}<br><span class="mono big-code">${this.code}</span></figcaption></figure>`;
  }

  /** The story's newest `limit` lines with "Bram is back" among them, each after the change it followed. */
  told(lines, limit) {
    const back = this.session ? this.session.returnLines() : [];
    return back.length ? [...lines, ...back].sort((a, b) => b.version - a.version).slice(0, limit) : lines;
  }

  /**
   * A TV does not scroll: on a wide screen the story in `root` keeps as many of its newest lines
   * (at least `least`) as fit, whole, in its box (its padding too: else the box cuts) and on the screen.
   */
  fitStory(root, least = 4) {
    if (window.innerWidth <= WIDE) return;
    const box = root.querySelector('.feed-big');
    const lines = box ? [...box.querySelectorAll('.feed-lines li')] : [];
    const over = () => {
      const bottom = Math.min(window.innerHeight, box.getBoundingClientRect().bottom) - 8;
      return document.documentElement.scrollHeight > window.innerHeight || box.scrollHeight > box.clientHeight + 1
        || lines[lines.length - 1].getBoundingClientRect().bottom > bottom;
    };
    while (lines.length > least && over()) lines.pop().remove();
  }

  /**
   * Open the game for this screen, with the whole story: every change calls `draw`.
   * @returns {Promise<{session: object, page: object}>} the session, and the page the router keeps
   *   (leaving it closes the socket and lets the screen sleep)
   */
  async open(onState, draw) {
    const session = await openGame(this.code, null, { onState, onChange: draw, history: 'all' });
    this.session = session;
    return { session, page: { refresh: draw, unmount: () => { this.close(); session.close(); } } };
  }

  close() {
    document.removeEventListener('visibilitychange', this.onVisible);
    document.removeEventListener('pointerdown', this.onFirstTap, true);
    document.removeEventListener('click', this.onClick);
    if (this.wakeLock) this.wakeLock.release().catch(() => {});
  }
}
