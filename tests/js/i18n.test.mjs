// Unit tests of the pure message functions of src/lamagames/web/static/i18n.js (node --test).
import assert from "node:assert/strict";
import { readFileSync, readdirSync } from "node:fs";
import { test } from "node:test";

import {
  LANG_NAMES,
  LANGS,
  fill,
  fromBrowser,
  pick,
  pluralCategory,
  translate,
} from "../../src/lamagames/web/static/i18n.js";

const catalogs = {
  "/static/i18n/en.json": { hello: "Hello {name}", only: "English only" },
  "/static/i18n/de.json": { hello: "Hallo {name}" },
  "/static/games/dice/en.json": { "dice.llama": "llama" },
};

test("fill replaces known placeholders and keeps unknown ones", () => {
  assert.equal(fill("{a} and {b}", { a: 1 }), "1 and {b}");
  assert.equal(fill("{n} points", { n: 0 }), "0 points");
  assert.equal(fill("no placeholders"), "no placeholders");
});

test("translate prefers the language, falls back to English, then to the key", () => {
  assert.equal(translate(catalogs, "de", "hello", { name: "Ann" }), "Hallo Ann");
  assert.equal(translate(catalogs, "en", "hello", { name: "Ann" }), "Hello Ann");
  assert.equal(translate(catalogs, "de", "only"), "English only");
  assert.equal(translate(catalogs, "de", "dice.llama"), "llama");
  assert.equal(translate(catalogs, "de", "missing.key"), "missing.key");
});

test("the browser's languages choose the first one the app speaks, by primary subtag", () => {
  assert.equal(fromBrowser(["fr-FR", "en-US"]), "fr");
  assert.equal(fromBrowser(["pt-BR", "nl-BE", "de"]), "nl");
  assert.equal(fromBrowser(["IT"]), "it");
  assert.equal(fromBrowser(["ja", "zh-Hant-TW"]), "en");
  assert.equal(fromBrowser([]), "en");
  assert.equal(fromBrowser(undefined), "en");
});

test("plural categories come from Intl.PluralRules of the language", () => {
  assert.equal(pluralCategory("en", 1), "one");
  assert.equal(pluralCategory("en", 0), "other");
  assert.equal(pluralCategory("fr", 0), "one"); // French: 0 and 1 are singular
  assert.equal(pluralCategory("fr", 2), "other");
  assert.equal(pluralCategory("it", 1), "one");
  assert.equal(pluralCategory("it", 2), "other");
  assert.equal(pluralCategory("nl", 1), "one");
  assert.equal(pluralCategory("de", "not a number"), "other");
  assert.equal(pluralCategory("en", undefined), "other");
});

test("pick chooses the plural form of n, else the other form", () => {
  const entry = { one: "{n} point", other: "{n} points" };
  assert.equal(pick(entry, "en", { n: 1 }), "{n} point");
  assert.equal(pick(entry, "en", { n: 2 }), "{n} points");
  assert.equal(pick(entry, "fr", { n: 1000000 }), "{n} points"); // "many" missing: other
  assert.equal(pick(entry, "en", {}), "{n} points");
  assert.equal(pick("plain {n}", "en", { n: 1 }), "plain {n}");
});

test("translate fills the plural form of the message's own language", () => {
  const plural = {
    "/static/i18n/en.json": { pts: { one: "{n} point", other: "{n} points" } },
    "/static/i18n/it.json": { pts: { one: "{n} punto", many: "{n} di punti", other: "{n} punti" } },
    "/static/i18n/fr.json": {},
  };
  assert.equal(translate(plural, "it", "pts", { n: 1 }), "1 punto");
  assert.equal(translate(plural, "it", "pts", { n: 2 }), "2 punti");
  assert.equal(translate(plural, "en", "pts", { n: 0 }), "0 points");
  // French falls back to the English entry, whose forms follow English rules (0 -> other).
  assert.equal(translate(plural, "fr", "pts", { n: 0 }), "0 points");
});

// Every catalog folder (core, each game's, the toy game's of the tests) has a catalog for each
// language with the keys of en.json; each message has the placeholders of the English one; a
// plural message (an object; vars.n picks the form) has every plural category of its language
// and, in each form, the placeholders of the English "other" form.
const root = new URL("../../src/lamagames/", import.meta.url);
const folders = [new URL("web/static/i18n/", root), new URL("../toygame/static/", import.meta.url)];
for (const entry of readdirSync(root, { withFileTypes: true })) {
  if (entry.isDirectory()) {
    const folder = new URL(`${entry.name}/static/`, root);
    try {
      if (readdirSync(folder).includes("en.json")) folders.push(folder);
    } catch {
      // no browser files in this package
    }
  }
}
const CLDR = new Set(["zero", "one", "two", "few", "many", "other"]);
const holes = (text) => [...new Set([...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]))].sort();
const nameOf = (folder) => folder.pathname.replace(/^.*\/(src|tests)\//, "$1/");

test("the catalogs are found", () => {
  assert.ok(folders.length >= 4, `catalog folders: ${folders.length}`);
  assert.deepEqual(LANGS, ["en", "de", "fr", "nl", "it"]);
});

for (const folder of folders) {
  const read = (lang) => JSON.parse(readFileSync(new URL(`${lang}.json`, folder), "utf-8"));
  const en = read("en");
  for (const lang of LANGS) {
    test(`${nameOf(folder)}${lang}.json has every key, placeholder and plural form`, () => {
      const catalog = read(lang);
      assert.deepEqual(Object.keys(catalog).sort(), Object.keys(en).sort());
      const needed = new Intl.PluralRules(lang).resolvedOptions().pluralCategories;
      for (const [key, english] of Object.entries(en)) {
        const message = catalog[key];
        if (typeof english === "string") {
          assert.equal(typeof message, "string", `${key} is a plain message in en.json`);
          assert.ok(message.trim(), `${key} is empty`);
          assert.deepEqual(holes(message), holes(english), key);
          continue;
        }
        assert.equal(typeof message, "object", `${key} has plural forms in en.json`);
        for (const category of needed) assert.ok(category in message, `${key}: no "${category}" form`);
        for (const [category, form] of Object.entries(message)) {
          assert.ok(CLDR.has(category), `${key}: "${category}" is not a plural category`);
          assert.ok(typeof form === "string" && form.trim(), `${key}.${category} is empty`);
          assert.deepEqual(holes(form), holes(english.other), `${key}.${category}`);
        }
      }
    });
  }
  if (folder.pathname.endsWith("/web/static/i18n/")) {
    test("each core catalog names its language as the picker does", () => {
      for (const lang of LANGS) assert.equal(read(lang)["lang.name"], LANG_NAMES[lang], lang);
    });
  }
}
