// The lobby (what join_url opens): the code large, the QR, the characters to pick, the players as
// they arrive; the host starts the game from here. A phone that has joined goes on to /play. A
// hand-over link (#handover=SECRET) opens here too: this phone takes that seat and goes on to /play;
// a phone whose seat went to another comes back here (#seat-moved) and is told so.
// Each card is a function of the lobby's state; the page draws them in place (morph), so a name half
// typed and the land picked survive a player arriving.
import { api, qrUrl, saveTokens, tokensFor } from '../api.js';
import { html } from '../html.js';
import { t } from '../i18n.js';
import { morph } from '../morph.js';
import { openGame } from '../session.js';
import { characterStyle, errorText, listen, paintSwatches, swatch, toast } from '../ui.js';
import { explain, ruleLinked } from '../logic/format.js';
import { rememberGame } from '../games.js';
import { styled } from './home_strings.js';
import { claimSeat } from './seats.js';

/** Each game's own check of the start (S1, SE1, VV20), loaded with that game's rules. */
const START_CHECKS = {
  quest1607: () => import('../logic/quest1607_now.js').then((m) => m.canStart),
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

function startButton(state, ruleset, startCheck) {
  const check = startCheck ? startCheck(state, ruleset) : { ok: false };
  const why = !check.ok && startCheck ? html`<p class="why" id="start-why">${ruleLinked(explain(check))}</p>` : '';
  return html`<button type="button" id="start" class="primary wide" ${check.ok ? '' : html`disabled`} ${why ? html`aria-describedby="start-why"` : ''}>${t('start_game')}</button>${why}`;
}

/** Why this phone came back here: its seat went to another phone, or a hand-over link failed. */
function seatNote(note, moved) {
  if (!note) return '';
  return html`<section class="card seat-note" role="alert" id="seat-note"><p><strong>${note}</strong></p>
    ${moved ? html`<p>${t('seat_moved_more')}</p>` : ''}</section>`;
}

/** The game's name, its code large, and (in the lobby) the QR code that opens this page: for the host
 * and the players to show; a phone that came to join has no use for it before its join form. */
function head(state, code, mine) {
  return html`<section class="lobby-head card" id="lobby-head">
    <div class="code-block"><h1 class="game-name">${t(`game_${state.game}`)}</h1><p>${t('join_code')}</p>
      <p class="big-code mono" aria-label="${t('join_code')} ${code.split('').join(' ')}">${code}</p></div>
    ${state.phase === 'lobby' && (mine.host || mine.player) ? html`<figure class="qr"><img src="${qrUrl(code)}" alt="${t('scan_to_join')}: ${location.origin}/join/${code}" width="180" height="180"><figcaption>${t('scan_to_join')}</figcaption></figure>` : ''}
  </section>`;
}

function players(state, rs) {
  return html`<section class="card" id="lobby-players">
    <h2>${t('players_joined')}</h2>
    ${state.players.length ? html`<ul class="players">${state.players.map((p) => html`<li class="player-line" data-key="p-${p.id}">${swatch(rs, p.character)} <strong>${p.name}</strong></li>`)}</ul>`
      : html`<p class="muted">${t('no_players')}</p>`}
  </section>`;
}

/** This phone's part: join with a name and a land, or it has joined, or the game has started. */
function joining(state, rs, code, ui, mine) {
  if (state.phase !== 'lobby') {
    return html`<section class="card" id="lobby-started"><p>${t('game_started')}</p><p>${t('seat_ask_host')}</p>
      <a class="button" data-link href="/screen/${code}">${t('open_screen')}</a></section>`;
  }
  if (mine.player) {
    // the host who plays is the one the table waits for: Start is theirs, above
    return html`<section class="card" id="lobby-joined"><p>${t('you_joined_as', { name: mine.player.name })}</p><p class="muted">${t(mine.host ? 'host_plays_too' : 'waiting_host')}</p></section>`;
  }
  const taken = new Set(state.players.map((p) => p.character));
  const land = (c) => {
    const isTaken = taken.has(c.id);
    return html`<label class="character ${isTaken ? 'taken' : ''}" data-key="land-${c.id}">
      <input type="radio" name="character" value="${c.id}" ${ui.character === c.id ? html`checked` : ''} ${isTaken ? html`disabled` : ''}>
      ${swatch(rs, c.id, false)}<span class="character-name">${characterStyle(rs, c.id).name}</span>
      ${isTaken ? html`<span class="tag">${t('taken')}</span>` : ''}</label>`;
  };
  return html`<section class="card" id="lobby-join">
    <h2>${mine.host ? t('join_as_player') : t('join_game')}</h2>
    <form id="join-form">
      <label>${t('your_name')} <input id="player-name" maxlength="32" autocomplete="nickname" required value="${ui.name}"></label>
      <fieldset class="characters"><legend>${t('pick_character')}</legend>${(rs.characters || []).map(land)}</fieldset>
      <button type="submit" class="primary wide" ${ui.joining ? html`disabled` : ''}>${t('join')}</button>
    </form></section>`;
}

/** The host's tools: the seating order, Start, and the links to the game's other pages. */
function hostTools(state, rs, code, mine, startCheck) {
  if (!mine.host) return '';
  const lobby = state.phase === 'lobby';
  return html`<section class="card host-tools" id="lobby-host">
    <h2>${t('host_panel')}</h2>
    ${lobby && state.game !== 'serenissima' ? html`<label class="check"><input id="random-order" type="checkbox" ${mine.randomOrder ? html`checked` : ''}> ${t('random_order')}</label>` : ''}
    ${lobby ? startButton(state, rs, startCheck) : ''}
    <nav class="links" aria-label="${t('host_panel')}"><a class="button" data-link href="/host/${code}">${t('host_panel')}</a>
      <a class="button" data-link href="/screen/${code}">${t('open_screen')}</a>
      ${state.game === 'quest1607' ? html`<a class="button" data-link href="/dice/${code}">${t('open_dice')}</a>` : ''}</nav>
  </section>`;
}

export async function mount(root, { code, navigate, hash = '' }) {
  const ui = { name: '', character: null, joining: false, note: hash === '#seat-moved' ? t('seat_moved') : '' };
  await styled;
  const secret = new URLSearchParams(hash.slice(1)).get('handover');
  if (hash) history.replaceState(null, '', location.pathname); // a secret stays out of the address bar
  if (secret) {
    ui.note = await claimSeat(code, secret);
    if (!ui.note) { navigate(`/play/${code}`, { replace: true }); return {}; }
  }
  let state = null;
  let session;
  let startCheck = null; // the game's start check, once its rules module has loaded

  function draw() {
    if (!state) return;
    const mine = tokensFor(code);
    if (state.phase !== 'lobby' && mine.player) { navigate(`/play/${code}`, { replace: true }); return; }
    if (state.phase !== 'lobby' && mine.host && !ui.note) { navigate(`/host/${code}`, { replace: true }); return; }
    const rs = session.ruleset;
    if (ui.character && state.players.some((p) => p.character === ui.character)) ui.character = null;
    // the host's Start comes before their own join form: it is what the table waits for
    morph(root, html`${seatNote(ui.note, hash === '#seat-moved')}${head(state, code, mine)}${players(state, rs)}
      ${hostTools(state, rs, code, mine, startCheck)}${joining(state, rs, code, ui, mine)}`);
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
    if (!event.target.closest('#start')) return;
    const action = startAction(state, tokensFor(code).randomOrder);
    try {
      const answer = await api.act(code, tokensFor(code).host, action);
      session.live.apply(answer.version, answer.state, answer.events || []);
    } catch (error) { toast(errorText(error), 'error'); }
  }

  function onInput(event) {
    const el = event.target;
    if (el.id === 'player-name') ui.name = el.value;
    if (el.name === 'character') ui.character = el.value;
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
  const mine = tokensFor(code);
  try {
    await watch(mine.host || (mine.player && mine.player.token) || null);
  } catch (error) {
    morph(root, html`<section class="card"><h1>${t('app')}</h1><p>${error.status === 404 ? t('unknown_game', { code }) : errorText(error)}</p><a class="button" data-link href="/">${t('app')}</a></section>`);
    off();
    return { unmount() {} };
  }
  return { refresh: draw, unmount() { off(); session.close(); } };
}
