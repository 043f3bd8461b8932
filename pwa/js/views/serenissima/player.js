// Serenissima on a player's phone: at the top, what needs this player now and what just happened to
// them (the strip), and what just happened at the table (the feed); then the sealed bid (only your own
// amount, and who is still awaited), the pick of a position, the ledger, the sailors' split, then
// phase 2: galleys, goods, sales. One card per section (../../page.js), drawn in place.
import { tokensFor } from '../../api.js';
import { html } from '../../html.js';
import { t } from '../../i18n.js';
import * as S from '../../logic/serenissima.js';
import { nowItems, tellers } from '../../logic/serenissima_table.js';
import { story } from '../../logic/story.js';
import { swatch } from '../../ui.js';
import { drawnWith, later } from '../../page.js';
import { StripCard, labelOf, phoneSheet, playerPage } from '../phone_cards.js';
import { feed } from '../common.js';
import { checkedButton } from '../parts.js';
import './strings.js';

const FEED_LINES = 4;
// The forms load after the first screenful (the strip and the story come first).
const forms = import('./forms.js');
const form = (name) => later(() => forms.then((m) => new m[name]()));
// So do the round's panels, with the game's sheet (./parts.js).
const panels = import('./parts.js').then((m) => m.ready.then(() => m));
const panel = (view) => drawnWith(panels, view);

/** The strip's first line: whose phone this is, and where the round stands. */
function who({ state, ruleset, player }) {
  return html`${swatch(ruleset, player.character)} <strong class="me-name">${player.name}</strong>
    ${state.phase === 'playing' ? html`<span class="muted">${t('se_round', { n: state.round })} · ${t('se_phase', { n: S.step(state) })}</span>` : ''}
    ${player.position ? html`<span class="tag">${t('se_position', { p: player.position })}</span>` : ''}`;
}

/** The strip's checks: the same rules as the buttons further down, so a refusal reads alike. */
function stripItems({ state, ruleset, me }) {
  return nowItems(state, ruleset, me, {
    accept: (o) => S.acceptCheck(state, ruleset, me, o),
    pick: (number) => S.pickCheck(state, ruleset, me, number),
    finish: () => S.finishCheck(state, me),
  });
}

/** The action a strip button or a card's button stands for (by its data-act, id or data), or null. */
function actionFor(el) {
  const d = el.dataset;
  const offer = d.offer || d.accept || d.decline || d.withdraw;
  switch (d.act || el.id) {
    case 'pick_position': return { type: 'pick_position', position: Number(d.pick) };
    case 'accept_sale': return { type: 'accept_sale', offer_id: offer };
    case 'decline_sale': return { type: 'decline_sale', offer_id: offer };
    case 'withdraw_sale': return { type: 'withdraw_sale', offer_id: offer };
    case 'finish_phase': case 'finish-phase': return { type: 'finish_phase' };
    default:
      if (d.pick) return { type: 'pick_position', position: Number(d.pick) };
      if (d.accept) return { type: 'accept_sale', offer_id: offer };
      if (d.decline) return { type: 'decline_sale', offer_id: offer };
      if (d.withdraw) return { type: 'withdraw_sale', offer_id: offer };
      return null;
  }
}

/** What a tap is called in the strip while it waits, and in its answer: the button, and whose sale. */
function labelFor(el, action, { state, ruleset }) {
  const label = labelOf(el);
  if (action.type === 'pick_position') return t('se_position', { p: (S.positions(state, ruleset)[action.position - 1] || {}).label });
  const offer = action.offer_id && (state.offers || []).find((o) => o.id === action.offer_id);
  return offer ? `${label}: ${t('se_sale_line', { from: S.nameOf(state, offer.from), to: S.nameOf(state, offer.to), count: offer.count, good: S.goodName(ruleset, offer.good), price: offer.price })}` : label;
}

/** The cards' and the strip's taps that need no form of their own: a position, a sale's answer, the phase's end. */
const taps = {
  on: {
    click(event, ctx) {
      const el = event.target.closest('button');
      const action = el && !el.disabled && !el.closest('#now, #now-reach') ? actionFor(el) : null;
      return action ? { action, label: labelFor(el, action, ctx) } : null;
    },
  },
  view: () => '',
};

const pickCard = {
  view({ state, ruleset, me }) {
    const bidding = state.bidding;
    if (state.phase !== 'playing' || !bidding || !bidding.revealed || !bidding.picker) return '';
    const name = (id) => S.nameOf(state, id);
    return html`<section class="card se-pick" id="se-pick"><h2 id="pick-h" tabindex="-1">${t('se_pick_h')}</h2>
      <p>${bidding.picker === me ? t('se_you_pick') : t('se_picks_now', { name: name(bidding.picker) })}</p>
      <div class="button-group positions-pick">${S.positions(state, ruleset).map((f) => {
        const label = f.holder ? `${f.label} · ${t('se_taken_by', { name: name(f.holder) })}` : f.label;
        return checkedButton(S.pickCheck(state, ruleset, me, f.number), `pick-${f.number}`, label, { cls: 'pos', data: { pick: f.number } });
      })}</div></section>`;
  },
};

const playing = (view) => ({ view: (ctx) => (ctx.state.phase === 'playing' ? view(ctx) : '') });

/** The finish button at the phase's end, in the bar at the bottom (phases 2–6, while the game runs). */
const finishBar = playing(({ state, me }) => (S.step(state) > 1
  ? html`<section class="actionbar" id="se-finish-bar">${checkedButton(S.finishCheck(state, me), 'finish-phase', t('se_finish'), { cls: 'primary wide' })}</section>` : ''));

export async function mount(root, { code, navigate }) {
  const mine = tokensFor(code);
  if (!mine.player) { navigate(`/join/${code}`, { replace: true }); return {}; }
  const me = mine.player.id;
  const changes = {}; // version → what it changed in my ledger, seen live (an undo tells it)
  // what just happened to this player comes beside the first draw (logic/serenissima_moments.js)
  let told = null;
  const strip = new StripCard({
    who, items: stripItems, actionFor, labelFor,
    moments: (ctx) => (told ? told.momentItems(ctx, me, { changes }) : []),
  });
  const cards = [
    strip,
    { view: (ctx) => feed(story(ctx.events, tellers, ctx, { limit: FEED_LINES })) },
    form('BidCard'), panel((m, { state: s, ruleset }) => (s.phase === 'playing' ? m.bidsPanel(s, ruleset) : '')), pickCard,
    panel((m, { state: s, ruleset, player }) => m.ledger(s, ruleset, player, { heading: html`<h2>${t('se_ledger')}</h2>` })),
    form('SplitCard'), form('MoveCard'), form('BuyCard'), form('SalesCard'),
    panel((m, { state: s, ruleset }) => (S.step(s) > 1 ? m.positionsPanel(s, ruleset) : '')),
    panel((m, { state: s, ruleset }) => m.tracker(s, ruleset)),
    playing(() => html`<seat-move></seat-move>`),
    taps, finishBar,
  ];
  const change = (...args) => (told ? told.ledgerChange(...args) : '');
  const page = playerPage(root, cards, { code, navigate, me, playerOf: S.playerById, changes, change });
  import('../../logic/serenissima_moments.js').then((m) => { told = m; page.schedule(strip); });
  await phoneSheet;
  return page.open(code, mine.player.token, page.follow);
}
