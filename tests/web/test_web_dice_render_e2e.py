"""Browser: the LAMA Dice renderer highlights cards from the legal actions the server sends
(``view.turn_actions``), not from its own reading of the rules (issue 17), and it keeps no
memory across pages (the page hands it ``ctx.memory``)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from browser_helpers import BROWSER_MARKS, ServerThread

if TYPE_CHECKING:
    from playwright.sync_api import Browser

pytestmark = BROWSER_MARKS

#: Two seats; seat 0 rolled 3 3 L with the row 3 3 3 L 5 (the D-8.2 example).
VIEW: dict[str, Any] = {
    "round": 1,
    "phase": "discard",
    "current_player": 0,
    "dice": ["3", "3", "L"],
    "llama_row": ["1", "2", "3", "4", "5", "6", "L"],
    "rows": [["3", "3", "3", "5", "L"], ["3", "4", "6", "6", "L", "L"]],
    "row_scores": [18, 23],
    "quit": [False, False],
    "scores": [0, 0],
    "chips": [[0, 0], [0, 0]],
    "setaside_count": 24,
    "discard_count": 0,
    "winners": [],
}

RENDER = """async ([view, events, memory]) => {
  const R = await import("/static/games/dice/render.js");
  const i18n = await import("/static/i18n.js");
  await i18n.load("en", ["dice"]);
  const root = document.createElement("div");
  document.body.append(root);
  const seat = (name) => ({ name, kind: "human", connected: true });
  const seats = [seat("Ann"), seat("Bo")];
  const ctx = { t: i18n.t, seat: null, seats, acting: [0], events, status: "playing" };
  R.render(root, view, memory === null ? ctx : { ...ctx, memory });
  const lit = (sel) =>
    [...root.querySelectorAll(`${sel} .card-hl`)].map((c) => c.getAttribute("title"));
  const rolling = root.querySelectorAll(".die.rolling").length;
  root.remove();
  const rows = [lit('[data-seat="0"]'), lit('[data-seat="1"]')];
  return { rows, llamaRow: lit(".llama-row"), rolling };
}"""


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ServerThread]:
    with ServerThread(tmp_path / "render.sqlite3", bot_delay=0.02) as running:
        yield running


def test_highlights_follow_the_servers_legal_actions(
    server: ServerThread, browser: Browser
) -> None:
    page = browser.new_page(locale="en-GB")
    page.goto(f"{server.url}/")
    discards = ["discard 3", "discard 3 3", "discard L", "discard 3 L", "discard 3 3 L"]
    shown = page.evaluate(RENDER, [{**VIEW, "turn_actions": discards}, [], None])
    assert sorted(shown["rows"][0]) == ["3", "3", "Llama"]  # two of the three 3s and the llama
    assert shown["rows"][1] == [] and shown["llamaRow"] == []
    # the same position with fewer legal discards lights fewer cards: the browser does not
    # work the match out from the dice itself
    shown = page.evaluate(RENDER, [{**VIEW, "turn_actions": ["discard 3"]}, [], None])
    assert shown["rows"][0] == ["3"]
    shown = page.evaluate(RENDER, [{**VIEW, "turn_actions": []}, [], None])
    assert shown["rows"] == [[], []]
    take = {**VIEW, "phase": "take", "turn_actions": ["take 4", "take 6"]}
    shown = page.evaluate(RENDER, [take, [], None])
    assert sorted(shown["llamaRow"]) == ["4", "6"] and shown["rows"] == [[], []]


def test_the_dice_roll_animates_once_per_page_memory(
    server: ServerThread, browser: Browser
) -> None:
    page = browser.new_page(locale="en-GB")
    page.goto(f"{server.url}/")
    events = [{"index": 7, "player": -1, "action": "dice 3 3 L", "by": "chance"}]
    view = {**VIEW, "turn_actions": []}
    memory = page.evaluate_handle("() => ({})")
    first = page.evaluate(RENDER, [view, events, memory])
    again = page.evaluate(RENDER, [view, events, memory])
    other_page = page.evaluate(RENDER, [view, events, {}])
    without_memory = page.evaluate(RENDER, [view, events, None])
    assert first["rolling"] == 3 and again["rolling"] == 0
    assert other_page["rolling"] == 3  # a new page's memory: not shared through the module
    assert without_memory["rolling"] == 0
