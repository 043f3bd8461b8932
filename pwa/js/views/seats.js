// Seats that move between phones, and who is at the table, on every page of every game. session.js
// loads this beside the page (the first screenful needs none of it) and hands it the session:
// presence frames, a seat that moved, and each action before it goes (the move that ends the game,
// and a surrender, is asked first). The pages only place the elements; each draws itself in place from the session its
// page hands it (page.js), again when presence changes and when its words would (a minute more away, a link's minute less):
//   <away-mark player="p2">  "offline for 2 minutes" beside a player who is away ("offline" with `short`)
//   <waiting-for>            "Waiting for Bram (offline for 2 minutes)" when the game waits on them
//   <seat-handover>          the host's card: each player's phone, and their seat given to another
//   <seat-move>              a player's own phone: "Move to another phone", for a planned switch
import { forgetGame, request, saveTokens, tokensFor } from '../api.js';
import { rememberGame } from '../games.js';
import { html, render } from '../html.js';
import { lang, t } from '../i18n.js';
import { listOf, resourcesOrNothing } from '../logic/format.js';
import { awayFor, awayWords, cameBack, endsGame, isAway, nextChange, shownAway, waitingOn } from '../logic/seats.js';
import { errorText, swatch, toast } from '../ui.js';
import './seat_strings.js';

const drawn = new Set(); // the elements below that are on the page
// `${code}:${player}` → {url, qr, until (ms), away}: the hand-over links made here; `away`: the player
// was away when it was made, so their coming back means the new phone has taken the seat
const links = new Map();
const asking = new Set(); // the same keys, while their link is being made
let timer = 0;

const nameOf = (state, pid) => (state.players.find((p) => p.id === pid) || {}).name || pid;

if (!document.querySelector('link[href="/css/seats.css"]')) {
  document.head.append(Object.assign(document.createElement('link'), { rel: 'stylesheet', href: '/css/seats.css' }));
}

/**
 * A presence frame came: note who came back (the story tells it: only a player this page showed
 * away), let go of the links that brought them back, then redraw the elements.
 */
export function present(session) {
  const after = session.live.presence;
  for (const pid of after.online) {
    const key = `${session.code}:${pid}`;
    if (links.has(key) && links.get(key).away) links.delete(key);
  }
  const state = session.live.state;
  const back = state && state.phase === 'playing' ? cameBack(session.shown, after) : [];
  session.shown = new Set(shownAway(after));
  if (back.length) {
    session.returns.push(...back.map((pid) => ({ pid, version: session.log.latest + 0.5 })));
    session.changed();
  }
  redraw();
}

/** This page's seat went to another phone: forget its token and its waiting taps, go to the join page. */
export async function lost(session) {
  if (session.moved) return;
  session.moved = true;
  session.close();
  if (session.outbox) { session.outbox.entries = []; session.outbox.save(); }
  const { code, token } = session;
  const mine = tokensFor(code);
  if (mine.player && mine.player.token === token) {
    if (mine.host || mine.dice) saveTokens(code, { player: null });
    else forgetGame(code);
  }
  session.navigate(`/join/${code}#seat-moved`, { replace: true });
}

/**
 * The server came back behind this page (an older save of the game): the page now shows the table as
 * the server has it, and says so once, until it is put away; taps still waiting go as they are.
 */
export function behind(session, ahead, version) {
  session.returns = session.returns.filter((r) => r.version <= version);
  session.notice(t('server_behind', { n: ahead - version }), 'error');
}

/** Whether `action` may go: yes, unless it ends the game or offers to give up every resource, and
 * the player, asked, says not yet. The edge of the map (V1) is the player's own win, and the question
 * says so; a surrender (C8) names who would get what. */
export function askFirst(session, action) {
  const state = session.live.state;
  if (action.type === 'surrender' && state.combat) {
    const c = state.combat;
    const other = c.attacker.player === state.you ? c.defender.player : c.attacker.player;
    const me = state.players.find((p) => p.id === state.you);
    const question = t('surrender_ask', { name: nameOf(state, other), res: resourcesOrNothing(me ? me.resources : {}) });
    return ask(question, t('surrender_yes'), t('surrender_no'));
  }
  if (!endsGame(state, session.ruleset, action)) return true;
  return action.type === 'reach_edge' ? ask(t('win_ask'), t('win_yes'), t('end_no')) : ask(t('end_ask'), t('end_yes'), t('end_no'));
}

