// Pure: Voyagers' Venture at the table: each event in words for the story (from the events this
// viewer was sent: another's discards come as a count, VV12), and what needs a player or the host
// now (a phone's strip), most urgent first. No DOM, no I/O.
import { t, tx } from '../i18n.js';
import { listOf } from './format.js';
import * as V from './voyagers.js';

// ---- words ----------------------------------------------------------------------------------

export const nameIn = (state, pid) => V.nameOf(state, pid) || '?';
export const yearOf = (ruleset, round) => ruleset.first_year + round - 1;

function colourName(ruleset, id) {
  const colour = ((ruleset && ruleset.colours) || []).find((c) => c.id === id);
  return colour ? tx(colour.name) : String(id || '');
}

// What the events say, looked up once per list of events (a page's EventLog hands out a new list
// whenever something is added, so a list never changes under its cache).
const looked = new WeakMap();

function lookup(events) {
  let found = looked.get(events);
  if (found) return found;
  found = { cards: new Map(), undone: new Set(), taken: new Set() };
  for (const e of events) {
    if (e.type === 'ActionUndone') found.undone.add(e.undone_version);
    if (e.type === 'BidReceived') found.taken.add(`${e.version}:${e.player}`);
    if (e.type === 'CardsDisplayed' || e.type === 'BidReceived') {
      for (const c of e.cards || []) if (c && c.id) found.cards.set(c.id, c.name || c.id);
    }
  }
  looked.set(events, found);
  return found;
}

/** A card's name: on display, in the viewer's own hand, or as an event showed it; else its id. */
function cardName(ctx, id) {
  const state = ctx.state || {};
  const shown = (state.display || []).find((c) => c.id === id);
  if (shown) return shown.name || id;
  for (const p of state.players || []) {
    const held = (p.hand || []).find((c) => c.id === id);
    if (held) return held.name || id;
  }
  return lookup(ctx.events || []).cards.get(id) || id;
}

const cardList = (ctx, ids) => listOf((ids || []).map((id) => cardName(ctx, id)));

/** The events before `version` that still count (an undone change is as if it never happened). */
function before(ctx, version) {
  const events = ctx.events || [];
  const { undone } = lookup(events);
  return events.filter((e) => e.version < version && !undone.has(e.version));
}

/** The bid on the table just before `version`: {bidder, cards} from the last BidNamed or BidCut. */
export function bidBefore(ctx, version) {
  const earlier = before(ctx, version);
  for (let i = earlier.length - 1; i >= 0; i -= 1) {
    const e = earlier[i];
    if (e.type === 'BidNamed' || e.type === 'BidCut') return { bidder: e.player, cards: e.cards };
    if (e.type === 'BidReceived' || e.type === 'RoundBegan') break;
  }
  const bid = ctx.state && ctx.state.bid;
  return bid ? { bidder: bid.bidder, cards: bid.cards } : { bidder: null, cards: [] };
}

/** Who took which cards in the division that ends at `version` (its BidReceived events). */
export function takesUpTo(ctx, version) {
  const events = [...before(ctx, version), ...(ctx.events || []).filter((e) => e.version === version)];
  const takes = [];
  for (let i = events.length - 1; i >= 0; i -= 1) {
    const e = events[i];
    if (e.type === 'RoundBegan' || e.type === 'GameStarted' || (e.type === 'DivisionEnded' && e.version < version)) break;
    if (e.type === 'BidReceived') takes.unshift(e);
  }
  return takes;
}

function received(e, ctx) {
  const name = nameIn(ctx.state, e.player);
  const cards = listOf((e.cards || []).map((c) => c.name || c.id));
  if (!(e.cards || []).length) return t('vv_told_received_none', { name });
  return e.doubloons ? t('vv_told_received_coins', { name, cards, n: e.doubloons }) : t('vv_told_received', { name, cards });
}

function rankRow(state, row) {
  const params = { place: row.place, name: nameIn(state, row.player), n: row.reputation };
  if (row.behind_by && row.behind_by !== 'reputation') return t('vv_told_rank_by', { ...params, by: t(`vv_told_by_${row.behind_by}`) });
  return t('vv_told_rank', params);
}

