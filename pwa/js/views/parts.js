// Pieces the game pages share: a button that is disabled with its rule and reason when a check
// refuses it, a number stepper, the "now" strip at the top of a phone, and the table's story.
// Every string passes through `html`.
import { html } from '../html.js';
import { t } from '../i18n.js';
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

/** The strip's items for this device's own taps: those waiting for the network, and the notes. */
export function tapItems(session) {
  const waiting = (session.outbox ? session.outbox.pending : []).filter((e) => e.waiting)
    .map((e) => ({ id: `tap-${e.key}`, tone: 'wait', text: t('now_waiting_tap', { label: e.label }), buttons: [] }));
  const notes = session.notices.map((n) => ({
    id: n.id, tone: n.tone === 'error' ? 'alert' : 'info', text: n.text,
    buttons: [{ id: `dismiss-${n.id}`, label: t('dismiss'), data: { dismiss: n.id }, cls: 'small' }],
  }));
  return [...notes, ...waiting];
}

function stripButton(b) {
  if (b.href) return html`<a class="button ${b.cls || ''}" id="${b.id}" href="${b.href}">${b.label}</a>`;
  const attrs = [b.act ? html` data-act="${b.act}"` : '', ...Object.entries(b.data || {}).map(([k, v]) => html` data-${k}="${v}"`)];
  if (b.waiting) return html`<button type="button" id="${b.id}" class="${b.cls || ''}"${attrs} disabled aria-busy="true">⏳ ${b.label}</button>`;
  if (!b.check || b.check.ok) return html`<button type="button" id="${b.id}" class="${b.cls || ''}"${attrs}>${b.label}</button>`;
  return html`<button type="button" id="${b.id}" class="${b.cls || ''}"${attrs} disabled aria-describedby="${b.id}-why">${b.label}</button>`;
}

/**
 * The "now" strip: at the top of a phone, always in view, what this player must or may do now,
 * most urgent first. `who` is the first line (the player's flag and name, the round); `items` come
 * from the game's pure logic and from `tapItems`. A status line never cites a rule; a refused
 * button does, right under it.
 */
export function nowStrip(who, items) {
  const urgent = items.some((i) => i.tone === 'act' || i.tone === 'alert');
  return html`<section class="now-strip ${urgent ? 'mine' : ''}" id="now" aria-label="${t('now_h')}" aria-live="polite">
    <div class="now-who">${who}</div>
    <ul class="now-items">${items.map((i) => html`<li class="now-item ${i.tone}" id="now-${i.id}">
      <p class="now-text">${i.text}</p>
      ${i.buttons.length ? html`<div class="now-buttons">${i.buttons.map(stripButton)}</div>` : ''}
      ${i.buttons.filter((b) => b.check && !b.check.ok && !b.waiting).map((b) => html`<p class="why" id="${b.id}-why">${explain(b.check)}</p>`)}
    </li>`)}</ul></section>`;
}

/** A strip button's own clicks (dismissing a note); true when the click was one of them. */
export function stripClick(event, session) {
  const dismiss = event.target.closest('[data-dismiss]');
  if (!dismiss) return false;
  session.dismiss(dismiss.dataset.dismiss);
  return true;
}

/** The table's story, newest first: the last few lines on a phone, the big feed on a screen. */
export function feed(lines, { big = false } = {}) {
  return html`<section class="feed ${big ? 'feed-big' : 'card'}" aria-labelledby="feed-h"><h2 id="feed-h">${t('feed_h')}</h2>
    ${lines.length ? html`<ol class="feed-lines">${lines.map((l, i) => html`<li class="${i === 0 ? 'newest' : ''} ${l.moment ? 'moment' : ''} ${l.undone ? 'undone' : ''}" data-version="${l.version}">${l.text}</li>`)}</ol>`
      : html`<p class="muted">${t('feed_empty')}</p>`}</section>`;
}
