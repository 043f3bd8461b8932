// One open game on this page: its ruleset, live state, story (the events seen) and the outbox every
// tap goes through. Presence, a moved seat, asking before the last move: views/seats.js.
import { api, ApiError } from './api.js';
import { LiveGame } from './conn.js';
import { addTexts, lang, onSwitch, t } from './i18n.js';
import { useRuleset } from './logic/format.js';
import { EventLog } from './logic/story.js';
import { errorText, setConnection, toast } from './ui.js';

/** How many changes back a page's story starts; `history: 'all'` fetches every event instead. */
const STORY_DEPTH = 100;

/**
 * Open game `code` as the bearer of `token` (null: the public view): its ruleset first, asked again
 * while the network is away (a phone just back on the Wi-Fi). `onState(state)` runs for each newer
 * state, `onChange()` when the story or the waiting taps changed, `onEvents(fresh)` with live events.
 */
export async function openGame(code, token, { onState, onEvents, onChange, navigate, history = STORY_DEPTH } = {}) {
  let ruleset;
  const language = lang();
  for (let wait = 250; !(ruleset = await api.ruleset(code, language).catch((e) => { if (e.status) throw e; })); wait *= 2) {
    await new Promise((go) => setTimeout(go, Math.min(wait, 4000)));
  }
  useRuleset(ruleset);
  // Its texts come in the page's language, the other's on a switch (offline: the service worker's copy)
  const held = new Set([language]);
  const unswitch = onSwitch((next) => (held.has(next) ? null
    : api.ruleset(code, next).then((more) => { addTexts(ruleset, more); held.add(next); }, () => {})));
  const log = new EventLog();
  const session = {
    code, token, ruleset, log, live: null, outbox: null, notices: [],
    returns: [], // {pid, version}: a player back after being away (views/seats.js), told after that version
    shown: new Set(), // the players this page shows away: only their coming back is news
    // where the page goes (the router's navigate; a page opened without one loads the address)
    navigate: navigate || ((path, { replace = false } = {}) => (replace ? window.location.replace(path) : window.location.assign(path))),
  };
  let closed = false; // a story or an answer that comes after the page left changes nothing
  let cue = null;
  const changed = () => !closed && onChange && onChange();
  const seats = import('./views/seats.js');
  const withSeats = (use) => seats.then(use, () => true);
  const lost = () => withSeats((m) => m.lost(session));
  let fetching = false;
  let wanted = -1; // the newest version the story must reach
  /** Fill the story from the server: from the start, or `history` changes back, up to `version`
   * (a newer one asked for while a fetch is out is fetched after it). */
  const catchUp = async (version) => {
    wanted = Math.max(wanted, version);
    if (fetching) return;
    fetching = true;
    try {
      while (log.latest < wanted && !closed) {
        const since = log.latest >= 0 ? log.latest : history === 'all' ? 0 : Math.max(0, wanted - history);
        const { events } = await api.events(code, since, token);
        if (log.add(events)) changed();
        else break; // the server has no more yet: the next state asks again
      }
    } catch { /* offline: the live stream goes on, and the next state asks again */ }
    fetching = false;
  };
  session.live = new LiveGame(code, token, {
    onState: (state) => {
      if (onState) onState(state);
      if (state.you && !closed) (cue = cue || import('./cue.js').then((m) => m.turnCue(code))).then((c) => c.follow(state));
      catchUp(state.version);
    },
    onEvents: (events, state) => {
      log.add(events);
      if (onEvents) onEvents(events, state);
    },
    onStatus: (status) => {
      setConnection(status);
      if (status === 'open' && session.outbox) session.outbox.flush();
    },
    onPresence: () => withSeats((m) => m.present(session)),
    onSeatMoved: lost,
    onBehind: (ahead, version) => {
      log.forgetAfter(version);
      withSeats((m) => m.behind(session, ahead, version));
    },
    // a refused socket may be a seat that moved: the API says so
    onRefused: () => token && api.state(code, token).catch((e) => e.body && e.body.error === 'seat_moved' && lost()),
  });
  if (token) { // a public view (a TV) has no taps to send
    const { Outbox } = await import('./outbox.js');
    session.outbox = new Outbox(code, token, session.live, {
      onChange: changed,
      onAnswer: (entry, answer) => (answer.body && answer.body.error === 'seat_moved' ? lost() : told(session, entry, answer)),
    });
  }
  session.changed = changed;
  /** The story's "is back" lines (words of views/seats.js, which notes the returns), each after the change it followed. */
  session.returnLines = () => session.returns.map((r) => ({
    version: r.version, moment: false, undone: false,
    text: t('seat_back', { name: (session.live.state.players.find((p) => p.id === r.pid) || {}).name || r.pid }),
  }));
  /** A short note for the strip (one that stays until it is dismissed). */
  session.notice = (text, tone) => {
    session.notices = [{ id: `n${Date.now()}-${session.notices.length}`, text, tone }, ...session.notices].slice(0, 3);
    changed();
  };
  session.dismiss = (id) => {
    session.notices = session.notices.filter((n) => n.id !== id);
    changed();
  };
  /** Act through the outbox: the body, or null (refused, or not sent); `heard(body)` runs before the state. */
  session.act = async (action, label = '', heard = () => {}) => {
    if (!(await withSeats((m) => m.askFirst(session, action)))) return null;
    const answer = await session.outbox.push(action, label || action.type, (a) => heard(a.status < 400 ? a.body : null));
    return answer.status < 400 ? answer.body : null;
  };
  session.close = () => {
    closed = true;
    unswitch();
    if (cue) cue.then((c) => c.stop());
    session.live.close();
    if (session.outbox) session.outbox.close();
    setConnection('open');
  };
  return session;
}

/** Show the answer to a tap: apply its state; tell a refusal (in words, for a tap that waited). */
function told(session, entry, { status, body }) {
  if (status < 400) {
    if (body && body.state) session.live.apply(body.version, body.state, body.events || []);
    if (entry.waiting) session.notice(t('now_applied_late', { label: entry.label }), 'ok');
    return;
  }
  const error = new ApiError(status, body);
  if (!entry.waiting) { toast(errorText(error), 'error'); return; }
  const why = status === 409 ? t('now_stale') : errorText(error);
  session.notice(t('now_not_applied', { label: entry.label, why }), 'error');
}
