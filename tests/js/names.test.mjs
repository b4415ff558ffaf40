// Unit tests of src/lamagames/web/static/names.js: the browser's copy of the server's rule
// for display names (schemas.py Name, core/names.py refused_character), so a bad name is
// answered beside the field and never sent (issue 19).
import assert from "node:assert/strict";
import { test } from "node:test";

import { NAME_MAX, nameLength, nameProblem, stripName } from "../../src/lamagames/web/static/names.js";

const LLAMA = "\u{1f999}";

test("plain names, names with inner spaces and emoji are taken", () => {
  for (const name of ["Ann", "  Ann  ", "Ann Marie", "Zoë", LLAMA, "\u{1f468}\u200d\u{1f469}\u200d\u{1f467}"]) {
    assert.equal(nameProblem(name), null, JSON.stringify(name));
  }
  // the flag of England: a black flag and tag characters (format characters kept)
  assert.equal(nameProblem("\u{1f3f4}\u{e0067}\u{e0062}\u{e0065}\u{e006e}\u{e0067}\u{e007f}"), null);
});

test("only spaces is refused, as the server strips them (Python's str.strip)", () => {
  for (const name of ["", " ", "   ", "\t", "\u3000", "\u00a0 \u2003"]) {
    assert.equal(nameProblem(name), "form.nameEmpty", JSON.stringify(name));
  }
  assert.equal(stripName("\u3000 Ann\t"), "Ann");
});

test("control and text-direction characters inside a name are refused", () => {
  for (const name of ["An\tn", "Ann\u202e", "A\u202eB", "A\u200bB", "A\nB", "A\u2028B", "A\u0007", "a\u200d"]) {
    assert.equal(nameProblem(name), "form.nameBadChar", JSON.stringify(name));
  }
});

test("the limit counts code points: 32 llamas are taken, 33 are not", () => {
  assert.equal(NAME_MAX, 32);
  assert.equal(nameLength(LLAMA.repeat(32)), 32);
  assert.equal(nameProblem(LLAMA.repeat(32)), null);
  assert.equal(nameProblem(LLAMA.repeat(33)), "form.nameTooLong");
  assert.equal(nameProblem("x".repeat(33)), "form.nameTooLong");
  assert.equal(nameProblem(` ${"x".repeat(32)} `), null);
});
