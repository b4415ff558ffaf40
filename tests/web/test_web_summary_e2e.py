"""Browser: the summary after a game (issue 19 item 3).

Bots play a table of each game to the end; the host opens the finished page. LAMA Dice shows
the points each seat took per round (from the ``round_end`` events, D-10) and the chips each
gave back (``chip`` events), as two small charts and a table; Lama Express shows who brought which
llama home at which roll (``exit`` events, E-10). The expected figures are computed here from
the replay's events; "play again" stays.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from browser_helpers import BROWSER_MARKS, ServerThread, get_json, post_json

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

pytestmark = BROWSER_MARKS

BOT = {"kind": "bot", "bot_kind": "random"}


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ServerThread]:
    """A live server with bots that do not pause."""
    with ServerThread(tmp_path / "summary.sqlite3", bot_delay=0.0) as running:
        yield running


def finished_table(server: ServerThread, game: str, **extra: Any) -> dict[str, Any]:
    """A table of three random bots played to the end; ``extra``: further fields of the
    creation request (other ``seats``, ``params``...)."""
    body = {"game": game, "seats": [BOT, BOT, BOT], "seed": 7, **extra}
    table = post_json(server, "/api/tables", body)
    post_json(server, f"/api/tables/{table['code']}/start", {"host_token": table["host_token"]})
    deadline = time.monotonic() + 90
    while get_json(server, f"/api/tables/{table['code']}")["status"] != "finished":
        assert time.monotonic() < deadline, "the bots did not finish"
        time.sleep(0.1)
    return table


def host_page(browser: Browser, server: ServerThread, table: dict[str, Any]) -> Page:
    """The finished page as its host sees it (who may ask for a rematch)."""
    page = browser.new_page(viewport={"width": 1366, "height": 768}, locale="en-GB")
    page.set_default_timeout(10_000)
    code, token = table["code"], table["host_token"]
    page.add_init_script(f"localStorage.setItem('lama.host.{code}', {token!r})")
    page.goto(f"{server.url}/t/{code}")
    return page


def game_events(server: ServerThread, code: str) -> list[dict[str, Any]]:
    """Every game event of a finished table, in order."""
    replay = get_json(server, f"/api/tables/{code}/replay")
    return [e for action in replay["events"] for e in action["events"]]


def test_dice_summary_shows_points_per_round_and_chips(
    server: ServerThread, browser: Browser
) -> None:
    from playwright.sync_api import expect

    # seed 4: a game in which a chip is given back (with seed 7 nobody gives one, and the
    # summary says so in a sentence instead of this chart: test_web_name_form_e2e)
    table = finished_table(server, "dice", seed=4)
    events = game_events(server, table["code"])
    rounds = [e for e in events if e["kind"] == "round_end"]
    assert rounds
    chips = [[0, 0], [0, 0], [0, 0]]
    for e in events:
        if e["kind"] == "chip" and e["chip"] != "none":
            chips[e["seat"]][0 if e["chip"] == "black" else 1] += 1
    assert any(black or white for black, white in chips)
    page = host_page(browser, server, table)
    try:
        summary = page.locator("#summary")
        expect(summary).to_be_visible()
        expect(summary.locator("h3")).to_have_text("How the game went")
        expect(summary.locator(".summary-chart rect")).to_have_count(3 * len(rounds))
        header = summary.locator("thead th")
        expect(header).to_have_count(len(rounds) + 3)
        for seat in range(3):
            cells = summary.locator(f'tbody tr[data-seat="{seat}"] td')
            wanted = [str(r["points"][seat]) for r in rounds]
            assert cells.all_inner_texts()[: len(rounds)] == wanted
            black, white = chips[seat]
            given = cells.nth(len(rounds)).inner_text()
            if black or white:
                assert given.startswith(f"{black} black, {white} white")
            else:
                assert given == "–"
        # The chips given back as a small chart too (issue 19), not only a column: a pile
        # per seat, one chip drawn per chip given back, each seat's figures in its name.
        chart = summary.locator("svg.summary-chipchart")
        expect(chart).to_have_attribute("role", "img")
        expect(summary.locator("figcaption")).to_have_text(
            [
                "Points each seat took per round",
                "Chips given back by each player, with their points",
            ]
        )
        label = chart.get_attribute("aria-label") or ""
        assert label.startswith("Chips given back by each player, with their points: "), label
        for seat in range(3):
            black, white = chips[seat]
            pile = chart.locator(f'.summary-pile[data-seat="{seat}"]')
            expect(pile.locator(".summary-chip-black")).to_have_count(black)
            expect(pile.locator(".summary-chip-white")).to_have_count(white)
            said = f"Random {seat + 1}: " + (
                f"{black} black, {white} white (" if black or white else "none"
            )
            expect(pile.locator("title")).to_contain_text(said)
            assert said in label, (said, label)
        expect(page.locator("#rematch")).to_be_visible()
        # On an upright phone the table scrolls sideways instead of splitting numbers and
        # headers over lines (27 showed as 2 / 7, "Total" as "To ta l").
        page.set_viewport_size({"width": 390, "height": 844})
        split = page.evaluate(
            """() => [...document.querySelectorAll('.summary-table thead th, .summary-table .num')]
                .filter((cell) => {
                  const range = document.createRange();
                  range.selectNodeContents(cell);
                  const lines = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
                  return lines.size > 1;
                })
                .map((cell) => cell.textContent)"""
        )
        assert split == []
    finally:
        page.close()


def test_express_summary_shows_who_brought_which_llama_home_when(
    server: ServerThread, browser: Browser
) -> None:
    from playwright.sync_api import expect

    table = finished_table(server, "express", params={"llamas_to_win": 3})
    events = game_events(server, table["code"])
    names = {seat: f"Random {seat + 1}" for seat in range(3)}  # bot seats' display names
    wanted, roll = [], 0
    for e in events:
        if e["kind"] == "roll":
            roll = e["roll"]
        elif e["kind"] == "exit":
            wanted.append(
                f"Roll {roll}: {names[e['seat']]} brought a llama home ({e['home']} of 3)"
            )
    assert wanted
    page = host_page(browser, server, table)
    try:
        summary = page.locator("#summary")
        expect(summary).to_be_visible()
        expect(summary.locator(".summary-list li")).to_have_count(len(wanted))
        assert summary.locator(".summary-list li").all_inner_texts() == wanted
        expect(summary.locator(".summary-chart title")).to_have_count(len(wanted))
        expect(page.locator("#rematch")).to_be_visible()
    finally:
        page.close()


LONG_NAME = "Maximiliane-Wilhelmina-Schwarzko"  # 32 characters, no space to wrap at
assert len(LONG_NAME) == 32
SIZES = [(1280, 720), (1366, 768), (1920, 1080), (390, 844), (844, 390)]


def long_finished_table(server: ServerThread, game: str, params: dict[str, Any]) -> dict[str, Any]:
    """Three random bots, the first with the 32-character name, played to the end."""
    seats = [{**BOT, "name": LONG_NAME}, BOT, BOT]
    return finished_table(server, game, seats=seats, params=params)


def never_scrolls_sideways(page: Page, what: str) -> None:
    """The page is no wider than the window and every part of the finished panel and its
    summary is inside it; the page may scroll down (a finished table is not fitted to the
    screen: the review follows), and nothing of the panel is cut off below."""
    page.wait_for_timeout(200)  # the resize's new layout
    sizes = page.evaluate(
        """() => {
          const el = document.documentElement;
          const out = [...document.querySelectorAll('#finished, #finished *')]
            .filter((e) => !e.closest('.summary-table-wrap, .item-actions'))
            .filter((e) => e.getBoundingClientRect().right > innerWidth + 0.5)
            .map((e) => e.tagName + '.' + (e.getAttribute('class') || ''));
          const bottom = document.querySelector('#finished').getBoundingClientRect().bottom;
          return {width: el.scrollWidth, height: el.scrollHeight, innerWidth, innerHeight,
                  out: out.slice(0, 6), bottom: bottom + scrollY,
                  fitted: document.body.classList.contains('fit')};
        }"""
    )
    assert sizes["width"] <= sizes["innerWidth"], f"{what} scrolls sideways: {sizes}"
    assert sizes["out"] == [], f"{what}: parts past the right edge: {sizes}"
    assert not sizes["fitted"], f"{what}: the finished page scrolls down as before: {sizes}"
    assert sizes["height"] >= sizes["bottom"] - 0.5, f"{what}: the panel is cut off: {sizes}"


def test_a_long_dice_game_s_finished_page_never_scrolls_sideways(
    server: ServerThread, browser: Browser
) -> None:
    """Twelve rounds and a 32-character name: at every size the page is no wider than the
    window (issue 19: 837 pixels on a 390-pixel phone held upright, 854 at 844x390, the
    chart and the table widened the panel); the chart scales down, the table scrolls
    sideways inside its own box, a focusable region named by its caption."""
    from playwright.sync_api import expect

    table = long_finished_table(server, "dice", {"end_score": 250})
    rounds = [e for e in game_events(server, table["code"]) if e["kind"] == "round_end"]
    assert len(rounds) >= 10, len(rounds)
    page = host_page(browser, server, table)
    try:
        summary = page.locator("#summary")
        expect(summary.locator("thead th")).to_have_count(len(rounds) + 3)
        for width, height in SIZES:
            page.set_viewport_size({"width": width, "height": height})
            never_scrolls_sideways(page, f"dice {width}x{height}")
        # Upright phone: the table is wider than its box and scrolls inside it, by keyboard.
        page.set_viewport_size({"width": 390, "height": 844})
        wrap = summary.locator(".summary-table-wrap")
        expect(wrap).to_have_attribute("role", "region")
        expect(wrap).to_have_attribute("tabindex", "0")
        expect(wrap).to_have_accessible_name("Points per round and chips given back")
        assert wrap.evaluate("(el) => el.scrollWidth > el.clientWidth")
        wrap.focus()
        page.keyboard.press("ArrowRight")
        expect(wrap).not_to_have_js_property("scrollLeft", 0)
        expect(page.locator("#rematch")).to_be_visible()
    finally:
        page.close()


def test_a_long_express_game_s_finished_page_never_scrolls_sideways(
    server: ServerThread, browser: Browser
) -> None:
    """The four-llama game with a 32-character name: the timeline and the list fit every
    size (issue 19)."""
    from playwright.sync_api import expect

    table = long_finished_table(server, "express", {"llamas_to_win": 4})
    page = host_page(browser, server, table)
    try:
        expect(page.locator("#summary .summary-list li").first).to_be_visible()
        for width, height in SIZES:
            page.set_viewport_size({"width": width, "height": height})
            never_scrolls_sideways(page, f"express {width}x{height}")
    finally:
        page.close()
