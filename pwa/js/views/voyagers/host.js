// Voyagers' Venture's host panel: at the top what needs the host now (the cards to enter, next year's
// order, closing the last purchases, VV14, right there) and the table's story; the cards on display
// this year (the cards stay physical, VV2), next year's turn order (VV13), the gold count (VV20),
// undo, the seed's hash, each player's phone (away, and their seat given to another phone). Every
// tap goes through the session's outbox; once the game is over, the ranking and the record. One card
// per section, drawn in place: a card name half typed survives every update.
import { tokensFor } from '../../api.js';
import { html } from '../../html.js';
import { t } from '../../i18n.js';
import { undoCheck } from '../../logic/checks.js';
import { story } from '../../logic/story.js';
import { hostItems, tellers } from '../../logic/voyagers_table.js';
import { later } from '../cards.js';
import { guideCard, hostPanel } from '../host_panel.js';
import { StripCard, labelOf } from '../phone_cards.js';
import { checkedButton, feed, recordNote } from '../parts.js';
import { bidPanel, displayCards, playersList, rankingTable, ready, yearLine } from './parts.js';
import '../seat_strings.js';

const FEED_LINES = 6;
// The host's forms load after the first screenful (the strip and the story come first).
const forms = import('./host_forms.js');
const form = (name) => later(() => forms.then((m) => new m[name]()));

const hostStrip = () => new StripCard({
  who: ({ state }) => html`<strong>${t('host_panel')}</strong>${state.phase === 'playing' && state.round
    ? html` <span class="muted">${t('vv_year_short', { year: state.year, n: state.round, of: state.rounds })}</span>` : ''}`,
  items: ({ state, ruleset }) => hostItems(state, ruleset),
  moments: () => [],
  actionFor: (el) => (el.dataset.act === 'close_purchases' ? { type: 'close_purchases' } : null),
});


const control = {
  view: ({ state, code }) => {
    const mine = tokensFor(code);
    return html`<h1>${t('host_panel')} · ${t('game_voyagers')}</h1>
      <section class="card" id="host-control">${yearLine(state)}<nav class="links">
        ${mine.player ? html`<a class="button" data-link href="/play/${code}">${t('open_play')}</a>` : ''}
        <a class="button" data-link href="/screen/${code}">${t('open_screen')}</a>
        ${state.phase === 'lobby' ? html`<a class="button" data-link href="/join/${code}">${t('lobby')}</a>` : ''}</nav>
        ${state.phase === 'playing' ? checkedButton(undoCheck(state), 'host-undo', t('undo')) : ''}
        <p>${t('seed_hash')}: <code id="seed-hash" class="mono wrap">${state.seed_hash}</code></p>
        ${state.seed ? html`<p>${t('seed')}: <code class="mono wrap">${state.seed}</code></p>` : ''}
        ${state.phase === 'finished' ? recordNote(code) : ''}</section>`;
  },
  on: {
    click: (event) => {
      const el = event.target.closest('#host-undo');
      return el && !el.disabled ? { action: { type: 'undo' }, label: labelOf(el) } : null;
    },
  },
};

const table = {
  view: (ctx) => {
    const { state, ruleset: rs, events } = ctx;
    const over = state.phase === 'finished';
    return html`${over ? rankingTable(state, rs) : ''}
      ${state.phase !== 'lobby' ? feed(story(events, tellers, ctx, { limit: FEED_LINES })) : ''}`;
  },
};

const board = {
  view: ({ state, ruleset: rs }) => html`
    ${state.display.length ? html`<section class="card" id="vv-display"><h2>${t('vv_display')}</h2>${displayCards(state)}</section>` : ''}
    ${bidPanel(state, rs)}${state.phase === 'finished' ? '' : rankingTable(state, rs)}${playersList(state, rs)}`,
};

export function mount(root, { code }) {
  const cards = [hostStrip(), control, guideCard(), table, form('DisplayForm'), form('OrderForm'), board, form('GoldForm'),
    { view: () => html`<seat-handover></seat-handover>` }];
  return hostPanel(root, cards, { code, ready });
}
