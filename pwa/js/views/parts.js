// Pieces the game pages share: a button that is disabled with its rule and reason when a check
// refuses it, a number stepper, and the "waiting for" line. Every string passes through `html`.
import { html } from '../html.js';
import { explain } from '../logic/format.js';

/** A button, or the same button disabled and linked to a line that names the rule and the reason. */
export function checkedButton(check, id, label, { cls = '', data = {} } = {}) {
  const attrs = Object.entries(data).map(([k, v]) => html` data-${k}="${v}"`);
  if (check.ok) return html`<button type="button" id="${id}" class="${cls}"${attrs}>${label}</button>`;
  return html`<button type="button" id="${id}" class="${cls}"${attrs} disabled aria-describedby="${id}-why">${label}</button>
    <p class="why" id="${id}-why">${explain(check)}</p>`;
}

/** − n + with the count announced; `path` names the value in data-step. */
export function stepper(path, value, label, { min = 0, max = 99 } = {}) {
  const safe = path.replace(/\W/g, '-');
  return html`<div class="stepper" role="group" aria-label="${label}">
    <button type="button" data-step="${path}" data-d="-1" aria-label="${label} −" ${value <= min ? html`disabled` : ''}>−</button>
    <output id="out-${safe}" aria-live="polite">${value}</output>
    <button type="button" data-step="${path}" data-d="1" aria-label="${label} +" ${value >= max ? html`disabled` : ''}>+</button>
    <span class="stepper-label">${label}</span></div>`;
}
