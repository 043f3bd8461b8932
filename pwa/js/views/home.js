// Home: create a game, join one by code, or go back to a game this phone already holds.
import { api, forgetGame, knownGames, normaliseCode, saveTokens } from '../api.js';
import { html, render } from '../html.js';
import { t } from '../i18n.js';
import { GAMES, rememberGame } from '../games.js';
import { errorText, toast } from '../ui.js';
import './home_strings.js';

/** The create form's settings of each game, from its ruleset's house defaults (the server's numbers). */
function defaultsOf(game, rs) {
  if (game === 'serenissima') {
    const house = rs.house_defaults;
    return { foreignPrice: house.foreign_price, paidTo: house.foreign_paid_to, rounds: house.rounds ?? '' };
  }
  if (game === 'voyagers') {
    const house = rs.house_defaults;
    return { startingGold: house.starting_gold, minBid: house.min_bid_cards };
  }
  return { quests: rs.quests_per_level.default, questChoices: rs.quests_per_level.allowed, sunkCrew: rs.sunk_crew,
    ships: rs.caps.ships, defenderOnly: rs.surrender_by === 'defender', lapse: rs.offers_lapse };
}

/** A few choices around a default, as a picker offers them (the server checks the bounds). */
const around = (value, least, most) => Array.from({ length: Math.max(most, value) - least + 1 }, (_, i) => least + i);

