// The rulebook page (/rules/<game>, /rules/<game>#U3): the chapters in the rulebook's order with each
// rule under its ID, a search over both languages at once, and the ruleset's numbers as tables built
// from the ruleset itself (house rules marked). `?code=` shows a game's own ruleset, house rules and all.
// The same book opens over a game's page (rule_dialog.js: `over`), which stays open beneath it.
// The rule texts are an answer of their own (/api/…/rules): only the book and a rule opened load them.
// The book is a page of parts (../page.js): a search draws the count and the chapters, a rule lit up
// the chapters (or the numbers, for an event).
import { api, normaliseCode, request } from '../api.js';
import { html } from '../html.js';
import { t, tx } from '../i18n.js';
import { formatResources, listOf, requirementText, resName, useRuleset } from '../logic/format.js';
import { costOf, effects } from '../logic/quest1607_facts.js';
import { Page } from '../page.js';
import { styled } from './rule_strings.js';

/** Lower case without accents, so "é" finds "e" and "Kanon" finds "kanon". */
const fold = (text) => String(text ?? '').normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();

/** Every word a rule can be found by: its ID, title and text in both languages. */
const wordsOf = (id, rule) => fold([id, ...Object.values(rule.title), ...Object.values(rule.text)].join(' '));

/** The rules whose words hold every word of `query` (all of them for an empty query). */
export function matching(rules, query) {
  const words = fold(query).split(/\s+/).filter(Boolean);
  return new Set(Object.entries(rules).filter(([id, rule]) => words.every((w) => wordsOf(id, rule).includes(w))).map(([id]) => id));
}

const at = (data, path) => path.split('.').reduce((v, k) => (v == null ? v : v[k]), data);

/** Whether a setting is a house rule, and whether this game plays it other than by default. */
function house(rs, key) {
  if (Array.isArray(rs.house_defaults)) { // Quest 1607: the keys, and the game's own choices in its options
    return { settable: rs.house_defaults.includes(key), changed: key in ((rs.options && rs.options.house_rules) || {}) };
  }
  const defaults = rs.house_defaults || {};
  return { settable: key in defaults, changed: key in defaults && JSON.stringify((rs.house_rules || {})[key]) !== JSON.stringify(defaults[key]) };
}

function shown(value) {
  if (value === true) return t('rb_yes');
  if (value === false) return t('rb_no');
  if (value === null) return t('rb_none_set');
  if (typeof value === 'string') { const word = t(`rb_v_${value}`); return word === `rb_v_${value}` ? value : word; }
  return String(value);
}

/** A table in a box that scrolls sideways on a narrow phone (and takes the focus, so keys scroll it too). */
const scroller = (caption, inner) => html`<div class="rb-scroll" tabindex="0" role="region" aria-label="${caption}">${inner}</div>`;

const table = (caption, head, rows) => scroller(caption, html`<table class="rb-table"><caption>${caption}</caption>
  <thead><tr>${head.map((h) => html`<th scope="col">${h}</th>`)}</tr></thead>
  <tbody>${rows}</tbody></table>`);

/** [label key, path in the ruleset, house-rule key] rows: the setting, its value, marked when a house rule. */
function settings(rs, caption, rows) {
  const body = rows.filter(([, path]) => at(rs, path) !== undefined).map(([label, path, key, now]) => {
    const h = key ? house(rs, key) : { settable: false };
    return html`<tr class="${h.changed ? 'changed' : ''}"><th scope="row">${t(label)}</th><td>${shown(at(rs, path))}
      ${h.settable ? html` <span class="rb-house">${t('rb_house')}</span>` : ''}${h.changed ? html` <strong class="rb-house">${t('rb_changed')}</strong>` : ''}
      ${nowBy(rs, now === undefined || now === at(rs, path) ? '' : shown(now))}</td></tr>`;
  });
  return table(caption, [t('rb_setting'), t('rb_value')], body);
}

/** "now 3, by event G7": a number the event in play bends (E1), beside the game's own. */
const nowBy = (rs, value) => (value ? html` <strong class="rb-now">${t('rb_now', { value, event: rs.event.id })}</strong>` : '');

const named = (list, id) => tx(((list || []).find((x) => x.id === id) || {}).name) || id;

