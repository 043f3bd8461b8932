// Home: create a game, join one by code, or go back to a game this phone already holds.
import { api, forgetGame, knownGames, normaliseCode, saveTokens } from '../api.js';
import { html, render } from '../html.js';
import { t } from '../i18n.js';
import { errorText, toast } from '../ui.js';

export function mount(root, { navigate }) {
  const ui = { quests: 2, sunkCrew: 1, ships: 3, defenderOnly: false, lapse: true, randomOrder: false, code: '' };

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
          <fieldset><legend>${t('quests_per_level')}</legend>
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
          </fieldset>
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
      // Only what differs from the ruleset's house defaults is sent (RULES.md marks them).
      const house = {};
      if (ui.sunkCrew !== 1) house.sunk_crew = ui.sunkCrew;
      if (ui.ships !== 3) house.caps = { ships: ui.ships };
      if (ui.defenderOnly) house.surrender_by = 'defender';
      if (!ui.lapse) house.offers_lapse = false;
      const options = { quests_per_level: ui.quests };
      if (Object.keys(house).length) options.house_rules = house;
      try {
        const game = await api.createGame(options);
        saveTokens(game.code, { host: game.host_token, randomOrder: ui.randomOrder });
        navigate(`/join/${game.code}`);
      } catch (error) {
        toast(errorText(error), 'error');
        button.disabled = false;
      }
    }
  }

  function onChange(event) {
    const el = event.target;
    if (el.name === 'quests') ui.quests = Number(el.value);
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
