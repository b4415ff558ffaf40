"""Real-browser test of the web app's languages (issue 19 item 5): the browser's language is
chosen by default (``navigator.languages``, first one the app speaks), the picker switches
the language and is remembered across reloads, and plural messages follow
``Intl.PluralRules`` (Italian "1 posto libero" / "2 posti liberi").

Drives Debian's chromium through Playwright against a uvicorn server on 127.0.0.1.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from browser_helpers import (
    BROWSER_MARKS,
    CHROMIUM,
    CHROMIUM_ARGS,
    HUMAN,
    ServerThread,
    post_json,
)

pytestmark = BROWSER_MARKS

BOT = {"kind": "bot", "bot_kind": "random"}


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ServerThread]:
    """A live server."""
    with ServerThread(tmp_path / "lang.sqlite3", bot_delay=0.02) as running:
        yield running


def test_browser_language_picker_memory_and_plurals(server: ServerThread) -> None:
    from playwright.sync_api import expect, sync_playwright

    # Two open tables in the lobby list: one free seat and two free seats.
    one_free = post_json(server, "/api/tables", {"game": "dice", "seats": [HUMAN, BOT]})
    two_free = post_json(server, "/api/tables", {"game": "dice", "seats": [HUMAN, HUMAN]})
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            context = browser.new_context(locale="fr-FR")
            page = context.new_page()
            page.set_default_timeout(15_000)
            # A French browser gets the French page.
            page.goto(server.url)
            expect(page.locator("#create")).to_have_text("Créer la table")
            expect(page.locator("html")).to_have_attribute("lang", "fr")
            expect(page.locator("#lang")).to_have_value("fr")
            expect(page.locator("#lang option")).to_have_text(
                ["English", "Deutsch", "Français", "Nederlands", "Italiano"]
            )
            # The picker switches to Dutch, and the choice outlives a reload.
            page.select_option("#lang", "nl")
            expect(page.locator("#create")).to_have_text("Tafel maken")
            page.reload()
            expect(page.locator("#create")).to_have_text("Tafel maken")
            expect(page.locator("#lang")).to_have_value("nl")
            expect(page.locator("html")).to_have_attribute("lang", "nl")
            # Italian plurals of the free seats: "1 posto libero", "2 posti liberi".
            page.select_option("#lang", "it")
            one = page.locator(".table-item", has_text=one_free["code"])
            two = page.locator(".table-item", has_text=two_free["code"])
            expect(one).to_contain_text("1 posto libero")
            expect(two).to_contain_text("2 posti liberi")
            context.close()
            # navigator.languages is read in order: the first language the app speaks wins.
            context = browser.new_context(locale="ja-JP")
            languages = "['ja', 'pt-BR', 'nl-BE', 'en']"
            context.add_init_script(
                f"Object.defineProperty(navigator, 'languages', {{get: () => {languages}}})"
            )
            page = context.new_page()
            page.goto(server.url)
            expect(page.locator("#create")).to_have_text("Tafel maken")
            context.close()
        finally:
            browser.close()
