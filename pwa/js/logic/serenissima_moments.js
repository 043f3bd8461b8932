// Pure: the moments of Serenissima that concern one player, for the top of their phone (a sale of
// theirs accepted, declined, withdrawn or lapsed; goods bought in their port; the host's undo of a
// change that touched them), and what a change altered in their ledger. No DOM, no I/O.
import { t } from '../i18n.js';
import { recentMoments, undoMoment } from './moments.js';
import { goodName } from './serenissima.js';
import { goods, nameIn, saleOffered, tellers } from './serenissima_table.js';

/** The two sides of a sale an event answers (looked up in the events), or null. */
function saleOf(e, events) {
  if (e.type === 'SaleOffered') return e.offer;
  if (e.type === 'SaleAccepted') return e;
  if (e.type === 'SaleDeclined' || e.type === 'SaleWithdrawn') return saleOffered(events, e.offer_id);
  return null;
}

/** Whether an event concerns player `me`: theirs, a sale of theirs, or one for the whole table. */
function concerns(e, events, me) {
  const sale = saleOf(e, events);
  if (sale) return sale.from === me || sale.to === me;
  if (e.type === 'PhaseFinished') return e.player === me || (e.lapsed || []).some((id) => concerns({ type: 'SaleDeclined', offer_id: id }, events, me));
  if (e.type === 'GoodsBought') return e.player === me || e.paid_to === me;
  return e.player === undefined || e.player === me;
}

/** What a sale was, in words: "2 Metal for 300 ducats". */
function saleWords(ruleset, o) {
  return t('se_sale_words', { goods: goods(ruleset, o.count, o.good), price: o.price });
}

/** The sales with `me` on one side that lapsed with a finished phase, each in words. */
function lapsedFor(e, ctx, me) {
  const events = ctx.events || [];
  return (e.lapsed || []).map((id) => saleOffered(events, id)).filter((o) => o && (o.from === me || o.to === me))
    .map((o) => t(e.player === me ? 'se_moment_lapsed_you' : o.from === me ? 'se_moment_lapsed_mine' : 'se_moment_lapsed_theirs', {
      name: nameIn(ctx.state, o.from === me ? o.to : o.from), sale: saleWords(ctx.ruleset, o),
      by: nameIn(ctx.state, e.player),
    }));
}

/** The moment an event is for player `me` ({tone, text, undo?}), or null. */
function momentOf(e, ctx, me) {
  const events = ctx.events || [];
  const sale = saleOf(e, events);
  const other = sale && nameIn(ctx.state, sale.from === me ? sale.to : sale.from);
  switch (e.type) {
    case 'SaleAccepted': return e.from === me ? { tone: 'info', text: t('se_moment_sold', { name: other, sale: saleWords(ctx.ruleset, e) }) } : null;
    case 'SaleDeclined': return sale && sale.from === me ? { tone: 'alert', text: t('se_moment_declined', { name: other, sale: saleWords(ctx.ruleset, sale) }) } : null;
    case 'SaleWithdrawn': return sale && sale.to === me ? { tone: 'alert', text: t('se_moment_withdrawn', { name: other, sale: saleWords(ctx.ruleset, sale) }) } : null;
    case 'PhaseFinished': {
      const lapsed = lapsedFor(e, ctx, me);
      return lapsed.length ? { tone: 'alert', text: lapsed.join(' ') } : null;
    }
    case 'GoodsBought': return e.paid_to === me && e.player !== me
      ? { tone: 'info', text: t('se_moment_paid', { name: nameIn(ctx.state, e.player), goods: goods(ctx.ruleset, e.count, e.good), paid: e.paid }) } : null;
    case 'ActionUndone': return undoMoment(e, ctx, me, tellers, concerns);
    default: return null;
  }
}

/** The moves a player makes themselves (after one of them, what came before is seen). */
function actedBy(e, me) {
  if (e.type === 'SaleOffered') return e.offer.from === me;
  return ['BidPlaced', 'SailorsPlaced', 'PositionPicked', 'GalleyMoved', 'GoodsBought', 'PhaseFinished'].includes(e.type) && e.player === me;
}

/** The moments that concern player `me`, newest first, as strip items (see logic/moments.js). */
export function momentItems(ctx, me, options) {
  return recentMoments(ctx, me, momentOf, actedBy, options);
}

/** What a change altered in one player's ledger, in words ('' when nothing of theirs changed). */
export function ledgerChange(ruleset, before, after) {
  if (!before || !after) return '';
  const parts = [];
  if (before.ducats !== after.ducats) parts.push(t('se_change', { what: t('se_ducats'), from: before.ducats, to: after.ducats }));
  const kinds = new Set([...Object.keys(before.goods || {}), ...Object.keys(after.goods || {})]);
  for (const g of kinds) {
    const a = (before.goods || {})[g] || 0;
    const b = (after.goods || {})[g] || 0;
    if (a !== b) parts.push(t('se_change', { what: goodName(ruleset, g), from: a, to: b }));
  }
  if (before.position !== after.position) parts.push(t('se_change', { what: t('se_turn_order'), from: before.position || '—', to: after.position || '—' }));
  return parts.length ? t('se_changed', { list: parts.join(', ') }) : '';
}
