// The lobby (what join_url opens): the code large, the QR, the characters to pick, the players as
// they arrive; the host starts the game from here. A phone that has joined goes on to /play. A
// hand-over link (#handover=SECRET) opens here too: this phone takes that seat and goes on to /play;
// a phone whose seat went to another comes back here (#seat-moved) and is told so.
// A page of parts (../page.js), one per card, each drawn in place only when what it reads changed: a
// player arriving draws the players and the lands, and a name half typed and the land picked survive it.
import { api, qrUrl, saveTokens, tokensFor } from '../api.js';
import { html, render } from '../html.js';
import { t } from '../i18n.js';
import { Page, later } from '../page.js';
import { characterStyle, errorText, playerWho, swatch, toast } from '../ui.js';
import { explain, ruleLinked } from '../logic/format.js';
import { knownGame, rememberGame } from '../games.js';
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

/** The game's name (once known), its code large, and (in the lobby) the QR code that opens this page:
 * for the host and the players to show; a phone that came to join has no use for it before its join form. */
function head(state, code, mine) {
  return html`<section class="lobby-head card" id="lobby-head">
    <div class="code-block">${state.game ? html`<h1 class="game-name">${t(`game_${state.game}`)}</h1>` : ''}<p>${t('join_code')}</p>
      <p class="big-code mono" aria-label="${t('join_code')} ${code.split('').join(' ')}">${code}</p></div>
    ${state.phase === 'lobby' && (mine.host || mine.player) ? html`<figure class="qr"><img src="${qrUrl(code)}" alt="${t('scan_to_join')}: ${location.origin}/join/${code}" width="180" height="180"><figcaption>${t('scan_to_join')}</figcaption></figure>` : ''}
  </section>`;
}

function players(state, rs) {
  return html`<section class="card" id="lobby-players">
    <h2>${t('players_joined')}</h2>
    ${state.players.length ? html`<ul class="players">${state.players.map((p) => html`<li class="player-line" data-key="p-${p.id}">${playerWho(rs, p)}</li>`)}</ul>`
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
      <span class="character-name">${swatch(rs, c.id, false)} ${characterStyle(rs, c.id).name}</span>
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
      <a class="button" data-link href="/screen/${code}">${t('open_screen')}</a></nav>
  </section>`;
}

/** The name typed and the land picked: kept, and drawn again (the form shows them). */
function pick({ target: el }, { ui }) {
  const key = el.id === 'player-name' ? 'name' : el.name === 'character' ? 'character' : null;
  if (!key || ui[key] === el.value) return null;
  ui[key] = el.value;
  return true;
}

/** Whether this phone came to join: in the lobby, with no seat and not the host's. */
const comesToJoin = ({ state, mine }) => state.phase === 'lobby' && !mine.host && !mine.player;

/** Who has joined: above the host's tools, or below the join form of a phone that came to join (its Join
 * stays in its first screenful on a small phone). */
const playersPart = (above) => ({
  name: above ? 'players' : 'players-below',
  read: (ctx) => [ctx.state.players, ctx.ruleset, comesToJoin(ctx)],
  view: (ctx) => (comesToJoin(ctx) === above ? '' : players(ctx.state, ctx.ruleset)),
});

