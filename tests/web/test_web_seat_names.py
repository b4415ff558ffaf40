"""Seat names: what people may call themselves, and the names records give unnamed seats."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from web_helpers import create

from lamagames.core.records import parse_record
from lamagames.web.live import default_seat_name

HUMAN = {"kind": "human"}
STATIC = Path(__file__).parents[2] / "src" / "lamagames" / "web" / "static"

FAMILY = "\U0001f468\u200d\U0001f469\u200d\U0001f467"  # man ZWJ woman ZWJ girl
ENGLAND = "\U0001f3f4\U000e0067\U000e0062\U000e0065\U000e006e\U000e0067\U000e007f"


@pytest.mark.parametrize("name", [FAMILY, f"Robin {FAMILY}", ENGLAND, "\U0001f9d1\u200d\U0001f373"])
def test_joined_emoji_are_names(client: TestClient, name: str) -> None:
    table = create(client, [{"kind": "human", "name": name}, HUMAN])
    join = client.post(
        f"/api/tables/{table['code']}/join",
        json={"token": table["seats"][1]["token"], "name": name},
    )
    assert join.status_code == 200, join.text
    seats = client.get(f"/api/tables/{table['code']}").json()["seats"]
    assert [s["name"] for s in seats] == [name, name]


@pytest.mark.parametrize(
    "name", ["a\u202eb", "\u200dRobin", "Robin\u200d", "a\u200b", "a\u200d\u200db", "\U000e0067x"]
)
def test_lone_format_characters_are_still_refused(client: TestClient, name: str) -> None:
    response = client.post(
        "/api/tables", json={"game": "dice", "seats": [{"kind": "human", "name": name}, HUMAN]}
    )
    assert response.status_code == 422
    assert "control or text-direction" in response.json()["message"]


def test_records_name_unnamed_seats_as_the_browser_does(client: TestClient) -> None:
    seats = [
        {"kind": "human", "name": "Robin"},
        HUMAN,
        {"kind": "bot", "bot_kind": "benchmark"},
        {"kind": "bot", "bot_kind": "heuristic", "name": "Hal"},
    ]
    table = create(client, seats)
    record = parse_record(client.get(f"/api/tables/{table['code']}/record").text)
    names = [seat.name for seat in record.seats]
    assert names == ["Robin", "Seat 2", "Steady 3", "Hal"]
    # The same words as the browser's English catalog (seatName in static/common.js).
    english = json.loads((STATIC / "i18n" / "en.json").read_text("utf-8"))
    assert names[1] == english["lobby.seat"].replace("{n}", "2")
    assert names[2] == f"{english['bot.benchmark']} 3"
    assert default_seat_name(0, "random") == f"{english['bot.random']} 1"