function questNumbers(rs, lit) {
  const bent = effects(rs, rs); // the rules as the event in play bends them (the book of a game: rs.event)
  const cost = (c) => [Object.keys(c.pay).length ? formatResources(c.pay) : '', c.choice ? `${c.choice.count} ${c.choice.of.map(resName).join(` ${t('rb_or')} `)}` : '']
    .filter(Boolean).join(' + ');
  const what = (key) => html`<span class="unit">${key === 'quest' ? t('quest_card') : t('upgrade_part', { part: t(key) })}</span>`;
  const sides = Object.keys(rs.hit_table);
  const damage = (d) => (d.effect === 'crew' ? t('crew_loss', { n: d.loss || 1 }) : d.effect === 'sails_hit' ? t('sails_hit') : t('no_effect'));
  const houseHit = house(rs, 'hit_table');
  return html`
    ${table(t('rb_costs'), [t('rb_what'), t('rb_cost')], Object.entries(rs.costs).map(([key, c]) => {
      const now = bent.costs[key] ? cost({ ...c, pay: costOf(rs, key, '', rs) }) : ''; // '': its fixed part, the choice as it is
      return html`<tr><th scope="row">${what(key)}</th><td>${cost(c)}${nowBy(rs, now)}</td></tr>`;
    }))}
    ${table(t('rb_white_die'), [t('rb_face'), t('rb_resource')], Object.entries(rs.white_die).map(([face, res]) => html`<tr><th scope="row">${face}</th><td>${res === 'land' ? `${resName(res)} (${t('rb_land')})` : resName(res)}</td></tr>`))}
    ${scroller(t('rb_hit_table'), html`<table class="rb-table rb-grid ${houseHit.changed ? 'changed' : ''}"><caption>${t('rb_hit_table')}
      ${houseHit.settable ? html`<span class="rb-house">${t('rb_house')}</span>` : ''}${houseHit.changed ? html` <strong class="rb-house">${t('rb_changed')}</strong>` : ''}
      <span class="rb-axes">${t('rb_hit_axes')}</span></caption>
      <thead><tr><td></td>${sides.map((b) => html`<th scope="col" aria-label="${t('rb_crew_n', { n: b })}">${b}</th>`)}</tr></thead>
      <tbody>${sides.map((k) => html`<tr><th scope="row" aria-label="${t('rb_cannons_n', { n: k })}">${k}</th>${sides.map((b) => html`<td>${rs.hit_table[k][b]}+</td>`)}</tr>`)}</tbody></table>`)}
    ${table(t('rb_damage'), [t('rb_face'), t('rb_effect')], Object.entries(rs.damage).map(([face, d]) => html`<tr><th scope="row">${face}</th><td>${damage(d)}</td></tr>`))}
    ${settings(rs, t('rb_settings'), [
      ['rb_cap_cannons', 'caps.cannons', 'caps'], ['rb_cap_sails', 'caps.sails', 'caps'], ['rb_cap_ships', 'caps.ships', 'caps'],
      ['rb_new_ship_at', 'new_ship_at_crew'], ['rb_white_dice', 'white_dice'],
      ['rb_hit_min', 'hit_bounds.min', 'hit_bounds'], ['rb_hit_max', 'hit_bounds.max', 'hit_bounds'],
      ['rb_sunk_crew', 'sunk_crew', 'sunk_crew'], ['rb_keep_divisor', 'keep_divisor', 'keep_divisor'], ['rb_fish', 'fish'],
      ['rb_market', 'market.rate', null, bent.market_rate], ['rb_bank', 'bank.rate', null, bent.bank_rate], ['rb_per_level', 'options.quests_per_level'],
      ['rb_lapse', 'offers_lapse', 'offers_lapse'], ['rb_trade_active', 'trade_with_active_player', 'trade_with_active_player'],
      ['rb_surrender_by', 'surrender_by', 'surrender_by'],
    ])}
    ${table(t('rb_lands'), [t('rb_lands'), t('rb_resource')], rs.characters.map((c) => html`<tr><th scope="row">${tx(c.name)}</th><td>${resName(c.land_resource)}</td></tr>`))}
    ${table(t('rb_quests'), [t('rb_level'), t('rb_title_col'), t('rb_text')], rs.quests.map((q) => html`<tr><td>${t(q.level)}</td><th scope="row">${tx(q.title)}</th>
      <td>${tx(q.text)}<span class="muted"> (${listOf(q.requirements.map(requirementText))})</span></td></tr>`))}
    ${table(t('rb_events'), [t('rb_id'), t('rb_title_col'), t('rb_text')], rs.events.map((e) => html`<tr id="${e.id}" tabindex="-1" ${e.id === lit ? html`class="lit"` : ''}><th scope="row">${e.id}</th><td>${tx(e.title)}</td><td>${tx(e.text)}</td></tr>`))}`;
}

