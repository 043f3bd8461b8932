// Serenissima's host panel: where the round stands, the table's story, the positions, the ledgers, the
// dice seed's hash (and the seed once the game is over), links for the other devices, undo (one step
// back), each player's phone (away, and their seat given to another phone) and the end of the game
// (SE19, asked first); once it is over, only what happened.
import { tokensFor } from '../../api.js';
import { html, render } from '../../html.js';
import { t } from '../../i18n.js';
import { tellers } from '../../logic/serenissima_table.js';
import { story } from '../../logic/story.js';
import { openGame } from '../../session.js';
import { listen, paintSwatches, toast } from '../../ui.js';
import { checkedButton, feed, nowStrip, recordNote, stripClick, tapItems } from '../parts.js';
import { bidsPanel, ledger, positionsPanel, tracker } from './parts.js';
import { undoCheck } from '../../logic/checks.js';
import '../seat_strings.js';

const FEED_LINES = 6;

export async function mount(root, { code }) {
  const hostToken = tokensFor(code).host;
  if (!hostToken) {
    render(root, html`<section class="card"><p>${t('not_joined')}</p><a class="button" data-link href="/join/${code}">${t('join')}</a></section>`);
    return {};
  }
  let state = null;
  let session;

  function draw() {
    if (!state) return;
    const rs = session.ruleset;
    const mine = tokensFor(code);
    const events = session.log.all();
    const taps = tapItems(session);
    render(root, html`
      ${taps.length ? nowStrip(html`<strong>${t('host_panel')}</strong>`, taps) : ''}
      <h1>${t('host_panel')} · ${t('game_serenissima')}</h1>
      ${state.phase === 'finished' ? html`<section class="card"><h2 id="host-over">${t('se_now_over', { n: state.round })}</h2>
        ${recordNote(code)}</section>` : ''}
      <section class="card">${taps.length ? '' : html`<waiting-for></waiting-for>`}<nav class="links">
        ${mine.player ? html`<a class="button" data-link href="/play/${code}">${t('open_play')}</a>` : ''}
        <a class="button" data-link href="/screen/${code}">${t('open_screen')}</a>
        ${state.phase === 'lobby' ? html`<a class="button" data-link href="/join/${code}">${t('lobby')}</a>` : ''}</nav>
        ${state.phase === 'playing' ? checkedButton(undoCheck(state), 'host-undo', t('undo')) : ''}
        <p>${t('seed_hash')}: <code id="seed-hash" class="mono wrap">${state.seed_hash}</code></p>
        ${state.seed ? html`<p>${t('seed')}: <code class="mono wrap">${state.seed}</code></p>` : ''}</section>
      ${state.phase !== 'lobby' ? feed(story(events, tellers, { state, ruleset: rs, events }, { limit: FEED_LINES })) : ''}
      ${state.round ? tracker(state, rs) : ''}
      ${state.phase === 'playing' ? bidsPanel(state, rs) : ''}
      ${state.round ? positionsPanel(state, rs) : ''}
      <section class="card"><h2>${t('se_ledgers')}</h2>${state.players.map((p) => ledger(state, rs, p))}</section>
      <seat-handover></seat-handover>
      ${state.phase === 'playing' ? html`<section class="card"><button type="button" id="end-game" class="danger">${t('se_end_game')}</button></section>` : ''}`);
    paintSwatches(root);
  }

  async function act(action, label) {
    const answer = await session.act(action, label);
    if (answer) toast(t('sent'));
    return answer;
  }

  async function onClick(event) {
    if (stripClick(event, session)) return;
    if (event.target.closest('#end-game')) await act({ type: 'end_game' }, t('se_end_game'));
    else if (event.target.closest('#host-undo')) await act({ type: 'undo' }, t('undo'));
  }

  const off = listen(root, { click: onClick });
  session = await openGame(code, hostToken, {
    onState: (s) => { state = s; draw(); },
    onChange: draw,
    history: 'all',
  });
  return { refresh: draw, unmount() { off(); session.close(); } };
}
