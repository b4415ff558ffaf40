"""Browser: a bot's turn that lasts over 1.5 s says that the bot is thinking, and while the
server still prepares the fast engine (the first run after an install) it says that instead
(issue 19: the page sat 7-9 s on "Exact (solver) 2's turn" without a word)."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

import pytest
from browser_helpers import BROWSER_MARKS, ServerThread, post_json

from lamagames.bots import base
from lamagames.bots.base import RandomBot
from lamagames.core.game import State
from lamagames.web import live

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

pytestmark = BROWSER_MARKS


class SlowThinker(RandomBot):
    """A random bot that takes 2.5 s over each decision, in a worker thread as a compiled
    bot does (it ``requires`` numba, which is installed)."""

    kind = "slow-thinker"
    requires: ClassVar[tuple[str, ...]] = ("numba",)

    def step(self, state: State) -> int:
        time.sleep(2.5)
        return super().step(state)


@pytest.fixture
def server(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[ServerThread]:
    """A live server (in this process) that knows the slow bot."""
    monkeypatch.setitem(base._REGISTERED, ("dice", SlowThinker.kind), SlowThinker)
    with ServerThread(tmp_path / "think.sqlite3", bot_delay=0.05) as running:
        yield running


def _table_with_a_slow_bot(server: ServerThread) -> dict[str, Any]:
    body = {
        "game": "dice",
        "seats": [{"kind": "human", "name": "Ada"}, {"kind": "bot", "bot_kind": SlowThinker.kind}],
        "seed": 5,
    }
    table = post_json(server, "/api/tables", body)
    post_json(server, f"/api/tables/{table['code']}/start", {"host_token": table["host_token"]})
    return table


def _quit_to_the_bot(browser: Browser, server: ServerThread) -> Page:
    """Ada's page; she quits her first turn, so the bot plays on alone (D-8.5)."""
    table = _table_with_a_slow_bot(server)
    page = browser.new_page(viewport={"width": 1366, "height": 768}, locale="en-GB")
    page.set_default_timeout(10_000)
    page.goto(f"{server.url}/t/{table['code']}#seat={table['seats'][0]['token']}")
    from playwright.sync_api import expect

    expect(page.locator(".banner")).to_contain_text("Your turn")
    expect(page.locator("#bot-thinking")).to_have_count(0)  # not on a person's turn
    page.locator('.actions button[data-action="quit"]').click()
    return page


def test_a_slow_bot_turn_shows_that_the_bot_is_thinking(
    server: ServerThread, browser: Browser
) -> None:
    from playwright.sync_api import expect

    page = _quit_to_the_bot(browser, server)
    try:
        banner = page.locator("#banner")
        expect(banner).to_contain_text("Slow-thinker", ignore_case=True)
        thinking = page.locator("#bot-thinking")
        expect(thinking).to_have_count(0, timeout=1_000)  # not before 1.5 s
        expect(thinking).to_contain_text("is thinking…", timeout=3_000)
        expect(thinking.locator(".thinking-dots span")).to_have_count(3)
        expect(thinking.locator(".thinking-dots")).to_have_attribute("aria-hidden", "true")
        expect(banner).to_have_attribute("aria-live", "polite")  # told, not shouted
    finally:
        page.close()


def test_a_bot_waiting_for_the_fast_engine_says_so(
    server: ServerThread, browser: Browser, monkeypatch: pytest.MonkeyPatch
) -> None:
    from playwright.sync_api import expect

    # the server's warm-up still compiles this table's bots' code (a cold cache)
    monkeypatch.setattr(live, "preparing", lambda game_id, kinds: SlowThinker.kind in kinds)
    page = _quit_to_the_bot(browser, server)
    try:
        thinking = page.locator("#bot-thinking")
        expect(thinking).to_contain_text(
            "Preparing the fast engine (first run only)…", timeout=3_000
        )
    finally:
        page.close()
