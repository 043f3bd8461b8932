// Home: create a game, join one by code, or go back to a game this phone already holds.
import { api, forgetGame, knownGames, normaliseCode, saveTokens } from '../api.js';
import { html, render } from '../html.js';
import { t } from '../i18n.js';
import { GAMES, rememberGame } from '../games.js';
import { errorText, toast } from '../ui.js';

export function mount(root, { navigate }) {
  const ui = {
    game: 'quest1607', quests: 2, sunkCrew: 1, ships: 3, defenderOnly: false, lapse: true, randomOrder: false, code: '',
    foreignPrice: 200, paidTo: 'bank', rounds: '', startingGold: 2, minBid: 1,
  };

  function questOptions() {
    return html`<fieldset><legend>${t('quests_per_level')}</legend>
            ${[1, 2, 3].map((n) => html`<label class="chip"><input type="radio" name="quests" value="${n}" ${n === ui.quests ? html`checked` : ''}> ${n}</label>`)}
          </fieldset>
          <fieldset><legend>${t('house_rules')}</legend>
            <label class="check"><input id="random-order" type="checkbox" ${ui.randomOrder ? html`checked` : ''}> ${t('random_order')}</label>
            <label>${t('sunk_crew')}
              <select id="sunk-crew">${[1, 2, 3].map((n) => html`<option value="${n}" ${n === ui.sunkCrew ? html`selected` : ''}>${n}</option>`)}</select></label>
            <label>${t('max_ships')}
              <select id="max-ships">${[1, 2, 3, 4, 5].map((n) => html`<option value="${n}" ${n === ui.ships ? html`selected` : ''}>${n}</option>`)}</select></label>
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
      <label>${t('opt_min_bid')} <select id="min-bid">${[0, 1, 2].map((n) => html`<option value="${n}" ${n === ui.minBid ? html`selected` : ''}>${n}</option>`)}</select></label>
    </fieldset>`;
  }

  function options() {
    if (ui.game === 'serenissima') {
      const house = {};
      if (ui.foreignPrice !== 200) house.foreign_price = ui.foreignPrice;
      if (ui.paidTo !== 'bank') house.foreign_paid_to = ui.paidTo;
      if (ui.rounds !== '') house.rounds = Number(ui.rounds);
      return Object.keys(house).length ? { house_rules: house } : {};
    }
    if (ui.game === 'voyagers') {
      const house = {};
      if (ui.startingGold !== 2) house.starting_gold = ui.startingGold;
      if (ui.minBid !== 1) house.min_bid_cards = ui.minBid;
      return Object.keys(house).length ? { house_rules: house } : {};
    }
    // Only what differs from the ruleset's house defaults is sent (RULES.md marks them).
    const house = {};
    if (ui.sunkCrew !== 1) house.sunk_crew = ui.sunkCrew;
    if (ui.ships !== 3) house.caps = { ships: ui.ships };
    if (ui.defenderOnly) house.surrender_by = 'defender';
    if (!ui.lapse) house.offers_lapse = false;
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
          ${ui.game === 'quest1607' ? questOptions() : otherOptions()}
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
    if (event.target.id === 'create-form') {
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
    if (el.name === 'game' && el.value !== ui.game) { ui.game = el.value; draw(); return; }
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
  draw();
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
