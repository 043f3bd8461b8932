// Voyagers' Venture on a player's phone: at the top the strip of what needs this player now (agree or
// disagree right there) and what just happened to them (their bid agreed, cut, received; the host's
// undo or gold count), and the table's story; then naming a bid, the three cuts, the reputation entry
// at the end, the private hand with the discard down to 8. One card per section, drawn in place.
import { tokensFor } from '../../api.js';
import { html } from '../../html.js';
import { t } from '../../i18n.js';
import * as V from '../../logic/voyagers.js';
import { holdingChange, momentItems } from '../../logic/voyagers_moments.js';
import { checksFor, nowItems, tellers } from '../../logic/voyagers_table.js';
import { story } from '../../logic/story.js';
import { swatch } from '../../ui.js';
import { drawnWith, later } from '../../page.js';
import { StripCard, labelOf, phoneSheet, playerPage } from '../phone_cards.js';
import { feed } from '../common.js';
import './strings.js';

const FEED_LINES = 4;
// The forms load after the first screenful (the strip, with agree and disagree, and the story come first).
const forms = import('./forms.js');
const form = (name) => later(() => forms.then((m) => new m[name]()));
// So do the table's panels, with the game's sheet (./parts.js).
const panels = import('./parts.js').then((m) => m.ready.then(() => m));
const panel = (view) => drawnWith(panels, view);

function who({ state, ruleset, player }) {
  return html`${swatch(ruleset, player.character)} <strong class="me-name">${player.name}</strong>
    <span class="tag">${t('vv_gold')} ${player.gold}</span>
    ${state.phase === 'playing' && state.round ? html`<span class="muted">${t('vv_year_short', { year: state.year, n: state.round, of: state.rounds })}</span>` : ''}`;
}

/** The action a strip button stands for, by its data-act. */
function actionFor(el) {
  switch (el.dataset.act) {
    case 'agree': return { type: 'agree' };
    case 'disagree': return { type: 'disagree' };
    case 'name_empty': return { type: 'name_bid', cards: [] };
    default: return null;
  }
}

/** What a vote is called while it waits for the network: the button, and whose bid it is on. */
function labelFor(el, action, { state }) {
  const label = labelOf(el);
  return state.bid ? t('vv_label_bid', { label, name: V.nameOf(state, state.bid.bidder) }) : label;
}

/** The display, unless the naming card shows it with its tick boxes, or nothing is on it for good. */
function display({ displayCards }, { state, me }) {
  const shown = !(state.stage === 'naming' && state.waiting_for === me) && (state.display.length > 0 || state.stage === 'display');
  return shown ? html`<section class="card" id="vv-display"><h2>${t('vv_display')}</h2>${displayCards(state)}</section>` : '';
}

export async function mount(root, { code, navigate }) {
  const mine = tokensFor(code);
  if (!mine.player) { navigate(`/join/${code}`, { replace: true }); return {}; }
  const me = mine.player.id;
  const changes = {}; // version → what it changed in my holdings, seen live (the host's undo, the gold count)
  const cards = [
    new StripCard({
      who, actionFor, labelFor,
      items: ({ state: s, ruleset }) => nowItems(s, ruleset, me, checksFor(s, ruleset, me)),
      moments: (ctx) => momentItems(ctx, me, { changes }),
    }),
    { view: (ctx) => feed(story(ctx.events, tellers, ctx, { limit: FEED_LINES })) },
    form('NameCard'), form('CutCard'), form('ScoreCard'),
    panel((m, { state: s, ruleset }) => m.rankingTable(s, ruleset)),
    panel(display),
    panel((m, { state: s, ruleset }) => m.bidPanel(s, ruleset)),
    form('HandCard'),
    panel((m, { state: s, ruleset }) => m.playersList(s, ruleset)),
    { view: ({ state: s }) => (s.phase === 'playing' ? html`<seat-move></seat-move>` : '') },
  ];
  const page = playerPage(root, cards, { code, navigate, me, playerOf: V.playerById, changes, change: (rs, a, b) => holdingChange(a, b) });
  await phoneSheet;
  return page.open(code, mine.player.token, page.follow);
}