/** The words of each Voyagers' Venture event; `ctx` is {state, ruleset, events} (events: all, oldest first). */
export const tellers = {
  PlayerJoined: (e, ctx) => t('vv_told_joined', { name: e.name, colour: colourName(ctx.ruleset, e.character) }),
  GameStarted: (e, ctx) => t('vv_told_started', { year: e.year, name: nameIn(ctx.state, (e.turn_order || [])[0]) }),
  CardsDisplayed: (e) => t('vv_told_displayed', { n: e.cards.length, cards: listOf(e.cards.map((c) => c.name || c.id)) }),
  // a bid nobody is asked about (the last one, an empty one) is taken at once: its take tells it
  BidNamed: (e, ctx) => {
    if (lookup(ctx.events || []).taken.has(`${e.version}:${e.player}`)) return null;
    const name = nameIn(ctx.state, e.player);
    return e.cards.length ? t('vv_told_named', { name, cards: cardList(ctx, e.cards) }) : t('vv_told_named_empty', { name });
  },
  BidAgreed: (e, ctx) => t('vv_told_agreed', { name: nameIn(ctx.state, e.player), bidder: nameIn(ctx.state, bidBefore(ctx, e.version).bidder) }),
  BidDisagreed: (e, ctx) => t('vv_told_disagreed', { name: nameIn(ctx.state, e.player), bidder: nameIn(ctx.state, bidBefore(ctx, e.version).bidder) }),
  BidCut: (e, ctx) => {
    const name = nameIn(ctx.state, e.player);
    const cards = cardList(ctx, e.cards);
    if (e.kind === 'doubloon') return t('vv_told_cut_doubloon', { name, card: cardName(ctx, e.doubloon_on), cards });
    if (e.kind === 'swap') return t('vv_told_cut_swap', { name, removed: cardList(ctx, e.removed), added: cardName(ctx, e.added), cards });
    return t('vv_told_cut_remove', { name, removed: cardList(ctx, e.removed), cards });
  },
  // VV5, VV11: who takes which cards is what the table waits to hear
  BidReceived: (e, ctx) => ({ text: received(e, ctx), moment: true }),
  DivisionEnded: (e, ctx) => {
    const takes = takesUpTo(ctx, e.version).map((r) => t('vv_told_take', {
      name: nameIn(ctx.state, r.player), cards: r.cards.length ? listOf(r.cards.map((c) => c.name || c.id)) : t('nothing'),
    }));
    const parts = [t('vv_told_division', { year: yearOf(ctx.ruleset, e.round), takes: takes.join('; ') })];
    const over = Object.keys(e.over_limit || {});
    if (over.length) {
      const key = over.length > 1 ? 'vv_told_over_limit_many' : 'vv_told_over_limit';
      parts.push(t(key, { names: listOf(over.map((p) => nameIn(ctx.state, p))), limit: V.handLimit(ctx.ruleset || {}) }));
    }
    return { text: parts.join(' · '), moment: true };
  },
  // VV12: another player's discards come without the cards; the owner's own come with them
  CardsDiscarded: (e, ctx) => (e.cards
    ? t('vv_told_discarded_own', { name: nameIn(ctx.state, e.player), cards: cardList(ctx, e.cards), n: e.cards.length })
    : t('vv_told_discarded', { name: nameIn(ctx.state, e.player), n: e.count })),
  CardsPlayed: (e, ctx) => t('vv_told_played', { name: nameIn(ctx.state, e.player), cards: cardList(ctx, e.cards) }),
  RoundEnded: (e, ctx) => ({
    text: e.next === 'purchase'
      ? t('vv_told_last_year_over', { year: yearOf(ctx.ruleset, e.round) })
      : t('vv_told_year_over', { year: yearOf(ctx.ruleset, e.round), next: yearOf(ctx.ruleset, e.round + 1) }),
    moment: true,
  }),
  TurnOrderSet: (e, ctx) => t('vv_told_order', { names: e.order.map((p) => nameIn(ctx.state, p)).join(' → ') }),
  RoundBegan: (e, ctx) => t('vv_told_round', { year: e.year, n: e.round, of: ctx.ruleset.rounds }),
  GoldSet: (e, ctx) => t('vv_told_gold', { name: nameIn(ctx.state, e.player), n: e.gold }),
  PurchasesClosed: () => t('vv_told_closed'),
  ScoreEntered: (e, ctx) => t('vv_told_scored', { name: nameIn(ctx.state, e.player), n: e.reputation }),
  GameRanked: (e, ctx) => {
    const rows = e.ranking || [];
    const first = rows.filter((r) => r.place === 1);
    const winners = listOf(first.map((r) => nameIn(ctx.state, r.player)));
    const head = first.length > 1
      ? t('vv_told_won_shared', { names: winners, n: first[0].reputation })
      : t('vv_told_won', { name: winners, n: first.length ? first[0].reputation : 0 });
    return { text: `${head} ${t('vv_told_ranking', { rows: rows.map((r) => rankRow(ctx.state, r)).join(', ') })}`, moment: true };
  },
};

