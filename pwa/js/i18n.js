// Dutch and English strings; the language comes from the stored choice, else navigator.language.
// Words come per language: the shared ones (i18n.en.js, i18n.nl.js) and those of the page modules that
// load theirs with `words` load in the page's language before it draws, the other language's only
// when a player switches. Modules that load after the first screen add both languages at once (extend).
const STORE_KEY = 'shipmate.lang';

/** Per language, its words as loaded so far. */
const STRINGS = { en: {}, nl: {} };
/** What loads a module's words in a language (`code` → import()), for each module that has them. */
const sources = [];
/** Per language, each source's load under way or done. */
const loading = { en: new Map(), nl: new Map() };

function fill(code, load) {
  if (!loading[code].has(load)) {
    loading[code].set(load, load(code).then((m) => { STRINGS[code] = { ...STRINGS[code], ...m.default }; }));
  }
  return loading[code].get(load);
}

/** Add a module's strings of both languages ({en: {…}, nl: {…}}), for modules that load later. */
export function extend(tables) {
  for (const code of Object.keys(STRINGS)) Object.assign(STRINGS[code], tables[code] || {});
}

function detectLanguage(stored, navigatorLanguage) {
  if (stored === 'nl' || stored === 'en') return stored;
  return String(navigatorLanguage || '').toLowerCase().startsWith('nl') ? 'nl' : 'en';
}

let current = detectLanguage(
  globalThis.localStorage ? localStorage.getItem(STORE_KEY) : null,
  globalThis.navigator ? navigator.language : 'en',
);

/** The language a switch is loading, else the current one. */
let wanted = current;

/**
 * A module's words per language: `load(code)` imports those of language `code`. The page's language
 * loads now (its module waits for them), the other one when a player switches (or now, mid-switch).
 */
export async function words(load) {
  sources.push(load);
  await Promise.all([...new Set([current, wanted])].map((code) => fill(code, load)));
}

await words((code) => import(`./i18n.${code}.js`));

export function lang() { return current; }

/** What a switch loads besides words: `load(code)`, a page's data in language `code` (onSwitch). */
const switching = new Set();

export function onSwitch(load) {
  switching.add(load);
  return () => switching.delete(load);
}

/** Switch to a language: every module's words in it load first (the switch awaits them). */
export async function setLanguage(code) {
  const next = code === 'nl' ? 'nl' : 'en';
  wanted = next;
  await Promise.all([...sources.map((load) => fill(next, load)), ...[...switching].map((load) => load(next))]);
  if (wanted !== next) return; // a later switch took over
  current = next;
  try { localStorage.setItem(STORE_KEY, current); } catch { /* private mode: keep it in memory */ }
  document.documentElement.lang = current;
}

/**
 * Translate `key` in the current language, filling {placeholders} from `params`. A string that
 * depends on a count is a table of plural forms ({one, other}), picked by `params.n`.
 */
export function t(key, params = {}) {
  const table = STRINGS[current];
  let template = table[key] ?? STRINGS.en[key] ?? key;
  if (typeof template === 'object') template = template[new Intl.PluralRules(current).select(Number(params.n))] ?? template.other;
  return template.replace(/\{(\w+)\}/g, (_, name) => (name in params ? String(params[name]) : `{${name}}`));
}

/** Add the texts of `more` (the same data in another language: {nl} to {en}) to those of `data`. */
export function addTexts(data, more) {
  if (!data || !more || typeof data !== 'object') return;
  const keys = Object.keys(data);
  if (keys.length && keys.every((key) => typeof data[key] === 'string' && key in STRINGS)) Object.assign(data, more);
  else for (const key of keys) addTexts(data[key], more[key]);
}

/** Pick the current language from a {nl, en} text (or pass a plain string through). */
export function tx(text) {
  if (text == null) return '';
  if (typeof text === 'string') return text;
  return text[current] ?? text.en ?? text.nl ?? '';
}
