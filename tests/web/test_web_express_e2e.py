"""Real-browser tests of Lama Express: the lobby's options and a few turns at the table.

The table is seeded so that the first roll lets train A stop with a car on yellow's boarding
space: the person (seat 0, yellow) chooses train A on the board, boards a llama with the
keyboard in the window after the move, and plays on with buttons and number keys. Set
``LAMA_E2E_SHOTS`` to a directory to keep screenshots of the steps; on failure a screenshot
is always written (its path is in the message).
"""

from __future__ import annotations

import os
import re
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import httpx
import pytest
from browser_helpers import BROWSER_MARKS, ServerThread
from web_helpers import seed_with_rolls

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

pytestmark = BROWSER_MARKS


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ServerThread]:
    """A live server with fast bots."""
    with ServerThread(tmp_path / "express-e2e.sqlite3", bot_delay=0.05) as running:
        yield running


class Shots:
    """Screenshots (on failure always, of every step when ``LAMA_E2E_SHOTS`` is set) and
    the page's script errors."""

    def __init__(self, page: Page) -> None:
        self.page = page
        self.errors: list[str] = []  # script errors of the page
        page.on("pageerror", lambda exc: self.errors.append(str(exc)))
        page.on(
            "console", lambda msg: self.errors.append(msg.text) if msg.type == "error" else None
        )
        keep = os.environ.get("LAMA_E2E_SHOTS")
        self.folder = Path(keep) if keep else None
        if self.folder is not None:
            self.folder.mkdir(parents=True, exist_ok=True)

    def step(self, name: str) -> None:
        """Keep a screenshot of this step (only with ``LAMA_E2E_SHOTS``)."""
        if self.folder is not None:
            self.page.screenshot(path=str(self.folder / f"{name}.png"), full_page=True)

    def failure(self, exc: Exception) -> AssertionError:
        """Write the failure screenshot and describe it."""
        folder = self.folder or Path(tempfile.mkdtemp(prefix="lama-e2e-"))
        path = folder / "express-failure.png"
        self.page.screenshot(path=str(path), full_page=True)
        return AssertionError(f"browser test failed ({exc}); screenshot: {path}")


def my_counts(page: Page) -> str:
    """The text of the viewer's llama counts (waiting, home)."""
    return page.locator(".xp-player-me .xp-player-counts").inner_text()


def test_lobby_offers_express_options(server: ServerThread, browser: Browser) -> None:
    from playwright.sync_api import expect

    page = browser.new_page(viewport={"width": 1100, "height": 900}, locale="en-GB")
    page.set_default_timeout(15_000)
    shots = Shots(page)
    try:
        page.goto(server.url)
        page.fill("#your-name", "Ada")
        page.select_option("#game", "express")
        expect(page.locator(".xp-colour")).to_have_count(3)
        expect(page.locator(".xp-colour").nth(0)).to_have_value("yellow")
        # Two players sit at opposite corners by default (E-4).
        page.locator(".seat-row .icon-button").last.click()
        expect(page.locator(".xp-colour").nth(1)).to_have_value("green")
        page.click("#add-seat")
        # Seat 1 takes green: seat 2 follows the clockwise order by itself (blue).
        page.locator(".xp-colour").nth(1).select_option("green")
        expect(page.locator(".xp-colour").nth(2)).to_have_value("blue")
        page.check("#xp-short")
        page.select_option("#alertness", "30")
        shots.step("express-lobby")
        page.click("#create")
        page.wait_for_url(re.compile(r"/t/[A-Z0-9]{6}$"))
        expect(page.locator(".xp-board")).to_be_visible()
        code = page.url.rsplit("/", 1)[1]
        info = httpx.get(f"{server.url}/api/tables/{code}").json()
        colours = info["params"]["colours"]
        assert colours == ["yellow", "green", "blue"]
        assert info["params"]["llamas_to_win"] == 3
        assert info["alertness"] == 30
        # On a phone the board fits the screen's width and the page does not scroll sideways.
        page.set_viewport_size({"width": 390, "height": 844})
        expect(page.locator(".xp-board")).to_be_visible()
        box = page.locator(".xp-board").bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        shots.step("express-phone")
        assert shots.errors == []
    except Exception as exc:
        raise shots.failure(exc) from exc
    finally:
        page.close()


def test_play_express_turns_with_a_free_action(server: ServerThread, browser: Browser) -> None:
    from playwright.sync_api import expect

    seed = seed_with_rolls({0: "GBP"})  # train A can stop with a car on yellow's boarding space
    body: dict[str, Any] = {
        "game": "express",
        "seats": [{"kind": "human", "name": "Ada"}, {"kind": "bot", "bot_kind": "benchmark"}],
        "params": {"llamas_to_win": 3},
        "seed": seed,
    }
    table = httpx.post(f"{server.url}/api/tables", json=body).json()
    code, token = table["code"], table["seats"][0]["token"]
    httpx.post(f"{server.url}/api/tables/{code}/start", json={"host_token": table["host_token"]})
    page = browser.new_page(viewport={"width": 1280, "height": 1000}, locale="en-GB")
    page.set_default_timeout(15_000)
    shots = Shots(page)
    try:
        page.goto(f"{server.url}/t/{code}#seat={token}")
        expect(page.locator("#conn")).to_have_text("Connected")
        # Choose train A by clicking its locomotive on the board.
        loco = page.locator('[data-action-target="move A"]')
        expect(loco).to_be_visible()
        expect(page.locator(".banner")).to_contain_text("choose a train")
        # Ada's own card says it is her turn (issue 19: it said "▶ their turn").
        expect(page.locator(".xp-player-me .xp-state")).to_have_text("▶ your turn")
        shots.step("express-choose")
        assert "4 waiting" in my_counts(page)
        loco.click()
        # The window after the move: a glowing car on yellow's boarding space.
        car = page.locator('[data-action-target^="board A"]')
        expect(car).to_have_count(1)
        expect(page.locator(".banner")).to_contain_text("A chance for you")
        expect(page.locator(".actions .xp-done")).to_be_visible()
        shots.step("express-window")
        notation = car.get_attribute("data-action-target") or ""
        car.focus()
        page.keyboard.press("Enter")  # keyboard only
        expect(page.locator(".xp-player-me .xp-player-counts")).to_contain_text("3 waiting")
        car_name = notation.split()[1]
        riders = page.locator('.xp-piece[data-train="A"] title')
        expect(riders.filter(has_text=f"Car {car_name} with a yellow llama")).to_have_count(1)
        shots.step("express-boarded")
        # Play on: a few decisions with the number keys or the Done button.
        decisions = 0
        deadline = time.monotonic() + 20
        while decisions < 6 and time.monotonic() < deadline:
            page.wait_for_function(
                "() => document.querySelector('.finished') || "
                "document.querySelector('.actions button:not([disabled])')"
            )
            if page.locator(".finished").count():
                break
            done = page.locator(".actions .xp-done:not([disabled])")
            if decisions % 2 and done.count():
                done.click()
            else:
                page.keyboard.press("1")
            decisions += 1
            page.wait_for_timeout(150)
        assert decisions >= 3
        events = page.locator(".log li")
        expect(events.first).to_be_visible()
        assert "Ada boards car" in page.locator(".log").inner_text()
        shots.step("express-later")
        assert shots.errors == []
    except Exception as exc:
        raise shots.failure(exc) from exc
    finally:
        page.close()
