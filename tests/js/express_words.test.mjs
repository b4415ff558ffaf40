// Unit tests of src/lamagames/express/static/words.js: labels and log lines from notation,
// events and the server's view; ordering of the server's legal actions.
import assert from "node:assert/strict";
import { test } from "node:test";

import {
  actionLabel,
  carOf,
  chance,
  eventLines,
  headline,
  parse,
  result,
  sortActions,
} from "../../src/lamagames/express/static/words.js";
import { englishT } from "./catalog.mjs";

const t = englishT("express");
const seats = [{ name: "Ann" }, { name: "Bo" }];
const view = {
  trains: [
    { name: "A", cars: [{ llama: null }, { llama: { colour: "pink" } }, {}, {}, {}] },
    { name: "B", cars: [{}, {}, {}, {}, {}] },
  ],
  moves: [
    { train: "A", distance: 1 },
    { train: "B", distance: 4 },
  ],
};

test("parse splits verb and target", () => {
  assert.deepEqual(parse("board A3"), { verb: "board", target: "A3" });
  assert.deepEqual(parse("pass"), { verb: "pass", target: "" });
});

test("carOf finds the car a target names", () => {
  assert.deepEqual(carOf(view, "A2"), { llama: { colour: "pink" } });
  assert.equal(carOf(view, "C1"), null);
});

test("action labels use the view's moves and llamas", () => {
  assert.equal(actionLabel("move A", t, view), "Move train A (1 space)");
  assert.equal(actionLabel("move B", t, view), "Move train B (4 spaces)");
  assert.equal(actionLabel("move B", t), "Move train B");
  assert.equal(actionLabel("board A1", t, view), "Board car A1");
  assert.match(actionLabel("detour A2", t, view), /llama in car A2 on a detour/);
  assert.equal(actionLabel("fly A1", t, view), "fly A1");
});

test("sortActions puts pass last and keeps the server's order otherwise", () => {
  const legal = [{ action: "pass" }, { action: "exit B2" }, { action: "board A1" }];
  assert.deepEqual(
    sortActions(legal).map((a) => a.action),
    ["exit B2", "board A1", "pass"],
  );
});

test("log lines: a chosen move and a forced one, the end without a winner", () => {
  const entry = {
    player: 0,
    action: "move A",
    events: [
      { kind: "move", seat: 0, train: "A", distance: 3, chosen: true },
      { kind: "move", seat: 0, train: "B", distance: 1, chosen: false },
      { kind: "window" },
      { kind: "game_end", winners: [] },
    ],
  };
  assert.deepEqual(eventLines(entry, seats, t), [
    "Ann moves train A 3 spaces",
    "Train B moves 1 space by itself (the only train that can go)",
    "Game over: the turn limit is reached, nobody won",
  ]);
});

test("headline names who may act", () => {
  const ctx = { t, seats, acting: [0, 1], mine: false };
  assert.equal(headline({ phase: "window" }, ctx), "Chance for Ann, Bo");
  assert.equal(headline({ phase: "window" }, { ...ctx, mine: true }), "A chance for you!");
  assert.equal(headline({ phase: "roll", active_player: 1 }, ctx), "Bo rolls the die");
  assert.equal(headline({ phase: "over" }, ctx), null);
});

test("a window is a chance, a choice or a roll is not (the tab's title, issue 19)", () => {
  assert.equal(chance({ phase: "window" }), true);
  assert.equal(chance({ phase: "choose" }), false);
  assert.equal(chance({ phase: "roll" }), false);
  assert.equal(chance({ phase: "over" }), false);
});

test("result ranks by llamas at home, winner first", () => {
  const out = result({ houses: [1, 4], llamas_to_win: 4, winner: 1 }, t);
  assert.deepEqual(out.winners, [1]);
  assert.deepEqual(out.rows, [
    { seat: 1, text: "4 of 4 home" },
    { seat: 0, text: "1 of 4 home" },
  ]);
  assert.deepEqual(result({ houses: [0, 0], llamas_to_win: 4, winner: null }, t).winners, []);
});
