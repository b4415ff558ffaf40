// Message catalogs: one JSON file per language (core) plus one per game and language.
// A message is a string with {placeholders}, or (for a count) an object of plural forms
// keyed by the Intl.PluralRules categories of its language ({"one": …, "other": …}; French
// and Italian also "many"), chosen by the number in the placeholder {n}.
const catalogs = {};
let current = "en";
/** The languages of the web app, in the order of the language picker. */
export const LANGS = ["en", "de", "fr", "nl", "it"];
/** Each language's own name, for the picker. */
export const LANG_NAMES = { en: "English", de: "Deutsch", fr: "Français", nl: "Nederlands", it: "Italiano" };

async function fetchJson(url) {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url}: ${response.status}`);
  return response.json();
}

/** Load the core catalog (and optionally a game's) for a language. */
export async function load(lang, gameIds = []) {
  if (!LANGS.includes(lang)) lang = "en";
  current = lang;
  const wanted = [`/static/i18n/${lang}.json`, ...gameIds.map((g) => `/static/games/${g}/${lang}.json`)];
  for (const url of wanted) {
    if (!catalogs[url]) catalogs[url] = await fetchJson(url).catch(() => ({}));
  }
  document.documentElement.lang = lang;
}

export function lang() {
  return current;
}

/** Fill the {placeholders} of a message from vars; an unknown placeholder stays as it is. */
export function fill(text, vars = {}) {
  return text.replace(/\{(\w+)\}/g, (_, name) => (name in vars ? String(vars[name]) : `{${name}}`));
}

const pluralRules = {};
/** The plural category ("one", "few", "many", "other", …) of the number n in langCode,
 * by Intl.PluralRules; "other" when n is not a finite number. */
export function pluralCategory(langCode, n) {
  const count = Number(n);
  if (!Number.isFinite(count)) return "other";
  pluralRules[langCode] ??= new Intl.PluralRules(langCode);
  return pluralRules[langCode].select(count);
}

/** The text of a catalog entry: the entry itself, or for an object of plural forms the
 * form of the category of vars.n (else its "other" form). */
export function pick(entry, langCode, vars = {}) {
  if (typeof entry === "string") return entry;
  const form = entry[pluralCategory(langCode, vars.n)];
  return typeof form === "string" ? form : entry.other;
}

/** The message of key in the catalogs (URL -> {key: entry}) for lang, else in an English
 * catalog, else the key itself; plural form picked by vars.n, placeholders filled from
 * vars. Pure: the catalogs are passed in. */
export function translate(catalogsByUrl, langCode, key, vars = {}) {
  const entries = Object.entries(catalogsByUrl);
  let found = entries.find(([url, catalog]) => url.includes(`/${langCode}.json`) && key in catalog);
  let formLang = langCode;
  if (found === undefined) {
    found = entries.find(([url, catalog]) => url.endsWith("/en.json") && key in catalog);
    formLang = "en";
  }
  return found === undefined ? key : fill(pick(found[1][key], formLang, vars), vars);
}

/** Translate a key with the loaded catalogs and the current language (see translate). */
export function t(key, vars = {}) {
  return translate(catalogs, current, key, vars);
}

/** The first of the browser's languages (BCP 47 tags, most wanted first) that the app
 * speaks, matched by the primary subtag ("fr-BE" -> "fr"); "en" if none. Pure. */
export function fromBrowser(tags) {
  for (const tag of tags || []) {
    const primary = String(tag).split("-")[0].toLowerCase();
    if (LANGS.includes(primary)) return primary;
  }
  return "en";
}

/** Preferred language: the choice saved by the picker, else the browser's
 * (navigator.languages, else navigator.language). */
export function preferred() {
  const saved = localStorage.getItem("lama.lang");
  if (saved && LANGS.includes(saved)) return saved;
  const tags = navigator.languages && navigator.languages.length ? navigator.languages : [navigator.language];
  return fromBrowser(tags);
}
