// Pure: the table's story. Every change (a version) is told in one line, in the viewer's language,
// made from the events the server sent this viewer, so nothing private can leak into it. Each game
// gives the words of its own events (its "tellers"); the host's undo is told here for every game.
import { t } from '../i18n.js';

/** Every event a page has seen, kept once per version whatever way it came (HTTP or socket). */
export class EventLog {
  constructor() { this.byVersion = new Map(); this.list = []; }

  /** The newest version seen (-1 for none). */
  get latest() { return this.list.length ? this.list[this.list.length - 1].version : -1; }

  /** Add events; a version already known is left as it is. Returns whether anything was new. */
  add(events) {
    const fresh = new Map();
    for (const event of events || []) {
      const v = event.version;
      if (typeof v !== 'number' || this.byVersion.has(v)) continue;
      if (!fresh.has(v)) fresh.set(v, []);
      fresh.get(v).push(event);
    }
    for (const [v, list] of fresh) this.byVersion.set(v, list);
    if (fresh.size) this.list = [...this.byVersion.keys()].sort((a, b) => a - b).flatMap((v) => this.byVersion.get(v));
    return fresh.size > 0;
  }

  all() { return this.list; }

  at(version) { return this.byVersion.get(version) || []; }

  /** Forget every change after `version` (the server came back without them). */
  forgetAfter(version) {
    for (const v of [...this.byVersion.keys()]) if (v > version) this.byVersion.delete(v);
    this.list = this.list.filter((event) => event.version <= version);
  }
}

/** The host's reason for an undo, as the story adds it to the line ('' when they gave none). */
export const because = (event) => (event.reason ? t('told_because', { reason: event.reason }) : '');

/** What a teller returns, as {text, moment}: a string is a plain line; '' or null tells nothing. */
function told(value) {
  if (!value) return null;
  return typeof value === 'string' ? { text: value, moment: false } : value;
}

/**
 * The story of a game, newest first: [{version, text, moment, undone, types}], at most `limit`
 * lines, of the versions after `since`. `tellers[type](event, ctx)` gives one event's words; `ctx`
 * is handed on as it is (names, the state, the whole event list for looking back). A change's
 * events are joined in one line.
 */
export function story(events, tellers, ctx, { limit = Infinity, since = -1 } = {}) {
  const versions = new Map();
  for (const event of events) {
    if (!versions.has(event.version)) versions.set(event.version, []);
    versions.get(event.version).push(event);
  }
  const undone = new Set(events.filter((e) => e.type === 'ActionUndone').map((e) => e.undone_version));
  const lineOf = (list) => {
    const parts = [];
    for (const event of list) {
      const said = event.type === 'ActionUndone'
        ? { text: t('told_undone', { what: (lineOf(versions.get(event.undone_version) || []) || {}).text || t('told_last_action') }) + because(event), moment: true }
        : told((tellers[event.type] || (() => null))(event, ctx));
      if (said) parts.push(said);
    }
    if (!parts.length) return null;
    return { text: parts.map((p) => p.text).join(' — '), moment: parts.some((p) => p.moment) };
  };
  const lines = [];
  const order = [...versions.keys()].sort((a, b) => b - a);
  for (const version of order) {
    if (lines.length >= limit || version <= since) break;
    const line = lineOf(versions.get(version));
    if (line) lines.push({ version, ...line, undone: undone.has(version), types: versions.get(version).map((e) => e.type) });
  }
  return lines;
}

/** The lines worth announcing aloud among the changes after `since`, oldest first. */
export function moments(events, tellers, ctx, since) {
  return story(events, tellers, ctx, { since }).filter((line) => line.moment).reverse();
}
