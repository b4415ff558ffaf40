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

export function lang() { return current; }

/** Translate a key, filling {placeholders}; falls back to English, then to the key. */
export function t(key, vars = {}) {
  let text;
  for (const [url, catalog] of Object.entries(catalogs)) {
    if (url.includes(`/${current}.json`) && key in catalog) { text = catalog[key]; break; }
  }
  if (text === undefined) {
    for (const [url, catalog] of Object.entries(catalogs)) {
      if (url.endsWith("/en.json") && key in catalog) { text = catalog[key]; break; }
    }
  }
  if (text === undefined) return key;
  return text.replace(/\{(\w+)\}/g, (_, name) => (name in vars ? String(vars[name]) : `{${name}}`));
}

/** Preferred language: saved choice, else the browser's. */
export function preferred() {
  const saved = localStorage.getItem("lama.lang");
  if (saved && LANGS.includes(saved)) return saved;
  const browser = (navigator.language || "en").slice(0, 2).toLowerCase();
  return LANGS.includes(browser) ? browser : "en";
}
