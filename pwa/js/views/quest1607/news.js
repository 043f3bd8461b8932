// Pure: what just happened that the table must know — the headline of Quest 1607's shared screen and of
// the host panel: the newest change of the turn in the story's words, or in more where it is a moment
// (a quest done and what opens next, the event drawn and what it did to whom, an offer declined,
// withdrawn or lapsed, the host's correction or undo with what it changed; in a fight each shot with
// its dice as it is fired, the sinking, a surrender offered, the fight's end; the winner), or the last
// step to win. No DOM, no I/O.
import { t, tx } from '../../i18n.js';
import { formatDelta, resourcesOrNothing, shotText } from '../../logic/format.js';
import { playerById } from '../../logic/quest1607_facts.js';
import { offerMade, tellers } from '../../logic/quest1607_table.js';
import { changesOf } from '../../logic/stats.js';
import { because, story } from '../../logic/story.js';
import './screen_strings.js';

const res = resourcesOrNothing;
const nameIn = (state, pid) => (playerById(state, pid) || {}).name || String(pid || '?');

const NO_OFFER = { from: '?', to: '?', give: {}, get: {} };

/** "Bram −2 Wood; Anna +1 Food" (nobody left out whose stock changed), or ''. */
function changesLine(state, changes) {
  return Object.entries(changes || {}).filter(([, d]) => Object.values(d).some((n) => n))
    .map(([pid, d]) => `${nameIn(state, pid)} ${formatDelta(d)}`).join('; ');
}

function questDone(e, ctx) {
  const card = ((ctx.ruleset && ctx.ruleset.quests) || []).find((q) => q.id === e.card);
  const head = t('news_quest', { name: nameIn(ctx.state, e.player), level: t(e.level), title: card ? tx(card.title) : e.card });
  if (e.level_after === 'done') return `${head} — ${t('news_all_done')}`;
  if (e.level_after !== e.level) return `${head} — ${t('news_next_level', { level: t(e.level_after), name: nameIn(ctx.state, e.player) })}`;
  const player = playerById(ctx.state, e.player);
  const per = (ctx.state.options && ctx.state.options.quests_per_level) || 2;
  const left = Math.max(0, per - ((player && player.completed[e.level]) || 0));
  return left ? `${head} — ${t('news_more', { n: left, level: t(e.level) })}` : head;
}

function undone(e, ctx) {
  const version = e.undone_version;
  const before = ctx.events.filter((x) => x.version === version);
  const what = (story(before, tellers, ctx)[0] || {}).text || t('told_last_action');
  const back = {};
  for (const [pid, d] of Object.entries(changesOf(before))) back[pid] = Object.fromEntries(Object.entries(d).map(([r, n]) => [r, -n]));
  const changes = changesLine(ctx.state, back);
  return (changes ? t('news_undone', { what, changes }) : t('told_undone', { what })) + because(e);
}

/** "Shot 3: Anna rolls 5: hit · damage 2 → Crew −1": the shot's number in its fight, its dice, what they did. */
function shot(e, ctx) {
  let n = 0;
  for (const x of ctx.events) {
    if (x.version > e.version) break;
    if (x.type === 'AttackStarted') n = 0;
    if (x.type === 'ShotFired') n += 1;
  }
  return t('news_shot', { n, what: shotText(e, nameIn(ctx.state, e.shooter && e.shooter.player), ctx.ruleset) });
}

/** The words of each moment; an event not here is no headline. */
const MOMENTS = {
  GameWon: (e, ctx) => t('news_won', { name: nameIn(ctx.state, e.player), ship: e.ship }),
  QuestCompleted: questDone,
  EventDrawn: (e, ctx) => {
    const card = ctx.state.event && ctx.state.event.id === e.event ? ctx.state.event : null;
    const what = changesLine(ctx.state, e.changes) || (card ? tx(card.text) : '');
    return t('news_event', { id: e.event, title: tx(e.title), what });
  },
  OfferDeclined: (e, ctx) => {
    const o = offerMade(ctx.events, e.offer_id) || NO_OFFER;
    return t('news_declined', { from: nameIn(ctx.state, o.from), to: nameIn(ctx.state, o.to), give: res(o.give), get: res(o.get) });
  },
  OfferWithdrawn: (e, ctx) => {
    const o = offerMade(ctx.events, e.offer_id) || NO_OFFER;
    return t('news_withdrawn', { from: nameIn(ctx.state, o.from), to: nameIn(ctx.state, o.to), give: res(o.give), get: res(o.get) });
  },
  TurnEnded: (e, ctx) => [
    e.skipped && e.skipped.length ? t('news_skipped', { names: e.skipped.map((p) => nameIn(ctx.state, p)).join(', ') }) : '',
    e.lapsed && e.lapsed.length ? t('news_lapsed', { n: e.lapsed.length }) : '',
  ].filter(Boolean).join(' · '),
  ResourcesAdjusted: (e, ctx) => t('news_adjusted', { name: nameIn(ctx.state, e.player), delta: formatDelta(e.resources), reason: e.reason }),
  ActionUndone: undone,
  AttackStarted: (e, ctx) => tellers.AttackStarted(e, ctx).text,
  ShotFired: shot,
  ShipSunk: (e, ctx) => tellers.ShipSunk(e, ctx),
  SurrenderOffered: (e, ctx) => tellers.SurrenderOffered(e, ctx),
  CombatEnded: (e, ctx) => t('news_fight_won', { winner: nameIn(ctx.state, e.winner), loser: nameIn(ctx.state, e.loser) }),
  ShipLaunched: (e, ctx) => tellers.ShipLaunched(e, ctx),
};

/**
 * The headline now: {version, text, kinds} — the newest change since the turn began (the change that
 * ended the last turn included: who it passed over, which offers lapsed; a change the host took back
 * left out); at the turn's start of a player whose every quest is done, first the last step to win.
 */
export function news(state, events, ruleset) {
  if (!state || state.phase === 'lobby') return null;
  const ctx = { state, ruleset, events };
  const active = state.phase === 'playing' && state.turn && playerById(state, state.turn.player);
  const last = active && active.level === 'done' ? t('news_last_step', { name: active.name }) : '';
  const taken = new Set(events.filter((e) => e.type === 'ActionUndone').map((e) => e.undone_version));
  for (let i = events.length - 1; i >= 0; i -= 1) {
    const version = events[i].version;
    const change = [];
    while (i >= 0 && events[i].version === version) change.unshift(events[i--]);
    i += 1;
    const said = taken.has(version) ? [] : change.filter((e) => MOMENTS[e.type]).map((e) => MOMENTS[e.type](e, ctx)).filter(Boolean);
    const start = change.some((e) => e.type === 'TurnEnded' || e.type === 'GameStarted');
    // within a turn the newest change is the headline, moment or not (an offer, a trade): the story's words
    // for it; while the last step to win stands, only a moment takes its place
    if (!said.length && !start && !taken.has(version) && !last) said.push(...story(change, tellers, ctx).map((line) => line.text));
    if (start && last) said.unshift(last); // the last step to win comes before what ended the last turn
    if (said.length) return { version, text: said.join(' · '), kinds: [...(start && last ? ['LastStep'] : []), ...change.map((e) => e.type)] };
    if (start) break;
  }
  return last ? { version: state.version, text: last, kinds: ['LastStep'] } : null;
}
