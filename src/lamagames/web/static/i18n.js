// Message catalogs: one JSON file per language (core) plus one per game and language.
const catalogs = {};
let current = "en";
export const LANGS = ["en", "de"];

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

/** The message of key in the catalogs (URL -> {key: text}) for lang, else in an English
 * catalog, else the key itself; placeholders filled from vars. Pure: the catalogs are
 * passed in. */
export function translate(catalogsByUrl, langCode, key, vars = {}) {
  const entries = Object.entries(catalogsByUrl);
  let found = entries.find(([url, catalog]) => url.includes(`/${langCode}.json`) && key in catalog);
  if (found === undefined) found = entries.find(([url, catalog]) => url.endsWith("/en.json") && key in catalog);
  return found === undefined ? key : fill(found[1][key], vars);
}

/** Translate a key with the loaded catalogs and the current language (see translate). */
export function t(key, vars = {}) {
  return translate(catalogs, current, key, vars);
}

/** Preferred language: saved choice, else the browser's. */
export function preferred() {
  const saved = localStorage.getItem("lama.lang");
  if (saved && LANGS.includes(saved)) return saved;
  const browser = (navigator.language || "en").slice(0, 2).toLowerCase();
  return LANGS.includes(browser) ? browser : "en";
}
