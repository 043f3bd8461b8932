// T1: the dice handed to a table device (a tablet, a spare phone), a link and its QR code that the
// device opens; the host's, in the lobby and on the host panel while the game runs. The link is made
// once, on a tap (a QR code on the lobby's screen must not be taken for the one that joins), and kept
// with the game's tokens.
import { request, saveTokens, tokensFor } from '../../api.js';
import { html } from '../../html.js';
import { extend, t } from '../../i18n.js';
import { errorText, toast } from '../../ui.js';

extend({
  en: {
    dice_link_h: 'Dice on a table device', dice_link_only: 'For the dice device only, not to join', dice_link_why: 'A tablet or a spare phone in the middle of the table can roll for whoever’s turn it is. Make its link before or during the game.', dice_link_make: 'Hand the dice to a device',
    dice_link_help: 'Scan this with the tablet or phone that rolls for the table, or open the link on it. It rolls for whoever’s turn it is and can do nothing else.',
  },
  nl: {
    dice_link_h: 'Dobbelen op een tafelapparaat', dice_link_only: 'Alleen voor het dobbelapparaat, niet om mee te doen', dice_link_why: 'Een tablet of een extra telefoon midden op tafel kan gooien voor wie aan de beurt is. Maak de link voor of tijdens het spel.', dice_link_make: 'Geef de dobbelstenen aan een apparaat',
    dice_link_help: 'Scan dit met de tablet of telefoon die voor de tafel gooit, of open de link daarop. Die gooit voor wie aan de beurt is en kan verder niets.',
  },
});

async function makeDiceLink(code) {
  try {
    const made = await request('POST', `/api/games/${encodeURIComponent(code)}/dice-device`, { token: tokensFor(code).host });
    saveTokens(code, { diceLink: { url: made.url, qr: made.qr } });
  } catch (error) { toast(errorText(error), 'error'); }
}

async function copyLink(url) {
  try { await navigator.clipboard.writeText(url); toast(t('copied')); } catch { /* no clipboard: the link is on screen */ }
}

/** The card as a part of its page: before the start and while the game runs, nothing once it is over. */
export const diceLink = () => ({
  name: 'dice-link',
  read: ({ state, code }) => [state.phase, (tokensFor(code).diceLink || {}).url],
  view({ state, code }) {
    const link = tokensFor(code).diceLink;
    return state.phase === 'finished' ? '' : html`<section class="card dice-link" id="dice-link" aria-labelledby="dice-link-h"><h2 id="dice-link-h">${t('dice_link_h')}</h2>
      ${link ? html`<p>${t('dice_link_help')}</p>
        <figure class="qr"><img src="${link.qr}" alt="${t('dice_link_h')}" width="180" height="180"><figcaption>${t('dice_link_only')}</figcaption></figure>
        <p class="mono wrap small"><a id="dice-url" class="link-target" href="${link.url}" target="_blank" rel="noopener">${link.url}</a></p>
        <button type="button" id="dice-copy">${t('copy_link')}</button>`
        : html`<p>${t('dice_link_why')}</p><button type="button" id="dice-make" class="primary">${t('dice_link_make')}</button>`}</section>`;
  },
  on: {
    click(event, { code }) {
      if (event.target.closest('#dice-copy')) copyLink(tokensFor(code).diceLink.url);
      else if (event.target.closest('#dice-make')) makeDiceLink(code).then(() => this.page.schedule()); // it reads the link made
      return null;
    },
  },
});
