// Unit tests of src/lamagames/dice/static/words.js: highlights come from the legal actions
// the server sends (view.turn_actions), labels and log lines from notation and events.
import assert from "node:assert/strict";
import { test } from "node:test";

import { actionLabel, eventLines, eventText, highlights, hint } from "../../src/lamagames/dice/static/words.js";
import { englishT } from "./catalog.mjs";

const t = englishT("dice");
const seats = [{ name: "Ann" }, { name: "Bo" }];

test("highlights: the most copies of each symbol one discard may put down (D-8.2)", () => {
  // dice 3 3 L, row 3 3 3 L 5: the server's legal discards
  const lit = highlights(["discard 3", "discard 3 3", "discard L", "discard 3 L", "discard 3 3 L"]);
  assert.deepEqual(lit.discard, { 3: 2, L: 1 });
  assert.equal(lit.take.size, 0);
});

test("highlights: the llama-row cards that may be taken (D-8.3)", () => {
  const lit = highlights(["take 2", "take 6"]);
  assert.deepEqual([...lit.take].sort(), ["2", "6"]);
  assert.deepEqual(lit.discard, {});
});

test("highlights: nothing without legal actions of that kind", () => {
  for (const actions of [undefined, [], ["roll", "quit"], ["give black", "give none"]]) {
    const lit = highlights(actions);
    assert.equal(lit.take.size, 0);
    assert.deepEqual(lit.discard, {});
  }
});

test("action labels", () => {
  assert.equal(actionLabel("roll", t), "Roll the dice");
  assert.equal(actionLabel("take L", t), "Take Llama");
  assert.equal(actionLabel("discard 3 3 L", t), "Discard 3 3 Llama");
  assert.equal(actionLabel("give none", t), "Keep my chips");
  assert.equal(actionLabel("dance", t), "dance");
});

test("log lines from events", () => {
  const entry = {
    player: 0,
    action: "discard 3",
    events: [
      { kind: "discard", seat: 0, cards: ["3"] },
      { kind: "round_end", round: 2, seat: 0, reason: "emptied", points: [0, 12], scores: [4, 30] },
    ],
  };
  assert.deepEqual(eventLines(entry, seats, t), [
    "Ann discards 3",
    "Round 2 is over: Ann emptied the row",
    "Points this round: Ann +0, Bo +12",
    "Scores: Ann 4, Bo 30",
  ]);
  assert.deepEqual(eventLines({ ...entry, events: [{ kind: "deal", seat: 1 }] }, seats, t), []);
  // an entry without events falls back to its notation
  assert.deepEqual(eventLines({ player: 1, action: "quit" }, seats, t), ["Bo quits the round"]);
  assert.equal(eventText({ player: -1, action: "dice 3 5 L" }, seats, t), "Dice: 3 5 Llama");
});

test("hint by phase, empty for an unknown phase", () => {
  assert.equal(hint({ phase: "no-such-phase" }, t), "");
  assert.notEqual(hint({ phase: "discard" }, t), "");
});
