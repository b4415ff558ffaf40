"""Real-browser end-to-end test: one person plays a whole LAMA Dice game against two bots.

Drives Debian's chromium (``/usr/bin/chromium``) through Playwright's sync API against a
uvicorn server on 127.0.0.1 in a background thread. Skipped only when chromium is missing.
On failure a screenshot is written to a temporary directory (its path is in the message).
"""

from __future__ import annotations

import re
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from browser_helpers import BROWSER_MARKS, CHROMIUM, CHROMIUM_ARGS, ServerThread

if TYPE_CHECKING:
    from playwright.sync_api import Page

pytestmark = BROWSER_MARKS


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ServerThread]:
    """A live server with fast bots."""
    with ServerThread(tmp_path / "e2e.sqlite3", bot_delay=0.02) as running:
        yield running


def test_play_a_whole_game_in_the_browser(server: ServerThread) -> None:
    from playwright.sync_api import expect, sync_playwright

    shots = Path(tempfile.mkdtemp(prefix="lama-e2e-"))
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        page = browser.new_page(viewport={"width": 1100, "height": 800}, locale="en-GB")
        page.set_default_timeout(15_000)
        try:
            page.goto(server.url)
            page.fill("#your-name", "Ada")
            page.click("#create")  # You + two bots: starts at once
            page.wait_for_url(re.compile(r"/t/[A-Z0-9]{6}$"))
            expect(page.locator("#conn")).to_have_text("Connected")
            actions = 0
            deadline = time.monotonic() + 240
            while time.monotonic() < deadline:
                page.wait_for_function(
                    "() => document.querySelector('.finished') || "
                    "document.querySelector('.actions button:not([disabled])')"
                )
                if page.locator(".finished").count():
                    break
                if actions == 0:
                    expect(page).to_have_title(re.compile("Your turn"))
                button = page.locator('.actions button[data-shortcut="1"]:not([disabled])')
                if actions % 5 == 4:  # the keyboard works too
                    page.keyboard.press("1")
                else:
                    button.click()
                actions += 1
            expect(page.locator(".finished")).to_contain_text("Game over")
            assert actions > 3
            # Replay viewer: step back and forward with the keyboard.
            page.click("#replay-link")
            slider = page.locator("#replay-slider")
            expect(slider).to_be_visible()
            last = int(slider.get_attribute("max") or "0")
            assert last > actions
            expect(slider).to_have_value("0")  # opens at the start: no spoiler
            page.keyboard.press("ArrowRight")
            expect(slider).to_have_value("1")
            page.click("#replay-last")
            page.keyboard.press("ArrowLeft")
            expect(slider).to_have_value(str(last - 1))
            page.click("#replay-first")
            expect(slider).to_have_value("0")
            # German catalog switch.
            page.select_option("#lang", "de")
            expect(page.locator("#replay-first")).to_have_text("Anfang")
        except Exception as exc:
            path = shots / "failure.png"
            page.screenshot(path=str(path), full_page=True)
            raise AssertionError(f"browser test failed ({exc}); screenshot: {path}") from exc
        finally:
            browser.close()


def click_first_action(page: Page) -> None:
    """Wait until it is our turn and take the first action."""
    page.locator('.actions button[data-shortcut="1"]:not([disabled])').click()


def test_reconnects_after_server_restart(tmp_path: Path) -> None:
    """The page shows the lost connection, reconnects by itself and the table resumes."""
    from playwright.sync_api import expect, sync_playwright

    db = tmp_path / "restart.sqlite3"
    shots = Path(tempfile.mkdtemp(prefix="lama-e2e-"))
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        page = browser.new_page(viewport={"width": 390, "height": 844}, locale="de-DE")
        page.set_default_timeout(15_000)
        try:
            with ServerThread(db, bot_delay=0.02) as first:
                port = first.url
                page.goto(first.url)
                page.fill("#your-name", "Bea")
                page.click("#create")
                expect(page.locator("#conn")).to_have_text("Verbunden")
                for _ in range(3):
                    click_first_action(page)
                page.wait_for_selector(".actions button:not([disabled])")
                events_before = page.locator(".log li").count()
            expect(page.locator("#conn")).to_have_text(re.compile("Offline"))
            with ServerThread(db, bot_delay=0.02, port=int(port.rsplit(":", 1)[1])):
                expect(page.locator("#conn")).to_have_text("Verbunden", timeout=20_000)
                assert page.locator(".log li").count() >= events_before
                for _ in range(3):
                    click_first_action(page)
                expect(page.locator("#conn")).to_have_text("Verbunden")
        except Exception as exc:
            path = shots / "restart-failure.png"
            page.screenshot(path=str(path), full_page=True)
            raise AssertionError(f"browser test failed ({exc}); screenshot: {path}") from exc
        finally:
            browser.close()