function serenissimaNumbers(rs) {
  const hr = (key) => `house_rules.${key}`;
  return html`
    ${settings(rs, t('rb_settings'), [
      ['rb_ducats', 'start.ducats'], ['rb_galleys', 'start.galleys'], ['rb_sailors', 'start.sailors'], ['rb_good_price', 'good_price'],
      ['rb_foreign_price', hr('foreign_price'), 'foreign_price'], ['rb_paid_to', hr('foreign_paid_to'), 'foreign_paid_to'], ['rb_rounds', hr('rounds'), 'rounds'],
    ])}
    ${table(t('rb_setups'), [t('rb_players'), t('rb_powers')], Object.entries(rs.setups).map(([n, sets]) => html`<tr><th scope="row">${n}</th>
      <td>${sets.map((powers) => listOf(powers.map((p) => named(rs.powers, p)))).join(' · ')}</td></tr>`))}
    ${table(t('rb_phases'), ['#', t('rb_title_col')], rs.phases.map((p) => html`<tr><th scope="row">${p.number}</th><td>${tx(p.name)}</td></tr>`))}
    ${table(t('rb_ports'), [t('rb_port'), t('rb_sea'), t('rb_goods')], rs.ports.map((p) => html`<tr><th scope="row">${tx(p.name)}</th>
      <td>${named(rs.sea_areas, p.sea_area)}</td><td>${listOf(p.goods.map((g) => named(rs.goods, g)))}</td></tr>`))}`;
}

function voyagersNumbers(rs) {
  const hr = (key) => `house_rules.${key}`;
  return settings(rs, t('rb_settings'), [
    ['rb_rounds', 'rounds'], ['rb_first_year', 'first_year'], ['rb_hand_limit', 'hand_limit'],
    ['rb_cut_doubloons', 'cuts.doubloons'], ['rb_cut_remove', 'cuts.remove_at_least'], ['rb_cut_swap', 'cuts.swap_remove_at_least'],
    ['rb_fastest', 'reputation.fastest_fleet'], ['rb_gold_point', 'reputation.gold_per_point'], ['rb_smuggled', 'reputation.smuggled_penalty'],
    ['rb_min_players', hr('min_players'), 'min_players'], ['rb_max_players', hr('max_players'), 'max_players'],
    ['rb_starting_gold', hr('starting_gold'), 'starting_gold'], ['rb_min_bid', hr('min_bid_cards'), 'min_bid_cards'],
  ]);
}

const NUMBERS = { quest1607: questNumbers, serenissima: serenissimaNumbers, voyagers: voyagersNumbers };

/** One rule under its ID (the anchor a refusal's link names), `lit` when a link named it. */
export const ruleEntry = (id, rule, lit = false) => html`<article class="${lit ? 'rb-rule lit' : 'rb-rule'}" id="${id}" tabindex="-1" aria-labelledby="${id}-h">
  <h3 id="${id}-h"><a class="rb-id" href="#${id}">${id}</a> ${tx(rule.title)}</h3><p>${tx(rule.text)}</p></article>`;

/**
 * The ruleset a page shows with its rulebook's texts: a game's own (`code`), else the game's defaults.
 * The whole book of a game of Quest 1607 (`numbers`) brings the event in play (E1) too, as `event`: the
 * numbers it bends show beside the game's own.
 */
export async function bookFor(game, code, numbers = false) {
  const where = code ? `/api/games/${encodeURIComponent(code)}` : `/api/rulesets/${encodeURIComponent(game)}`;
  const table = numbers && code && game === 'quest1607' ? api.state(code).catch(() => null) : null;
  const [rs, texts, view] = await Promise.all([code ? api.ruleset(code) : api.defaultRuleset(game), request('GET', `${where}/rules`), table]);
  return { ...rs, rules: { ...rs.rules, ...texts }, event: (view && view.event) || null };
}

