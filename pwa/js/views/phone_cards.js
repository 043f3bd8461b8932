// What every game's phone shares (pages of parts, ../page.js): the "now" strip as a card, and a
// player's page that follows the game for one player.
import { html } from '../html.js';
import { t } from '../i18n.js';
import { Page } from '../page.js';
import { nowStrip, stripClick, tapItems } from './parts.js';
import { sheet } from './common.js';

// A phone's controls have their own sheet, which the shared screen does without (a game's sheet, added
// after it by the game's parts.js, still overrides it).
export const phoneSheet = sheet('/css/phone.css');

/**
 * A player's phone: `cards` drawn for player `me` (ctx: {state, ruleset, me, player, session,
 * events}). `change(ruleset, before, after)` says what a change altered for the player, kept by
 * version in `changes` (an undo's moment tells it); `playerOf(state, id)` finds a player.
 * Returns the page; `page.follow` is its onState.
 */
export function playerPage(root, cards, { code, navigate, me, playerOf, changes, change }) {
  let state = null;
  const page = new Page(root, cards, () => {
    const { session } = page;
    const player = session && state && playerOf(state, me);
    return player ? { state, ruleset: session.ruleset, me, player, session, events: session.log.all() } : null;
  });
  page.navigate = navigate;
  page.follow = (s) => {
    if (s.phase === 'lobby') { navigate(`/join/${code}`, { replace: true }); return; }
    if (!playerOf(s, me)) { root.replaceChildren(Object.assign(document.createElement('p'), { className: 'card', textContent: t('not_joined') })); return; }
    const before = page.session && state && playerOf(state, me);
    if (before && s.version > state.version) changes[s.version] = change(page.session.ruleset, before, playerOf(s, me));
    state = s;
    page.schedule();
  };
  return page;
}

// The strip's items that are no news when they come (whose turn it is, an allowance, a skipped turn)
const QUIET = new Set(['status', 'turn', 'skip']);

/** A tap's words while it waits for the network: the button's own text. */
export const labelOf = (el) => el.textContent.trim().replace(/\s+/g, ' ');

/**
 * The "now" strip as a card: what needs this player now (`items(ctx)`, most urgent first), the
 * moments that concern them under what they must do (`moments(ctx)`, each folds to one line with a
 * tap once read), and this device's own taps.
 * A strip button acts right there (`actionFor(el, ctx)`), and while its tap waits in the outbox it
 * shows so, so nobody taps it twice.
 */
export class StripCard {
  /** `reads(ctx)`, if the game gives it: what `who` and `items` draw from (else the strip draws at every change). */
  constructor({ who, items, moments, actionFor, labelFor = labelOf, reads = null }) {
    Object.assign(this, { who, items, moments, actionFor, labelFor, reads });
    this.seen = null; // the ids of the items that concerned the player at the last draw
    this.notice = null; // the newest that came since, until it goes or is put away
    this.on = { click: this.click };
  }

  /** What came since the last draw that concerns the player is the notice. */
  follow(items) {
    const concerns = items.filter((i) => !QUIET.has(i.id) && !i.id.startsWith('tap-'));
    const fresh = this.seen ? concerns.filter((i) => !this.seen.has(i.id)) : [];
    this.seen = new Set(concerns.map((i) => i.id));
    if (fresh.length) this.notice = fresh[0].id;
    return concerns.find((i) => i.id === this.notice) || null;
  }

  /** Its inputs: the game's, the notes, the waiting taps and the moments (made here: a change that tells the player nothing draws nothing). */
  read(ctx) {
    if (!this.reads) return null;
    this.told = this.moments(ctx);
    const { outbox, notices } = ctx.session;
    const taps = (outbox ? outbox.pending : []).map((e) => `${e.key}${e.waiting ? '…' : ''}`).join();
    return [...this.reads(ctx), notices, taps, this.told.map((m) => `${m.id} ${m.text}`).join('\n')];
  }

  view(ctx) {
    const items = this.items(ctx);
    const queued = new Set((ctx.session.outbox ? ctx.session.outbox.pending : []).map((e) => JSON.stringify(e.action)));
    for (const b of items.flatMap((i) => i.buttons)) {
      const action = b.act ? this.actionFor({ id: '', dataset: { act: b.act, ...(b.data || {}) } }, ctx) : null;
      if (action && queued.has(JSON.stringify(action))) b.waiting = true;
    }
    const urgent = items.filter((i) => i.tone === 'act');
    const rest = items.filter((i) => i.tone !== 'act');
    const all = [...tapItems(ctx.session), ...urgent, ...(this.reads ? this.told : this.moments(ctx)).map((m) => ({ ...m, fold: true })), ...rest];
    const notice = this.follow(all); // after the end, it stays
    return nowStrip(html`${this.who(ctx)}${ctx.me && ctx.state.phase === 'playing' ? html`<cue-toggle></cue-toggle>` : ''}`, all,
      notice && { ...notice, final: ctx.state.phase === 'finished' });
  }

  click(event, ctx) {
    if (event.target.closest('[data-unnotice]')) {
      this.notice = null;
      return true;
    }
    if (stripClick(event, ctx.session)) return null;
    const el = event.target.closest('#now button[data-act], #now-reach button[data-act]');
    const action = el && !el.disabled ? this.actionFor(el, ctx) : null;
    return action ? { action, label: this.labelFor(el, action, ctx) } : null;
  }
}
