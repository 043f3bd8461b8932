// The turn cue on a player's phone: when the game starts waiting on this phone's player (their turn,
// their shot, their decision: logic/seats.js's waitingOn), the tab's title says so with "● ", a short
// chime plays and the phone vibrates where it can; the title loses the dot once the game waits on
// someone else. Never for another player's turn. A reload (or coming back to the page) while the game
// already waited on this player shows the title but does not chime again: the tab remembers, per
// game, whether it last saw its player waited on (sessionStorage). Browsers let a page sound only
// after a gesture, so the chime's AudioContext is made (or woken) at the first tap anywhere. A button
// in the player's strip turns the cue off on this device (localStorage `shipmate.cue` = "off"): no
// sound, no vibration, the title still tells. An iPhone has no vibration, and Safari counts a tap as
// a gesture only at its touchend or click (not its pointerdown): there the cue is the title and the
// chime, once a tap has woken the sound. Loaded by session.js on a player's page only.
import { extend, t } from './i18n.js';
import { waitingOn } from './logic/seats.js';
import { vibrate } from './ui.js';

const OFF_KEY = 'shipmate.cue';
const WAITED_KEY = 'shipmate.cue.waited';
const DOT = '● ';

extend({
  en: { cue: 'Turn cue', cue_on: 'Turn cue on: a sound and a buzz when it is your turn', cue_off: 'Turn cue off' },
  nl: { cue: 'Beurtsignaal', cue_on: 'Beurtsignaal aan: een geluid en een tril als je aan de beurt bent', cue_off: 'Beurtsignaal uit' },
});

let audio = null;
// Each kind of tap tries to wake the sound until it plays: Safari's gesture is the tap's end.
const GESTURES = ['pointerdown', 'touchend', 'click', 'keydown'];

function listening(on) {
  GESTURES.forEach((type) => (on ? document.addEventListener : document.removeEventListener).call(document, type, wake, true));
}

/** Make or wake the chime's AudioContext ('suspended', or Safari's 'interrupted'): only a gesture lets it sound. */
function wake() {
  const Context = window.AudioContext || window.webkitAudioContext;
  try {
    if (!audio) {
      audio = new Context();
      // the phone may silence it again (a call, the screen locked): then the next tap wakes it
      audio.onstatechange = () => listening(audio.state !== 'running');
    }
    if (audio.state === 'running') listening(false);
    else audio.resume().catch(() => {});
  } catch { listening(false); /* no audio on this device: the title (and the buzz) still tell */ }
}
listening(true);
// This module loads with the game's first state: a tap before that (in the lobby, say) already let
// the page sound, and no later tap may come before the player's turn.
if (navigator.userActivation && navigator.userActivation.hasBeenActive) wake();

/** Two short rising notes, 0.6 s; none while the sound still waits for a tap (it would come at that tap). */
function chime() {
  if (!audio || audio.state !== 'running') return;
  try {
    const now = audio.currentTime;
    const note = audio.createOscillator();
    const gain = audio.createGain();
    note.frequency.setValueAtTime(660, now);
    note.frequency.setValueAtTime(880, now + 0.16);
    gain.gain.setValueAtTime(0.0001, now);
    gain.gain.exponentialRampToValueAtTime(0.3, now + 0.02);
    gain.gain.exponentialRampToValueAtTime(0.0001, now + 0.6);
    note.connect(gain).connect(audio.destination);
    note.start(now);
    note.stop(now + 0.62);
  } catch { /* the sound went away (closed by the system): the title still tells */ }
}

function enabled() {
  try { return localStorage.getItem(OFF_KEY) !== 'off'; } catch { return true; }
}

function setEnabled(on) {
  try { if (on) localStorage.removeItem(OFF_KEY); else localStorage.setItem(OFF_KEY, 'off'); } catch { /* storage blocked: on for this page */ }
}

/** The games whose player this tab last saw waited on. */
function waited() {
  try { return JSON.parse(sessionStorage.getItem(WAITED_KEY) || '[]') || []; } catch { return []; }
}

function rememberWaited(code, mine) {
  const codes = waited().filter((c) => c !== code);
  try { sessionStorage.setItem(WAITED_KEY, JSON.stringify(mine ? [code, ...codes].slice(0, 20) : codes)); } catch { /* storage blocked */ }
}

function title(mine) {
  const bare = document.title.startsWith(DOT) ? document.title.slice(DOT.length) : document.title;
  document.title = mine ? DOT + bare : bare;
}

const BELL = '<path fill="currentColor" d="M12 22a2.5 2.5 0 0 0 2.45-2h-4.9A2.5 2.5 0 0 0 12 22zm7-6v-5a7 7 0 0 0-5.5-6.84V3a1.5 1.5 0 0 0-3 0v1.16A7 7 0 0 0 5 11v5l-2 2v1h18v-1z"/>';
// off: a slash, set off from the bell by the button's own colour (app.css: button, --sea-3)
const STRUCK = '<path d="M3 3l18 18" stroke="#1d4f78" stroke-width="5"/><path d="M3 3l18 18" stroke="currentColor" stroke-width="2.2"/>';

/**
 * <cue-toggle>: the button that turns the cue on or off on this device (a bell, struck through when
 * off), in a player's strip (views/phone_cards.js); it draws itself, and again in the other language.
 */
class CueToggle extends HTMLElement {
  connectedCallback() {
    if (!this.button) {
      this.button = Object.assign(document.createElement('button'), { type: 'button', id: 'cue', className: 'small' });
      this.button.addEventListener('click', () => { setEnabled(!enabled()); this.paint(); });
      this.style.marginLeft = 'auto';
      this.append(this.button);
    }
    this.relabel = new MutationObserver(() => this.paint()); // the language switch sets <html lang>
    this.relabel.observe(document.documentElement, { attributes: true, attributeFilter: ['lang'] });
    this.paint();
  }

  disconnectedCallback() { this.relabel.disconnect(); }

  paint() {
    const on = enabled();
    this.button.innerHTML = `<svg viewBox="0 0 24 24" width="22" height="22" aria-hidden="true">${BELL}${on ? '' : STRUCK}</svg>`;
    this.button.setAttribute('aria-pressed', String(on));
    this.button.setAttribute('aria-label', t('cue'));
    this.button.title = t(on ? 'cue_on' : 'cue_off');
  }
}
customElements.define('cue-toggle', CueToggle);

/** The cue of game `code` on this page: `follow(state)` for each new state, `stop()` when the page goes. */
export function turnCue(code) {
  let stopped = false;
  let last = null; // whether the game waited on this player at the last state: only a change acts
  return {
    follow(state) {
      const mine = waitingOn(state).includes(state.you);
      if (stopped || mine === last) return;
      last = mine;
      title(mine);
      if (mine && !waited().includes(code) && enabled()) {
        chime();
        vibrate([80, 60, 160]);
      }
      rememberWaited(code, mine);
    },
    stop() {
      stopped = true;
      title(false);
    },
  };
}