/** A question in the page (not the browser's confirm): resolves true for `yes`; Esc or `no` is false. */
function ask(question, yes, no) {
  return new Promise((resolve) => {
    const dialog = Object.assign(document.createElement('dialog'), { className: 'ask' });
    dialog.setAttribute('aria-labelledby', 'ask-q');
    render(dialog, html`<p id="ask-q">${question}</p><form method="dialog" class="ask-buttons">
      <button value="no" id="end-no" class="primary" autofocus>${no}</button><button value="yes" id="end-yes" class="danger">${yes}</button></form>`);
    dialog.addEventListener('close', () => { dialog.remove(); resolve(dialog.returnValue === 'yes'); });
    document.body.append(dialog);
    dialog.showModal();
  });
}

/**
 * Take the seat a hand-over link's secret opens (this device becomes that player) and keep its
 * token as a join does. Returns null when done, else the words that say why not.
 */
export async function claimSeat(code, secret) {
  const path = `/api/games/${encodeURIComponent(code)}`;
  try {
    const seat = await request('POST', `${path}/seat`, { body: { handover: secret } });
    saveTokens(code, { player: { id: seat.player_id, token: seat.token, name: '' } });
    const view = await request('GET', path, { token: seat.token });
    rememberGame(code, view.game);
    saveTokens(code, { player: { id: seat.player_id, token: seat.token, name: nameOf(view, seat.player_id) } });
    return null;
  } catch (error) {
    return error.status === 410 ? t('seat_gone') : errorText(error);
  }
}

/** Redraw every element in place, and wake again when their words next change. */
function redraw() {
  for (const element of drawn) element.update();
  clearTimeout(timer);
  const now = Date.now();
  const sessions = new Set([...drawn].map((element) => element.session).filter((session) => session && !session.live.closed));
  const waits = [...sessions].flatMap((session) => {
    const presence = session.live.presence;
    return Object.keys(presence ? presence.away : {}).map((pid) => nextChange(awayFor(presence, pid, now)));
  });
  if (sessions.size) for (const link of links.values()) if (link.until > now) waits.push((link.until - now) % 60000 || 60000);
  const soonest = Math.min(...waits.filter((w) => w !== null));
  if (soonest < Infinity) timer = setTimeout(redraw, soonest + 50);
}

/** An element that draws itself from the session its page hands it (`session`; nothing before). */
class Drawn extends HTMLElement {
  connectedCallback() { drawn.add(this); this.update(); }

  disconnectedCallback() { drawn.delete(this); }

  update() {
    const { session } = this;
    const state = session && !session.live.closed && session.live.state;
    const markup = state ? this.markup(state, session, Date.now()) : html``;
    if (String(markup) === this.shown) return;
    this.shown = String(markup);
    render(this, markup);
  }
}

class AwayMark extends Drawn {
  markup(state, session, now) {
    const pid = this.getAttribute('player');
    const presence = session.live.presence;
    if (state.phase === 'finished' || !isAway(presence, pid)) return html``;
    // `short`: a card whose header is one line (Quest 1607's TV) says "offline" alone; how long is
    // told where the game waits on the player ("Waiting for Bram (offline for 2 minutes)")
    return html`<span class="tag away">${this.hasAttribute('short') ? t('away_short') : awayWords(awayFor(presence, pid, now))}</span>`;
  }
}

class WaitingFor extends Drawn {
  markup(state, session, now) {
    const presence = session.live.presence;
    const away = waitingOn(state).filter((pid) => pid !== state.you && isAway(presence, pid));
    if (!away.length) return html``;
    const names = away.map((pid) => t('away_who', { name: nameOf(state, pid), away: awayWords(awayFor(presence, pid, now)) }));
    return html`<p class="waiting-away">${t('waiting_away', { names: listOf(names) })}</p>`;
  }
}

/** The link (with its QR code and how long it works) that gives `player`'s seat to another phone. */
function linkBlock(code, player, now) {
  const link = links.get(`${code}:${player.id}`);
  if (!link) return null;
  const left = link.until - now;
  const time = new Date(link.until).toLocaleTimeString(lang() === 'nl' ? 'nl-NL' : 'en-GB', { hour: '2-digit', minute: '2-digit' });
  return html`<div class="handover" id="handover-link-${player.id}">${left > 0 ? html`
      <figure class="qr"><img src="${link.qr}" alt="${t('seat_qr', { name: player.name })}" width="200" height="200"></figure>
      <p>${t('seat_link_help', { name: player.name })}</p>
      <p class="mono wrap small" id="handover-url-${player.id}">${link.url}</p>
      <p class="seat-until"><strong>${t('seat_until', { time, n: Math.ceil(left / 60000) })}</strong></p>`
    : html`<p class="why">${t('seat_expired')}</p>`}
    <div class="links">${left > 0 && navigator.clipboard ? html`<button type="button" data-copy="${player.id}">${t('copy_link')}</button>` : ''}
      ${left > 0 ? '' : html`<button type="button" class="primary" data-handover="${player.id}">${t('seat_new_link')}</button>`}
      <button type="button" data-drop="${player.id}" id="handover-close-${player.id}">${t('seat_close')}</button></div></div>`;
}

