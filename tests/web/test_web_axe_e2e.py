"""Browser: an accessibility audit with axe-core (issue 19 item 4).

axe-core (npm devDependency, pinned in package.json; ``npm ci`` installs it, as .ci/run
does) runs in chromium on the lobby, a table of each game as a player and as a spectator,
the replay and the finished page; no violation may be serious or critical. The script is
injected as the page's content (``add_script_tag``) in a context that bypasses the
server's Content-Security-Policy, so the pages themselves keep no inline script.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from browser_helpers import BROWSER_MARKS, HUMAN, ServerThread, get_json, post_json
from npm_helpers import node_modules

if TYPE_CHECKING:
    from playwright.sync_api import Browser, BrowserContext, Page

pytestmark = BROWSER_MARKS

AXE = Path(__file__).resolve().parents[2] / "node_modules" / "axe-core" / "axe.min.js"
BOT = {"kind": "bot", "bot_kind": "random"}


@pytest.fixture(scope="module")
def axe_source() -> str:
    """axe-core's browser bundle (``npm ci`` puts it in node_modules)."""
    node_modules()  # `npm ci` when axe-core is missing (a devDependency)
    return AXE.read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerThread]:
    """A live server whose bots pause, so a person's turn stays on screen."""
    db = tmp_path_factory.mktemp("axe") / "axe.sqlite3"
    with ServerThread(db, bot_delay=3.0) as running:
        yield running


@pytest.fixture(scope="module")
def quick_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerThread]:
    """A live server whose bots barely pause: their games end in seconds (a finished page
    to check; with the 3 s pause a Lama Express game took about 115 of its 120 s)."""
    db = tmp_path_factory.mktemp("axe-quick") / "axe.sqlite3"
    with ServerThread(db, bot_delay=0.02) as running:
        yield running


@pytest.fixture
def context(browser: Browser) -> Iterator[BrowserContext]:
    """A browser context that lets the test inject axe despite the page's CSP."""
    ctx = browser.new_context(
        bypass_csp=True, viewport={"width": 1366, "height": 768}, locale="en-GB"
    )
    ctx.set_default_timeout(15_000)
    yield ctx
    ctx.close()


def serious(page: Page, axe_source: str) -> list[dict[str, Any]]:
    """The serious and critical violations axe finds on the page as it stands."""
    page.add_script_tag(content=axe_source)
    result = page.evaluate(
        "async () => (await axe.run(document, {resultTypes: ['violations']})).violations"
        ".map((v) => ({id: v.id, impact: v.impact, help: v.help,"
        " nodes: v.nodes.slice(0, 8).map((n) => [n.target.join(' '),"
        " ...n.any.map((c) => c.data && c.data.contrastRatio"
        " ? `${c.data.fgColor} on ${c.data.bgColor}: ${c.data.contrastRatio}` : c.message)])}))"
    )
    return [v for v in result if v["impact"] in ("serious", "critical")]


def check(page: Page, axe_source: str, what: str) -> None:
    found = serious(page, axe_source)
    assert not found, f"{what}: {json.dumps(found, indent=1)}"


def started(server: ServerThread, game: str, **extra: Any) -> dict[str, Any]:
    """A started table of ``game``: a person (seat 0, acting first) and bots."""
    seats = [{**HUMAN, "name": "Ada"}, BOT] + ([BOT] if game == "express" else [])
    table = post_json(server, "/api/tables", {"game": game, "seats": seats, **extra})
    code = table["code"]
    post_json(server, f"/api/tables/{code}/join", {"token": table["seats"][0]["token"]})
    post_json(server, f"/api/tables/{code}/start", {"host_token": table["host_token"]})
    return table


def test_the_lobby_has_no_serious_violations(
    server: ServerThread, context: BrowserContext, axe_source: str
) -> None:
    from playwright.sync_api import expect

    page = context.new_page()
    page.goto(server.url)
    expect(page.locator("#your-name")).to_be_visible()
    check(page, axe_source, "lobby")
    page.select_option("#game", "express")
    expect(page.locator(".xp-colour").first).to_be_visible()
    check(page, axe_source, "lobby with the Lama Express options")


@pytest.mark.parametrize("game", ["dice", "express"])
def test_a_table_has_no_serious_violations_for_players_and_spectators(
    server: ServerThread, context: BrowserContext, axe_source: str, game: str
) -> None:
    from playwright.sync_api import expect

    table = started(server, game, seed=5)
    code = table["code"]
    player = context.new_page()
    player.goto(f"{server.url}/t/{code}#seat={table['seats'][0]['token']}")
    expect(player.locator(".actions button").first).to_be_visible()
    check(player, axe_source, f"{game} table as a player")
    # The move log is a live region: a screen reader reads each move as it is added.
    log = player.locator("#log-list")
    expect(log).to_have_attribute("aria-live", "polite")
    expect(log).to_have_attribute("aria-relevant", "additions")
    player.locator("#alerts summary").click()
    check(player, axe_source, f"{game} table as a player, alerts open")
    # On an upright phone (the reactions folded into a strip), a reaction beside the seat:
    # an emoji is a picture named in words, else the words (issue 19).
    player.set_viewport_size({"width": 390, "height": 844})
    player.locator('.talk-react[data-reaction="llama"]').click()
    expect(player.locator('.talk-seat[data-seat="0"] .talk-bubble')).to_be_visible()
    check(player, axe_source, f"{game} table as a player on a phone, a reaction shown")
    watcher = context.new_page()
    watcher.goto(f"{server.url}/t/{code}")
    expect(watcher.locator("#board *").first).to_be_visible()
    check(watcher, axe_source, f"{game} table as a spectator")


@pytest.mark.parametrize("game", ["dice", "express"])
def test_finished_page_and_replay_have_no_serious_violations(
    quick_server: ServerThread, context: BrowserContext, axe_source: str, game: str
) -> None:
    server = quick_server
    from playwright.sync_api import expect

    # LAMA Dice: a long game (about a dozen rounds), whose table of points per round scrolls
    # sideways inside its own box on a phone (issue 19).
    extra = {"params": {"llamas_to_win": 3} if game == "express" else {"end_score": 250}}
    body = {"game": game, "seats": [BOT, BOT], "seed": 5, "bot_pace": "fast", **extra}
    table = post_json(server, "/api/tables", body)
    code = table["code"]
    post_json(server, f"/api/tables/{code}/start", {"host_token": table["host_token"]})
    deadline = time.monotonic() + 120
    while get_json(server, f"/api/tables/{code}")["status"] != "finished":
        assert time.monotonic() < deadline, "the bots did not finish"
        time.sleep(0.1)
    page = context.new_page()
    page.goto(f"{server.url}/t/{code}")
    expect(page.locator("#summary")).to_be_visible()
    check(page, axe_source, f"{game} finished page")
    page.set_viewport_size({"width": 390, "height": 844})
    check(page, axe_source, f"{game} finished page on an upright phone")
    page.goto(f"{server.url}/replay/{code}")
    expect(page.locator("#replay-slider")).to_be_visible()
    check(page, axe_source, f"{game} replay")
