// Pure: the moments of Voyagers' Venture that concern one player, for the top of their phone (their
// bid agreed, disagreed or cut; what they took; the division's result for them; the host's gold count
// or undo that touched them), and what a change altered in their holdings. No DOM, no I/O.
import { t } from '../i18n.js';
import { listOf } from './format.js';
import { recentMoments, undoMoment } from './moments.js';
import { bidBefore, nameIn, takesUpTo, tellers, yearOf } from './voyagers_table.js';

/** Whether an event concerns player `me`: theirs, the bid they named, or one for the whole table. */
function concerns(e, events, me) {
  if (e.player === undefined) return true;
  if (e.player === me) return true;
  if (e.type === 'BidAgreed' || e.type === 'BidDisagreed' || e.type === 'BidCut') return bidBefore({ events }, e.version).bidder === me;
  return false;
}

/** What a division gave player `me`, in words: their cards, or nothing. */
function myTake(ctx, version, me) {
  const take = takesUpTo(ctx, version).find((r) => r.player === me);
  if (!take) return null;
  const cards = listOf((take.cards || []).map((c) => c.name || c.id));
  if (!cards) return t('vv_moment_took_none');
  return take.doubloons ? t('vv_moment_took_coins', { cards, n: take.doubloons }) : t('vv_moment_took', { cards });
}

/** The moment an event is for player `me` ({tone, text, changed?}), or null. */
function momentOf(e, ctx, me) {
  const name = nameIn(ctx.state, e.player);
  const mineBid = () => e.player !== me && bidBefore(ctx, e.version).bidder === me;
  switch (e.type) {
    case 'BidAgreed': return mineBid() ? { tone: 'info', text: t('vv_moment_agreed', { name }) } : null;
    case 'BidDisagreed': return mineBid() ? { tone: 'alert', text: t('vv_moment_disagreed', { name }) } : null;
    case 'BidCut': return mineBid() ? { tone: 'alert', text: t('vv_moment_cut', { line: tellers.BidCut(e, ctx) }) } : null;
    case 'BidReceived': {
      if (e.player !== me) return null;
      const cards = listOf((e.cards || []).map((c) => c.name || c.id));
      if (!cards) return { tone: 'info', text: t('vv_moment_took_none') };
      return { tone: 'info', text: e.doubloons ? t('vv_moment_took_coins', { cards, n: e.doubloons }) : t('vv_moment_took', { cards }) };
    }
    case 'DivisionEnded': {
      const take = myTake(ctx, e.version, me);
      return take ? { tone: 'info', text: t('vv_moment_division', { year: yearOf(ctx.ruleset, e.round), take }) } : null;
    }
    case 'GoldSet': return e.player === me ? { tone: 'alert', changed: true, text: t('vv_moment_gold', { n: e.gold }) } : null;
    case 'ActionUndone': return undoMoment(e, ctx, me, tellers, concerns);
    default: return null;
  }
}

const OWN_MOVES = ['BidNamed', 'BidAgreed', 'BidDisagreed', 'BidCut', 'CardsDiscarded', 'CardsPlayed', 'ScoreEntered'];

/** The moments that concern player `me`, newest first, as strip items (see logic/moments.js). */
export function momentItems(ctx, me, options) {
  return recentMoments(ctx, me, momentOf, (e, who) => OWN_MOVES.includes(e.type) && e.player === who, options);
}

/** What a change altered for one player (gold, cards in hand), in words ('' when nothing). */
export function holdingChange(before, after) {
  if (!before || !after) return '';
  const parts = [];
  if (before.gold !== after.gold) parts.push(t('vv_change', { what: t('vv_gold'), from: before.gold, to: after.gold }));
  if (before.hand_count !== after.hand_count) parts.push(t('vv_change', { what: t('vv_hand'), from: before.hand_count, to: after.hand_count }));
  return parts.length ? t('vv_changed', { list: parts.join(', ') }) : '';
}
