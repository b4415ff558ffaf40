"""Browser: joining by room code, and an invite link whose seat was claimed meanwhile."""

from __future__ import annotations

import json
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browser_helpers import BROWSER_MARKS, CHROMIUM, CHROMIUM_ARGS, ServerThread

pytestmark = BROWSER_MARKS


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ServerThread]:
    """A live server with fast bots."""
    with ServerThread(tmp_path / "seats.sqlite3", bot_delay=0.02) as running:
        yield running


def _post(url: str, body: dict[str, Any]) -> dict[str, Any]:
    request = urllib.request.Request(
        url, json.dumps(body).encode(), {"content-type": "application/json"}
    )
    with urllib.request.urlopen(request) as response:
        data: dict[str, Any] = json.loads(response.read())
        return data


def _table_with_a_free_seat(server: ServerThread) -> dict[str, Any]:
    """A public 2-human LAMA Dice table whose seat 1 has joined; seat 2 is free."""
    human = {"kind": "human"}
    table = _post(f"{server.url}/api/tables", {"game": "dice", "seats": [human, human]})
    _post(f"{server.url}/api/tables/{table['code']}/join", {"token": table["seats"][0]["token"]})
    return table


def test_room_code_join_and_taken_invite(server: ServerThread) -> None:
    from playwright.sync_api import expect, sync_playwright

    table = _table_with_a_free_seat(server)
    code = table["code"]
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        page = browser.new_page(locale="en-GB")
        page.set_default_timeout(10_000)
        page.goto(server.url)
        expect(page.locator("#game")).to_have_value("dice")
        expect(page.locator("#alertness")).to_be_hidden()  # LAMA Dice has no windows
        page.select_option("#game", "express")
        expect(page.locator("#alertness")).to_be_visible()
        page.fill("#room-code", "<b>x</b>!")
        page.click(".go-form button")
        expect(page.locator("#toasts")).to_contain_text("There is no table with this code")
        page.goto(f"{server.url}/t/%3Cb%3Ex%3C%2Fb%3E!")
        expect(page.locator("#table-error")).to_contain_text("There is no table with this code")
        page.goto(server.url)
        page.fill("#room-code", code.lower())
        page.click(".go-form button")
        page.click("#join-table")  # the room code lets a visitor take the free seat
        expect(page.locator("#join-table")).to_have_count(0)
        info = json.loads(urllib.request.urlopen(f"{server.url}/api/tables/{code}").read())
        assert info["free_seats"] == 0
        invitee = browser.new_page(locale="en-GB")
        invitee.goto(f"{server.url}/t/{code}#seat={table['seats'][1]['token']}")
        expect(invitee.locator("#table-error")).to_contain_text("taken")
        invitee.click("#watch-instead")
        expect(invitee.locator(".waiting")).to_contain_text("watching", ignore_case=True)
        browser.close()


def test_lobby_join_uses_the_typed_name(server: ServerThread) -> None:
    from playwright.sync_api import expect, sync_playwright

    table = _table_with_a_free_seat(server)
    code = table["code"]
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        page = browser.new_page(locale="en-GB")
        page.set_default_timeout(10_000)
        page.goto(server.url)
        page.fill("#your-name", "Stranger")
        page.get_by_role("button", name="Join").first.click()
        expect(page).to_have_url(f"{server.url}/t/{code}")
        browser.close()
    info = json.loads(urllib.request.urlopen(f"{server.url}/api/tables/{code}").read())
    assert "Stranger" in [seat["name"] for seat in info["seats"]]
