// What the cards of Quest 1607's phone share: a stepper's tap on a count that the card keeps as its
// own state, the select of a form that shows the card's choice, buttons side by side.
import { html } from '../../../html.js';
import { explain, ruleLinked } from '../../../logic/format.js';
import { checkedButton } from '../../parts.js';
import { sheet } from '../../common.js';

await sheet('/css/forms.css'); // every card below the first screenful draws with it

/**
 * A tap on one of `card`'s steppers (data-step="group.key…", `group` one of `groups`): the count at
 * that path in the card's own state moves by the step, never under `min`; a count not yet set is
 * `start` (what the stepper shows), so the first tap always changes what is shown. True when handled.
 */
export function stepped(event, card, groups, { start = 0, min = 0 } = {}) {
  const el = event.target.closest('button[data-step]');
  const keys = el ? el.dataset.step.split('.') : [];
  if (!el || el.disabled || !groups.includes(keys[0])) return false;
  let at = card;
  for (const key of keys.slice(0, -1)) at = at[key] ??= {};
  const last = keys[keys.length - 1];
  at[last] = Math.max(min, (at[last] ?? start) + Number(el.dataset.d));
  return true;
}

/** A select whose options are [value, words] pairs, with `value` chosen; data-field names it for the card. */
export function choice(id, value, options) {
  return html`<select id="${id}" data-field="${id}">${options.map(([v, words]) => html`<option value="${v}" ${String(v) === String(value) ? html`selected` : ''}>${words}</option>`)}</select>`;
}

/** The counts of a map that are more than zero ({wood: 2, food: 0} → {wood: 2}): what an action sends. */
export function nonZero(map) {
  return Object.fromEntries(Object.entries(map || {}).filter(([, n]) => n > 0));
}

/** Buttons side by side ({check, id, label, data, cls}); a reason they share is written once below them. */
export function buttonGroup(items, shared = '') {
  const reasons = new Map();
  const buttons = items.map(({ check, id, label, data = {}, cls = '' }) => {
    if (check.ok) return checkedButton(check, id, label, { cls, data });
    const why = explain(check);
    if (why !== shared && !reasons.has(why)) reasons.set(why, `${id}-why`);
    const attrs = Object.entries(data).map(([k, v]) => html` data-${k}="${v}"`);
    return html`<button type="button" id="${id}" class="${cls}"${attrs} disabled aria-describedby="${why === shared ? 'now' : reasons.get(why)}">${label}</button>`;
  });
  return html`<div class="button-group">${buttons}</div>${[...reasons].map(([why, id]) => html`<p class="why" id="${id}">${ruleLinked(why)}</p>`)}`;
}
