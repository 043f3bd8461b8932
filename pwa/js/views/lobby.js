// The lobby (what join_url opens): the code large, the QR, the characters to pick, the players as
// they arrive; the host starts the game from here. A phone that has joined goes on to /play. A
// hand-over link (#handover=SECRET) opens here too: this phone takes that seat and goes on to /play;
// a phone whose seat went to another comes back here (#seat-moved) and is told so.
import { api, qrUrl, saveTokens, tokensFor } from '../api.js';
import { html, render } from '../html.js';
import { t } from '../i18n.js';
import { openGame } from '../session.js';
import { characterStyle, errorText, listen, paintSwatches, swatch, toast } from '../ui.js';
import { explain } from '../logic/format.js';
import { rememberGame } from '../games.js';
import { claimSeat } from './seats.js';

/** Each game's own check of the start (S1, SE1, VV20), loaded with that game's rules. */
const START_CHECKS = {
  quest1607: () => import('../logic/quest1607.js').then((m) => m.canStart),
  serenissima: () => import('../logic/serenissima.js').then((m) => m.startCheck),
  voyagers: () => import('../logic/voyagers.js').then((m) => m.startCheck),
};

/** The start action: Quest 1607 seats at random on the server; Voyagers' Venture takes an order. */
function startAction(state, randomOrder) {
  if (!randomOrder || state.game === 'serenissima') return { type: 'start' };
  if (state.game === 'quest1607') return { type: 'start', random_order: true };
  const order = state.players.map((p) => p.id);
  for (let i = order.length - 1; i > 0; i -= 1) {
    const j = Math.floor(Math.random() * (i + 1));
    [order[i], order[j]] = [order[j], order[i]];
  }
  return { type: 'start', order };
}

function startButton(state, id, ruleset, startCheck) {
  if (!startCheck) return html`<button type="button" id="${id}" class="primary wide" disabled>${t('start_game')}</button>`;
  const check = startCheck(state, ruleset);
  return check.ok ? html`<button type="button" id="${id}" class="primary wide">${t('start_game')}</button>`
    : html`<button type="button" id="${id}" class="primary wide" disabled aria-describedby="${id}-why">${t('start_game')}</button><p class="why" id="${id}-why">${explain(check)}</p>`;
}

