"""Browser: a table whose bot cannot be made on this server (a LAMA Dice ``search`` bot
without numba) says so in the banner, to a spectator as to a player, and keeps saying it
after the error toast has faded.

numba is installed here; its absence is simulated by ``find_spec`` answering ``None`` (the
server runs in a thread of this process).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from browser_helpers import BROWSER_MARKS, HUMAN, ServerThread, get_json, post_json
from web_helpers import hide_numba

if TYPE_CHECKING:
    from playwright.sync_api import Browser

pytestmark = BROWSER_MARKS


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ServerThread]:
    """A live server with fast bots."""
    with ServerThread(tmp_path / "stuck.sqlite3", bot_delay=0.02) as running:
        yield running


def test_a_spectator_sees_that_the_table_cannot_go_on(
    server: ServerThread, browser: Browser, monkeypatch: pytest.MonkeyPatch
) -> None:
    from playwright.sync_api import expect

    body = {
        "game": "dice",
        "seats": [{"kind": "bot", "bot_kind": "search"}, HUMAN],
        "params": {"starting_seat": 0},
        "seed": 5,
    }
    table = post_json(server, "/api/tables", body)  # while numba is there
    hide_numba(monkeypatch)
    assert get_json(server, f"/api/tables/{table['code']}")["hints"] is False
    post_json(server, f"/api/tables/{table['code']}/start", {"host_token": table["host_token"]})
    page = browser.new_page(locale="en-GB")
    page.set_default_timeout(10_000)
    page.goto(f"{server.url}/t/{table['code']}")  # no seat: a spectator
    notice = page.locator("#bot-unavailable")
    expect(notice).to_contain_text("A bot at this table cannot play on this server")
    expect(notice).to_contain_text("pip install 'lamagames[sim]'")
    page.wait_for_timeout(5_000)  # the toast is gone by now; the notice stays
    expect(page.locator(".toast")).to_have_count(0)
    expect(notice).to_be_visible()
    page.close()
