// A first evening, guided: the game's set-up steps and then the parts of a turn (its rulebook's
// `guide`, served as ruleset.rules.guide), on the shared screen big with the step the table is at,
// and on the host's device as a checklist, each step ticked with one tap (the `guide` action), or the
// whole guide skipped. How far the table is comes from the view (state.guide), so it survives a
// reload. It shows in the lobby and the first round, until every step is done or the host skips it.
// Loaded only where a page needs it (tv.js, the host panels).
import { html } from '../html.js';
import { extend, t, tx } from '../i18n.js';
import { sheet } from './common.js';

extend({
  en: {
    guide_h: 'First evening', guide_setup: 'Set-up', guide_turn: 'A turn',
    guide_step_of: 'Set-up {n} of {of}', guide_part_of: 'A turn, part {n} of {of}',
    guide_host_help: 'Tick each step once the table has done it: the shared screen shows the next one.',
    guide_skip: 'We know the game — skip', guide_done: 'done',
  },
  nl: {
    guide_h: 'De eerste avond', guide_setup: 'Klaarzetten', guide_turn: 'Een beurt',
    guide_step_of: 'Klaarzetten {n} van {of}', guide_part_of: 'Een beurt, deel {n} van {of}',
    guide_host_help: 'Vink elke stap af zodra de tafel hem gedaan heeft: het gedeelde scherm toont dan de volgende.',
    guide_skip: 'We kennen het spel — overslaan', guide_done: 'klaar',
  },
});

/** Resolves once the guide's style sheet applies. */
export const ready = sheet('/css/guide.css');

const stepsOf = (ruleset) => (ruleset.rules && ruleset.rules.guide) || [];

/** The steps, how far the table is, and the step it is at (null when every step is done). Once the game
 * has started, the table is past its set-up, ticked or not: the guide goes on with the parts of a turn. */
function progress(state, ruleset) {
  const steps = stepsOf(ruleset);
  const past = state.phase === 'lobby' ? [] : steps.filter((s) => s.part === 'setup').map((s) => s.id);
  const done = new Set([...((state.guide || {}).done || []), ...past]);
  return { steps, done, now: steps.find((s) => !done.has(s.id)) || null };
}

/** Whether the guide is still for this table: the lobby or the first round, not skipped, not all done. */
export function guideOn(state, ruleset) {
  const g = state.guide;
  if (!g || g.skipped || !stepsOf(ruleset).length) return false;
  if (state.phase !== 'lobby' && !(state.phase === 'playing' && (state.round || 1) <= 1)) return false;
  return progress(state, ruleset).now !== null;
}

/** "Set-up 2 of 3" or "A turn, part 1 of 6": where the step is among its kind. */
function position(steps, step) {
  const kin = steps.filter((s) => s.part === step.part);
  return t(step.part === 'setup' ? 'guide_step_of' : 'guide_part_of', { n: kin.indexOf(step) + 1, of: kin.length });
}

/** The shared screen's panel: the step the table is at, big, then every step with its tick. */
export function tvPanel(state, ruleset) {
  if (!guideOn(state, ruleset)) return '';
  const { steps, done, now } = progress(state, ruleset);
  const item = (s) => (done.has(s.id) ? html`<li class="done"><span role="img" aria-label="${t('guide_done')}">✓</span> ${tx(s.title)}</li>`
    : s === now ? html`<li class="now" aria-current="step"><span aria-hidden="true">▶</span> ${tx(s.title)}</li>`
      : html`<li><span aria-hidden="true">○</span> ${tx(s.title)}</li>`);
  const part = (kind) => steps.filter((s) => s.part === kind);
  // on a TV short of room (../screens.js) the list of steps gives way first, then the whole guide
  return html`<section class="guide-tv" id="guide" aria-labelledby="guide-h" data-yield="2.5">
    <h2 id="guide-h">${t('guide_h')} · ${position(steps, now)}</h2>
    <p class="guide-title" id="guide-now">${tx(now.title)}</p>
    <p class="guide-text">${tx(now.text)}</p>
    <div class="guide-lists" data-yield="2">
      <div><h3>${t('guide_setup')}</h3><ol class="guide-steps">${part('setup').map(item)}</ol></div>
      <div><h3>${t('guide_turn')}</h3><ol class="guide-steps guide-parts">${part('turn').map(item)}</ol></div>
    </div></section>`;
}

/** The host's checklist: each step a button that ticks (or unticks) it, and one to skip the guide. */
export function hostChecklist(state, ruleset) {
  if (!guideOn(state, ruleset)) return '';
  const { steps, done, now } = progress(state, ruleset);
  const check = (s) => html`<li><button type="button" class="guide-check ${s === now ? 'now' : ''}" data-guide-step="${s.id}" aria-pressed="${done.has(s.id) ? 'true' : 'false'}">
    <span class="guide-box" aria-hidden="true">${done.has(s.id) ? '✓' : ''}</span> ${tx(s.title)}</button>
    ${s === now ? html`<p class="guide-host-text">${tx(s.text)}</p>` : ''}</li>`;
  return html`<section class="card guide-host" id="guide" aria-labelledby="guide-h"><h2 id="guide-h">${t('guide_h')}</h2>
    <p class="muted">${t('guide_host_help')}</p>
    <h3>${t('guide_setup')}</h3><ol class="guide-checks">${steps.filter((s) => s.part === 'setup').map(check)}</ol>
    <h3>${t('guide_turn')}</h3><ol class="guide-checks">${steps.filter((s) => s.part === 'turn').map(check)}</ol>
    <button type="button" id="guide-skip">${t('guide_skip')}</button></section>`;
}

/** The `guide` action a tap on the checklist asks for, or null when the tap was elsewhere. */
export function guideAction(event) {
  const el = event.target.closest('#guide [data-guide-step], #guide-skip');
  if (!el || el.disabled) return null;
  if (el.id === 'guide-skip') return { action: { type: 'guide', skip: true }, label: t('guide_skip') };
  const done = el.getAttribute('aria-pressed') !== 'true';
  return { action: { type: 'guide', step: el.dataset.guideStep, done }, label: el.textContent.trim().replace(/\s+/g, ' ') };
}

/** The checklist as a card of a host panel (../page.js): it draws and acts like the panel's others. */
export const hostCard = {
  view: ({ state, ruleset }) => hostChecklist(state, ruleset),
  on: { click: (event) => guideAction(event) },
};