// ---- what needs a player now ----------------------------------------------------------------

/** The strip's checks: the same rules as the buttons further down the phone. */
export function checksFor(state, ruleset, me) {
  return {
    agree: () => V.voteCheck(state, me),
    disagree: () => V.disagreeCheck(state, ruleset, me),
    name: (cards) => V.nameCheck(state, ruleset, me, cards),
  };
}

/** The cards of the bid on the table in words, with the doubloons that ride on them (VV7). */
function bidWords(state) {
  const ids = (state.bid && state.bid.cards) || [];
  const cards = ids.map((id) => state.display.find((c) => c.id === id) || { id, name: id, doubloons: 0 });
  const coins = cards.reduce((n, c) => n + (c.doubloons || 0), 0);
  const names = listOf(cards.map((c) => c.name || c.id));
  return coins ? t('vv_now_with_coins', { cards: names, n: coins }) : names;
}

const still = (state, pred) => state.players.filter(pred).map((p) => p.name);

/** The one line that says where the round is, for whoever has nothing to do in it. */
function statusItem(state, ruleset, me) {
  const info = (text) => ({ id: 'status', tone: 'info', text, buttons: [] });
  const bid = state.bid;
  const player = V.playerById(state, me);
  switch (state.stage) {
    case 'display': return info(t('vv_stage_display'));
    case 'naming': return info(t(player && player.received ? 'vv_now_naming_done' : 'vv_now_naming', { name: nameIn(state, state.waiting_for) }));
    case 'voting': {
      const later = bid.voters.slice(1).includes(me);
      return info(t(later ? 'vv_now_asked_then_you' : 'vv_now_asked', { name: nameIn(state, bid.voters[0]), bidder: nameIn(state, bid.bidder) }));
    }
    case 'cutting': return info(t('vv_now_cutting', { name: nameIn(state, bid.cutter), bidder: nameIn(state, bid.bidder) }));
    case 'discarding': {
      const over = still(state, (p) => p.over_limit > 0);
      return info(over.length ? t('vv_now_discarding', { names: listOf(over), limit: V.handLimit(ruleset) }) : t('vv_stage_discarding'));
    }
    case 'order': return info(t('vv_stage_order', { year: state.year + 1 }));
    case 'purchase': return info(t('vv_stage_purchase'));
    case 'scoring': return info(t('vv_now_scores_missing', { names: listOf(still(state, (p) => !p.score)) }));
    default: return info(t('vv_stage_display'));
  }
}

/** The end: who won, and (for a player) where they finished. */
function overItems(state, me) {
  const rows = state.ranking || [];
  const first = rows.filter((r) => r.place === 1);
  const n = first.length ? first[0].reputation : 0;
  const mine = rows.find((r) => r.player === me);
  const others = listOf(first.filter((r) => r.player !== me).map((r) => nameIn(state, r.player)));
  let text;
  if (mine && mine.place === 1) text = first.length > 1 ? t('vv_now_won_shared', { n, names: others }) : t('vv_now_won', { n });
  else if (mine) {
    const params = { names: listOf(first.map((r) => nameIn(state, r.player))), n, place: mine.place, m: mine.reputation };
    // VV19: a place behind someone with as much reputation says what set them apart
    const by = mine.behind_by && mine.behind_by !== 'reputation' ? t(`vv_told_by_${mine.behind_by}`) : '';
    text = by ? t('vv_now_lost_by', { ...params, by }) : t('vv_now_lost', params);
  }
  else text = t('vv_now_over', { names: listOf(first.map((r) => nameIn(state, r.player))), n });
  // the winner's phone says so louder (views' sheets give the tone 'won' its look)
  return [{ id: 'over', tone: mine && mine.place === 1 ? 'won' : 'info', text, buttons: [] }];
}

/**
 * What needs player `me` now, most urgent first: [{id, tone, text, buttons}]. `tone` is 'act'
 * (something to do), 'wait' (someone else decides about you) or 'info'. A button is
 * {id, label, act?, data?, check?, cls, href?}: `act` a tap that settles it right there, `href` a
 * link to the card below where it is done. What concerns only other players is never something to
 * do here, and a status line names no rule.
 */
