// Pure: what an event card of Quest 1607 (E1) means for one player now, in one or two sentences for
// their strip. A card that bends a rule for everyone says so, and then what it does to this player's
// turn, stock, prices or fights: how far they may sail, what they can now buy, whether a shot gets
// easier. A card that hands out or takes resources says what it did to them; a card that only tells
// a story says no rule changes.
import { t } from '../../../i18n.js';
import { formatDelta, formatResources, listOf, resName } from '../../../logic/format.js';
import { costOf, effects, missing, playerById, total } from '../../../logic/quest1607.js';

const INSTANT = new Set(['gift', 'loss']);

/** "2 more" / "1 fewer": a change of squares or dice, in words. */
const more = (n) => t(n < 0 ? 'ev_fewer' : 'ev_more', { n: Math.abs(n) });

function price(e, c) {
  const inForce = { event: { effects: c.cardEffects } };
  const cost = costOf(c.ruleset, e.item, null, inForce, c.me.resources);
  const short = missing(c.me.resources, cost);
  const what = e.item === 'quest' ? t('ev_quest_card') : t('upgrade_part', { part: t(e.item) });
  return t(short ? 'ev_cost_short' : 'ev_cost_have', { what, cost: formatResources(cost), short: formatResources(short) });
}

function sailing(e, c) {
  const turn = c.state.turn;
  if (turn && turn.player === c.me.id && turn.rolled && typeof turn.allowance === 'number') {
    return t('ev_sail_now', { n: turn.allowance });
  }
  return t('ev_sail_later', { sails: Math.min(...c.me.ships.map((s) => s.sails)), more: more(e.add) });
}

function market(e, c) {
  const enough = Object.entries(c.me.resources).filter(([, n]) => n >= e.rate).map(([res]) => resName(res));
  return enough.length ? t('ev_market_can', { res: listOf(enough), rate: e.rate }) : t('ev_market_not', { rate: e.rate });
}

/** What one effect of the card means for the player, by its kind (the ruleset's machine-readable effects). */
const FOR_YOU = {
  movement: sailing,
  no_combat: () => t('ev_no_combat'),
  no_trade: (e, c) => t('ev_no_trade', { market: c.rules.market_rate, bank: c.rules.bank_rate }),
  extra_white: (e, c) => {
    const was = c.ruleset.white_dice + c.me.ships.length - 1;
    return t('ev_white', { n: was + e.count, was });
  },
  cost: price,
  market_rate: market,
  bank_rate: (e, c) => t('ev_bank', { n: total(c.me.resources), rate: e.rate }),
  hit_shift: (e) => t(e.add < 0 ? 'ev_hit_easier' : 'ev_hit_harder', { n: Math.abs(e.add) }),
  white_face: (e, c) => t('ev_face', { face: e.face, res: resName(e.resource), was: resName(c.ruleset.white_die[e.face]) }),
  gift: (e, c) => (c.mine ? t('my_event_you', { delta: formatDelta(c.mine) }) : ''),
  loss: (e, c) => (c.mine ? t('my_event_you', { delta: formatDelta(c.mine) }) : t('ev_loss_none')),
};

/**
 * The advice for player `me` on the event card `card` ({id, effects}) just drawn: "For everyone, until
 * the next quest is done. For you: …". `mine` is what the draw changed of their stock, if anything.
 */
export function eventAdvice(card, { state, ruleset }, me, mine) {
  const cardEffects = (card && card.effects) || [];
  const player = playerById(state, me);
  if (!cardEffects.length || !player) return t('ev_story');
  const rules = effects({ event: { effects: cardEffects } }, ruleset);
  const c = { state, ruleset, rules, cardEffects, me: player, mine: mine && Object.keys(mine).length ? mine : null };
  const lasting = cardEffects.some((e) => !INSTANT.has(e.kind));
  const parts = cardEffects.map((e) => (FOR_YOU[e.kind] ? FOR_YOU[e.kind](e, c) : '')).filter(Boolean);
  return [lasting ? t('ev_everyone') : '', ...parts].filter(Boolean).join(' ');
}
