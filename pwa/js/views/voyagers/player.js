// Voyagers' Venture on a player's phone: the display, naming a bid, agree/disagree, the three cuts
// (each checked here with its VV rule; the server has the last word), the private hand with the
// discard down to 8, and the reputation entry at the end.
import { tokensFor } from '../../api.js';
import { html, render } from '../../html.js';
import { t } from '../../i18n.js';
import * as V from '../../logic/voyagers.js';
import { openGame } from '../../session.js';
import { listen, paintSwatches, swatch } from '../../ui.js';
import { checkedButton } from '../parts.js';
import { bidPanel, displayCards, playersList, rankingTable, yearLine } from './parts.js';

const SCORE_NUMBERS = ['tips', 'ships', 'nobles', 'ship_count', 'gold', 'smuggled', 'resources'];
const SCORE_LABELS = { tips: 'vv_tips', ships: 'vv_ships', nobles: 'vv_nobles', ship_count: 'vv_ship_count', gold: 'vv_score_gold', smuggled: 'vv_smuggled', resources: 'vv_resources' };

export async function mount(root, { code, navigate }) {
  const mine = tokensFor(code);
  if (!mine.player) { navigate(`/join/${code}`, { replace: true }); return {}; }
  const me = mine.player.id;
  const ui = { named: new Set(), hand: new Set(), cut: { kind: '', card: '', cards: new Set(), add: '' },
    score: { tips: 0, ships: 0, nobles: 0, ship_count: 0, gold: 0, smuggled: 0, resources: 0, fastest_fleet: false, lowest_ship_card: '' } };
  let state = null;
  let session;
  const rs = () => session.ruleset;

  function cutAction() {
    const c = ui.cut;
    if (c.kind === 'doubloon') return { kind: 'doubloon', card: c.card };
    if (c.kind === 'remove') return { kind: 'remove', cards: [...c.cards] };
    if (c.kind === 'swap') return { kind: 'swap', remove: [...c.cards], add: c.add };
    return { kind: '' };
  }

  function nameCard() {
    if (state.stage !== 'naming' || state.waiting_for !== me) return '';
    const check = V.nameCheck(state, rs(), me, [...ui.named]);
    return html`<section class="card vv-name"><h2>${t('vv_name_h')}</h2><p class="muted">${t('vv_name_help')}</p>
      ${displayCards(state, { pick: { prefix: 'name', selected: ui.named } })}
      ${checkedButton(check, 'name-send', t('vv_name_send'), { cls: 'primary wide' })}</section>`;
  }

  function voteCard() {
    if (state.stage !== 'voting' || state.bid.voters[0] !== me) return '';
    return html`<section class="card vv-vote"><div class="button-group">
      ${checkedButton(V.voteCheck(state, me), 'agree', t('vv_agree'), { cls: 'primary' })}
      ${checkedButton(V.disagreeCheck(state, rs(), me), 'disagree', t('vv_disagree'), { cls: 'danger' })}</div></section>`;
  }

  function cutCard() {
    if (state.stage !== 'cutting' || state.bid.cutter !== me) return '';
    const c = ui.cut;
    const outside = V.outsideBid(state);
    const inBid = state.display.filter((card) => state.bid.cards.includes(card.id));
    const action = cutAction();
    const check = V.cutCheck(state, rs(), me, action);
    const result = c.kind ? V.afterCut(state, action).map((id) => (state.display.find((d) => d.id === id) || { name: id }).name || id) : [];
    const kinds = [['doubloon', 'vv_cut_doubloon'], ['remove', 'vv_cut_remove'], ['swap', 'vv_cut_swap']];
    return html`<section class="card vv-cut"><h2>${t('vv_cut_h')}</h2><p class="muted">${t('vv_cut_help')}</p>
      <fieldset><legend>${t('vv_r_pick_kind')}</legend>${kinds.map(([k, label]) => html`<label class="check"><input type="radio" name="cut-kind" id="cut-${k}" value="${k}" ${c.kind === k ? html`checked` : ''}> ${t(label)}</label>`)}</fieldset>
      ${c.kind === 'doubloon' ? html`<label>${t('vv_cut_card')}<select id="cut-card"><option value="">—</option>${outside.map((d) => html`<option value="${d.id}" ${c.card === d.id ? html`selected` : ''}>${d.name || d.id}</option>`)}</select></label>` : ''}
      ${c.kind === 'remove' || c.kind === 'swap' ? displayCards(state, { cards: inBid, pick: { prefix: 'cutrm', selected: c.cards } }) : ''}
      ${c.kind === 'swap' ? html`<label>${t('vv_cut_add')}<select id="cut-add"><option value="">—</option>${outside.map((d) => html`<option value="${d.id}" ${c.add === d.id ? html`selected` : ''}>${d.name || d.id}</option>`)}</select></label>` : ''}
      ${c.kind && check.ok ? html`<p>${t('vv_cut_result', { cards: result.join(', ') })}</p>` : ''}
      ${checkedButton(check, 'cut-send', t('vv_cut_send'), { cls: 'primary wide' })}</section>`;
  }

  function handCard(player) {
    const hand = player.hand || [];
    const excess = V.overLimit(rs(), player);
    const chosen = [...ui.hand];
    const discarding = state.stage === 'discarding' && excess > 0;
    const playable = state.phase === 'playing' && state.stage !== 'scoring';
    return html`<section class="card vv-hand"><h2>${t('vv_hand_h')} · ${t('vv_hand_count', { n: hand.length })}</h2>
      ${discarding ? html`<p class="why">VV12 · ${t('vv_discard_help', { n: hand.length, m: excess, limit: V.handLimit(rs()) })}</p>` : ''}
      ${hand.length ? displayCards(state, { cards: hand, pick: playable ? { prefix: 'hand', selected: ui.hand } : null }) : html`<p class="muted">${t('vv_hand_empty')}</p>`}
      ${discarding ? checkedButton(V.discardCheck(state, rs(), me, chosen), 'discard-send', t('vv_discard_send'), { cls: 'primary' }) : ''}
      ${playable && hand.length ? checkedButton(chosen.length ? { ok: true } : { ok: false, rule: 'VV20', key: 'vv_r_pick_cards', params: {} }, 'play-send', t('vv_play_send'), { cls: 'ghost' }) : ''}
    </section>`;
  }

  function scoreCard(player) {
    if (state.stage !== 'scoring') return '';
    const s = ui.score;
    const entry = { ...s, lowest_ship_card: s.lowest_ship_card === '' ? null : Number(s.lowest_ship_card) };
    const { total } = V.reputationParts(rs(), entry);
    return html`<section class="card vv-score"><h2>${t('vv_score_h')}</h2>
      ${player.score ? html`<p class="own-bid">✓ ${t('vv_scored')} · ${t('vv_score_total', { n: player.score.reputation })}</p>` : ''}
      <form id="score-form" class="two-col">${SCORE_NUMBERS.map((k) => html`<label>${t(SCORE_LABELS[k])}<input type="number" min="0" inputmode="numeric" id="score-${k}" data-score="${k}" value="${s[k]}"></label>`)}
        <label>${t('vv_lowest')}<input type="number" min="1" inputmode="numeric" id="score-lowest" value="${s.lowest_ship_card}"></label>
        <label class="check"><input type="checkbox" id="score-fastest" ${s.fastest_fleet ? html`checked` : ''}> ${t('vv_fastest_fleet')}</label></form>
      <p class="vv-total" aria-live="polite"><strong>${t('vv_score_total', { n: total })}</strong></p>
      ${checkedButton(V.scoreCheck(state, me, entry), 'score-send', t('vv_score_send'), { cls: 'primary wide' })}</section>`;
  }

  function draw() {
    if (!state) return;
    const player = V.playerById(state, me);
    if (state.phase === 'lobby') { navigate(`/join/${code}`, { replace: true }); return; }
    if (!player) { render(root, html`<section class="card"><p>${t('not_joined')}</p></section>`); return; }
    const hand = new Set((player.hand || []).map((c) => c.id));
    ui.hand = new Set([...ui.hand].filter((id) => hand.has(id)));
    const shown = new Set(state.display.map((c) => c.id));
    ui.named = new Set([...ui.named].filter((id) => shown.has(id)));
    const mineNow = state.waiting_for === me;
    render(root, html`
      <section class="turnbar ${mineNow ? 'mine' : ''}" aria-live="polite"><p>${swatch(rs(), player.character)} <strong class="me-name">${player.name}</strong>
        <span class="tag">${t('vv_gold')} ${player.gold}</span></p>${yearLine(state)}${mineNow ? html`<p><strong>▶ ${t('vv_you')}</strong></p>` : ''}</section>
      ${nameCard()}${voteCard()}${cutCard()}
      ${state.stage !== 'naming' || state.waiting_for !== me ? html`<section class="card"><h2>${t('vv_display')}</h2>${displayCards(state)}</section>` : ''}
      ${bidPanel(state, rs())}
      ${handCard(player)}
      ${scoreCard(player)}
      ${rankingTable(state, rs())}
      ${playersList(state, rs())}`);
    paintSwatches(root);
  }

  async function act(action) {
    const answer = await session.act(action);
    if (answer) draw();
    return answer;
  }

  async function onClick(event) {
    const el = event.target.closest('button');
    if (!el || el.disabled) return;
    if (el.id === 'name-send') { if (await act({ type: 'name_bid', cards: state.display.map((c) => c.id).filter((id) => ui.named.has(id)) })) ui.named.clear(); }
    if (el.id === 'agree') await act({ type: 'agree' });
    if (el.id === 'disagree') await act({ type: 'disagree' });
    if (el.id === 'cut-send') {
      if (await act({ type: 'cut', ...cutAction() })) { ui.cut = { kind: '', card: '', cards: new Set(), add: '' }; draw(); }
    }
    if (el.id === 'discard-send') { if (await act({ type: 'discard', cards: [...ui.hand] })) { ui.hand.clear(); draw(); } }
    if (el.id === 'play-send') { if (await act({ type: 'play_cards', cards: [...ui.hand] })) { ui.hand.clear(); draw(); } }
    if (el.id === 'score-send') {
      const s = ui.score;
      await act({ type: 'score', player: me, ...Object.fromEntries(SCORE_NUMBERS.map((k) => [k, s[k]])),
        fastest_fleet: s.fastest_fleet, lowest_ship_card: s.ship_count > 0 ? Number(s.lowest_ship_card) : null });
    }
  }

  function toggle(set, id, on) { if (on) set.add(id); else set.delete(id); }

  function onInput(event) {
    const el = event.target;
    if (el.dataset.name) { toggle(ui.named, el.dataset.name, el.checked); draw(); }
    if (el.dataset.hand) { toggle(ui.hand, el.dataset.hand, el.checked); draw(); }
    if (el.dataset.cutrm) { toggle(ui.cut.cards, el.dataset.cutrm, el.checked); draw(); }
    if (el.name === 'cut-kind') { ui.cut = { kind: el.value, card: '', cards: new Set(), add: '' }; draw(); }
    if (el.id === 'cut-card') { ui.cut.card = el.value; draw(); }
    if (el.id === 'cut-add') { ui.cut.add = el.value; draw(); }
    if (el.dataset.score) { ui.score[el.dataset.score] = Math.max(0, Math.floor(Number(el.value) || 0)); redrawSoon(); }
    if (el.id === 'score-lowest') { ui.score.lowest_ship_card = el.value; redrawSoon(); }
    if (el.id === 'score-fastest') { ui.score.fastest_fleet = el.checked; draw(); }
  }

  let pending = 0;
  function redrawSoon() { clearTimeout(pending); pending = setTimeout(draw, 150); }

  const off = listen(root, { click: onClick, change: onInput, input: (e) => { if (e.target.type === 'number') onInput(e); },
    submit: (e) => e.preventDefault() });
  session = await openGame(code, mine.player.token, { onState: (s) => { state = s; draw(); } });
  return { refresh: draw, unmount() { off(); clearTimeout(pending); session.close(); } };
}
