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
    const latest = this.latest;
    for (const [v, list] of fresh) this.byVersion.set(v, list);
    if (!fresh.size) return false;
    // a new list (a page knows a new story by it); the usual case, newer changes, goes at the end
    const newer = [...fresh.keys()].sort((a, b) => a - b);
    this.list = newer[0] > latest ? this.list.concat(newer.flatMap((v) => fresh.get(v)))
      : [...this.byVersion.keys()].sort((a, b) => a - b).flatMap((v) => this.byVersion.get(v));
    return true;
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
 * events are joined in one line. The list is read from its end (in order, as EventLog keeps it,
 * only the newest changes are looked at).
 */
export function story(events, tellers, ctx, { limit = Infinity, since = -1 } = {}) {
  const inOrder = events.every((e, i) => i === 0 || events[i - 1].version <= e.version);
  const list = inOrder ? events : [...events].sort((a, b) => a.version - b.version);
  let byVersion = null; // every change's events, made only when an undo names one
  const eventsOf = (version) => {
    if (!byVersion) {
      byVersion = new Map();
      for (const event of list) {
        if (!byVersion.has(event.version)) byVersion.set(event.version, []);
        byVersion.get(event.version).push(event);
      }
    }
    return byVersion.get(version) || [];
  };
  const lineOf = (change) => {
    const parts = [];
    for (const event of change) {
      const said = event.type === 'ActionUndone'
        ? { text: t('told_undone', { what: (lineOf(eventsOf(event.undone_version)) || {}).text || t('told_last_action') }) + because(event), moment: true }
        : told((tellers[event.type] || (() => null))(event, ctx));
      if (said) parts.push(said);
    }
    if (!parts.length) return null;
    return { text: parts.map((p) => p.text).join(' — '), moment: parts.some((p) => p.moment) };
  };
  const lines = [];
  const undone = new Set(); // an undo comes after the change it undid: it is read first
  for (let end = list.length; end > 0 && lines.length < limit;) {
    const { version } = list[end - 1];
    if (version <= since) break;
    let start = end - 1;
    while (start > 0 && list[start - 1].version === version) start -= 1;
    const change = list.slice(start, end);
    for (const event of change) if (event.type === 'ActionUndone') undone.add(event.undone_version);
    const line = lineOf(change);
    if (line) lines.push({ version, ...line, undone: undone.has(version), types: change.map((e) => e.type) });
    end = start;
  }
  return lines;
}

/** The lines worth announcing aloud among the changes after `since`, oldest first. */
export function moments(events, tellers, ctx, since) {
  return story(events, tellers, ctx, { since }).filter((line) => line.moment).reverse();
}
