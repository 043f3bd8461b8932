// Pure: what just happened to one player of Quest 1607, for the strip at the top of their phone (see
// logic/moments.js: a moment stays until they make a move of their own, or for the game's next few
// changes). Their quest done and what opens next; the event drawn and what it does to them; their offer
// declined, withdrawn or lapsed; the host's correction of their stock, or an undo that touched them.
import { t, tx } from '../../../i18n.js';
import { formatDelta, resourcesOrNothing as res } from '../../../logic/format.js';
import { recentMoments, undoMoment } from '../../../logic/moments.js';
import { playerById } from '../../../logic/quest1607.js';
import { offerMade, tellers } from '../../../logic/quest1607_table.js';
import { eventAdvice } from './event_advice.js';
import './words.js';

const nameIn = (state, pid) => (playerById(state, pid) || {}).name || String(pid || '?');

/** "Quest done: … — Silver quests are open now" (Q2: what the quest opened, or how many are left). */
function questDone(e, { state, ruleset }) {
  const card = ((ruleset && ruleset.quests) || []).find((q) => q.id === e.card);
  const head = t('my_quest', { title: card ? tx(card.title) : e.card, level: t(e.level) });
  if (e.level_after === 'done') return `${head} ${t('my_quest_gold')}`;
  if (e.level_after !== e.level) return `${head} ${t('my_quest_next', { level: t(e.level_after) })}`;
  const per = (state.options || (ruleset && ruleset.options) || {}).quests_per_level || 1;
  const done = ((playerById(state, e.player) || {}).completed || {})[e.level] || 0;
  const levels = (ruleset && ruleset.levels) || [];
  const next = levels[levels.indexOf(e.level) + 1];
  return `${head} ${t('my_quest_more', { n: Math.max(1, per - done), level: t(e.level), next: next ? t(next) : '' })}`;
}

/** E1: the event drawn, its card's words and what it changed of `me`'s stock (and my quest, if mine drew it). */
function eventDrawn(e, ctx, me) {
  const card = ((ctx.ruleset && ctx.ruleset.events) || []).find((c) => c.id === e.event);
  const mine = (e.changes || {})[me];
  const text = [
    t('my_event', { id: e.event, title: tx(e.title), text: card ? tx(card.text) : '' }),
    eventAdvice(card || (ctx.state.event && ctx.state.event.id === e.event ? ctx.state.event : null), ctx, me, mine),
  ];
  const quest = ctx.events.find((x) => x.version === e.version && x.type === 'QuestCompleted' && x.player === me);
  if (quest) text.unshift(questDone(quest, ctx));
  return { tone: 'info', text: text.join(' ') };
}

/** Whether event `e` concerns player `me`: their move, their stock, their offer, their fight. */
function concerns(e, events, me) {
  if ([e.player, e.from, e.to, e.winner, e.loser].includes(me)) return true;
  if ((e.attacker && e.attacker.player === me) || (e.defender && e.defender.player === me)) return true;
  if (e.changes && e.changes[me]) return true;
  const offer = e.offer || (e.offer_id && offerMade(events, e.offer_id));
  return Boolean(offer && (offer.from === me || offer.to === me));
}

/** The offers that lapsed at a turn's end (M1) and were `me`'s, or made to them. */
function lapsed(e, { state, events }, me) {
  const lines = (e.lapsed || []).map((id) => offerMade(events, id)).filter(Boolean).map((o) => {
    if (o.from === me) return t('my_lapsed_out', { name: nameIn(state, o.to) });
    return o.to === me ? t('my_lapsed_in', { name: nameIn(state, o.from) }) : '';
  }).filter(Boolean);
  return lines.length ? { tone: 'alert', text: lines.join(' ') } : null;
}

function momentOf(e, ctx, me) {
  const { state, events } = ctx;
  if (events.some((x) => x.type === 'ActionUndone' && x.undone_version === e.version)) return null; // taken back
  const offer = e.offer_id ? offerMade(events, e.offer_id) : null;
  switch (e.type) {
    case 'EventDrawn': return eventDrawn(e, ctx, me);
    case 'OfferDeclined': return offer && offer.from === me
      ? { tone: 'alert', text: t('my_declined', { name: nameIn(state, offer.to), give: res(offer.give), get: res(offer.get) }) } : null;
    case 'OfferWithdrawn': return offer && offer.to === me
      ? { tone: 'alert', text: t('my_withdrawn', { name: nameIn(state, offer.from), give: res(offer.give), get: res(offer.get) }) } : null;
    case 'TurnEnded': return lapsed(e, ctx, me);
    case 'ResourcesAdjusted': return e.player === me
      ? { tone: 'info', text: t('my_adjusted', { delta: formatDelta(e.resources), reason: e.reason }) } : null;
    case 'ActionUndone': {
      const said = undoMoment(e, ctx, me, tellers, concerns); // its line ends a sentence: what it changed may follow
      return said && { ...said, text: /[.!?]$/.test(said.text) ? said.text : `${said.text}.` };
    }
    default: return null;
  }
}

/** The moves a player makes themselves: after one of them, what came before is seen. */
const OWN = new Set(['DiceRolled', 'ShipSailed', 'MarketTraded', 'BankTraded', 'SailsUpgraded', 'CannonsUpgraded',
  'CrewUpgraded', 'QuestBought', 'GoodsLoaded', 'GoodsDelivered', 'PlaceVisited', 'QuestCompleted', 'ResourcesKept',
  'ResourcesFished', 'SurrenderOffered', 'OfferDeclined', 'OfferWithdrawn']);

function actedBy(e, me) {
  if (e.type === 'OfferMade') return e.offer.from === me;
  if (e.type === 'OfferAccepted') return e.to === me;
  if (e.type === 'AttackStarted') return e.attacker.player === me;
  if (e.type === 'ShotFired') return e.shooter.player === me;
  if (e.type === 'TurnEnded') return e.player === me;
  return OWN.has(e.type) && e.player === me;
}

/** The moments that concern player `me`, newest first, as strip items (logic/moments.js). */
export function momentItems(ctx, me, options) {
  if (ctx.state.phase !== 'playing') return [];
  return recentMoments(ctx, me, momentOf, actedBy, options);
}
