// Unit tests of src/lamagames/web/static/table/buzz.js: when a new turn or chance vibrates
// (issue 19: a chance right after the person's own move buzzed within a second).
import assert from "node:assert/strict";
import { test } from "node:test";

import { BuzzGate, GAP_MS, QUIET_MS } from "../../src/lamagames/web/static/table/buzz.js";

test("a turn after a quiet spell buzzes once", () => {
  const gate = new BuzzGate();
  gate.input(1000);
  assert.equal(gate.start(1000 + QUIET_MS), true);
});

test("a turn or chance right after the person's own input stays silent", () => {
  const gate = new BuzzGate();
  gate.input(10_000);
  for (const later of [0, 360, 1200, QUIET_MS - 1]) {
    assert.equal(gate.start(10_000 + later), false, `${later} ms after the tap`);
  }
});

test("at most one buzz per gap, even without input", () => {
  const gate = new BuzzGate();
  assert.equal(gate.start(0), true);
  assert.equal(gate.start(GAP_MS - 1), false);
  assert.equal(gate.start(GAP_MS), true);
});

test("a silent start does not delay the next buzz", () => {
  const gate = new BuzzGate(3000, 5000);
  gate.input(0);
  assert.equal(gate.start(1000), false);
  assert.equal(gate.start(3000), true);
});

test("the trial's pace (a move every 4 s, chances right after) buzzes rarely", () => {
  // 14 moves in 55 s, each followed 0.4 s later by a chance and 2 s later by a turn.
  const gate = new BuzzGate();
  let buzzes = 0;
  for (let move = 0; move < 14; move += 1) {
    const tap = 1000 + move * 4000;
    gate.input(tap);
    if (gate.start(tap + 400)) buzzes += 1;
    if (gate.start(tap + 2000)) buzzes += 1;
  }
  assert.equal(buzzes, 0);
});
