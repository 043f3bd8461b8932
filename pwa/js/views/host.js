// The host panel: start, undo, adjust resources with a reason, the dice seed's hash (and the seed
// once the game is over), links for the other devices, and the report charts from the event stream.
import { api, tokensFor } from '../api.js';
import { html, render, trusted } from '../html.js';
import { t } from '../i18n.js';
import { canStart, playerById, resourceIds } from '../logic/rules.js';
import { explain, formatResources, resName } from '../logic/format.js';
import { luckPerPlayer, timeline } from '../logic/stats.js';
import { barChart, lineChart } from '../charts.js';
import { openGame } from '../session.js';
import { characterStyle, listen, paintSwatches, swatch, toast } from '../ui.js';

export async function mount(root, { code }) {
  const hostToken = tokensFor(code).host;
  if (!hostToken) {
    render(root, html`<section class="card"><p>${t('not_joined')}</p><a class="button" data-link href="/join/${code}">${t('join')}</a></section>`);
    return {};
  }
  const ui = { player: '', delta: {}, reason: '' };
  let state = null;
  let session;
  let events = [];
  let eventsVersion = 0;

  function report() {
    const rs = session.ruleset;
    const line = timeline(events);
    const luck = luckPerPlayer(events);
    const colour = (pid) => characterStyle(rs, (playerById(state, pid) || {}).character).colour;
    const rounds = line.rounds.map(String);
    const size = { width: 480, height: 280 };
    const res = lineChart({ ...size,
      title: t('res_over_rounds'), x: rounds,
      series: line.players.map((p) => ({ name: p.name, colour: colour(p.id), values: line.resources[p.id] || [] })),
    });
    const levels = lineChart({ ...size,
      title: t('levels_over_rounds'), x: rounds, yLabels: [t('bronze'), t('silver'), t('gold'), t('done')],
      series: line.players.map((p) => ({ name: p.name, colour: colour(p.id), values: line.levels[p.id] || [] })),
    });
    const dice = barChart({ ...size,
      title: t('dice_luck'), reference: 3.5, referenceLabel: `${t('expected')} 3.5`, format: (v) => v.toFixed(2),
      bars: state.players.map((p) => ({ label: `${p.name} (${(luck[p.id] || { dice: 0 }).dice})`, value: (luck[p.id] || { mean: 0 }).mean, colour: colour(p.id) })),
    });
    return html`<section class="card report"><h2>${state.phase === 'finished' ? t('report') : t('report_so_far')}</h2>${trusted(res)}${trusted(levels)}${trusted(dice)}</section>`;
  }

  function draw() {
    if (!state) return;
    const rs = session.ruleset;
    const ids = resourceIds(rs, state);
    if (!ui.player && state.players.length) ui.player = state.players[0].id;
    const target = playerById(state, ui.player);
    render(root, html`
      <section class="card"><h1>${t('host_panel')} <span class="mono">${code}</span></h1>
        <p>${state.phase === 'lobby' ? t('lobby') : state.phase === 'finished' ? t('finished') : t('round', { n: state.round })}</p>
        ${state.phase === 'lobby' ? (canStart(state).ok ? html`<button type="button" id="host-start" class="primary wide">${t('start_game')}</button>`
          : html`<button type="button" id="host-start" class="primary wide" disabled aria-describedby="host-start-why">${t('start_game')}</button><p class="why" id="host-start-why">${explain(canStart(state))}</p>`) : ''}
        ${state.phase === 'playing' ? html`<button type="button" id="host-undo">${t('undo')}</button>` : ''}
        <nav class="links">
          <a class="button" data-link href="/join/${code}">${tokensFor(code).player ? t('lobby') : t('join_as_player')}</a>
          ${tokensFor(code).player ? html`<a class="button" data-link href="/play/${code}">${t('open_play')}</a>` : ''}
          <a class="button" data-link href="/screen/${code}">${t('open_screen')}</a>
          <a class="button" data-link href="/dice/${code}">${t('open_dice')}</a>
        </nav>
      </section>
      <section class="card"><h2>${t('players')}</h2><ul class="players">${state.players.map((p) => html`<li class="player-line">${swatch(rs, p.character)} <strong>${p.name}</strong> <span class="muted">${formatResources(p.resources, ', ')}</span></li>`)}</ul></section>
      ${state.players.length ? html`<section class="card"><h2>${t('adjust')}</h2>
        <form id="adjust-form">
          <label>${t('player')} <select id="adjust-player">${state.players.map((p) => html`<option value="${p.id}" ${p.id === ui.player ? html`selected` : ''}>${p.name}</option>`)}</select></label>
          <div class="adjust-grid">${ids.map((id) => html`<label>${resName(id)} <span class="muted">(${target ? target.resources[id] || 0 : 0})</span>
            <input type="number" inputmode="numeric" step="1" id="adjust-${id}" data-res="${id}" value="${ui.delta[id] || 0}"></label>`)}</div>
          <label>${t('reason')} <input id="adjust-reason" required maxlength="200" value="${ui.reason}"></label>
          <button type="submit" class="primary">${t('apply')}</button>
        </form></section>` : ''}
      <section class="card"><h2>${t('seed_hash')}</h2><p class="mono wrap" id="seed-hash">${state.seed_hash || '—'}</p>
        ${state.seed ? html`<h2>${t('seed')}</h2><p class="mono wrap" id="seed">${state.seed}</p>` : ''}</section>
      ${state.phase !== 'lobby' ? report() : ''}
    `);
    paintSwatches(root);
  }

  async function act(action) {
    const answer = await session.act(action);
    if (answer) toast(t('sent'));
    return answer;
  }

  async function onClick(event) {
    if (event.target.closest('#host-start')) {
      const action = { type: 'start' };
      if (tokensFor(code).randomOrder) action.random_order = true;
      await act(action);
    } else if (event.target.closest('#host-undo')) {
      await act({ type: 'undo' });
    }
  }

  async function onSubmit(event) {
    if (event.target.id !== 'adjust-form') return;
    event.preventDefault();
    const resources = {};
    for (const [k, v] of Object.entries(ui.delta)) if (Number(v)) resources[k] = Number(v);
    const answer = await act({ type: 'adjust', player: ui.player, resources, reason: ui.reason });
    if (answer) { ui.delta = {}; ui.reason = ''; draw(); }
  }

  function onInput(event) {
    const el = event.target;
    if (el.id === 'adjust-player') { ui.player = el.value; draw(); }
    if (el.dataset.res) ui.delta[el.dataset.res] = Number(el.value) || 0;
    if (el.id === 'adjust-reason') ui.reason = el.value;
  }

  const addEvents = (list) => {
    const fresh = list.filter((e) => (e.version || 0) > eventsVersion);
    events = events.concat(fresh);
    for (const e of fresh) eventsVersion = Math.max(eventsVersion, e.version || 0);
  };
  const catchUp = async () => {
    try { addEvents((await api.events(code, eventsVersion, hostToken)).events || []); } catch { /* live updates go on */ }
  };
  const off = listen(root, { click: onClick, submit: onSubmit, input: onInput, change: onInput });
  await catchUp();
  session = await openGame(code, hostToken, {
    onState: (s) => { state = s; if (s.version > eventsVersion) catchUp().then(draw); draw(); },
    onEvents: addEvents,
  });

  return { refresh: draw, unmount() { off(); session.close(); } };
}
