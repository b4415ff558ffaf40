"""Browser: a quick reaction from one page shows beside its seat on the other seat's page
and on a spectator's page (in the spectator's language) for a few seconds, then fades;
a chat line typed on one page shows on the others (issue 19, item 3)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from browser_helpers import BROWSER_MARKS, ServerThread, started_dice_table

if TYPE_CHECKING:
    from playwright.sync_api import Browser

pytestmark = BROWSER_MARKS


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ServerThread]:
    with ServerThread(tmp_path / "talk.sqlite3", bot_delay=0.02) as running:
        yield running


def test_a_reaction_and_a_chat_line_reach_the_other_pages(
    server: ServerThread, browser: Browser
) -> None:
    from playwright.sync_api import expect

    table = started_dice_table(server, chat=True)
    code = table["code"]
    pages = []
    for token, locale in [
        (table["seats"][0]["token"], "en-GB"),
        (table["seats"][1]["token"], "en-GB"),
        (None, "de-DE"),
    ]:
        page = browser.new_page(locale=locale)
        page.set_default_timeout(10_000)
        page.goto(f"{server.url}/t/{code}" + (f"#seat={token}" if token else ""))
        expect(page.locator("#talk-seats .talk-seat")).to_have_count(2)
        pages.append(page)
    mum, kid, watcher = pages
    expect(watcher.locator(".talk-react")).to_have_count(0)  # spectators only watch
    mum.locator('.talk-react[data-reaction="good_game"]').click()
    bubble = kid.locator('.talk-seat[data-seat="0"] .talk-bubble')
    expect(bubble).to_have_text("Good game!")
    expect(watcher.locator('.talk-seat[data-seat="0"] .talk-bubble')).to_have_text("Gutes Spiel!")
    expect(kid.locator('.talk-seat[data-seat="1"] .talk-bubble')).to_have_count(0)
    expect(bubble).to_have_count(0, timeout=10_000)  # shown for a few seconds only
    kid.locator("#talk-input").fill("Nice one!")
    kid.locator("#talk-form button").click()
    expect(mum.locator("#talk-lines li")).to_have_text(["Seat 2: Nice one!"])
    expect(watcher.locator("#talk-lines")).to_contain_text("Nice one!")
    expect(kid.locator("#talk-input")).to_have_value("")


def test_the_host_turns_the_chat_on_from_the_table_page(
    server: ServerThread, browser: Browser
) -> None:
    from playwright.sync_api import expect

    table = started_dice_table(server)  # chat off by default
    code = table["code"]
    host = browser.new_page(locale="en-GB")
    host.set_default_timeout(10_000)
    host.goto(f"{server.url}/")
    host.evaluate(
        "([k, v]) => localStorage.setItem(k, v)", [f"lama.host.{code}", table["host_token"]]
    )
    host.goto(f"{server.url}/t/{code}#seat={table['seats'][0]['token']}")
    kid = browser.new_page(locale="nl-NL")
    kid.set_default_timeout(10_000)
    kid.goto(f"{server.url}/t/{code}#seat={table['seats'][1]['token']}")
    expect(kid.locator("#talk h2")).to_have_text("Reacties")
    expect(kid.locator("#talk-form")).to_have_count(0)
    expect(kid.locator("#chat-switch")).to_have_count(0)  # only the host has the switch
    host.locator("#chat-switch").click()
    expect(host.locator("#chat-switch")).to_have_text("Turn chat off")
    kid.locator("#talk-input").fill("Hoi!")
    kid.locator("#talk-input").press("Enter")
    expect(host.locator("#talk-lines li")).to_have_text(["Seat 2: Hoi!"])
