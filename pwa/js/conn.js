// The live link to a game: a WebSocket that reconnects with backoff and resumes from the last
// version it saw (on `online`, on coming back into view, when a ping shows a gap). Changes after the
// snapshot come as patches of the view before (`updates=patch`, for phones on a busy Wi-Fi); a patch
// that does not follow this page's version is answered with `resume`. It carries actions too (`ask`:
// an action frame, then its result), and hears who is at the table (`presence`) and that the seat
// moved to another phone (then it stops). The server is the truth: one that came back behind this
// page (an older backup restored) is taken as it is, and the page is told (`onBehind`).
import { answers } from './logic/actions.js';
import { applyPatch } from './logic/patch.js';

const MIN_DELAY = 500;
const MAX_DELAY = 15000;
const SEAT_MOVED = 4401; // the close code of a token whose seat went to another phone

export class LiveGame {
  /**
   * @param {string} code
   * @param {string|null} token   null for the public view
   * @param {{onState: Function, onEvents?: Function, onStatus?: Function, onPresence?: Function,
   *   onSeatMoved?: Function, onRefused?: Function, onBehind?: Function}} handlers  onRefused: closed
   *   before it opened; onBehind(ahead, version): the server's snapshot is older than this page's view
   */
  constructor(code, token, handlers) {
    this.code = code;
    this.token = token;
    this.handlers = handlers;
    this.version = -1;
    this.state = null;
    this.socket = null;
    this.delay = MIN_DELAY;
    this.timer = null;
    this.closed = false;
    this.status = 'connecting';
    this.presence = null; // {online, away, at}
    this.asked = 0;
    this.waiting = new Map(); // action frame id → the function that takes its answer
    this.onOnline = () => this.wake();
    // Offline: the socket is as good as dead (a real network drops it silently), so let it go
    // now and show "Reconnecting…"; `online` then reconnects at once and resumes.
    this.onOffline = () => { if (this.socket) this.socket.close(); };
    this.onVisible = () => { if (document.visibilityState === 'visible') this.wake(); };
    window.addEventListener('online', this.onOnline);
    window.addEventListener('offline', this.onOffline);
    document.addEventListener('visibilitychange', this.onVisible);
    this.connect();
  }

  url() {
    const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
    const token = this.token ? `token=${encodeURIComponent(this.token)}&` : '';
    return `${scheme}//${location.host}/ws/games/${encodeURIComponent(this.code)}?${token}updates=patch`;
  }

  setStatus(status) {
    if (status === this.status) return;
    this.status = status;
    this.handlers.onStatus?.(status);
  }

  connect() {
    if (this.closed) return;
    clearTimeout(this.timer);
    let socket;
    try { socket = new WebSocket(this.url()); } catch { this.retry(); return; }
    this.socket = socket;
    let opened = false;
    socket.addEventListener('open', () => {
      opened = true;
      this.delay = MIN_DELAY;
      this.setStatus('open');
      if (this.version >= 0) this.send({ type: 'resume', since: this.version });
    });
    socket.addEventListener('message', (message) => {
      let data;
      try { data = JSON.parse(message.data); } catch { return; }
      this.receive(data);
    });
    socket.addEventListener('close', (event) => {
      if (event.code === SEAT_MOVED) { this.seatMoved(); return; }
      if (this.socket === socket) { this.socket = null; this.retry(); }
      if (!opened && !this.closed) this.handlers.onRefused?.();
    });
    socket.addEventListener('error', () => { try { socket.close(); } catch { /* already closed */ } });
  }

  retry() {
    if (this.closed) return;
    this.setStatus('reconnecting');
    if (navigator.onLine === false) return; // no network at all: the `online` event wakes it
    const jitter = Math.random() * this.delay * 0.3;
    this.timer = setTimeout(() => this.connect(), this.delay + jitter);
    this.delay = Math.min(this.delay * 2, MAX_DELAY);
  }

  /** Come back now: after sleep or a network change, do not wait for the backoff timer. */
  wake() {
    if (this.closed) return;
    if (this.socket && this.socket.readyState === WebSocket.OPEN) {
      this.send({ type: 'resume', since: Math.max(this.version, 0) });
      return;
    }
    if (this.socket && this.socket.readyState === WebSocket.CONNECTING) return;
    this.delay = MIN_DELAY;
    this.connect();
  }