export function nowItems(state, ruleset, me, checks = checksFor(state, ruleset, me)) {
  if (!state || state.phase === 'lobby') return [];
  if (state.phase === 'finished') return overItems(state, me);
  const player = V.playerById(state, me);
  if (!player) return [];
  const bid = state.bid;
  const act = (id, text, buttons = []) => [{ id, tone: 'act', text, buttons }];
  const wait = (id, text) => [{ id, tone: 'wait', text, buttons: [] }];
  switch (state.stage) {
    case 'naming': {
      if (state.waiting_for !== me) break;
      if (!state.display.length) {
        return act('name', t('vv_now_name_empty'), [{ id: 'do-name-empty', label: t('vv_now_take_nothing'), act: 'name_empty', check: checks.name([]), cls: 'primary' }]);
      }
      const last = state.players.filter((p) => !p.received).length === 1;
      return act('name', t(last ? 'vv_now_name_last' : 'vv_now_name'), [{ id: 'do-name', label: t('vv_now_pick'), href: '#vv-name-h', cls: 'primary' }]);
    }
    case 'voting': {
      if (bid.voters[0] === me) {
        return act('vote', t('vv_now_vote', { name: nameIn(state, bid.bidder), cards: bidWords(state) }), [
          { id: 'do-agree', label: t('vv_agree'), act: 'agree', check: checks.agree(), cls: 'primary' },
          { id: 'do-disagree', label: t('vv_disagree'), act: 'disagree', check: checks.disagree(), cls: 'danger' },
        ]);
      }
      if (bid.bidder === me) return wait('my-bid', t('vv_now_my_bid', { cards: bidWords(state), name: nameIn(state, bid.voters[0]) }));
      break;
    }
    case 'cutting': {
      if (bid.cutter === me) return act('cut', t('vv_now_cut', { name: nameIn(state, bid.bidder) }), [{ id: 'do-cut', label: t('vv_now_cut_go'), href: '#vv-cut-h', cls: 'primary' }]);
      if (bid.bidder === me) return wait('my-bid', t('vv_now_cut_mine', { name: nameIn(state, bid.cutter) }));
      break;
    }
    case 'discarding': {
      const excess = V.overLimit(ruleset, player);
      if (excess) {
        const held = player.hand ? player.hand.length : player.hand_count;
        return act('discard', t('vv_now_discard', { n: held, m: excess, limit: V.handLimit(ruleset) }), [{ id: 'do-discard', label: t('vv_now_pick_discard'), href: '#vv-hand-h', cls: 'primary' }]);
      }
      break;
    }
    case 'purchase': {
      const held = player.hand ? player.hand.length : player.hand_count;
      return [{ id: 'purchase', tone: 'info', text: t(held ? 'vv_now_purchase' : 'vv_now_purchase_empty'),
        buttons: held ? [{ id: 'do-hand', label: t('vv_now_to_hand'), href: '#vv-hand-h', cls: 'small' }] : [] }];
    }
    case 'scoring': {
      if (!player.score) return act('score', t('vv_now_score'), [{ id: 'do-score', label: t('vv_now_to_score'), href: '#vv-score-h', cls: 'primary' }]);
      const missing = still(state, (p) => !p.score);
      return [{ id: 'scored', tone: 'info', text: t('vv_now_scored', { n: player.score.reputation, names: listOf(missing) }), buttons: [] }];
    }
    default: break;
  }
  return [statusItem(state, ruleset, me)];
}

/** What needs the host now: the cards to enter, next year's order, closing the last purchases. */
export function hostItems(state, ruleset) {
  if (!state || state.phase === 'lobby') return [];
  if (state.phase === 'finished') return overItems(state, null);
  switch (state.stage) {
    case 'display':
      return [{ id: 'host-display', tone: 'act', text: t('vv_host_now_display', { year: state.year }), buttons: [{ id: 'do-display', label: t('vv_host_now_enter'), href: '#vv-host-display-h', cls: 'primary' }] }];
    case 'order':
      return [{ id: 'host-order', tone: 'act', text: t('vv_host_now_order', { year: state.year + 1 }), buttons: [{ id: 'do-order', label: t('vv_host_now_to_order'), href: '#vv-order-h', cls: 'primary' }] }];
    case 'purchase':
      return [{ id: 'host-close', tone: 'act', text: t('vv_host_now_close'), buttons: [{ id: 'do-close-purchases', label: t('vv_close'), act: 'close_purchases', cls: 'primary' }] }];
    default:
      return [statusItem(state, ruleset, null)];
  }
}

// ---- the TV's headline ---------------------------------------------------------------------

/** The TV's headline: what the table waits for now — after the end, who won. */
export function tableNow(state) {
  if (!state || state.phase === 'lobby') return t('waiting_host');
  if (state.phase === 'finished') return overItems(state, null)[0].text;
  return t(`vv_stage_${state.stage}`, { name: nameIn(state, state.waiting_for), year: state.year + 1 });
}
