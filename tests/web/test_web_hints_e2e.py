"""Browser: the hint button (issue 10) and a move the server could not store (``unavailable``)
is kept and sent again."""

from __future__ import annotations

import json
import re
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from browser_helpers import BROWSER_MARKS, ServerThread, started_dice_table

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page, WebSocketRoute

pytestmark = BROWSER_MARKS


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ServerThread]:
    with ServerThread(tmp_path / "hints.sqlite3", bot_delay=0.02) as running:
        yield running


def record(server: ServerThread, code: str) -> dict[str, Any]:
    with urllib.request.urlopen(f"{server.url}/api/tables/{code}/record") as response:
        data: dict[str, Any] = json.loads(response.read())
        return data


def test_hint_button_shows_each_move_with_its_value(server: ServerThread, browser: Browser) -> None:
    from playwright.sync_api import expect

    table = started_dice_table(server)
    page = browser.new_page(locale="en-GB")
    page.set_default_timeout(10_000)
    page.goto(f"{server.url}/t/{table['code']}#seat={table['seats'][0]['token']}")
    expect(page.locator(".actions button").first).to_be_enabled()
    moves = page.locator(".actions button").count()
    page.locator("#hint-button").click()
    panel = page.locator("#hint-panel")
    expect(panel).to_be_visible(timeout=60_000)  # the first hint loads the solver
    expect(panel.locator("tbody tr")).to_have_count(moves)
    expect(panel.locator(".hint-best")).to_have_count(1)
    expect(panel).to_contain_text("%")  # the bust chance of a roll
    expect(panel).to_contain_text("exact")  # quitting (D-7) is always exact
    # Two players at a fresh deal: exact margins, and the legend says why the best is best.
    expect(panel.locator("#hint-legend")).to_contain_text(
        "opponent (their expected points minus yours)"
    )
    numbers = page.evaluate(
        """async () => {
          const m = await import("/static/table/hints.js");
          return [m.number(-0, 2), m.number(-0.0001, 2), m.number(-1.5, 2), m.number(null, 2)];
        }"""
    )
    assert numbers == ["0.00", "0.00", "-1.50", "–"]  # never -0.00
    # A seat that is not acting sees no hint button.
    other = browser.new_page(locale="en-GB")
    other.goto(f"{server.url}/t/{table['code']}#seat={table['seats'][1]['token']}")
    expect(other.locator("#board")).to_be_visible()
    expect(other.locator("#hint-button")).to_have_count(0)


def test_an_unavailable_move_is_kept_and_sent_again(server: ServerThread, browser: Browser) -> None:
    from playwright.sync_api import expect

    table = started_dice_table(server)
    code = table["code"]
    page = browser.new_page(locale="en-GB")
    page.set_default_timeout(10_000)
    page.clock.install()
    refused: list[str] = []

    def handler(ws: WebSocketRoute) -> None:
        upstream = ws.connect_to_server()

        def from_page(message: str | bytes) -> None:
            data = json.loads(message) if isinstance(message, str) else {}
            if data.get("type") == "action" and not refused:
                # The database is away: the server refuses the move, nothing applied.
                refused.append(data["ref"])
                ws.send(
                    json.dumps(
                        {
                            "type": "error",
                            "code": "unavailable",
                            "message": "db",
                            "version": data["version"],
                            "ref": data["ref"],
                        }
                    )
                )
                return
            upstream.send(message)

        ws.on_message(from_page)
        upstream.on_message(lambda message: ws.send(message))

    page.route_web_socket("**/ws/**", handler)
    page.goto(f"{server.url}/t/{code}#seat={table['seats'][0]['token']}")
    button = page.locator(".actions button").first
    expect(button).to_be_enabled()
    button.click()
    expect(page.locator("#pending")).to_contain_text("could not be saved yet")
    assert len(refused) == 1 and not any(a["player"] == 0 for a in record(server, code)["actions"])
    page.clock.fast_forward("00:03")  # the page sends the same message again
    expect(page.locator("#pending")).to_have_count(0)
    mine = [a for a in record(server, code)["actions"] if a["player"] == 0]
    assert len(mine) == 1


def test_hints_switch_in_the_create_form_and_no_button_when_off(
    server: ServerThread, browser: Browser
) -> None:
    from playwright.sync_api import expect

    page = browser.new_page(locale="en-GB")
    page.set_default_timeout(10_000)
    page.goto(server.url)
    switch = page.locator("#hints")
    expect(switch).to_be_visible()  # LAMA Dice has hints
    expect(switch).to_be_checked()
    page.select_option("#game", "express")
    expect(switch).to_be_hidden()  # Lama Express has none
    page.select_option("#game", "dice")
    switch.uncheck()
    page.fill("#your-name", "Ada")
    page.locator("#create").click()  # you and two bots: the table starts at once
    expect(page).to_have_url(re.compile(r"/t/[A-Za-z0-9]+"))
    code = page.url.rsplit("/", 1)[-1].split("#")[0]
    with urllib.request.urlopen(f"{server.url}/api/tables/{code}") as response:
        assert json.loads(response.read())["hints"] is False
    # A table created with hints off shows no hint button to the seat to act.
    table = started_dice_table(server, hints=False)
    page.goto(f"{server.url}/t/{table['code']}#seat={table['seats'][0]['token']}")
    expect(page.locator(".actions button").first).to_be_enabled()
    expect(page.locator("#hint-button")).to_have_count(0)


