// The one page model (pwa/README.md says it whole): parts, each {name, read(ctx), view(ctx), on, sent},
// drawn in slots of their own, once per task, only when their inputs or their markup changed.
import { morph } from './morph.js';
import { listen } from './ui.js';

const TYPES = ['click', 'input', 'change', 'submit'];
// Elements that draw themselves from the session (views/seats.js): they draw a new state too.
const SELF_DRAWN = 'waiting-for, away-mark, seat-move, seat-handover';

const same = (a, b) => Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, i) => x === b[i]);

/** A part's name in its draws' measures. */
const nameOf = (part, i) => part.name || (part.constructor !== Object && part.constructor.name) || `part${i}`;

export class Page {
  /** `context()`: the ctx the parts are drawn with (null: none yet). */
  constructor(root, parts, context) {
    Object.assign(this, { root, parts, context });
    this.session = null;
    this.slots = null;
    this.inputs = new Map(); // part → what it was last drawn from
    this.markup = new Map(); // part → the markup it last drew
    this.dirty = new Set(); // parts that asked to be drawn again (their own state changed)
    this.everything = true; // the next draw draws every part (the first, a language switch)
    this.queued = false;
    this.state = null; // the state of the last draw: a new one draws the self-drawn elements too
    this.after = null; // optional (drawn, ctx): after a draw, with the set of parts it drew (a TV fits its screen)
    this.navigate = null; // the router's, when the page has it: where its session goes when its seat moves
    parts.forEach((part) => { part.page = this; });
    this.off = listen(root, Object.fromEntries(TYPES.map((type) => [type, (event) => this.handle(type, event)])));
    this.onToggle = (event) => this.handle('toggle', event);
    root.addEventListener('toggle', this.onToggle, true); // toggle does not bubble
  }

  /** Draw soon, once for everything that comes in this task: `parts` again, and those whose inputs changed. */
  schedule(...parts) {
    parts.forEach((part) => this.dirty.add(part));
    if (this.queued) return;
    this.queued = true;
    queueMicrotask(() => {
      this.queued = false;
      this.draw();
    });
  }

  /** Draw every part again (the words changed language). */
  refresh() {
    this.everything = true;
    this.schedule();
  }

  draw() {
    const ctx = this.context();
    if (!ctx || this.gone) return;
    const first = !this.slots;
    if (first) {
      this.slots = this.parts.map(() => Object.assign(document.createElement('div'), { className: 'part' }));
      this.root.replaceChildren(...this.slots);
    }
    const drawn = new Set(this.parts.filter((part, i) => this.drawPart(part, this.slots[i], ctx, nameOf(part, i))));
    this.everything = false;
    this.dirty.clear();
    // busy while a part that loads later has not come: it draws itself when it does
    const busy = String(this.parts.some((part) => part.coming));
    if (this.root.getAttribute('aria-busy') !== busy) this.root.setAttribute('aria-busy', busy);
    for (const el of this.root.querySelectorAll(SELF_DRAWN)) { // they draw from the page's session (kept by one not yet defined), and a new state
      const fresh = el.session !== this.session;
      el.session = this.session;
      if (el.update && (fresh || ctx.state !== this.state)) el.update();
    }
    this.state = ctx.state;
    if (this.after) this.after(drawn, ctx);
    if (first) window.scrollTo(0, 0); // a page opens at its top, wherever the last one was
  }

  /** Draw `part` into `slot` if its inputs or its markup changed; whether it was. `part.drawn(slot, ctx)` follows a draw. */
  drawPart(part, slot, ctx, name) {
    const inputs = part.read ? part.read(ctx) : null;
    // a part that asked is drawn even as it was (a control it held while a tap went is the markup's again)
    const asked = this.everything || this.dirty.has(part);
    if (!asked && same(inputs, this.inputs.get(part))) return false;
    this.inputs.set(part, inputs);
    const start = performance.now();
    const markup = String(part.view(ctx) ?? '');
    if (!asked && markup === (this.markup.get(part) ?? '')) return false; // a slot starts empty
    this.markup.set(part, markup);
    morph(slot, markup);
    if (part.drawn) part.drawn(slot, ctx);
    performance.measure(`draw ${name}`, { start });
    return true;
  }

  async handle(type, event) {
    const ctx = this.context();
    if (!ctx) return;
    if (type === 'submit') event.preventDefault();
    for (const part of this.parts) {
      const on = part.on && part.on[type];
      const answer = on ? on.call(part, event, ctx) : null;
      if (!answer) continue;
      if (answer === true) this.schedule(part);
      else await this.send(part, answer, event.target);
      return;
    }
  }

  /** Act; the part hears the answer before its state draws; a button no draw let go of is let go. */
  async send(part, { action, label }, control) {
    const holder = this.parts[this.slots.findIndex((slot) => slot.contains(control))];
    const held = () => (holder && control.isConnected && control.disabled ? [holder] : []);
    if (control && control.localName === 'button') control.disabled = true;
    let heard = false;
    await this.session.act(action, label, (body) => {
      heard = true;
      if (part.sent) part.sent(action, body);
      this.schedule(...(part.sent ? [part] : []), ...held());
    });
    if (!heard) this.schedule(...held());
  }

  /** Open the game as the bearer of `token` (every change draws); resolves to what the router keeps. */
  async open(code, token, onState, options = {}) {
    const { openGame } = await import('./session.js'); // a page without a game (home, the rulebook) does without it
    this.session = await openGame(code, token, { navigate: this.navigate, ...options, onState, onChange: () => this.schedule() });
    this.schedule();
    return this.kept();
  }

  /** What the router keeps: draw everything again on a language switch; leave (closing the socket). */
  kept() {
    return {
      refresh: () => this.refresh(),
      unmount: () => {
        this.gone = true;
        this.off();
        this.root.removeEventListener('toggle', this.onToggle, true);
        this.root.removeAttribute('aria-busy');
        if (this.session) this.session.close();
      },
    };
  }
}

/** A part whose module loads after the first screenful (`load()`: import() of it); nothing until then. */
export function later(load) {
  const part = {
    inner: null,
    coming: true,
    get name() { return part.inner ? nameOf(part.inner, 0) : 'later'; },
    read: (ctx) => (!part.inner ? [] : part.inner.read ? [part.inner, ...part.inner.read(ctx)] : null),
    view: (ctx) => (part.inner ? part.inner.view(ctx) : ''),
    on: {},
    sent: (action, answer) => { if (part.inner && part.inner.sent) part.inner.sent(action, answer); },
    drawn: (slot, ctx) => { if (part.inner && part.inner.drawn) part.inner.drawn(slot, ctx); },
  };
  for (const type of [...TYPES, 'toggle']) {
    part.on[type] = (event, ctx) => {
      const on = part.inner && part.inner.on && part.inner.on[type];
      return on ? on.call(part.inner, event, ctx) : null;
    };
  }
  load().then((inner) => { part.inner = inner; inner.page = part.page; }).finally(() => {
    part.coming = false;
    if (part.page) part.page.schedule(part);
  });
  return part;
}

/** A part drawn by `view(m, ctx)` once module `m` (a promise of it, by import()) has come. */
export const drawnWith = (module, view) => later(() => module.then((m) => ({ view: (ctx) => view(m, ctx) })));
