// The shared screen's fight and end (loaded beside screen.js, drawn once here): whom the table waits
// for in each stage and why, the sinking, the newest shot first and biggest; after the end, who won
// and how far each player came.
import { html } from '../../html.js';
import { t } from '../../i18n.js';
import { shotText } from '../../logic/format.js';
import { dieSvg, swatch } from '../../ui.js';
import { fightTitle, fightWait, sinkingLine } from './fight.js';
import { LEVELS, nameIn } from './screen_parts.js';

const SHOTS_SHOWN = 4;
const value = (d) => (d && typeof d === 'object' ? d.value : d);

/** The fight: whom the table waits for and why, the sinking, the newest shot first and biggest. */
export function fightPanel({ state, ruleset, events }) {
  const c = state.combat;
  const wait = fightWait(state, ruleset);
  const sunk = sinkingLine(state, events);
  const shown = c.shots.slice(-SHOTS_SHOWN).reverse();
  const hidden = c.shots.length - shown.length;
  return html`<section class="q-fight screen-combat" id="q-fight" aria-live="polite"><h2>${fightTitle(state)}</h2>
    ${sunk ? html`<p class="sunk q-sunk">${sunk}</p>` : ''}
    <p class="q-wait" id="q-wait">${wait.text}${wait.why ? html`<span class="q-why">${wait.why}</span>` : ''}</p>
    ${c.shots.length ? html`<ol class="shots q-shots" reversed start="${c.shots.length}">${shown.map((s, i) => html`<li class="${i === 0 ? 'latest' : ''}" data-key="shot-${c.shots.length - i}">
      ${dieSvg(value(s.to_hit), 'white', '')} ${shotText(s, nameIn(state, s.shooter && s.shooter.player ? s.shooter.player : s.shooter), ruleset)}</li>`)}</ol>` : ''}
    <p class="muted earlier" id="q-earlier" data-shots="${c.shots.length}" ${hidden ? '' : html`hidden`}>${hidden ? `… ${t('earlier_shots', { n: hidden })}` : ''}</p></section>`;
}

/** After the end: who won, and how far each player came. */
export function finalPanel({ state, ruleset }) {
  const per = (state.options && state.options.quests_per_level) || 2;
  const reached = (p) => (p.level === 'done' ? 3 * per : LEVELS.indexOf(p.level) * per + (p.completed[p.level] || 0));
  const ranked = [...state.players].sort((a, b) => (b.id === state.winner) - (a.id === state.winner) || reached(b) - reached(a));
  return html`<section class="q-final" id="q-final"><h2>${t('news_over')}</h2><ol class="q-ranking">${ranked.map((p) => html`<li data-key="${p.id}">
    <span class="q-who">${swatch(ruleset, p.character, false)} <strong>${p.name}</strong> ${p.id === state.winner ? html`<span class="tag now">★ ${t('news_winner_tag')}</span>` : ''}</span>
    <span class="q-levels">${LEVELS.map((l) => `${t(l)} ${p.completed[l] || 0}/${per}`).join(' · ')}</span></li>`)}</ol></section>`;
}