@pytest.mark.parametrize(
    ("width", "height", "share"), [(1366, 768, 1 / 3), (390, 844, 1 / 4), (844, 390, 1 / 2)]
)
def test_the_open_hint_table_leaves_the_board_in_view(
    server: ServerThread, browser: Browser, width: int, height: int, share: float
) -> None:
    """Issue 19 trial: at a table that fits the screen the open hint table took the board
    from 532 to 224 px at 1366x768 and to 23 px on an upright phone; capped, it scrolls
    inside and the board keeps a third of the height on a laptop and a sixth on the phone,
    the page does not scroll. On a phone held sideways the page scrolled (447 pixels high
    at 844x390, the table under three stacked buttons): the action bar scrolls inside now,
    the board keeps half the height and the buttons and the table's start are in view.
    A fresh-user trial (issue 19) found the upright phone's board at 94-154 px (cards 8-13 px
    wide), the table cut at the right and "Roll the dice ★ best" over four lines: the board
    keeps a quarter now, its cards readable, the table scrolls inside its own capped panel
    and no label of a button or a move wraps over two lines."""
    from playwright.sync_api import expect

    table = started_dice_table(server)
    page = browser.new_page(viewport={"width": width, "height": height}, locale="en-GB")
    page.set_default_timeout(10_000)
    try:
        page.goto(f"{server.url}/t/{table['code']}#seat={table['seats'][0]['token']}")
        expect(page.locator(".actions button").first).to_be_enabled()
        page.locator("#hint-button").click()
        expect(page.locator("#hint-panel tbody tr").first).to_be_visible(timeout=60_000)
        board = page.locator("#board").bounding_box()
        assert board is not None and board["height"] > height * share, board
        scroll = page.evaluate("[document.documentElement.scrollHeight, innerHeight]")
        assert scroll[0] <= scroll[1], scroll
        for selector in (".actions button", "#hint-panel h2"):
            box = page.locator(selector).first.bounding_box()
            assert box is not None and 0 <= box["y"] <= height - box["height"], (selector, box)
        if width < 560:
            phone = page.evaluate(
                """() => {
                  const lines = (e) => {
                    const css = getComputedStyle(e);
                    const inner = e.clientHeight - parseFloat(css.paddingTop)
                      - parseFloat(css.paddingBottom);
                    return inner / (1.25 * parseFloat(css.fontSize));
                  };
                  const panel = document.querySelector("#hint-panel");
                  const cards = [...document.querySelectorAll("#board .card")];
                  return {
                    card: Math.max(...cards.map((c) => c.getBoundingClientRect().width)),
                    panel: panel.getBoundingClientRect().height,
                    overflow: getComputedStyle(panel).overflow,
                    moves: [...document.querySelectorAll("#hint-panel tbody td")].map(lines),
                    buttons: [...document.querySelectorAll(".actions button")].map(lines),
                  };
                }"""
            )
            assert phone["card"] >= 17, phone  # readable: the widest were 12-13 px
            assert phone["panel"] <= height * 0.2 and phone["overflow"] == "auto", phone
            assert max(phone["moves"]) < 1.5 and max(phone["buttons"]) < 2.5, phone
    finally:
        page.close()


def whole_inside(page: Page, selector: str, frame: str) -> None:
    """Every element of ``selector`` shows whole inside ``frame``'s box."""
    room = page.locator(frame).bounding_box()
    assert room is not None, frame
    for box in [el.bounding_box() for el in page.locator(selector).all()]:
        assert box is not None, selector
        bottom, floor = box["y"] + box["height"], room["y"] + room["height"]
        assert box["y"] >= room["y"] - 0.5, (selector, box, frame, room)
        assert bottom <= floor + 0.5, (selector, box, frame, room)


@pytest.mark.parametrize(("seed", "moves"), [(1, 5), (16, 7)])
def test_many_buttons_and_the_open_hint_table_on_an_upright_phone(
    server: ServerThread, browser: Browser, seed: int, moves: int
) -> None:
    """At 390x844 after a roll with five or seven discards to choose from, the open hint
    table no longer pushes the buttons out of the action bar: every button shows whole,
    the table's heading and its first move are in view in its own panel (it scrolls inside),
    the board keeps over a quarter of the height with readable cards and the page does not
    scroll (a fresh-user trial of issue 19: the bar scrolled to show the table and the
    first buttons went out of sight, or the table showed its heading only)."""
    from playwright.sync_api import expect

    width, height = 390, 844
    table = started_dice_table(server, seed=seed)
    page = browser.new_page(viewport={"width": width, "height": height}, locale="en-GB")
    page.set_default_timeout(10_000)
    try:
        page.goto(f"{server.url}/t/{table['code']}#seat={table['seats'][0]['token']}")
        page.get_by_role("button", name="Roll the dice").click()
        expect(page.locator(".actions button")).to_have_count(moves)
        expect(page.locator(".actions button").first).to_be_enabled()
        page.locator("#hint-button").click()
        expect(page.locator("#hint-panel tbody tr")).to_have_count(moves, timeout=60_000)
        page.wait_for_timeout(300)
        scroll = page.evaluate(
            "[document.documentElement.scrollHeight, innerHeight,"
            " document.documentElement.scrollWidth, innerWidth]"
        )
        assert scroll[0] <= scroll[1] and scroll[2] <= scroll[3], scroll
        whole_inside(page, ".actions button", "#controls")
        whole_inside(page, "#hint-button", "#controls")
        whole_inside(page, "#hint-panel h2", "#hint-panel")
        whole_inside(page, "#hint-panel tbody tr:first-child", "#hint-panel")
        whole_inside(page, "#hint-panel", "#controls")
        controls = page.locator("#controls").bounding_box()
        assert controls is not None and controls["y"] + controls["height"] <= height, controls
        board = page.locator("#board").bounding_box()
        assert board is not None and board["height"] >= height / 4, board
        card = page.evaluate(
            "Math.max(...[...document.querySelectorAll('#board .card')]"
            ".map((c) => c.getBoundingClientRect().width))"
        )
        assert card >= 17, card
    finally:
        page.close()
