// Serenissima's host panel: where the round stands, the table's story, the positions, the ledgers, the
// dice seed's hash (and the seed once the game is over), links for the other devices, undo (one step
// back), each player's phone (away, and their seat given to another phone) and the end of the game
// (SE19, asked first); once it is over, only what happened. One card per section, drawn in place.
import { tokensFor } from '../../api.js';
import { html } from '../../html.js';
import { t } from '../../i18n.js';
import { undoCheck } from '../../logic/checks.js';
import { tellers } from '../../logic/serenissima_table.js';
import { story } from '../../logic/story.js';
import { toast } from '../../ui.js';
import { drawnWith } from '../../page.js';
import { guideCard, hostPanel, hostStrip } from '../host_panel.js';
import { labelOf } from '../phone_cards.js';
import { feed } from '../common.js';
import { checkedButton, recordNote, tapItems } from '../parts.js';
import './strings.js';
import '../seat_strings.js';

const FEED_LINES = 6;

/** The links to the other devices, undo, and the dice seed (revealed at the end). */
const control = {
  view: ({ state, session, code }) => {
    const mine = tokensFor(code);
    return html`<h1>${t('host_panel')} · ${t('game_serenissima')}</h1>
      ${state.phase === 'finished' ? html`<section class="card" id="host-over-card"><h2 id="host-over">${t('se_now_over', { n: state.round })}</h2>
        ${recordNote(code)}</section>` : ''}
      <section class="card" id="host-control">${tapItems(session).length ? '' : html`<waiting-for></waiting-for>`}<nav class="links">
        ${mine.player ? html`<a class="button" data-link href="/play/${code}">${t('open_play')}</a>` : ''}
        <a class="button" data-link href="/screen/${code}">${t('open_screen')}</a>
        ${state.phase === 'lobby' ? html`<a class="button" data-link href="/join/${code}">${t('lobby')}</a>` : ''}</nav>
        ${state.phase === 'playing' ? checkedButton(undoCheck(state), 'host-undo', t('undo')) : ''}
        <p>${t('seed_hash')}: <code id="seed-hash" class="mono wrap">${state.seed_hash}</code></p>
        ${state.seed ? html`<p>${t('seed')}: <code class="mono wrap">${state.seed}</code></p>` : ''}</section>`;
  },
  on: {
    /** The end of the game goes at once (the session asks first); an undo after the host's yes. */
    click(event, ctx) {
      const el = event.target.closest('#host-undo, #end-game');
      if (!el || el.disabled) return null;
      if (el.id === 'end-game') return { action: { type: 'end_game' }, label: labelOf(el) };
      import('../undo_ask.js').then((m) => m.askUndo(ctx, tellers))
        .then((undo) => undo && this.page.send(this, { action: undo, label: labelOf(el) }, el));
      return null;
    },
  },
  sent: (action, answer) => { if (answer) toast(t('sent')); },
};

/** The table below the controls: its panels (./parts.js) come, with the game's sheet, after the first screenful. */
const table = (m, ctx) => {
  const { state, ruleset: rs, events } = ctx;
  return html`${state.phase !== 'lobby' ? feed(story(events, tellers, ctx, { limit: FEED_LINES })) : ''}
    ${state.round ? m.tracker(state, rs) : ''}
    ${state.phase === 'playing' ? m.bidsPanel(state, rs) : ''}
    ${state.round ? m.positionsPanel(state, rs) : ''}
    <section class="card" id="host-ledgers"><h2>${t('se_ledgers')}</h2>${state.players.map((p) => m.ledger(state, rs, p))}</section>
    <seat-handover></seat-handover>
    ${state.phase === 'playing' ? html`<section class="card" id="host-end"><button type="button" id="end-game" class="danger">${t('se_end_game')}</button></section>` : ''}`;
};

export function mount(root, { code, navigate }) {
  const panels = import('./parts.js').then((m) => m.ready.then(() => m));
  return hostPanel(root, [hostStrip, control, guideCard(), drawnWith(panels, table)], { code, navigate });
}
