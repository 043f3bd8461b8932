// Home: join a game by code, create one (with its house rules), or go back to a game this phone holds.
// A page of parts (../page.js), one per card: each keeps its own state and draws in place, only when
// what it reads changed.
import { api, forgetGame, knownGames, normaliseCode, saveTokens } from '../api.js';
import { html } from '../html.js';
import { t, tx } from '../i18n.js';
import { GAMES, rememberGame } from '../games.js';
import { Page } from '../page.js';
import { errorText, toast } from '../ui.js';
import { styled } from './home_strings.js';

/** Each game's default ruleset (its house defaults, its characters), asked once. */
const rulesets = {};
const rulesetOf = (game) => {
  rulesets[game] ||= api.defaultRuleset(game).catch((error) => { delete rulesets[game]; throw error; });
  return rulesets[game];
};

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
const picked = (on, word) => (on ? html`${word}` : '');
const numbers = (values, chosen) => values.map((n) => html`<option value="${n}" ${picked(n === chosen, 'selected')}>${n}</option>`);

const hero = { name: 'hero', read: () => [], view: () => html`<section class="hero"><h1>${t('app')}</h1><p>${t('tagline')}</p></section>` };

/** Join a game by its code. */
class JoinCard {
  constructor(navigate) {
    this.navigate = navigate;
    this.code = '';
    this.on = { input: this.input, change: this.input, submit: this.submit };
  }

  read() { return [this.code]; }

  view() {
    return html`<section class="card" id="join-card">
      <h2>${t('join_game')}</h2>
      <form id="join-form" class="row">
        <label class="grow">${t('game_code')}
          <input id="join-code" name="code" autocomplete="off" autocapitalize="characters" inputmode="text"
            maxlength="6" required pattern="[A-Za-z0-9]{6}" value="${this.code}" class="code-input"></label>
        <button type="submit" class="primary">${t('join')}</button>
      </form>
    </section>`;
  }

  input({ target: el }) {
    if (el.id !== 'join-code' || normaliseCode(el.value) === this.code) return null;
    this.code = normaliseCode(el.value);
    return true;
  }

  submit({ target: form }) {
    if (form.id !== 'join-form') return null;
    const code = normaliseCode(form.querySelector('#join-code').value);
    if (code.length === 6) this.navigate(`/join/${code}`);
    return null;
  }
}

/** Create a game: which game, and its house rules (only what differs from the defaults is sent). */
class CreateCard {
  constructor(navigate) {
    this.navigate = navigate;
    this.ui = { game: 'quest1607', randomOrder: false, creating: false };
    this.defaults = {}; // game → its form settings as the ruleset has them
    this.on = { input: this.input, change: this.input, submit: this.submit };
  }

  read() { return [...Object.values(this.ui), this.defaults[this.ui.game]]; }

  /** Load a game's house defaults once (the form waits for them), then draw. */
  async choose(game) {
    this.ui.game = game;
    if (!this.defaults[game]) {
      try {
        this.defaults[game] = defaultsOf(game, await rulesetOf(game));
      } catch (error) {
        toast(errorText(error), 'error');
        return;
      }
    }
    if (this.ui.game === game) Object.assign(this.ui, this.defaults[game]);
    this.page.schedule();
  }

  questOptions() {
    const ui = this.ui;
    return html`<fieldset><legend>${t('quests_per_level')}</legend>
        ${ui.questChoices.map((n) => html`<label class="chip"><input type="radio" name="quests" value="${n}" ${picked(n === ui.quests, 'checked')}> ${n}</label>`)}
      </fieldset>
      <fieldset><legend>${t('house_rules')}</legend>
        <label class="check"><input id="random-order" type="checkbox" ${picked(ui.randomOrder, 'checked')}> ${t('random_order')}</label>
        <label>${t('sunk_crew')} <select id="sunk-crew">${numbers(around(ui.sunkCrew, 1, 3), ui.sunkCrew)}</select></label>
        <label>${t('max_ships')} <select id="max-ships">${numbers(around(ui.ships, 1, 5), ui.ships)}</select></label>
        <label class="check"><input id="defender-only" type="checkbox" ${picked(ui.defenderOnly, 'checked')}> ${t('defender_only')}</label>
        <label class="check"><input id="offers-lapse" type="checkbox" ${picked(ui.lapse, 'checked')}> ${t('offers_lapse')}</label>
      </fieldset>`;
  }

