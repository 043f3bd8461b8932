// The host's undo, asked first, for every game: one tap on Undo only opens a question (a <dialog>)
// that says what it will take back, in the words of the table's story, with a field for why
// (optional, told in the story with it), Confirm and Cancel. The undo goes with the version the
// question was asked at (Enter in the reason confirms; the focus starts on Cancel): if the table moved on while the host read it, the server refuses it (409)
// rather than take back something the question did not name.
import { html, render } from '../html.js';
import { extend, t } from '../i18n.js';
import { lastChange } from '../logic/checks.js';
import { story } from '../logic/story.js';

extend({
  en: {
    undo_ask: 'Take back “{what}”?', undo_inner_open: '‘',
    undo_ask_help: 'The game goes back to just before it; a die once rolled stays rolled, and this cannot be taken back in turn.',
    undo_why: 'Why (optional, told to the table)', undo_confirm: 'Yes, take it back', undo_cancel: 'Cancel',
  },
  nl: {
    undo_ask: '„{what}” terugdraaien?', undo_inner_open: '‚',
    undo_ask_help: 'Het spel gaat terug tot vlak ervoor; een gegooide dobbelsteen blijft liggen, en dit kan zelf niet teruggedraaid worden.',
    undo_why: 'Waarom (mag leeg, de tafel hoort het)', undo_confirm: 'Ja, terugdraaien',
    undo_cancel: 'Annuleren',
  },
});

const REASON_MAX = 200; // the server's bound on an undo's reason

/** Quotes inside the quoted change become single ones (‘…’, Dutch ‚…’), as quotes within quotes are written. */
const inner = (text) => text.replace(/[“„]/g, t('undo_inner_open')).replace(/”/g, '’');

/**
 * Ask the host whether to take back the game's last change: resolves to the undo action when they
 * confirm, or null (Cancel, Esc). `ctx` is the page's {state, events, …} as its tellers read it.
 */
export function askUndo(ctx, tellers) {
  const { state, events } = ctx;
  const [line] = story(lastChange(events, state.version), tellers, ctx);
  const version = state.version;
  return new Promise((resolve) => {
    const dialog = Object.assign(document.createElement('dialog'), { className: 'ask undo-ask', id: 'undo-ask' });
    dialog.setAttribute('aria-labelledby', 'undo-q');
    render(dialog, html`<form method="dialog">
      <p id="undo-q">${t('undo_ask', { what: inner(line ? line.text : t('told_last_action')) })}</p>
      <p class="muted">${t('undo_ask_help')}</p>
      <label>${t('undo_why')} <input id="undo-reason" maxlength="${REASON_MAX}" autocomplete="off"></label>
      <div class="ask-buttons"><button value="yes" id="undo-confirm" class="danger">${t('undo_confirm')}</button>
        <button value="no" id="undo-cancel" class="primary" autofocus>${t('undo_cancel')}</button></div></form>`);
    dialog.addEventListener('close', () => {
      const reason = dialog.querySelector('#undo-reason').value.trim();
      dialog.remove();
      resolve(dialog.returnValue === 'yes' ? { type: 'undo', expected_version: version, ...(reason ? { reason } : {}) } : null);
    });
    document.body.append(dialog);
    dialog.showModal();
  });
}
