// Pure: turn rule checks and resource maps into the words a player reads.
import { html } from '../html.js';
import { lang, t, tx } from '../i18n.js';

let resourceNames = {};

/** Learn the resources' names ({nl, en}) from the game's ruleset. */
export function useRuleset(ruleset) {
  resourceNames = {};
  for (const r of (ruleset && ruleset.resources) || []) if (r && r.id) resourceNames[r.id] = r.name;
}

export function resName(id) {
  const key = String(id);
  if (resourceNames[key]) return tx(resourceNames[key]);
  const word = t(key);
  return word === key ? key : word;
}

/** A quest requirement in words: "Deliver 2 Wood + 1 Food", "Visit Pearl Bay", … */
/** Resources in the ruleset's order, whatever their keys' order (HTTP's and the socket's differ). */
function inOrder(map) {
  const order = Object.keys(resourceNames);
  const rank = (res) => (order.includes(res) ? order.indexOf(res) : order.length);
  return Object.fromEntries(Object.entries(map || {}).sort(([a], [b]) => rank(a) - rank(b) || (a < b ? -1 : a > b ? 1 : 0)));
}

export function requirementText(r) {
  if (!r || typeof r !== 'object') return String(r ?? '');
  switch (r.kind) {
    case 'deliver': return `${t('req_deliver')} ${formatResources(inOrder(r.resources))}`;
    case 'ship_level': return t('req_ship_level', { part: t(r.part), n: r.at_least });
    case 'fleet': return t('req_fleet', { n: r.ships });
    case 'visit': return t('req_visit', { place: tx(r.place) });
    case 'cargo': return t('req_cargo', { good: tx(r.name) || r.good, from: tx(r.from), to: tx(r.to) });
    case 'win_fight': return t('req_win_fight');
    default: return tx(r.text) || String(r.kind || '');
  }
}

/** "3 Cotton + 1 Wood" (zero counts left out; "—" for nothing). */
export function formatResources(map, joiner = ' + ', keepZero = false) {
  const parts = Object.entries(map || {}).filter(([, n]) => n || keepZero).map(([res, n]) => `${n} ${resName(res)}`);
  return parts.length ? parts.join(joiner) : '—';
}

/** formatResources as markup for a line that may wrap: each count stays with its resource ("4 Cotton" never breaks). */
export function resourceUnits(map, joiner = ' + ') {
  const parts = Object.entries(map || {}).filter(([, n]) => n).map(([res, n]) => html`<span class="unit">${n} ${resName(res)}</span>`);
  return parts.length ? html`${parts.flatMap((part, i) => (i ? [joiner, part] : [part]))}` : '—';
}

/** "3 Wood + 1 Iron", or "nothing" (in words, for a sentence). */
export function resourcesOrNothing(map) {
  return Object.values(map || {}).some((n) => n) ? formatResources(map) : t('nothing');
}

/** "+7 Food, −2 Wood": a change of resources, signed. */
export function formatDelta(map) {
  const parts = Object.entries(map || {}).filter(([, n]) => n).map(([res, n]) => `${n > 0 ? '+' : '−'}${Math.abs(n)} ${resName(res)}`);
  return parts.length ? parts.join(', ') : '±0';
}

function what(name) {
  if (name === 'quest_card') return t('quest_card');
  return t('upgrade_part', { part: t(name) });
}

/** "U3 · Sails +1 costs 3 Cotton + 1 Wood; you have 2 Cotton, 1 Wood". */
export function explain(check) {
  if (!check || check.ok) return '';
  const p = { ...check.params };
  if (p.cost) p.cost = formatResources(p.cost);
  if (p.have) p.have = formatResources(p.have, ', ', true);
  if (p.what) p.what = what(p.what);
  if (p.res) p.res = resName(p.res);
  if (p.level) p.level = t(p.level);
  if (p.title) p.title = tx(p.title);
  return cited(check.rule, t(check.key, p)); // a 403 or 409 cites no rule
}

/** "U3 · why": the words of a refusal, after the rule it cites when that is a rule of the rulebook (an undo's is not). */
export const cited = (rule, words) => (/^[A-Z]{1,2}\d\d?$/.test(rule || '') ? `${rule} · ${words}` : words);

/** A rule's ID linked to its rulebook. */
export const ruleHref = (id) => `/rules/${{ SE: 'serenissima', VV: 'voyagers' }[id.slice(0, 2)] || 'quest1607'}#${id}`;
export const ruleLink = (id) => html`<a class="rule-link" href="${ruleHref(id)}">${id}</a>`;

/** explain()'s words, each rule's ID a link. */
export const ruleLinked = (text) => html`${text.split(/(?<=^|\. )([A-Z]{1,2}\d\d?)(?= · )/).map((p, i) => (i % 2 ? ruleLink(p) : p))}`;

/** One shot in words (C4/C5): "Anna rolls 5 (needs 4+): hit · damage 3 → Crew −1". */
export function shotText(shot, shooterName, ruleset) {
  const value = (d) => (d && typeof d === 'object' ? d.value : d);
  const roll = value(shot.to_hit);
  if (!shot.hit) return t('shot', { name: shooterName, roll, result: `${t('miss')} (${t('needs', { n: shot.needed })})` });
  const d = value(shot.damage);
  const effect = ((ruleset && ruleset.damage) || {})[String(d)] || { effect: shot.effect };
  const what = effect.effect === 'crew' ? t('crew_loss', { n: effect.loss || 1 })
    : effect.effect === 'sails_hit' ? t('sails_hit') : t('no_effect');
  return t('shot', { name: shooterName, roll, result: `${t('hit')} · ${t('damage', { d })} → ${what}` });
}

/** "Caravel, Galleon and Duke of Seville", "Anna and Bram" in the viewer's language ("nothing" for none). */
export function listOf(words) {
  const items = words.filter((w) => w !== '' && w != null).map(String);
  if (!items.length) return t('nothing');
  try {
    return new Intl.ListFormat(lang() === 'nl' ? 'nl' : 'en-GB', { type: 'conjunction' }).format(items);
  } catch {
    return items.join(', ');
  }
}
