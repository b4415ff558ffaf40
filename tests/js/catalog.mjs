// A `t` function over the real English catalogs (core and a game's), for the unit tests.
import { readFileSync } from "node:fs";

import { translate } from "../../src/lamagames/web/static/i18n.js";

export function englishT(...gameIds) {
  const read = (path) => JSON.parse(readFileSync(new URL(`../../src/lamagames/${path}`, import.meta.url), "utf-8"));
  const catalogs = { "/static/i18n/en.json": read("web/static/i18n/en.json") };
  for (const id of gameIds) catalogs[`/static/games/${id}/en.json`] = read(`${id}/static/en.json`);
  return (key, vars = {}) => translate(catalogs, "en", key, vars);
}
