"""Browser: the game review of a finished table (issue 18 item 2) for a seat and a
spectator, the chart's points opening the replay at that position, and "Learn from your
mistakes" asking for a better move and showing the answer."""

from __future__ import annotations

import json
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from browser_helpers import BROWSER_MARKS, ServerThread

from lamagames import make
from lamagames.bots import make_bot
from lamagames.core.rng import make_rng
from lamagames.web.store import ActionData, Store, TableData

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

pytestmark = BROWSER_MARKS


def finished_dice_table(db: Path, seed: int = 3) -> TableData:
    """A finished two-seat LAMA Dice game (end score 5, D-11) stored as the app stores one:
    seat 0 "Ada" (a person, played by a ``random`` bot: she makes mistakes), seat 1 a
    ``heuristic`` bot."""
    game = make("dice", num_players=2, end_score=5)
    state = game.new_initial_state()
    bots = [make_bot("random", game, 0, seed), make_bot("heuristic", game, 1, seed)]
    actions: list[tuple[int, str]] = []
    while not state.is_terminal():
        if state.is_chance_node():
            action = state.sample_chance_outcome(make_rng(seed, "chance", len(actions)))
            actions.append((-1, state.action_to_string(action)))
            state.apply_action(action)
            continue
        player = state.acting_players()[0]
        action = bots[player].step(state)
        actions.append((player, state.action_to_string(action, player)))
        state.apply_action(action, player)
    store = Store(f"sqlite:///{db}")
    try:
        data = store.create_table(
            game="dice",
            params={"end_score": 5},
            seed=seed,
            seats=[("human", "Ada", None), ("bot", "", "heuristic")],
            public=True,
            turn_clock=None,
            away_timeout=600,
            alertness=None,
        )
        for index, (player, notation) in enumerate(actions):
            by = "chance" if player < 0 else ("human" if player == 0 else "bot")
            store.append_action(data.id, ActionData(index, player, notation, by))
        store.set_status(data.id, "finished")
        return data
    finally:
        store.close()


@pytest.fixture
def table(tmp_path: Path) -> TableData:
    return finished_dice_table(tmp_path / "review.sqlite3")


@pytest.fixture
def server(tmp_path: Path, table: TableData) -> Iterator[ServerThread]:
    with ServerThread(tmp_path / "review.sqlite3", bot_delay=0.0) as running:
        app: Any = running.server.config.app
        app.state.review.settings.rollouts = 4  # estimates (none with two players) stay quick
        yield running


def review_json(server: ServerThread, code: str) -> dict[str, Any]:
    with urllib.request.urlopen(f"{server.url}/api/tables/{code}/review") as response:
        data: dict[str, Any] = json.loads(response.read())
        return data


def watch_errors(page: Page) -> list[str]:
    """Collect the page's script errors and console errors (a CSP violation is one)."""
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    return errors


def open_review(page: Page) -> None:
    from playwright.sync_api import expect

    expect(page.locator("#review")).to_be_visible()
    expect(page.locator("#review-chart")).to_be_visible(timeout=120_000)


def test_review_for_a_seat_and_a_spectator(
    server: ServerThread, table: TableData, browser: Browser
) -> None:
    from playwright.sync_api import expect

    code = table.code
    token = table.seats[0].token
    seat = browser.new_page(locale="en-GB")
    seat.set_default_timeout(15_000)
    errors = watch_errors(seat)
    seat.goto(f"{server.url}/t/{code}#seat={token}")
    expect(seat.locator("#finished")).to_be_visible()
    expect(seat.locator("#review-start")).to_be_visible()
    # Before the review: the title, what it does and the button; no stray "null" (a null
    # child of replaceChildren is written as that text, found by a fresh-clone trial).
    assert "null" not in seat.locator("#review").inner_text()
    seat.locator("#review-start").click()  # computed in the background, progress shown
    open_review(seat)
    result = review_json(server, code)["result"]
    marked = [d for d in result["decisions"] if d["mark"]]
    assert any(d["seat"] == 0 for d in marked), "Ada's random moves earn marks"
    points = seat.locator("#review-chart circle.review-point")
    expect(points).to_have_count(len([d for d in result["decisions"] if d["level"] is not None]))
    expect(seat.locator("#review-marks li")).to_have_count(len(marked))
    expect(seat.locator("#review-marks")).to_contain_text("was better")
    expect(seat.locator("#review-totals li")).to_have_count(2)
    expect(seat.locator("#review-totals")).to_contain_text("Ada: accuracy")

    # A spectator sees the same stored review at once (no button, nothing computed again).
    watcher = browser.new_page(locale="de-DE")
    watcher.set_default_timeout(15_000)
    watcher.goto(f"{server.url}/t/{code}")
    open_review(watcher)
    expect(watcher.locator("#review-start")).to_have_count(0)
    expect(watcher.locator("#review-marks li")).to_have_count(len(marked))
    expect(watcher.locator("#review h2")).to_have_text("Spielanalyse")
    app: Any = server.server.config.app
    assert app.state.review.computed == 1

    # A point of the chart opens the replay at the position before that action.
    first = marked[0]
    seat.locator(f"#review-chart circle[data-index='{first['index']}']").click()
    expect(seat).to_have_url(f"{server.url}/replay/{code}#step={first['index']}")
    expect(seat.locator(".replay-step")).to_contain_text(f"Step {first['index']} of")
    open_review(seat)  # the replay viewer has the review too
    seat.locator("#review-marks .review-jump").last.click()
    expect(seat.locator(".replay-step")).to_contain_text(f"Step {marked[-1]['index']} of")
    assert errors == []


