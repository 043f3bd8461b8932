// Voyagers' Venture's host forms, one card each with its own state: this year's cards on display
// (VV2), next year's turn order from the physical track (VV13), each player's gold (VV20). A card name
// half typed survives every update (the page draws in place).
import { html } from '../../html.js';
import { t } from '../../i18n.js';
import * as V from '../../logic/voyagers.js';
import { swatch } from '../../ui.js';
import { labelOf } from '../phone_cards.js';
import './form_strings.js';

const EMPTY = () => ({ name: '', kind: 'common' });

/** This year's cards on display, typed in by the host (VV2): a row per card. */
export class DisplayForm {
  constructor() {
    this.rows = [EMPTY()];
    this.on = { input: this.typed, change: this.typed, click: this.click, submit: this.send };
  }

  view({ state, ruleset }) {
    if (state.stage !== 'display') return '';
    const ready = this.rows.some((r) => r.name.trim());
    const kinds = (i, kind) => (ruleset.card_kinds || []).map((k) => html`<option value="${k.id}" ${kind === k.id ? html`selected` : ''}>${t(`vv_${k.id}`)}</option>`);
    return html`<section class="card vv-host-display" id="vv-host-display"><h2 id="vv-host-display-h" tabindex="-1">${t('vv_host_display_h')}</h2>
      <form id="display-form">${this.rows.map((r, i) => html`<div class="vv-display-row" data-key="row-${i}">
        <label>${t('vv_card_name', { n: i + 1 })}<input id="card-name-${i}" data-row="${i}" maxlength="60" value="${r.name}" autocomplete="off"></label>
        <label>${t('vv_card_kind')}<select id="card-kind-${i}" data-kind-row="${i}">${kinds(i, r.kind)}</select></label>
        <button type="button" class="ghost" data-drop="${i}" aria-label="${t('vv_remove_card')} ${i + 1}" ${this.rows.length === 1 ? html`disabled` : ''}>✕</button></div>`)}
        <div class="button-group"><button type="button" id="add-card">${t('vv_add_card')}</button>
        <button type="submit" id="display-send" class="primary" ${ready ? '' : html`disabled`}>${t('vv_display_send')}</button></div></form></section>`;
  }

  /** A keystroke redraws the page only when it arms or disarms the Send button (a first name typed, the last one cleared). */
  typed(event) {
    const el = event.target;
    const ready = () => this.rows.some((r) => r.name.trim());
    const before = ready();
    if (el.dataset.row) this.rows[Number(el.dataset.row)].name = el.value;
    else if (el.dataset.kindRow) { this.rows[Number(el.dataset.kindRow)].kind = el.value; return null; }
    else return null;
    return ready() !== before;
  }

  click(event) {
    const el = event.target.closest('button');
    if (!el || el.disabled) return null;
    if (el.id === 'add-card') {
      this.rows.push(EMPTY());
      requestAnimationFrame(() => document.getElementById(`card-name-${this.rows.length - 1}`)?.focus());
      return true;
    }
    if (el.dataset.drop) { this.rows.splice(Number(el.dataset.drop), 1); return true; }
    return null;
  }

  send(event, { state }) {
    if (event.target.id !== 'display-form') return null;
    const cards = this.rows.filter((r) => r.name.trim()).map((r, i) => ({ id: `${state.year}-${i + 1}`, kind: r.kind, name: r.name.trim() }));
    return cards.length ? { action: { type: 'display', cards }, label: t('vv_display_send') } : null;
  }

  sent(action, answer) { if (answer) this.rows = [EMPTY()]; }
}

/** Next year's turn order as the physical track shows it (VV13), moved up and down. */
export class OrderForm {
  constructor() {
    this.order = null;
    this.on = { click: this.click };
  }

  view({ state, ruleset }) {
    if (state.stage !== 'order') { this.order = null; return ''; }
    if (!this.order) this.order = [...state.turn_order];
    const last = this.order.length - 1;
    return html`<section class="card" id="vv-order"><h2 id="vv-order-h" tabindex="-1">${t('vv_order_h')}</h2><ol class="vv-list">${this.order.map((id, i) => {
      const p = V.playerById(state, id);
      return html`<li data-key="order-${id}">${swatch(ruleset, p.character)} <strong>${p.name}</strong>
        <span class="count"><button type="button" data-up="${i}" aria-label="${t('vv_up')}: ${p.name}" ${i === 0 ? html`disabled` : ''}>↑</button>
        <button type="button" data-down="${i}" aria-label="${t('vv_down')}: ${p.name}" ${i === last ? html`disabled` : ''}>↓</button></span></li>`;
    })}</ol><button type="button" id="order-send" class="primary wide">${t('vv_order_send')}</button></section>`;
  }

  click(event) {
    const el = event.target.closest('button');
    if (!el || el.disabled) return null;
    const swap = (i, j) => { [this.order[i], this.order[j]] = [this.order[j], this.order[i]]; return true; };
    if (el.dataset.up) return swap(Number(el.dataset.up), Number(el.dataset.up) - 1);
    if (el.dataset.down) return swap(Number(el.dataset.down), Number(el.dataset.down) + 1);
    return el.id === 'order-send' ? { action: { type: 'turn_order', order: this.order }, label: labelOf(el) } : null;
  }

  sent(action, answer) { if (answer) this.order = null; }
}

/** What a typed gold count will leave: "12 → 15", or '' while it is the count already. */
const goldAfter = (had, typed) => (typed === undefined || typed === had ? '' : t('vv_gold_after', { had, gold: typed }));

/**
 * Each player's gold, corrected to the table's count (VV20): the number typed is the total, not a
 * change, and the row says what it will leave ("12 → 15") as the host types, without drawing the page.
 */
export class GoldForm {
  constructor() {
    this.gold = {};
    this.on = { input: this.typed, click: this.click };
  }

  view({ state }) {
    if (state.phase !== 'playing') return '';
    return html`<section class="card" id="vv-gold"><h2>${t('vv_gold_h')}</h2><p class="muted">${t('vv_gold_help')}</p><ul class="vv-list">${state.players.map((p) => html`<li data-key="gold-${p.id}">
      <label class="grow">${p.name}<input type="number" min="0" inputmode="numeric" id="gold-${p.id}" data-gold="${p.id}" value="${this.gold[p.id] ?? p.gold}"></label>
      <span class="gold-after" id="gold-after-${p.id}" aria-live="polite">${goldAfter(p.gold, this.gold[p.id])}</span>
      <button type="button" data-set-gold="${p.id}">${t('vv_gold_set')}</button></li>`)}</ul></section>`;
  }

  typed(event, { state }) {
    const pid = event.target.dataset.gold;
    if (!pid) return null;
    this.gold[pid] = Math.max(0, Math.floor(Number(event.target.value) || 0));
    const after = document.getElementById(`gold-after-${pid}`);
    if (after) after.textContent = goldAfter(V.playerById(state, pid).gold, this.gold[pid]);
    return null;
  }

  click(event, { state }) {
    const el = event.target.closest('button[data-set-gold]');
    if (!el || el.disabled) return null;
    const pid = el.dataset.setGold;
    const gold = Number(this.gold[pid] ?? V.playerById(state, pid).gold);
    return { action: { type: 'set_gold', player: pid, gold }, label: `${labelOf(el)}: ${V.nameOf(state, pid)} ${gold}` };
  }

  sent(action, answer) { if (answer) delete this.gold[action.player]; }
}