  // The house defaults of RULES.md (SE15, SE19; VV3, VV20), each a setting of the new game.
  otherOptions() {
    const ui = this.ui;
    if (ui.game === 'serenissima') {
      return html`<fieldset><legend>${t('house_rules')}</legend>
        <label>${t('opt_foreign_price')} <input id="foreign-price" type="number" min="0" step="10" inputmode="numeric" value="${ui.foreignPrice}"></label>
        <label>${t('opt_foreign_paid_to')} <select id="paid-to">${['bank', 'controller'].map((v) => html`<option value="${v}" ${picked(v === ui.paidTo, 'selected')}>${t(`opt_${v}`)}</option>`)}</select></label>
        <label>${t('opt_rounds')} <input id="rounds" type="number" min="1" inputmode="numeric" value="${ui.rounds}"></label>
      </fieldset>`;
    }
    return html`<fieldset><legend>${t('house_rules')}</legend>
      <label class="check"><input id="random-order" type="checkbox" ${picked(ui.randomOrder, 'checked')}> ${t('random_order')}</label>
      <label>${t('opt_starting_gold')} <input id="starting-gold" type="number" min="0" inputmode="numeric" value="${ui.startingGold}"></label>
      <label>${t('opt_min_bid')} <select id="min-bid">${numbers(around(ui.minBid, 0, 2), ui.minBid)}</select></label>
    </fieldset>`;
  }

  view() {
    const ui = this.ui;
    const ready = Boolean(this.defaults[ui.game]);
    return html`<section class="card" id="create-card">
      <h2>${t('create_game')}</h2>
      <form id="create-form">
        <fieldset class="game-choice"><legend>${t('game')}</legend>
          ${GAMES.map((g) => html`<label class="chip"><input type="radio" name="game" id="game-${g}" value="${g}" ${picked(g === ui.game, 'checked')}> ${t(`game_${g}`)}</label>`)}
        </fieldset>
        <div id="house-${ui.game}">${!ready ? html`<p class="loading">…</p>` : ui.game === 'quest1607' ? this.questOptions() : this.otherOptions()}</div>
        <button type="submit" class="primary wide" ${picked(!ready || ui.creating, 'disabled')}>${t('create')}</button>
      </form>
    </section>`;
  }

  /** The options of the new game: only what differs from the ruleset's house defaults is sent. */
  options() {
    const { ui } = this;
    const base = this.defaults[ui.game];
    const differs = (key) => ui[key] !== base[key];
    const house = {};
    if (ui.game === 'serenissima') {
      if (differs('foreignPrice')) house.foreign_price = ui.foreignPrice;
      if (differs('paidTo')) house.foreign_paid_to = ui.paidTo;
      if (differs('rounds')) house.rounds = ui.rounds === '' ? null : Number(ui.rounds);
      return Object.keys(house).length ? { house_rules: house } : {};
    }
    if (ui.game === 'voyagers') {
      if (differs('startingGold')) house.starting_gold = ui.startingGold;
      if (differs('minBid')) house.min_bid_cards = ui.minBid;
      return Object.keys(house).length ? { house_rules: house } : {};
    }
    if (differs('sunkCrew')) house.sunk_crew = ui.sunkCrew;
    if (differs('ships')) house.caps = { ships: ui.ships };
    if (differs('defenderOnly')) house.surrender_by = ui.defenderOnly ? 'defender' : 'either';
    if (differs('lapse')) house.offers_lapse = ui.lapse;
    const quest = { quests_per_level: ui.quests };
    if (Object.keys(house).length) quest.house_rules = house;
    return quest;
  }

  /** A control of the form: its value kept; true (draw the form) when that changed it. */
  input({ target: el }) {
    const ui = this.ui;
    if (el.name === 'game') {
      if (el.value === ui.game) return null;
      this.choose(el.value);
      return true;
    }
    const number = (least) => Math.max(least, Number(el.value) || least);
    const [key, value] = el.name === 'quests' ? ['quests', Number(el.value)] : {
      'foreign-price': () => ['foreignPrice', number(0)],
      'paid-to': () => ['paidTo', el.value],
      rounds: () => ['rounds', el.value === '' ? '' : number(1)],
      'starting-gold': () => ['startingGold', number(0)],
      'min-bid': () => ['minBid', Number(el.value)],
      'random-order': () => ['randomOrder', el.checked],
      'sunk-crew': () => ['sunkCrew', Number(el.value)],
      'max-ships': () => ['ships', Number(el.value)],
      'defender-only': () => ['defenderOnly', el.checked],
      'offers-lapse': () => ['lapse', el.checked],
    }[el.id]?.() ?? [];
    if (!key || ui[key] === value) return null;
    ui[key] = value;
    return true;
  }

