// Serenissima on the shared screen (public view, no token): the round and its six phases, who has
// bid (never how much) and then every bid at once with the tie-break dice, the turn order, the ledgers.
import { qrUrl } from '../../api.js';
import { html, render } from '../../html.js';
import { t } from '../../i18n.js';
import { openGame } from '../../session.js';
import { paintSwatches } from '../../ui.js';
import { bidsPanel, ledger, positionsPanel, tracker } from './parts.js';

export async function mount(root, { code }) {
  let state = null;
  let session;

  function draw() {
    if (!state) return;
    const rs = session.ruleset;
    render(root, html`<div class="screen se-screen">
      <section class="screen-turn"><h1>${t('game_serenissima')}</h1>
        ${state.phase === 'finished' ? html`<p>${t('se_over')}</p>` : ''}
        ${state.phase === 'lobby' ? html`<p>${t('waiting_host')}</p>` : ''}</section>
      <div class="se-main">
        <div class="se-col">${state.round ? tracker(state, rs) : ''}
          ${state.phase === 'playing' ? bidsPanel(state, rs) : ''}</div>
        <section class="se-ledgers" aria-label="${t('se_ledgers')}"><h2>${t('se_ledgers')}</h2>
          <div class="ledger-grid">${state.players.map((p) => ledger(state, rs, p))}</div></section>
        <aside class="screen-side"><figure class="qr"><img src="${qrUrl(code)}" alt="${t('scan_to_join')}" width="200" height="200">
          <figcaption>${t('scan_to_join')}<br><span class="mono big-code">${code}</span></figcaption></figure>
          ${state.round ? positionsPanel(state, rs) : ''}</aside>
      </div></div>`);
    paintSwatches(root);
  }

  session = await openGame(code, null, { onState: (s) => { state = s; draw(); } });
  return { refresh: draw, unmount() { session.close(); } };
}
