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
import { drawnWith, later } from '../../page.js';
import { guideCard, hostPanel } from '../host_panel.js';
import { StripCard, labelOf } from '../phone_cards.js';
import { feed } from '../common.js';
import { checkedButton, recordNote } from '../parts.js';
import './strings.js';
import '../seat_strings.js';

const FEED_LINES = 6;
// The host's forms load after the first screenful (the strip and the story come first).
const forms = import('./host_forms.js');
const form = (name) => later(() => forms.then((m) => new m[name]()));
// So do the table's panels, with the game's sheet (./parts.js): the cards that show them come with them.
const panels = import('./parts.js').then((m) => m.ready.then(() => m));

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
      <section class="card" id="host-control">${control.yearLine ? control.yearLine(state) : ''}<nav class="links">
        ${mine.player ? html`<a class="button" data-link href="/play/${code}">${t('open_play')}</a>` : ''}
        <a class="button" data-link href="/screen/${code}">${t('open_screen')}</a>
        ${state.phase === 'lobby' ? html`<a class="button" data-link href="/join/${code}">${t('lobby')}</a>` : ''}</nav>
        ${state.phase === 'playing' ? checkedButton(undoCheck(state), 'host-undo', t('undo')) : ''}
        <p>${t('seed_hash')}: <code id="seed-hash" class="mono wrap">${state.seed_hash}</code></p>
        ${state.seed ? html`<p>${t('seed')}: <code class="mono wrap">${state.seed}</code></p>` : ''}
        ${state.phase === 'finished' ? recordNote(code) : ''}</section>`;
  },
  on: {
    /** An undo goes after the host's yes to the question (../undo_ask.js). */
    click(event, ctx) {
      const el = event.target.closest('#host-undo');
      if (!el || el.disabled) return null;
      import('../undo_ask.js').then((m) => m.askUndo(ctx, tellers))
        .then((undo) => undo && this.page.send(this, { action: undo, label: labelOf(el) }, el));
      return null;
    },
  },
};

const table = {
  view: (ctx) => {
    const { state, ruleset: rs, events } = ctx;
    const over = state.phase === 'finished';
    return html`${over && table.rankingTable ? table.rankingTable(state, rs) : ''}
      ${state.phase !== 'lobby' ? feed(story(events, tellers, ctx, { limit: FEED_LINES })) : ''}`;
  },
};

const board = (m, { state, ruleset: rs }) => html`
  ${state.display.length ? html`<section class="card" id="vv-display"><h2>${t('vv_display')}</h2>${m.displayCards(state)}</section>` : ''}
  ${m.bidPanel(state, rs)}${state.phase === 'finished' ? '' : m.rankingTable(state, rs)}${m.playersList(state, rs)}`;

export function mount(root, { code, navigate }) {
  // the year line and the final ranking join the control and the story once the panels have come
  panels.then((m) => { control.yearLine = m.yearLine; table.rankingTable = m.rankingTable; });
  const cards = [hostStrip(), control, guideCard(), table, form('DisplayForm'), form('OrderForm'), drawnWith(panels, board), form('GoldForm'),
    { view: () => html`<seat-handover></seat-handover>` }];
  return hostPanel(root, cards, { code, navigate });
}
