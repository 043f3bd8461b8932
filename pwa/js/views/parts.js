// Pieces the game pages share: a button that is disabled with its rule and reason when a check
// refuses it, a number stepper, the "now" strip at the top of a phone, the note on keeping a game's record.
// Every string passes through `html`.
import { tokensFor } from '../api.js';
import { html } from '../html.js';
import { t } from '../i18n.js';
import { explain, ruleLinked } from '../logic/format.js';

/**
 * A button, or the same button disabled and linked to a line that names the rule and the reason.
 * A reason the strip at the top already says (`shared`: not your turn, roll first) is not said
 * again: the button points at the strip instead.
 */
export function checkedButton(check, id, label, { cls = '', data = {}, shared = '' } = {}) {
  const attrs = Object.entries(data).map(([k, v]) => html` data-${k}="${v}"`);
  if (check.ok) return html`<button type="button" id="${id}" class="${cls}"${attrs}>${label}</button>`;
  const why = explain(check);
  if (why === shared) return html`<button type="button" id="${id}" class="${cls}"${attrs} disabled aria-describedby="now">${label}</button>`;
  return html`<button type="button" id="${id}" class="${cls}"${attrs} disabled aria-describedby="${id}-why">${label}</button>
    <p class="why" id="${id}-why">${ruleLinked(why)}</p>`;
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

/** A strip button; while a tap of the item waits for the network, its other choices wait too. */
function stripButton(b, settling) {
  if (b.href) return html`<a class="button ${b.cls || ''}" id="${b.id}" href="${b.href}">${b.label}</a>`;
  const attrs = [b.act ? html` data-act="${b.act}"` : '', ...Object.entries(b.data || {}).map(([k, v]) => html` data-${k}="${v}"`)];
  if (b.waiting) return html`<button type="button" id="${b.id}" class="${b.cls || ''}"${attrs} disabled aria-busy="true"><span class="spinner" aria-hidden="true"></span>${b.label}</button>`;
  if (settling) return html`<button type="button" id="${b.id}" class="${b.cls || ''}"${attrs} disabled>${b.label}</button>`;
  if (!b.check || b.check.ok) return html`<button type="button" id="${b.id}" class="${b.cls || ''}"${attrs}>${b.label}</button>`;
  return html`<button type="button" id="${b.id}" class="${b.cls || ''}"${attrs} disabled aria-describedby="${b.id}-why">${b.label}</button>`;
}

/** A strip item; a moment folds to one line with a tap once read. */
function stripItem(i) {
  return html`<li class="now-item ${i.tone}" id="now-${i.id}">${i.fold ? html`<details class="now-fold" open><summary class="now-text">${i.text}</summary></details>` : html`<p class="now-text">${i.text}</p>`}
    ${i.buttons.length ? html`<div class="now-buttons">${i.buttons.map((b) => stripButton(b, i.buttons.some((x) => x.waiting)))}</div>` : ''}
    ${i.buttons.some((b) => b.waiting) ? '' : i.buttons.filter((b) => b.check && !b.check.ok).map((b) => html`<p class="why" id="${b.id}-why">${ruleLinked(explain(b.check))}</p>`)}
  </li>`;
}

/**
 * The "now" strip: what this player must or may do now, most urgent first (`who`: the first line;
 * refused buttons cite their rule). Scrolled away, its one line stays at the top with the `notice`
 * (else the most urgent item) and that item's buttons; a notice is said once to a screen reader.
 */
export function nowStrip(who, items, notice = null) {
  const urgent = items.find((i) => i.tone === 'act') || items.find((i) => i.tone === 'alert');
  const first = notice || urgent;
  const settling = first && first.buttons.some((b) => b.waiting);
  const buttons = first ? first.buttons.map((b) => stripButton({ ...b, id: `line-${b.id}` }, settling)) : [];
  return html`<section class="now-strip ${urgent ? 'mine' : ''}" id="now" aria-label="${t('now_h')}">
    <div class="now-who">${who}</div>
    <ul class="now-items">${items.map(stripItem)}</ul><waiting-for></waiting-for>
    </section><p class="sr-only" id="now-said" role="status">${notice ? notice.text : ''}</p>
    ${first ? html`<div class="now-reach ${first.tone}" id="now-reach"><a class="now-line" id="now-line" href="#now"><span>${first.text}</span></a>
      ${buttons.length || (notice && !notice.final) ? html`<div class="now-buttons">${buttons}${notice && !notice.final ? html`<button type="button" class="small" id="line-dismiss" data-unnotice="${notice.id}">${t('dismiss')}</button>` : ''}</div>` : ''}</div>` : ''}`;
}

addEventListener('scroll', () => { // the strip (and the bar) is away once out of view
  const strip = document.getElementById('now');
  const away = (el) => Boolean(strip && el) && el.getBoundingClientRect().bottom < 0;
  document.documentElement.classList.toggle('strip-away', away(strip));
  document.documentElement.classList.toggle('bar-away', away(document.querySelector('body > .bar')));
}, { passive: true });

/** Bring the card `hash` names into view under the fixed bars (CSS scroll-padding), and focus it. */
function reveal(hash) {
  const target = document.querySelector(hash);
  if (!target) return;
  if (hash === '#now') scrollTo({ top: 0, behavior: 'smooth' }); // the strip comes back with the page's top
  else target.scrollIntoView({ behavior: 'smooth' });
  target.focus({ preventScroll: true });
}

/** The strip's own clicks (dismissing a note, going to the card a link names); true when handled. */
export function stripClick(event, session) {
  const dismiss = event.target.closest('[data-dismiss]');
  if (dismiss) {
    session.dismiss(dismiss.dataset.dismiss);
    return true;
  }
  const link = event.target.closest('#now a[href^="#"], a#now-line');
  if (!link) return false;
  event.preventDefault();
  reveal(link.getAttribute('href'));
  return true;
}

/**
 * A finished game's record: how anyone checks its dice and keeps it (words of views/seat_strings.js).
 * The commands name the game by its join link, the one its QR code carries (kept when this device
 * made the game; else this page's own address, which the phones opened), so they work from any
 * computer at the table, whatever folder or Redis the server keeps its games in.
 */
export function recordNote(code) {
  const link = tokensFor(code).link || `${window.location.origin}/join/${code}`;
  return html`<p class="muted">${t('over_record')}</p>
    <p class="mono wrap small" id="record">shipmate verify ${link}<br>shipmate export ${link} -o game.json</p>`;
}