/** An element with hand-over buttons: making a link, copying it, closing it. */
class Handing extends Drawn {
  connectedCallback() {
    if (!this.listening) this.addEventListener('click', (event) => this.clicked(event));
    this.listening = true;
    super.connectedCallback();
  }

  async clicked(event) {
    const button = event.target.closest('button');
    const { session } = this;
    if (!button || !session) return;
    event.stopPropagation(); // the page's own click handler has nothing to do with these
    const { handover, copy, drop } = button.dataset;
    const key = `${session.code}:${handover || copy || drop}`;
    if (copy) {
      try { await navigator.clipboard.writeText(links.get(key).url); toast(t('copied')); } catch { /* the link is on screen */ }
    } else if (drop) {
      links.delete(key);
    } else if (handover && !asking.has(key)) {
      asking.add(key);
      redraw();
      try {
        const path = `/api/games/${encodeURIComponent(session.code)}/players/${encodeURIComponent(handover)}/handover`;
        const made = await request('POST', path, { token: session.token });
        const presence = session.live.presence;
        const away = Boolean(presence) && !presence.online.includes(handover);
        links.set(key, { url: made.url, qr: made.qr, until: Date.now() + made.expires_in * 1000, away });
      } catch (error) { toast(errorText(error), 'error'); }
      asking.delete(key);
    }
    redraw();
  }

  /** The button that makes a link for `player`'s seat (busy while it is being made). */
  giveButton(player, id, label, help = '') {
    const busy = asking.has(`${this.session.code}:${player.id}`);
    return html`<button type="button" id="${id}" data-handover="${player.id}" ${help ? html`aria-describedby="${help}"` : ''} ${busy ? html`disabled aria-busy="true"` : ''}>${busy ? html`<span class="spinner" aria-hidden="true"></span>` : ''}${label}</button>`;
  }
}

/** The host's card: every player's phone (online, or away and for how long) and its hand-over. */
class SeatHandover extends Handing {
  markup(state, session, now) {
    if (state.phase === 'finished' || !state.players.length) return html``;
    const presence = session.live.presence;
    const status = (pid) => {
      if (!presence) return '';
      if (presence.online.includes(pid)) return html`<span class="tag ok">${t('away_online')}</span>`;
      return isAway(presence, pid) ? html`<span class="tag away">${awayWords(awayFor(presence, pid, now))}</span>` : '';
    };
    return html`<section class="card seats" aria-labelledby="seats-h"><h2 id="seats-h">${t('seats_h')}</h2>
      <p class="muted">${t('seats_help')}</p>
      <ul class="seat-list">${state.players.map((p) => html`<li class="seat" id="seat-${p.id}">
        <p class="seat-who">${swatch(session.ruleset, p.character, false)} <strong>${p.name}</strong> ${status(p.id)}</p>
        ${linkBlock(session.code, p, now) || this.giveButton(p, `handover-${p.id}`, t('seat_give', { name: p.name }))}</li>`)}</ul></section>`;
  }
}

/** A player's own phone: a link for the phone it moves to (the old one lets go once it is used). */
class SeatMove extends Handing {
  markup(state, session) {
    const me = state.players.find((p) => p.id === state.you);
    if (!me || state.phase !== 'playing') return html``;
    // one button until a link is made (a planned switch is rare): then the link, its QR code and its minutes
    const link = linkBlock(session.code, me, Date.now());
    if (!link) {
      return html`<section class="card seat-move" aria-label="${t('seat_move_h')}"><p class="sr-only" id="seat-move-help">${t('seat_move_help')}</p>
        ${this.giveButton(me, 'seat-move-make', t('seat_move_h'), 'seat-move-help')}</section>`;
    }
    return html`<section class="card seat-move" aria-labelledby="seat-move-h"><h2 id="seat-move-h">${t('seat_move_h')}</h2>${link}</section>`;
  }
}

for (const [name, element] of [['away-mark', AwayMark], ['waiting-for', WaitingFor], ['seat-handover', SeatHandover], ['seat-move', SeatMove]]) {
  if (!customElements.get(name)) customElements.define(name, element);
}