/**
 * Draw the book in `root`. As the page, it follows the address's `?code=` and `#ID`; `over` a game's
 * page, it is given the game's `code` and the rule to show (`hash`), and a link to a chapter or a
 * rule scrolls the book there without touching the game page's address.
 */
export async function mount(root, { game, hash, code: given, over = false }) {
  const code = over ? given : normaliseCode(new URLSearchParams(location.search).get('code') || '') || null;
  await styled;
  let rs = null;
  try {
    rs = await bookFor(game, code, true);
    useRuleset(rs);
  } catch { /* offline without a cached copy: the page says so */ }
  const book = Object.assign(document.createElement('div'), { className: 'rulebook' });
  let query = '';
  let found = rs && matching(rs.rules.rules, query); // the rules the search finds, a new set for each search
  let lit = ''; // the rule (or event) a link named

  /** Scroll to the rule (or event) the hash names (the address's, or `named`), light it up and focus it. */
  const reveal = (named) => {
    const id = decodeURIComponent((typeof named === 'string' ? named : location.hash).slice(1));
    const target = id && book.querySelector(`[id="${CSS.escape(id)}"]`);
    lit = target ? id : '';
    page.schedule();
    if (!target) return;
    target.scrollIntoView({ block: 'start' });
    target.focus({ preventScroll: true });
  };
  /** A link of the book (`selector`) scrolls the book there; over a game's page, the address stays the game's. */
  const jump = (selector) => (event) => {
    const link = event.target.closest(selector);
    if (!link) return null;
    event.preventDefault();
    if (!over) history.pushState(null, '', link.hash); // Back goes to the rule shown before (app.js routes it)
    reveal(link.hash);
    return null;
  };
  const parts = !rs ? [{ name: 'unavailable', read: () => [], view: () => html`<p class="why" role="alert">${t('rb_unavailable')}</p>` }] : [
    {
      name: 'title',
      read: () => [],
      view: () => html`<h1 id="rb-h">${t('rb_title', { game: tx(rs.name) })}</h1>
        <p class="muted">${tx(rs.rules.source)}${code ? html` ${t('rb_of_game', { code })}` : ''}</p>`,
    },
    {
      name: 'search',
      read: () => [found],
      view: () => html`<div class="rb-search"><label for="rb-q">${t('rb_search')}</label>
          <input type="search" id="rb-q" value="${query}" autocomplete="off" spellcheck="false" aria-describedby="rb-count"></div>
        <p id="rb-count" class="muted" role="status">${query ? (found.size ? t('rb_found', { n: found.size }) : t('rb_none')) : t('rb_all', { n: found.size })}</p>`,
      on: {
        input({ target }) {
          if (target.id !== 'rb-q') return null;
          query = target.value;
          found = matching(rs.rules.rules, query);
          return true;
        },
      },
    },
    {
      name: 'toc',
      read: () => [],
      view: () => html`<nav aria-label="${t('rb_chapters')}"><ol class="rb-toc">${rs.rules.chapters.map((c) => html`<li><a href="#ch-${c.id}">${tx(c.title)}</a></li>`)}</ol></nav>`,
      on: { click: jump('.rb-toc a') },
    },
    {
      name: 'chapters',
      read: () => [found, lit],
      view: () => html`${rs.rules.chapters.map((c) => html`<section class="rb-chapter" id="ch-${c.id}" aria-labelledby="ch-${c.id}-h" ${c.rules.some((id) => found.has(id)) ? '' : html`hidden`}>
        <h2 id="ch-${c.id}-h">${tx(c.title)}</h2>
        ${c.rules.map((id) => (found.has(id) ? ruleEntry(id, rs.rules.rules[id], id === lit) : ''))}</section>`)}`,
      on: { click: jump('a.rb-id') },
    },
    {
      name: 'numbers',
      read: () => [lit],
      view: () => html`<section class="rb-numbers" aria-labelledby="rb-numbers-h"><h2 id="rb-numbers-h">${t('rb_numbers')}</h2>${NUMBERS[game](rs, lit)}</section>`,
    },
  ];
  const page = new Page(book, parts, () => ({}));
  root.replaceChildren(book);
  page.draw(); // at once: the rule to show is there to scroll to
  if (over && hash) reveal(hash);
  return { ...page.kept(), scroll: hash && !over ? reveal : null };
}
