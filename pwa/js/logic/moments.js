// Pure: the moments that concern one player, for the top of their phone. A game says which events
// are moments for a player and in what words (`momentOf`), and which a player made themselves
// (`actedBy`); a moment stays until its player acts again, or for the game's next few changes.
import { t } from '../i18n.js';
import { because, story } from './story.js';

/** How many changes back a moment may still be told. */
const WINDOW = 8;

/**
 * The newest moments (at most two) that concern player `me`, newest first, as strip items:
 * [{id, tone, text, buttons}]. `changes` maps a version to the words of what it changed for them
 * (the page saw it live), told after a moment that says `changed` (the host's undo or correction).
 */
export function recentMoments(ctx, me, momentOf, actedBy, { changes = {} } = {}) {
  if (ctx.state && ctx.state.phase === 'finished') return []; // after the end, the end alone
  const events = ctx.events || [];
  const from = (events.length ? events[events.length - 1].version : -1) - WINDOW;
  const undone = new Set(); // the host's undo comes after what it took back: both within the window
  for (let i = events.length - 1; i >= 0 && events[i].version > from; i -= 1) {
    if (events[i].type === 'ActionUndone') undone.add(events[i].undone_version);
  }
  const items = [];
  for (let i = events.length - 1; i >= 0 && items.length < 2; i -= 1) {
    const e = events[i];
    if (e.version <= from) break;
    if (undone.has(e.version)) continue; // what the host took back is no moment any more
    const said = momentOf(e, ctx, me);
    if (said && !items.some((item) => item.version === e.version)) {
      const more = said.changed && changes[e.version] ? `${/[.!?]$/.test(said.text) ? '' : '.'} ${changes[e.version]}` : '';
      items.push({
        id: `moment-${e.version}`, version: e.version, tone: said.tone || 'info', text: `${said.text}${more}`, buttons: [],
      });
    }
    if (actedBy(e, me)) break; // what came before the player's own move, they have seen
  }
  return items;
}

/**
 * The host's undo as a moment for player `me`, when what it took back concerned them
 * (`concerns(event, events, me)`): what was taken back, in the story's words.
 */
export function undoMoment(e, ctx, me, tellers, concerns) {
  const events = ctx.events || [];
  const undone = events.filter((x) => x.version === e.undone_version);
  if (!undone.some((x) => concerns(x, events, me))) return null;
  const [line] = story(undone, tellers, ctx);
  return { tone: 'alert', changed: true, text: t('told_undone', { what: line ? line.text : t('told_last_action') }) + because(e) };
}
