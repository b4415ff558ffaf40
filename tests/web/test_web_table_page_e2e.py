"""Browser: how the table page feels (issue 8): updates in place, a move in flight is kept
through a server restart, the invite name box, the "what just happened" line, a finished
Lama Express game, the per-table bot pace."""

from __future__ import annotations

import json
import re
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from browser_helpers import (
    BROWSER_MARKS,
    HUMAN,
    ServerThread,
    get_json,
    post_json,
    started_dice_table,
)

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page, WebSocketRoute

pytestmark = BROWSER_MARKS


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ServerThread]:
    """A live server with fast bots."""
    with ServerThread(tmp_path / "page.sqlite3", bot_delay=0.02) as running:
        yield running


def seat_page(browser: Browser, server: ServerThread, table: dict[str, Any], seat: int) -> Page:
    page = browser.new_page(locale="en-GB")
    page.set_default_timeout(10_000)
    page.goto(f"{server.url}/t/{table['code']}#seat={table['seats'][seat]['token']}")
    return page


def version(server: ServerThread, code: str) -> int:
    return int(get_json(server, f"/api/tables/{code}")["version"])


def wait_version(server: ServerThread, code: str, wanted: int, timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while version(server, code) < wanted:
        assert time.monotonic() < deadline, f"table never reached version {wanted}"
        time.sleep(0.05)


def test_a_click_across_an_update_still_counts(server: ServerThread, browser: Browser) -> None:
    from playwright.sync_api import expect

    table = started_dice_table(server)
    code = table["code"]
    page = seat_page(browser, server, table, 0)
    button = page.locator(".actions button").first
    expect(button).to_be_enabled()
    before = version(server, code)
    page.evaluate("window.pressed = document.querySelector('.actions button')")
    box = button.bounding_box()
    assert box is not None
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()
    # Another player joins meanwhile: every page gets a new state while the button is down.
    post_json(
        server, f"/api/tables/{code}/join", {"token": table["seats"][1]["token"], "name": "Robin"}
    )
    expect(page.locator("#board")).to_contain_text("Robin")
    assert page.evaluate("window.pressed === document.querySelector('.actions button')")
    page.mouse.up()
    wait_version(server, code, before + 1)


def lose_the_server(page: Page) -> dict[str, Any]:
    """Route the page's WebSocket through a switch: while ``down``, the action message is
    swallowed and the connection drops (a server restart); new connections are refused
    until ``down`` is cleared."""
    switch: dict[str, Any] = {"down": False, "swallowed": 0}

    def handler(ws: WebSocketRoute) -> None:
        if switch["down"]:
            ws.close(code=1012, reason="restarting")
            return
        server = ws.connect_to_server()

        def from_page(message: str | bytes) -> None:
            if switch["arm"] and isinstance(message, str) and '"action"' in message:
                switch["arm"], switch["down"] = False, True
                switch["swallowed"] += 1
                ws.close(code=1012, reason="restarting")
                server.close()
                return
            server.send(message)

        ws.on_message(from_page)
        server.on_message(lambda message: ws.send(message))

    switch["arm"] = False
    page.route_web_socket("**/ws/**", handler)
    return switch


def test_a_move_sent_during_a_restart_is_kept_until_answered(
    server: ServerThread, browser: Browser
) -> None:
    from playwright.sync_api import expect

    table = started_dice_table(server)
    code = table["code"]
    page = browser.new_page(locale="en-GB")
    page.set_default_timeout(10_000)
    page.clock.install()
    switch = lose_the_server(page)
    page.goto(f"{server.url}/t/{code}#seat={table['seats'][0]['token']}")
    button = page.locator(".actions button").first
    expect(button).to_be_enabled()
    before = version(server, code)
    switch["arm"] = True
    button.click()
    expect(page.locator("#conn")).to_have_text("Offline – reconnecting…")
    assert switch["swallowed"] == 1
    # The server stays away for longer than the old 8 s: the move is kept, and the page says so.
    page.clock.fast_forward("00:12")
    expect(page.locator("#pending")).to_contain_text("is kept")
    expect(page.locator("#pending")).to_be_visible()
    assert version(server, code) == before
    switch["down"] = False
    page.clock.fast_forward("00:10")  # the next reconnect attempt gets through
    expect(page.locator("#conn")).to_have_text("Connected")
    wait_version(server, code, before + 1)
    expect(page.locator("#pending")).to_have_count(0)
    time.sleep(0.3)
    with urllib.request.urlopen(f"{server.url}/api/tables/{code}/record") as response:
        record = json.loads(response.read())
    mine = [a for a in record["actions"] if a["player"] == 0]
    assert len(mine) == 1 and record["actions"][before]["player"] == 0  # applied once


def test_invite_name_box_is_empty_not_seat_2(server: ServerThread, browser: Browser) -> None:
    from playwright.sync_api import expect

    table = post_json(
        server, "/api/tables", {"game": "dice", "seats": [{"kind": "human", "name": "Ann"}, HUMAN]}
    )
    page = seat_page(browser, server, table, 1)
    box = page.locator("#join-name")
    expect(box).to_be_visible()
    expect(box).to_have_value("")
    expect(box).to_have_attribute("placeholder", "Name")


def test_what_just_happened_line_on_a_phone(server: ServerThread, browser: Browser) -> None:
    from playwright.sync_api import expect

    table = started_dice_table(server)
    page = browser.new_page(locale="en-GB", viewport={"width": 375, "height": 700})
    page.set_default_timeout(10_000)
    page.goto(f"{server.url}/t/{table['code']}#seat={table['seats'][0]['token']}")
    page.locator(".actions button", has_text="Roll").click()
    line = page.locator("#last-event")
    expect(line).to_be_visible()
    expect(line).to_contain_text(re.compile(r"^Seat 1 rolls \S+ \S+ \S+"))
    assert line.bounding_box() is not None
    banner = page.locator("#banner").bounding_box()
    shown = line.bounding_box()
    assert banner is not None and shown is not None and shown["y"] >= banner["y"] + banner["height"]
    assert shown["y"] + shown["height"] <= 700  # above the fold on a phone
    expect(page.locator("details.log")).not_to_have_attribute("open", "")


def test_finished_express_game_highlights_nobody(server: ServerThread, browser: Browser) -> None:
    from playwright.sync_api import expect

    bot = {"kind": "bot", "bot_kind": "random"}
    table = post_json(
        server,
        "/api/tables",
        {"game": "express", "seats": [bot, bot], "params": {"llamas_to_win": 3}},
    )
    post_json(server, f"/api/tables/{table['code']}/start", {"host_token": table["host_token"]})
    deadline = time.monotonic() + 60
    while get_json(server, f"/api/tables/{table['code']}")["status"] != "finished":
        assert time.monotonic() < deadline
        time.sleep(0.1)
    page = browser.new_page(locale="en-GB")
    page.set_default_timeout(10_000)
    page.goto(f"{server.url}/t/{table['code']}")
    expect(page.locator("#finished")).to_be_visible()
    expect(page.locator(".xp-player")).to_have_count(2)
    expect(page.locator(".xp-player-active")).to_have_count(0)
    expect(page.locator(".xp-active")).to_have_count(0)


def test_lobby_sets_the_bot_pace(server: ServerThread, browser: Browser) -> None:
    from playwright.sync_api import expect

    page = browser.new_page(locale="en-GB")
    page.set_default_timeout(10_000)
    page.goto(server.url)
    page.fill("#your-name", "Ann")
    expect(page.locator("#bot-pace")).to_have_value("normal")
    page.select_option("#bot-pace", "slow")
    page.click("#create")
    page.wait_for_url(f"{server.url}/t/*")
    code = page.url.rsplit("/", 1)[1]
    assert get_json(server, f"/api/tables/{code}")["bot_pace"] == "slow"


def test_express_log_words_every_roll_and_train_move(
    server: ServerThread, browser: Browser
) -> None:
    bot = {"kind": "bot", "bot_kind": "random"}
    seats = [{**bot, "name": "Ann"}, {**bot, "name": "Bo"}]
    body = {"game": "express", "seats": seats, "params": {"llamas_to_win": 3}, "seed": 5}
    table = post_json(server, "/api/tables", body)
    post_json(server, f"/api/tables/{table['code']}/start", {"host_token": table["host_token"]})
    deadline = time.monotonic() + 60
    while get_json(server, f"/api/tables/{table['code']}")["status"] != "finished":
        assert time.monotonic() < deadline
        time.sleep(0.1)
    replay = get_json(server, f"/api/tables/{table['code']}/replay")
    page = browser.new_page(locale="en-GB")
    page.goto(f"{server.url}/replay/{table['code']}")
    lines: list[list[str]] = page.evaluate(
        """async ([entries, seats]) => {
          const R = await import("/static/games/express/render.js");
          const i18n = await import("/static/i18n.js");
          await i18n.load("en", ["express"]);
          return entries.map((e) => R.eventLines(e, seats, i18n.t));
        }""",
        [replay["events"], replay["seats"]],
    )
    names = ["Ann", "Bo"]
    forced = 0
    for entry, words in zip(replay["events"], lines, strict=True):
        text = " | ".join(words)
        for event in entry["events"]:
            if event["kind"] == "roll":  # whose roll it was
                assert f"{names[event['seat']]} rolls the die" in text, text
            if event["kind"] == "move" and not event["chosen"]:  # moved by itself
                forced += 1
                assert f"Train {event['train']} moves" in text and "by itself" in text, text
            if event["kind"] == "move" and event["chosen"]:
                assert f"{names[event['seat']]} moves train {event['train']}" in text, text
    assert forced > 0


def test_replay_of_an_unknown_code_links_to_the_lobby(
    server: ServerThread, browser: Browser
) -> None:
    from playwright.sync_api import expect

    page = browser.new_page(locale="en-GB")
    page.set_default_timeout(10_000)
    page.goto(f"{server.url}/replay/ZZZZZZ")
    back = page.locator("section.panel a.btn")
    expect(back).to_have_attribute("href", "/")
    expect(back).to_have_text("← Back to the lobby")


def test_log_keeps_the_whole_game_seen_and_says_when_it_joined_late(
    server: ServerThread, browser: Browser
) -> None:
    """State messages carry only the latest events (``Settings.event_window``, 60); the
    page's log gathers them, so a watcher from the start sees every move of the game."""
    from playwright.sync_api import expect

    bot = {"kind": "bot", "bot_kind": "benchmark"}
    body = {"game": "dice", "seats": [bot, bot, bot], "seed": 3}
    table = post_json(server, "/api/tables", body)
    code = table["code"]
    watcher = browser.new_page(locale="en-GB", viewport={"width": 1280, "height": 900})
    watcher.set_default_timeout(10_000)
    watcher.goto(f"{server.url}/t/{code}")
    expect(watcher.locator("#log")).to_be_attached()
    post_json(server, f"/api/tables/{code}/start", {"host_token": table["host_token"]})
    deadline = time.monotonic() + 60
    while get_json(server, f"/api/tables/{code}")["status"] != "finished":
        assert time.monotonic() < deadline
        time.sleep(0.1)
    events = len(get_json(server, f"/api/tables/{code}/record")["actions"])
    assert events > 60, events  # more than one state message carries
    expect(watcher.locator("#finished")).to_be_visible()
    expect(watcher.locator('#log li[data-key="earlier"]')).to_have_count(0)
    late = browser.new_page(locale="en-GB", viewport={"width": 1280, "height": 900})
    late.goto(f"{server.url}/t/{code}")
    expect(late.locator('#log li[data-key="earlier"]')).to_have_text(
        "Earlier moves are in the replay once the game is over."
    )
    script = "els => els.map(e => e.dataset.key).filter(k => k !== 'earlier')"
    seen = set(watcher.eval_on_selector_all("#log li", script))
    shown_late = set(late.eval_on_selector_all("#log li", script))
    first = min(int(key.split(".")[0]) for key in seen)  # line keys: event index . line
    assert first <= 2, first  # the opening moves of the game (after the deals)
    assert shown_late < seen  # the late page has only the latest events
    assert min(int(key.split(".")[0]) for key in shown_late) >= events - 60


def test_an_opened_table_page_puts_the_keyboard_focus_on_the_table(
    server: ServerThread, browser: Browser
) -> None:
    """Issue 19 (a fresh-user trial): an opened table page left the keyboard focus on the
    page as a whole. Now the seat to act finds it on the first action button (Enter plays
    it), the other seat on the table's heading (Tab goes on into the table); the turn coming
    moves it from there to the first action button, but never away from what the person
    focused themselves, and a redraw moves nothing."""
    from playwright.sync_api import expect

    table = started_dice_table(server)
    mum = seat_page(browser, server, table, 0)  # seat 0 acts first (D-5)
    kid = seat_page(browser, server, table, 1)
    tab = seat_page(browser, server, table, 1)  # the kid's second tab, left alone
    expect(mum.get_by_role("button", name="Roll the dice")).to_be_focused()
    for page in (kid, tab):
        expect(page.locator("#table-title")).to_be_focused()
        expect(page.locator("#table-title")).to_contain_text("LAMA Dice")
    # Tab goes on from the heading into the table (the alerts menu), not the top bar.
    kid.keyboard.press("Tab")
    expect(kid.locator(".alerts-menu summary")).to_be_focused()
    # A reaction redraws every page: the focus stays.
    mum.locator('.talk-react[data-reaction="wow"]').click()
    expect(tab.locator('.talk-seat[data-seat="0"] .talk-bubble')).to_be_visible()
    expect(tab.locator("#table-title")).to_be_focused()
    expect(kid.locator(".alerts-menu summary")).to_be_focused()
    # Mum quits the round (D-7): the kid's turn. The tab left alone has the focus on its
    # first action; the tab where the kid chose the alerts menu keeps it there.
    mum.get_by_role("button", name="Quit the round").click()
    expect(tab.get_by_role("button", name="Roll the dice")).to_be_focused()
    expect(kid.get_by_role("button", name="Roll the dice")).to_be_enabled()
    expect(kid.locator(".alerts-menu summary")).to_be_focused()
    tab.keyboard.press("Enter")  # the focused button plays
    expect(kid.locator("#log-list")).to_contain_text("rolls")
    for page in (mum, kid, tab):
        page.close()


CATALOGS = Path(__file__).parents[2] / "src" / "lamagames" / "web" / "static" / "i18n"


@pytest.mark.parametrize("lang", ["en", "de", "fr", "nl", "it"])
def test_a_spectator_of_a_bots_only_table_learns_it_waits_for_its_host(
    server: ServerThread, browser: Browser, lang: str
) -> None:
    """A table of bots created through the HTTP API waits for its host to start it; its
    watcher (no seat, no host token) read only "You are watching." and the page looked stuck
    (a new-user trial). The waiting panel says the table waits for its host to start the
    game, in the reader's language, in view on an upright phone (where the head's status is
    hidden)."""
    from playwright.sync_api import expect

    bot = {"kind": "bot", "bot_kind": "random"}
    table = post_json(server, "/api/tables", {"game": "dice", "seats": [bot, bot]})
    assert get_json(server, f"/api/tables/{table['code']}")["status"] == "waiting"
    words = json.loads((CATALOGS / f"{lang}.json").read_text(encoding="utf-8"))
    english = json.loads((CATALOGS / "en.json").read_text(encoding="utf-8"))
    said = words["table.spectatingWaiting"]
    if lang == "en":
        assert "waiting for its host to start" in said, said
    else:
        assert said != english["table.spectatingWaiting"], (lang, "not translated")
    page = browser.new_page(locale=lang, viewport={"width": 390, "height": 844})
    page.set_default_timeout(10_000)
    try:
        page.goto(f"{server.url}/t/{table['code']}")
        note = page.locator("#waiting-note")
        expect(note).to_have_text(said)
        expect(note).to_have_attribute("role", "status")
        box = note.bounding_box()
        assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= 844, box
        expect(page.locator("#start")).to_have_count(0)
    finally:
        page.close()