  send(data) {
    if (this.socket && this.socket.readyState === WebSocket.OPEN) {
      this.socket.send(JSON.stringify(data));
      return true;
    }
    return false;
  }

  /** A fresh id for an action frame. */
  nextId() {
    this.asked += 1;
    return `a${this.asked}`;
  }

  /**
   * Send an action frame (waiting for a socket that is still connecting) and resolve with its
   * answer frame; resolve null, having given up on it, when no socket opens, when it closes
   * first, or when no answer comes within `timeout` ms. Null means: go over HTTP instead.
   */
  ask(frame, timeout) {
    // Between reconnects there is no socket: open one now rather than go over HTTP, so that the tap
    // follows the resume (a server that came back behind this page is told so before the tap goes).
    if (!this.socket && !this.closed && navigator.onLine !== false) this.connect();
    const socket = this.socket;
    if (this.closed || !socket || socket.readyState > WebSocket.OPEN) return Promise.resolve(null);
    return new Promise((resolve) => {
      const finish = (answer) => {
        clearTimeout(timer);
        this.waiting.delete(frame.id);
        socket.removeEventListener('open', send);
        socket.removeEventListener('close', giveUp);
        resolve(answer);
      };
      const giveUp = () => finish(null);
      const send = () => {
        if (this.socket !== socket || !this.send(frame)) finish(null);
      };
      const timer = setTimeout(giveUp, timeout);
      this.waiting.set(frame.id, finish);
      socket.addEventListener('close', giveUp);
      if (socket.readyState === WebSocket.OPEN) send();
      else socket.addEventListener('open', send);
    });
  }

  receive(data) {
    for (const [id, finish] of this.waiting) {
      if (answers(data, id)) { finish(data); return; }
    }
    if (data.type === 'snapshot') {
      if (typeof data.version === 'number' && data.version < this.version) this.behind(data.version);
      this.apply(data.version, data.state, []);
    } else if (data.type === 'update') {
      this.apply(data.version, data.state, data.events || []);
    } else if (data.type === 'patch') {
      this.patched(data);
    } else if (data.type === 'presence') {
      this.presence = { online: data.online || [], away: data.away || {}, at: Date.now() };
      this.handlers.onPresence?.(this.presence);
    } else if (data.type === 'seat_moved') {
      this.seatMoved();
    } else if (data.type === 'ping') {
      if (typeof data.version === 'number' && data.version > this.version) {
        this.send({ type: 'resume', since: Math.max(this.version, 0) });
      }
    }
  }

  /** Apply a patch frame to the view it was made from; a gap (or a patch that does not fit) resumes. */
  patched(data) {
    if (typeof data.version !== 'number' || data.version <= this.version) return; // already here
    if (this.state && data.base === this.version) {
      try {
        this.apply(data.version, applyPatch(this.state, data.patch), data.events || []);
        return;
      } catch { /* the views went apart: fetch the whole one */ }
    }
    this.send({ type: 'resume', since: Math.max(this.version, 0) });
  }

  /** Take a newer state (from the socket or from an action's HTTP answer); ignore older ones. */
  apply(version, state, events) {
    if (this.closed || typeof version !== 'number' || !state) return; // a page that left draws no more
    const fresh = events.filter((e) => typeof e.version !== 'number' || e.version > this.version);
    if (version < this.version) return;
    if (version === this.version && this.state) return;
    this.version = version;
    this.state = state;
    if (fresh.length) this.handlers.onEvents?.(fresh, state);
    this.handlers.onState(state);
  }

  /** The server is behind this page (it answered a resume with an older snapshot): forget what it lost. */
  behind(version) {
    const ahead = this.version;
    this.version = -1;
    this.state = null;
    this.handlers.onBehind?.(ahead, version);
  }

  /** The seat is on another phone now: never reconnect with this token; tell the page once. */
  seatMoved() {
    if (this.closed) return;
    this.close();
    this.handlers.onSeatMoved?.();
  }

  close() {
    this.closed = true;
    clearTimeout(this.timer);
    window.removeEventListener('online', this.onOnline);
    window.removeEventListener('offline', this.onOffline);
    document.removeEventListener('visibilitychange', this.onVisible);
    for (const finish of [...this.waiting.values()]) finish(null);
    if (this.socket) { const s = this.socket; this.socket = null; s.close(); }
  }
}
