// A page made of cards that draws in place (every game's phone; the other games' host and TV). Each card
// is an object with its own state: `view(ctx)` gives its markup for the game as it is now, and its
// `on` handlers answer the events of its own controls. The page morphs all the cards' markup into
// its root (js/morph.js), so an update changes only what changed: an open card, the scroll, the
// focus and a half-typed number survive it. A handler returns true to be drawn again, or
// {action, label} to act: the tap goes through the session's outbox and the card hears the answer.
import { html } from '../html.js';
import { morph } from '../morph.js';
import { openGame } from '../session.js';
import { listen, paintSwatches } from '../ui.js';

const TYPES = ['click', 'input', 'change', 'submit'];

export class CardPage {
  /**
   * @param {HTMLElement} root
   * @param {object[]} cards    in page order; a card without `view` draws nothing
   * @param {Function} context  () => the ctx every card is drawn with, or null while there is none
   */
  constructor(root, cards, context) {
    this.root = root;
    this.cards = cards;
    this.context = context;
    this.session = null;
    this.drawn = false;
    this.after = () => {};
    for (const card of cards) card.page = this;
    this.off = listen(root, Object.fromEntries(TYPES.map((type) => [type, (event) => this.handle(type, event)])));
    this.onToggle = (event) => this.handle('toggle', event);
    root.addEventListener('toggle', this.onToggle, true); // toggle does not bubble
  }

  draw() {
    const ctx = this.context();
    if (!ctx) return;
    morph(this.root, html`${this.cards.map((card) => card.view(ctx))}`);
    // busy while a card that loads later has not come: it will draw the page again when it does
    this.root.setAttribute('aria-busy', String(this.cards.some((card) => card.coming)));
    paintSwatches(this.root);
    // an element that draws itself (views/seats.js) and stayed in place draws the new state too
    for (const el of this.root.querySelectorAll('waiting-for, away-mark, seat-move, seat-handover')) if (el.update) el.update();
    if (!this.drawn) window.scrollTo(0, 0); // a page opens at its top, wherever the last one was
    this.drawn = true;
    this.after(ctx);
  }

  async handle(type, event) {
    const ctx = this.context();
    if (!ctx) return;
    if (type === 'submit') event.preventDefault();
    for (const card of this.cards) {
      const on = card.on && card.on[type];
      const answer = on ? on.call(card, event, ctx) : null;
      if (!answer) continue;
      if (answer === true) this.draw();
      else await this.send(card, answer, event.target);
      return;
    }
  }

  async send(card, { action, label }, control) {
    if (control && control.localName === 'button') control.disabled = true;
    const answer = await this.session.act(action, label);
    if (card.sent) card.sent(action, answer);
    this.draw();
  }

  /** Open the game as the bearer of `token` (every change draws the page); resolves to what the router keeps. */
  async open(code, token, onState, history = undefined) {
    this.session = await openGame(code, token, { onState, onChange: () => this.draw(), history });
    this.draw();
    return this.page();
  }

  /** What the router keeps: redraw on a language switch, and leave (closing the socket). */
  page(close = () => {}) {
    return {
      refresh: () => this.draw(),
      unmount: () => {
        this.off();
        this.root.removeEventListener('toggle', this.onToggle, true);
        this.root.removeAttribute('aria-busy');
        close();
        if (this.session) this.session.close();
      },
    };
  }
}

/**
 * A card whose module loads after the first screenful (`load()` resolves to the card, by import()):
 * it draws nothing and answers nothing until then, and draws its page once it is there.
 */
export function later(load) {
  const card = { inner: null, coming: true, view: (ctx) => (card.inner ? card.inner.view(ctx) : ''), on: {} };
  for (const type of [...TYPES, 'toggle']) {
    card.on[type] = (event, ctx) => {
      const on = card.inner && card.inner.on && card.inner.on[type];
      return on ? on.call(card.inner, event, ctx) : null;
    };
  }
  card.sent = (action, answer) => { if (card.inner && card.inner.sent) card.inner.sent(action, answer); };
  load().then((inner) => { card.inner = inner; }).finally(() => {
    card.coming = false;
    if (card.page) card.page.draw();
  });
  return card;
}

/** A card drawn by `view(m, ctx)` once module `m` (a promise of it, by import()) has come. */
export const drawnWith = (module, view) => later(() => module.then((m) => ({ view: (ctx) => view(m, ctx) })));