  submit({ target: form }) {
    const { ui } = this;
    if (form.id !== 'create-form' || !this.defaults[ui.game] || ui.creating) return null;
    ui.creating = true;
    this.create();
    return true;
  }

  /** Make the game and open its lobby; a refusal is told, and Create can be tapped again. */
  async create() {
    const { ui } = this;
    try {
      const game = await api.createGame(this.options(), ui.game);
      rememberGame(game.code, ui.game);
      saveTokens(game.code, { host: game.host_token, link: game.join_url, randomOrder: ui.game !== 'serenissima' && ui.randomOrder });
      this.navigate(`/join/${game.code}`);
    } catch (error) {
      toast(errorText(error), 'error');
      ui.creating = false;
      this.page.schedule();
    }
  }
}

/** Where a game stands, in words: in the lobby, playing (which round), or over (and who won). */
function standing(state) {
  if (!state) return '';
  if (state.gone) return t('home_gone');
  if (state.phase === 'lobby') return t('home_lobby', { n: state.players.length });
  if (state.phase !== 'finished') return state.round ? t('home_round', { n: state.round }) : t('home_playing');
  const winner = state.winner && state.players.find((p) => p.id === state.winner);
  return winner ? t('home_won', { name: winner.name }) : t('home_finished');
}

/** The games this phone holds: which game, who this phone is in it, and where it stands. */
class GamesCard {
  constructor() {
    this.seen = {}; // code → {state, ruleset}, a new object for each game told
    this.on = { click: this.click };
  }

  read() { return [this.seen]; }

  /** Ask the server where each game stands (the list shows at once, the words follow). */
  load() {
    const told = (code, seen) => { this.seen = { ...this.seen, [code]: seen }; };
    for (const { code } of knownGames()) {
      api.state(code).then(async (state) => {
        rememberGame(code, state.game);
        told(code, { state, ruleset: await rulesetOf(state.game).catch(() => null) });
      }, (error) => {
        if (error.status === 404) told(code, { state: { gone: true } });
      }).then(() => this.page.schedule());
    }
  }

  who(g, { state, ruleset } = {}) {
    if (!g.player) return '';
    const me = state && state.players && state.players.find((p) => p.id === g.player.id);
    const land = me && ruleset && (ruleset.characters || []).find((c) => c.id === me.character);
    const name = me ? me.name : g.player.name;
    return land ? t('home_you_as', { name, land: tx(land.name) }) : t('home_you', { name });
  }

  item(g) {
    const seen = this.seen[g.code] || {};
    const game = seen.state && seen.state.game;
    return html`<li data-key="game-${g.code}">
      <p class="game-line"><strong>${game ? t(`game_${game}`) : t('game')}</strong> <span class="mono">${g.code}</span></p>
      ${g.player ? html`<p>${this.who(g, seen)}</p>` : ''}${g.host ? html`<p>${t('home_hosting')}</p>` : ''}
      <p class="muted">${standing(seen.state)}</p>
      <p class="links">${seen.state && seen.state.gone ? '' : html`<a class="button" data-link href="/${g.player ? 'play' : 'join'}/${g.code}">${t('open')}</a>
        ${g.host ? html`<a class="button" data-link href="/host/${g.code}">${t('host_panel')}</a>` : ''}`}
        <button type="button" data-forget="${g.code}" class="ghost">${t('forget')}</button></p></li>`;
  }

  view() {
    const games = knownGames();
    if (!games.length) return '';
    return html`<section class="card" id="your-games"><h2>${t('your_games')}</h2>
      <ul class="games">${games.map((g) => this.item(g))}</ul></section>`;
  }

  click({ target }) {
    const forget = target.closest('[data-forget]');
    if (!forget) return null;
    forgetGame(forget.dataset.forget);
    return true;
  }
}

export async function mount(root, { navigate }) {
  await styled;
  const create = new CreateCard(navigate);
  const games = new GamesCard();
  // a phone that holds games goes back to one first
  const page = new Page(root, [hero, games, new JoinCard(navigate), create], () => ({}));
  create.choose(create.ui.game);
  games.load();
  page.schedule();
  return page.kept();
}