def test_learn_from_your_mistakes_asks_and_answers(
    server: ServerThread, table: TableData, browser: Browser
) -> None:
    from playwright.sync_api import expect

    code = table.code
    page = browser.new_page(locale="en-GB")
    page.set_default_timeout(15_000)
    errors = watch_errors(page)
    page.goto(f"{server.url}/t/{code}#seat={table.seats[0].token}")
    page.locator("#review-start").click()
    open_review(page)
    decisions = review_json(server, code)["result"]["decisions"]
    mine = [d for d in decisions if d["mark"] and d["seat"] == 0]
    assert mine
    expect(page.locator("#learn-seat")).to_have_value("0")  # the reader's own seat
    page.locator("#learn-start").click()
    for i, decision in enumerate(mine):
        expect(page.locator("#learn-ask")).to_have_text(
            f"Position {i + 1} of {len(mine)}: which move is better here?"
        )
        expect(page.locator("#learn .board")).not_to_be_empty()
        choices = page.locator("#learn-choices button")
        expect(choices).to_have_count(len(decision["legal"]))
        expect(page.locator("#learn-answer")).to_have_count(0)
        pick = decision["best"] if i == 0 else decision["action"]
        page.locator(f"#learn-choices button[data-choice='{pick}']").click()
        answer = page.locator("#learn-answer")
        expect(answer).to_contain_text("Right:" if i == 0 else "That is the move played")
        expect(answer).to_contain_text("In the game:")
        expect(page.locator("#learn-choices .learn-best")).to_have_attribute(
            "data-choice", decision["best"]
        )
        page.locator("#learn-next").click()
    expect(page.locator("#learn-done")).to_be_visible()
    page.locator("#learn-stop").click()
    expect(page.locator("#review-chart")).to_be_visible()
    assert errors == []


def test_a_lama_express_review_in_the_replay_viewer(server: ServerThread, browser: Browser) -> None:
    """Lama Express (win chance): the replay viewer's review and learn mode on a seat's own
    view (its cards), for a spectator choosing the seat."""
    from browser_helpers import get_json, post_json
    from playwright.sync_api import expect

    random = {"kind": "bot", "bot_kind": "random"}
    body = {"game": "express", "seats": [random, random], "params": {"llamas_to_win": 3}}
    table = post_json(server, "/api/tables", {**body, "seed": 4})
    code = table["code"]
    post_json(server, f"/api/tables/{code}/start", {"host_token": table["host_token"]})
    deadline = time.monotonic() + 60
    while get_json(server, f"/api/tables/{code}")["status"] != "finished":
        assert time.monotonic() < deadline, "the bots did not finish"
        time.sleep(0.1)
    post_json(server, f"/api/tables/{code}/review", {"rollouts": 2})
    page = browser.new_page(locale="en-GB")
    page.set_default_timeout(15_000)
    errors = watch_errors(page)
    page.goto(f"{server.url}/replay/{code}")
    open_review(page)
    expect(page.locator("#review-chart")).to_contain_text("100 %")  # win chance from 0 to 1
    marked = [d for d in review_json(server, code)["result"]["decisions"] if d["mark"]]
    assert marked, "random bots make marked mistakes"
    seat = marked[0]["seat"]
    page.locator("#learn-seat").select_option(str(seat))
    page.locator("#learn-start").click()
    expect(page.locator("#learn .board")).not_to_be_empty()
    page.locator(f"#learn-choices button[data-choice='{marked[0]['best']}']").click()
    expect(page.locator("#learn-answer")).to_contain_text("Right:")
    assert errors == []