export function mount(root, { navigate }) {
  const ui = { game: 'quest1607', randomOrder: false, code: '' };
  const defaults = {}; // game → its form settings as the ruleset has them

  /** Load a game's house defaults once (the form waits for them), then draw. */
  async function choose(game) {
    ui.game = game;
    if (!defaults[game]) {
      try {
        defaults[game] = defaultsOf(game, await api.defaultRuleset(game));
      } catch (error) {
        toast(errorText(error), 'error');
        return;
      }
    }
    Object.assign(ui, defaults[game]);
    draw();
  }

  function questOptions() {
    return html`<fieldset><legend>${t('quests_per_level')}</legend>
            ${ui.questChoices.map((n) => html`<label class="chip"><input type="radio" name="quests" value="${n}" ${n === ui.quests ? html`checked` : ''}> ${n}</label>`)}
          </fieldset>
          <fieldset><legend>${t('house_rules')}</legend>
            <label class="check"><input id="random-order" type="checkbox" ${ui.randomOrder ? html`checked` : ''}> ${t('random_order')}</label>
            <label>${t('sunk_crew')}
              <select id="sunk-crew">${around(ui.sunkCrew, 1, 3).map((n) => html`<option value="${n}" ${n === ui.sunkCrew ? html`selected` : ''}>${n}</option>`)}</select></label>
            <label>${t('max_ships')}
              <select id="max-ships">${around(ui.ships, 1, 5).map((n) => html`<option value="${n}" ${n === ui.ships ? html`selected` : ''}>${n}</option>`)}</select></label>
            <label class="check"><input id="defender-only" type="checkbox" ${ui.defenderOnly ? html`checked` : ''}> ${t('defender_only')}</label>
            <label class="check"><input id="offers-lapse" type="checkbox" ${ui.lapse ? html`checked` : ''}> ${t('offers_lapse')}</label>
          </fieldset>`;
  }

  // The house defaults of RULES.md (SE15, SE19; VV3, VV20), each a setting of the new game.
  function otherOptions() {
    if (ui.game === 'serenissima') {
      return html`<fieldset><legend>${t('house_rules')}</legend>
        <label>${t('opt_foreign_price')} <input id="foreign-price" type="number" min="0" step="10" inputmode="numeric" value="${ui.foreignPrice}"></label>
        <label>${t('opt_foreign_paid_to')} <select id="paid-to">${['bank', 'controller'].map((v) => html`<option value="${v}" ${v === ui.paidTo ? html`selected` : ''}>${t(`opt_${v}`)}</option>`)}</select></label>
        <label>${t('opt_rounds')} <input id="rounds" type="number" min="1" inputmode="numeric" value="${ui.rounds}"></label>
      </fieldset>`;
    }
    return html`<fieldset><legend>${t('house_rules')}</legend>
      <label class="check"><input id="random-order" type="checkbox" ${ui.randomOrder ? html`checked` : ''}> ${t('random_order')}</label>
      <label>${t('opt_starting_gold')} <input id="starting-gold" type="number" min="0" inputmode="numeric" value="${ui.startingGold}"></label>
      <label>${t('opt_min_bid')} <select id="min-bid">${around(ui.minBid, 0, 2).map((n) => html`<option value="${n}" ${n === ui.minBid ? html`selected` : ''}>${n}</option>`)}</select></label>
    </fieldset>`;
  }

  /** The options of the new game: only what differs from the ruleset's house defaults is sent. */
  function options() {
    const base = defaults[ui.game];
    const house = {};
    if (ui.game === 'serenissima') {
      if (ui.foreignPrice !== base.foreignPrice) house.foreign_price = ui.foreignPrice;
      if (ui.paidTo !== base.paidTo) house.foreign_paid_to = ui.paidTo;
      if (ui.rounds !== base.rounds) house.rounds = ui.rounds === '' ? null : Number(ui.rounds);
      return Object.keys(house).length ? { house_rules: house } : {};
    }
    if (ui.game === 'voyagers') {
      if (ui.startingGold !== base.startingGold) house.starting_gold = ui.startingGold;
      if (ui.minBid !== base.minBid) house.min_bid_cards = ui.minBid;
      return Object.keys(house).length ? { house_rules: house } : {};
    }
    if (ui.sunkCrew !== base.sunkCrew) house.sunk_crew = ui.sunkCrew;
    if (ui.ships !== base.ships) house.caps = { ships: ui.ships };
    if (ui.defenderOnly !== base.defenderOnly) house.surrender_by = ui.defenderOnly ? 'defender' : 'either';
    if (ui.lapse !== base.lapse) house.offers_lapse = ui.lapse;
    const quest = { quests_per_level: ui.quests };
    if (Object.keys(house).length) quest.house_rules = house;
    return quest;
  }

  function draw() {
    const games = knownGames();
    render(root, html`
      <section class="hero"><h1>${t('app')}</h1><p>${t('tagline')}</p></section>
      <section class="card">
        <h2>${t('join_game')}</h2>
        <form id="join-form" class="row">
          <label class="grow">${t('game_code')}
            <input id="join-code" name="code" autocomplete="off" autocapitalize="characters" inputmode="text"
              maxlength="6" required pattern="[A-Za-z0-9]{6}" value="${ui.code}" class="code-input"></label>
          <button type="submit" class="primary">${t('join')}</button>
        </form>
      </section>
      <section class="card">
        <h2>${t('create_game')}</h2>
        <form id="create-form">
          <fieldset class="game-choice"><legend>${t('game')}</legend>
            ${GAMES.map((g) => html`<label class="chip"><input type="radio" name="game" id="game-${g}" value="${g}" ${g === ui.game ? html`checked` : ''}> ${t(`game_${g}`)}</label>`)}
          </fieldset>
          ${!defaults[ui.game] ? html`<p class="loading">…</p>` : ui.game === 'quest1607' ? questOptions() : otherOptions()}
          <button type="submit" class="primary wide">${t('create')}</button>
        </form>
      </section>
      ${games.length ? html`<section class="card"><h2>${t('your_games')}</h2><ul class="games">
        ${games.map((g) => html`<li><strong class="mono">${g.code}</strong>
          <span>${g.player ? html`${g.player.name} · ${t('as_player')}` : ''}${g.player && g.host ? ' · ' : ''}${g.host ? t('as_host') : ''}</span>
          <a class="button" data-link href="/${g.player ? 'play' : 'join'}/${g.code}">${t('open')}</a>
          ${g.host ? html`<a class="button" data-link href="/host/${g.code}">${t('host_panel')}</a>` : ''}
          <button type="button" data-forget="${g.code}" class="ghost">${t('forget')}</button></li>`)}
      </ul></section>` : ''}
    `);
  }

  async function onSubmit(event) {
    event.preventDefault();
    if (event.target.id === 'join-form') {
      const code = normaliseCode(root.querySelector('#join-code').value);
      if (code.length === 6) navigate(`/join/${code}`);
      return;
    }
    if (event.target.id === 'create-form' && defaults[ui.game]) {
      const button = event.target.querySelector('button[type=submit]');
      button.disabled = true;
      try {
        const game = await api.createGame(options(), ui.game);
        rememberGame(game.code, ui.game);
        saveTokens(game.code, { host: game.host_token, randomOrder: ui.game !== 'serenissima' && ui.randomOrder });
        navigate(`/join/${game.code}`);
      } catch (error) {
        toast(errorText(error), 'error');
        button.disabled = false;
      }
    }
  }

  function onChange(event) {
    const el = event.target;
    if (el.name === 'game' && el.value !== ui.game) { choose(el.value); return; }
    if (el.name === 'quests') ui.quests = Number(el.value);
    if (el.id === 'foreign-price') ui.foreignPrice = Math.max(0, Number(el.value) || 0);
    if (el.id === 'paid-to') ui.paidTo = el.value;
    if (el.id === 'rounds') ui.rounds = el.value === '' ? '' : Math.max(1, Number(el.value) || 1);
    if (el.id === 'starting-gold') ui.startingGold = Math.max(0, Number(el.value) || 0);
    if (el.id === 'min-bid') ui.minBid = Number(el.value);
    if (el.id === 'random-order') ui.randomOrder = el.checked;
    if (el.id === 'sunk-crew') ui.sunkCrew = Number(el.value);
    if (el.id === 'max-ships') ui.ships = Number(el.value);
    if (el.id === 'defender-only') ui.defenderOnly = el.checked;
    if (el.id === 'offers-lapse') ui.lapse = el.checked;
    if (el.id === 'join-code') ui.code = normaliseCode(el.value);
  }

  function onClick(event) {
    const forget = event.target.closest('[data-forget]');
    if (forget) { forgetGame(forget.dataset.forget); draw(); }
  }

  root.addEventListener('submit', onSubmit);
  root.addEventListener('input', onChange);
  root.addEventListener('change', onChange);
  root.addEventListener('click', onClick);
  choose(ui.game);
  return {
    refresh: draw,
    unmount() {
      root.removeEventListener('submit', onSubmit);
      root.removeEventListener('input', onChange);
      root.removeEventListener('change', onChange);
      root.removeEventListener('click', onClick);
    },
  };
}
