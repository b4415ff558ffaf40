"""Browser: the Lama Express renderer slides each train piece from the space the server
said it stood on to the space it stands on now (issue 17: no car geometry, E-2, in the
browser), with the memory the page hands it (``ctx.memory``)."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from browser_helpers import BROWSER_MARKS, ServerThread

from lamagames.express.game import ExpressGame
from lamagames.express.state import ExpressState
from lamagames.web.express import ExpressWebAdapter

if TYPE_CHECKING:
    from playwright.sync_api import Browser

pytestmark = BROWSER_MARKS

RENDER = """async ([views, names]) => {
  const R = await import("/static/games/express/render.js");
  const i18n = await import("/static/i18n.js");
  await i18n.load("en", ["express"]);
  const root = document.createElement("div");
  document.body.append(root);
  const seats = names.map((name) => ({ name, kind: "human", connected: true }));
  const memory = {};
  const ctx = { t: i18n.t, seat: null, seats, acting: [], events: [], status: "playing",
                legal: [], memory, animate: true };
  const drawn = [];
  for (const view of views) {
    R.render(root, view, ctx);
    const pieces = {};
    for (const el of root.querySelectorAll(".xp-piece")) {
      const frames = el.getAnimations().flatMap((a) => a.effect.getKeyframes());
      pieces[`${el.dataset.train}${el.dataset.offset}`] = {
        at: el.style.transform,
        frames: frames.map((f) => f.transform),
      };
    }
    drawn.push(pieces);
  }
  root.remove();
  return drawn;
}"""


def _before_and_after_a_move() -> tuple[ExpressState, ExpressState]:
    """Two positions of a seeded game: just before and just after a train moves (E-6)."""
    rng = random.Random(5)
    state = ExpressGame(num_players=2).new_initial_state()
    while True:
        before = state.clone()
        tips = [state.train_tip(t) for t in range(2)]
        player = state.current_player()
        if player < 0:
            state.apply_action(state.sample_chance_outcome(rng))
        else:
            state.apply_action(rng.choice(state.legal_actions(player)))
        if [state.train_tip(t) for t in range(2)] != tips:
            return before, state


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ServerThread]:
    with ServerThread(tmp_path / "render.sqlite3", bot_delay=0.02) as running:
        yield running


def test_train_pieces_slide_from_the_servers_old_spaces_to_the_new_ones(
    server: ServerThread, browser: Browser
) -> None:
    before, after = _before_and_after_a_move()
    adapter = ExpressWebAdapter()
    views: list[dict[str, Any]] = [adapter.view(before, None), adapter.view(after, None)]
    page = browser.new_page(locale="en-GB")
    page.goto(f"{server.url}/")
    first, second = page.evaluate(RENDER, [views, ["Ann", "Bo"]])
    assert all(not piece["frames"] for piece in first.values())  # nothing to slide from yet
    moved = [t for t in range(2) if before.train_tip(t) != after.train_tip(t)]
    assert len(moved) == 1
    name = "AB"[moved[0]]
    distance = (after.train_tip(moved[0]) - before.train_tip(moved[0])) % before.board.length
    for key, piece in second.items():
        if key.startswith(name):  # every piece: from where it was drawn to where it is now
            assert len(piece["frames"]) == distance + 1, key
            assert piece["frames"][0] == first[key]["at"], key
            assert piece["frames"][-1] == piece["at"], key
        else:
            assert piece["frames"] == [], key  # the other train stood still
