// Voyagers' Venture on the shared screen (public view, no token): the year and round, the display
// with its doubloons, the current bid with who has agreed, the players, and the final ranking.
import { qrUrl } from '../../api.js';
import { html, render } from '../../html.js';
import { t } from '../../i18n.js';
import { openGame } from '../../session.js';
import { paintSwatches } from '../../ui.js';
import { bidPanel, displayCards, playersList, rankingTable, yearLine } from './parts.js';

export async function mount(root, { code }) {
  let state = null;
  let session;

  function draw() {
    if (!state) return;
    const rs = session.ruleset;
    render(root, html`<div class="screen vv-screen">
      <section class="screen-turn"><h1>${t('game_voyagers')}</h1>${yearLine(state)}</section>
      ${rankingTable(state, rs)}
      <div class="vv-main">
        <section class="card vv-display"><h2>${t('vv_display')}</h2>${displayCards(state)}</section>
        <div>${bidPanel(state, rs)}${playersList(state, rs)}</div>
        <aside class="screen-side"><figure class="qr"><img src="${qrUrl(code)}" alt="${t('scan_to_join')}" width="200" height="200">
          <figcaption>${t('scan_to_join')}<br><span class="mono big-code">${code}</span></figcaption></figure></aside>
      </div></div>`);
    paintSwatches(root);
  }

  session = await openGame(code, null, { onState: (s) => { state = s; draw(); } });
  return { refresh: draw, unmount() { session.close(); } };
}