export async function mount(root, { code, navigate, hash = '' }) {
  const ui = { name: '', character: null, joining: false, note: hash === '#seat-moved' ? t('seat_moved') : '' };
  const secret = new URLSearchParams(hash.slice(1)).get('handover');
  if (hash) history.replaceState(null, '', location.pathname); // a secret stays out of the address bar
  if (secret) {
    ui.note = await claimSeat(code, secret);
    if (!ui.note) { navigate(`/play/${code}`, { replace: true }); return {}; }
  }
  let state = null;
  let session;
  let startCheck = null; // the game's start check, once its rules module has loaded
  const tokens = () => tokensFor(code);

  function draw() {
    if (!state) return;
    const mine = tokens();
    if (state.phase !== 'lobby' && mine.player) { navigate(`/play/${code}`, { replace: true }); return; }
    if (state.phase !== 'lobby' && mine.host && !ui.note) { navigate(`/host/${code}`, { replace: true }); return; }
    const rs = session.ruleset;
    const taken = new Set(state.players.map((p) => p.character));
    if (ui.character && taken.has(ui.character)) ui.character = null;
    render(root, html`
      ${ui.note ? html`<section class="card seat-note" role="alert" id="seat-note"><p><strong>${ui.note}</strong></p>
        ${hash === '#seat-moved' ? html`<p>${t('seat_moved_more')}</p>` : ''}</section>` : ''}
      <section class="lobby-head card">
        <div class="code-block"><p class="game-name">${t(`game_${state.game}`)}</p><p>${t('join_code')}</p><p class="big-code mono" aria-label="${t('join_code')} ${code.split('').join(' ')}">${code}</p></div>
        ${state.phase === 'lobby' ? html`<figure class="qr"><img src="${qrUrl(code)}" alt="${t('scan_to_join')}: ${location.origin}/join/${code}" width="180" height="180"><figcaption>${t('scan_to_join')}</figcaption></figure>` : ''}
      </section>
      <section class="card">
        <h2>${t('players_joined')}</h2>
        ${state.players.length ? html`<ul class="players">${state.players.map((p) => html`<li class="player-line">${swatch(rs, p.character)} <strong>${p.name}</strong></li>`)}</ul>`
          : html`<p class="muted">${t('no_players')}</p>`}
      </section>
      ${state.phase !== 'lobby' ? html`<section class="card"><p>${t('game_started')}</p><p>${t('seat_ask_host')}</p>
          <a class="button" data-link href="/screen/${code}">${t('open_screen')}</a></section>`
        : mine.player ? html`<section class="card"><p>${t('you_joined_as', { name: mine.player.name })}</p><p class="muted">${t('waiting_host')}</p></section>`
        : html`<section class="card">
        <h2>${mine.host ? t('join_as_player') : t('pick_character')}</h2>
        <form id="join-form">
          <label>${t('your_name')} <input id="player-name" maxlength="32" autocomplete="nickname" required value="${ui.name}"></label>
          <fieldset class="characters"><legend>${t('pick_character')}</legend>
          ${(rs.characters || []).map((c) => {
            const s = characterStyle(rs, c.id);
            const isTaken = taken.has(c.id);
            return html`<label class="character ${isTaken ? 'taken' : ''}">
              <input type="radio" name="character" value="${c.id}" ${ui.character === c.id ? html`checked` : ''} ${isTaken ? html`disabled` : ''}>
              ${swatch(rs, c.id, false)}<span class="character-name">${s.name}</span>
              ${isTaken ? html`<span class="tag">${t('taken')}</span>` : ''}</label>`;
          })}
          </fieldset>
          <button type="submit" class="primary wide" ${ui.joining ? html`disabled` : ''}>${t('join')}</button>
        </form></section>`}
      ${mine.host ? html`<section class="card host-tools">
        <h2>${t('host_panel')}</h2>
        ${state.phase === 'lobby' ? html`${state.game !== 'serenissima' ? html`<label class="check"><input id="random-order" type="checkbox" ${mine.randomOrder ? html`checked` : ''}> ${t('random_order')}</label>` : ''}
        ${startButton(state, 'start', rs, startCheck)}` : ''}
        <nav class="links"><a class="button" data-link href="/host/${code}">${t('host_panel')}</a>
        <a class="button" data-link href="/screen/${code}">${t('open_screen')}</a>
        ${state.game === 'quest1607' ? html`<a class="button" data-link href="/dice/${code}">${t('open_dice')}</a>` : ''}</nav>
      </section>` : ''}
    `);
    paintSwatches(root);
  }

  async function onSubmit(event) {
    event.preventDefault();
    if (event.target.id !== 'join-form') return;
    const name = ui.name.trim();
    if (!name) { toast(t('name_required'), 'error'); return; }
    if (!ui.character) { toast(t('character_required'), 'error'); return; }
    ui.joining = true; draw();
    try {
      const joined = await api.join(code, name, ui.character);
      saveTokens(code, { player: { id: joined.player_id, token: joined.token, name } });
      if (!tokensFor(code).host) await watch(joined.token); // the table sees this phone as that player now
    } catch (error) {
      toast(errorText(error), 'error');
    }
    ui.joining = false;
    draw();
  }

  async function onClick(event) {
    if (event.target.closest('#start')) {
      const mine = tokens();
      const action = startAction(state, mine.randomOrder);
      try {
        const answer = await api.act(code, mine.host, action);
        session.live.apply(answer.version, answer.state, answer.events || []);
      } catch (error) { toast(errorText(error), 'error'); }
    }
  }

  function onInput(event) {
    const el = event.target;
    if (el.id === 'player-name') ui.name = el.value;
    if (el.name === 'character') { ui.character = el.value; }
    if (el.id === 'random-order') saveTokens(code, { randomOrder: el.checked });
  }

  /** Follow the game as the bearer of `token` (null: the public view). */
  async function watch(token) {
    if (session) session.close();
    session = await openGame(code, token, {
      onState: (s) => {
        state = s;
        rememberGame(code, s.game);
        if (!startCheck && START_CHECKS[s.game]) START_CHECKS[s.game]().then((check) => { startCheck = check; draw(); });
        draw();
      },
    });
  }

  const off = listen(root, { submit: onSubmit, click: onClick, input: onInput, change: onInput });
  const mine = tokens();
  try {
    await watch(mine.host || (mine.player && mine.player.token) || null);
  } catch (error) {
    render(root, html`<section class="card"><p>${error.status === 404 ? t('unknown_game', { code }) : errorText(error)}</p><a class="button" data-link href="/">${t('app')}</a></section>`);
    off();
    return { unmount() {} };
  }
  return { refresh: draw, unmount() { off(); session.close(); } };
}
