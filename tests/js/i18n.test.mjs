// Unit tests of the pure message functions of src/lamagames/web/static/i18n.js (node --test).
import assert from "node:assert/strict";
import { readFileSync, readdirSync } from "node:fs";
import { test } from "node:test";

import { fill, translate } from "../../src/lamagames/web/static/i18n.js";

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

// Every catalog pair (core and each game's folder) has the same keys and placeholders.
const root = new URL("../../src/lamagames/", import.meta.url);
const folders = [new URL("web/static/i18n/", root)];
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

test("the catalogs are found", () => {
  assert.ok(folders.length >= 3, `catalog folders: ${folders.length}`);
});

for (const folder of folders) {
  test(`${folder.pathname.split("/src/")[1]}: en.json and de.json have the same keys and placeholders`, () => {
    const en = JSON.parse(readFileSync(new URL("en.json", folder), "utf-8"));
    const de = JSON.parse(readFileSync(new URL("de.json", folder), "utf-8"));
    assert.deepEqual(Object.keys(de).sort(), Object.keys(en).sort());
    const holes = (text) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
    for (const key of Object.keys(en)) assert.deepEqual(holes(de[key]), holes(en[key]), key);
  });
}
