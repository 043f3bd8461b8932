// Taps that wait for the network. Every action goes into this outbox with its Idempotency-Key and
// the version it was made on, and stays there (and in localStorage, for a reload) until the server
// answered: over the socket when it is up, else over HTTP, always under the same key, so a tap is
// applied once however often it is sent. A tap without network waits, marked so, and goes, in the
// order made, when the connection is back (the socket opens, the browser is online, a retry).
import { api, ApiError } from './api.js';
import { lang } from './i18n.js';
import { RESULT_TIMEOUT, actionFrame, answerOf, newKey } from './logic/actions.js';

const STORE_KEY = 'shipmate.outbox';
const RETRY_MS = 4000;
/** Answers that mean "not now" rather than "no": the tap stays and is sent again later. */
const RETRIED = new Set([408, 429, 500, 502, 503, 504]);

function readAll() {
  try { return JSON.parse(localStorage.getItem(STORE_KEY) || '{}') || {}; } catch { return {}; }
}

function writeAll(all) {
  try { localStorage.setItem(STORE_KEY, JSON.stringify(all)); } catch { /* storage full or blocked */ }
}

export class Outbox {
  /**
   * @param {string} code
   * @param {string} token  whose taps these are (a device may hold a host and a player token)
   * @param {import('./conn.js').LiveGame} live
   * @param {{onChange: Function, onAnswer: Function}} handlers  onAnswer(entry, {status, body})
   */
  constructor(code, token, live, handlers) {
    this.code = code;
    this.token = token;
    this.live = live;
    this.handlers = handlers;
    this.slot = `${code}:${token.slice(0, 12)}`;
    this.entries = (readAll()[this.slot] || []).map((e) => ({ ...e, waiting: true }));
    this.sending = false;
    this.timer = null;
    this.settle = new Map(); // key → {promise, resolve}: who waits for a tap's answer
    this.onOnline = () => this.flush();
    window.addEventListener('online', this.onOnline);
    if (this.entries.length) this.flush();
  }

  /** The taps not yet answered, oldest first: [{key, action, version, label, at, waiting}]. */
  get pending() { return this.entries; }

  save() {
    const all = readAll();
    const kept = this.entries.map(({ key, action, version, label, at }) => ({ key, action, version, label, at }));
    if (kept.length) all[this.slot] = kept; else delete all[this.slot];
    writeAll(all);
  }

  /**
   * Queue a tap and send it; resolves with its answer {status, body}, which `first` hears before the
   * handlers do. The same action tapped again while the first still waits is that first tap, not a second one.
   */
  push(action, label, first = () => {}) {
    const same = JSON.stringify(action);
    const queued = this.entries.find((e) => JSON.stringify(e.action) === same);
    if (queued) return this.answerTo(queued, first);
    const entry = { key: newKey(), action, version: this.live.version, label, at: Date.now(), waiting: false };
    this.entries.push(entry);
    this.save();
    const answered = this.answerTo(entry, first);
    this.flush();
    return answered;
  }

  answerTo(entry, first) {
    if (!this.settle.has(entry.key)) {
      let resolve;
      const promise = new Promise((r) => { resolve = r; });
      this.settle.set(entry.key, { promise, resolve, first: [] });
    }
    const waiter = this.settle.get(entry.key);
    waiter.first.push(first);
    return waiter.promise;
  }

  /** Send the taps in order until one must wait for the network. */
  async flush() {
    if (this.sending || this.closed) return;
    this.sending = true;
    clearTimeout(this.timer);
    try {
      while (this.entries.length && !this.closed) {
        const entry = this.entries[0];
        const answer = await this.deliver(entry);
        if (!answer) {
          if (!entry.waiting) { entry.waiting = true; this.handlers.onChange(); }
          this.timer = setTimeout(() => this.flush(), RETRY_MS);
          return;
        }
        this.entries.shift();
        this.save();
        const waiter = this.settle.get(entry.key);
        this.settle.delete(entry.key);
        if (waiter) waiter.first.forEach((first) => first(answer));
        this.handlers.onAnswer(entry, answer);
        if (waiter) waiter.resolve(answer);
        this.handlers.onChange();
      }
    } finally {
      this.sending = false;
    }
  }

  /** One attempt: the answer {status, body}, or null when the network is gone or the server said "later". */
  async deliver(entry) {
    const frame = await this.live.ask(actionFrame(this.live.nextId(), entry.action, entry.key, lang()), RESULT_TIMEOUT);
    if (frame) {
      const answer = answerOf(frame);
      return RETRIED.has(answer.status) ? null : answer;
    }
    if (navigator.onLine === false) return null;
    try {
      return { status: 200, body: await api.act(this.code, this.token, entry.action, entry.key) };
    } catch (error) {
      if (error instanceof ApiError && !RETRIED.has(error.status)) return { status: error.status, body: error.body };
      return null; // no network, or the server is briefly unable: the tap waits
    }
  }

  close() {
    this.closed = true;
    clearTimeout(this.timer);
    window.removeEventListener('online', this.onOnline);
  }
}