// The parts, drawn from ctx {state, ruleset, code, mine (this phone's tokens), ui, startCheck}; the
// host's Start comes before their own join form: it is what the table waits for.
const PARTS = [
  { name: 'note', read: ({ ui }) => [ui.note], view: ({ ui }) => seatNote(ui.note, ui.moved) },
  {
    name: 'head',
    read: ({ state, mine }) => [state.game, state.phase, Boolean(mine.host || mine.player)],
    view: ({ state, code, mine }) => head(state, code, mine),
  },
  playersPart(true),
  {
    name: 'host',
    read: ({ state, ruleset, mine, startCheck }) => [state, ruleset, mine.host, mine.randomOrder, startCheck],
    view: ({ state, ruleset, code, mine, startCheck }) => hostTools(state, ruleset, code, mine, startCheck),
    on: {
      click: (event, { state, mine }) => (event.target.closest('#start')
        ? { action: startAction(state, mine.randomOrder), label: t('start_game') } : null),
      change({ target }, { code }) {
        if (target.id !== 'random-order') return null;
        saveTokens(code, { randomOrder: target.checked });
        return true;
      },
    },
  },
  {
    name: 'join',
    read: ({ state, ruleset, mine, ui }) => [state.phase, state.players, ruleset, mine.host,
      mine.player ? mine.player.name : null, ui.name, ui.character, ui.joining],
    view: ({ state, ruleset, code, ui, mine }) => joining(state, ruleset, code, ui, mine),
    on: {
      input: pick,
      change: pick,
      submit(event, { code, ui }) {
        if (event.target.id !== 'join-form') return null;
        const name = ui.name.trim();
        if (!name) { toast(t('name_required'), 'error'); return null; }
        if (!ui.character) { toast(t('character_required'), 'error'); return null; }
        ui.joining = true;
        this.join(code, name, ui);
        return true;
      },
    },
    /** Join as `name`: the page follows the game as that player from then on (a host, as the host still). */
    async join(code, name, ui) {
      try {
        const joined = await api.join(code, name, ui.character);
        saveTokens(code, { player: { id: joined.player_id, token: joined.token, name } });
        if (!tokensFor(code).host) { // the table sees this phone as that player now
          this.page.session.close();
          await this.page.open(code, joined.token, this.page.follow);
        }
      } catch (error) {
        toast(errorText(error), 'error');
      }
      ui.joining = false;
      this.page.schedule();
    },
  },
  playersPart(false),
];

export async function mount(root, { code, navigate, hash = '' }) {
  const moved = hash === '#seat-moved';
  const ui = { name: '', character: null, joining: false, note: moved ? t('seat_moved') : '', moved };
  // the code at once, from the address: the game's words, its sheet and its state come after
  render(root, head({ game: knownGame(code), phase: 'lobby' }, code, tokensFor(code)));
  await styled;
  const secret = new URLSearchParams(hash.slice(1)).get('handover');
  if (hash) history.replaceState(null, '', location.pathname); // a secret stays out of the address bar
  if (secret) {
    ui.note = await claimSeat(code, secret);
    if (!ui.note) { navigate(`/play/${code}`, { replace: true }); return {}; }
  }
  let state = null;
  let startCheck = null; // the game's start check, once its rules module has loaded
  let known = null;
  const game = new Promise((resolve) => { known = resolve; }); // which game, once its first state came
  // Quest 1607's dice on a table device, the host's to hand over before the start (it loads only then)
  const dice = later(() => game.then((name) => (name === 'quest1607' && tokensFor(code).host
    ? import('./quest1607/dice_link.js').then((m) => m.diceLink()) : { name: 'no-dice', view: () => '' })));
  // each page its own parts (a part knows its page: a join that answers late goes to its own)
  const parts = PARTS.map((part) => ({ ...part }));
  parts.splice(parts.findIndex((part) => part.name === 'host') + 1, 0, dice);
  const page = new Page(root, parts, () => (page.session && state
    ? { state, ruleset: page.session.ruleset, code, mine: tokensFor(code), ui, startCheck } : null));
  page.navigate = navigate;
  /** Each state of the game: a phone with a part in it goes on once the game has started. */
  page.follow = (s) => {
    rememberGame(code, s.game);
    known(s.game);
    const mine = tokensFor(code);
    if (s.phase !== 'lobby' && mine.player) { navigate(`/play/${code}`, { replace: true }); return; }
    if (s.phase !== 'lobby' && mine.host && !ui.note) { navigate(`/host/${code}`, { replace: true }); return; }
    state = s;
    if (ui.character && s.players.some((p) => p.character === ui.character)) ui.character = null;
    if (!startCheck && START_CHECKS[s.game]) START_CHECKS[s.game]().then((check) => { startCheck = check; page.schedule(); });
    page.schedule();
  };
  const mine = tokensFor(code);
  try {
    return await page.open(code, mine.host || (mine.player && mine.player.token) || null, page.follow);
  } catch (error) {
    page.kept().unmount();
    render(root, html`<section class="card"><h1>${t('app')}</h1><p>${error.status === 404 ? t('unknown_game', { code }) : errorText(error)}</p><a class="button" data-link href="/">${t('app')}</a></section>`);
    return {};
  }
}
