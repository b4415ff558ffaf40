"""Browser: the first-game walkthrough (issue 18 item 5) plays to its end for each game.

From the lobby's "Learn to play" button: the panel beside the board explains the decision
with links to its rulings (``/rules/<game>#D-6``), the suggested move is highlighted, and
clicking the highlighted move at every decision plays the fixed-seed game to its end (Lama
Express's to its end in the slow run, through its first lessons in the default one)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from browser_helpers import BROWSER_MARKS, ServerThread

if TYPE_CHECKING:
    from playwright.sync_api import Browser

pytestmark = BROWSER_MARKS

#: Most decisions a walkthrough may take (the games are short: 20 points, 3 llamas).
MAX_DECISIONS = 400
#: A phrase of each game's first lesson in German (the catalogs' ``<game>.tut.*``).
GERMAN = {"dice": "würfle mit den drei Würfeln", "express": "Zug A oder B"}
#: A heading of each game's German rules (``rules.de.md``), which the German links open.
RULES_DE = {"dice": "D-6 Wer ist dran", "express": "E-6 Ein Spielzug"}


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ServerThread]:
    with ServerThread(tmp_path / "tutorial.sqlite3", bot_delay=0.0) as running:
        yield running


@pytest.mark.parametrize(
    ("game", "first_ruling", "first_lesson", "to_the_end"),
    [
        ("dice", "D-6", "roll the three dice", True),
        # The Lama Express walkthrough takes 45-90 s of CI time to its end (one browser
        # round trip per decision); the default run follows it through its first lessons
        # (the end is the same page code as LAMA Dice's), the slow run to its end.
        ("express", "E-6", "train A or B", False),
        pytest.param("express", "E-6", "train A or B", True, marks=pytest.mark.slow),
    ],
)
def test_walkthrough_plays_to_its_end(
    server: ServerThread,
    browser: Browser,
    game: str,
    first_ruling: str,
    first_lesson: str,
    to_the_end: bool,
) -> None:
    from playwright.sync_api import expect

    page = browser.new_page(locale="en-GB")
    page.set_default_timeout(20_000)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(server.url)
    page.locator(f"#learn-{game}").click()
    panel = page.locator("#tutorial")
    # The first advice may load the LAMA Dice solver (compiled code) first.
    expect(panel.locator(".tut-advice")).to_be_visible(timeout=180_000)
    expect(panel).to_contain_text(first_lesson)
    expect(panel).to_contain_text("Click the highlighted move")  # the web's own how-to
    # The ruling links open the rules in the page's language (issue 19 item 5).
    link = panel.locator(f'a.ruling[href="/rules/{game}?lang=en#{first_ruling}"]')
    expect(link).to_have_count(1)
    suggested = panel.locator("#tut-advice").get_attribute("data-suggested")
    expect(page.locator(f'.actions button.suggested[data-action="{suggested}"]')).to_have_count(1)
    if game == "dice":  # each move's exact value, and why the best is best (two players)
        moves = page.locator(".actions button").count()
        expect(panel.locator(".tut-values li")).to_have_count(moves)
        expect(panel.locator(".tut-values li.hint-best")).to_have_count(1)
        expect(panel.locator("#tut-legend")).to_contain_text("lead over the opponent")
    # In another language the lessons are the catalog's (here German); the links stay.
    page.select_option("#lang", "de")
    expect(panel.locator("h2")).to_have_text("Einführung")
    expect(panel).to_contain_text(GERMAN[game])
    german = panel.locator(f'a.ruling[href="/rules/{game}?lang=de#{first_ruling}"]')
    expect(german).to_have_count(1)
    german_rules = page.request.get(f"{server.url}/rules/{game}?lang=de")
    assert german_rules.ok and '<html lang="de">' in german_rules.text()
    assert RULES_DE[game] in german_rules.text()
    page.select_option("#lang", "en")
    expect(panel).to_contain_text(first_lesson)

    kinds: set[str] = set()
    for _ in range(MAX_DECISIONS):
        page.wait_for_selector(
            ".actions button.suggested:enabled, #tutorial[data-done]", timeout=120_000
        )
        if page.locator("#tutorial[data-done]").count():
            break
        kinds |= set(
            panel.locator(".tut-lesson").evaluate_all("els => els.map(e => e.dataset.kind)")
        )
        if not to_the_end and "start" in kinds and len(kinds) >= 3:
            assert errors == []
            return
        button = page.locator(".actions button.suggested:enabled").first
        try:
            button.click(timeout=2_000)
        except Exception:  # the table moved on between the wait and the click: look again
            continue
    else:
        raise AssertionError(f"the {game} walkthrough did not end in {MAX_DECISIONS} decisions")
    expect(page.locator("#finished")).to_be_visible()
    expect(panel).to_contain_text("Walkthrough complete")
    assert "start" in kinds and len(kinds) >= 3, kinds
    assert errors == []

    # The rules page the links open: each ruling is an anchor.
    rules = browser.new_page()
    rules.goto(f"{server.url}/rules/{game}#{first_ruling}")
    expect(rules.locator(f'[id="{first_ruling}"]')).to_be_visible()
