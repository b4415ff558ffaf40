"""Hints per table: the creator may switch them off (stored, kept for a rematch); then the
table says ``hints: false`` and a ``hint`` message is refused with ``hints_off``."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from fastapi.testclient import TestClient
from web_helpers import Peer, create, start, wait_status

from lamagames.web.store import Store

HUMAN = {"kind": "human"}
BOT = {"kind": "bot", "bot_kind": "random"}


def test_hints_off_is_stored_and_refused_over_the_websocket(client: TestClient) -> None:
    table = create(client, [HUMAN, HUMAN], hints=False)
    code = table["code"]
    assert client.get(f"/api/tables/{code}").json()["hints"] is False
    on = create(client, [HUMAN, HUMAN])
    assert client.get(f"/api/tables/{on['code']}").json()["hints"] is True  # default: on
    start(client, table)
    with client.websocket_connect(f"/ws/{code}") as ws:
        peer = Peer(ws)
        peer.hello(table["seats"][0]["token"])
        state = peer.turn(0)
        peer.send({"type": "hint", "ref": "h"})
        error = peer.error()
        assert error["code"] == "hints_off" and error["ref"] == "h"
        assert error["version"] == state["version"]
        peer.send({"type": "ping"})  # the socket stays usable
        assert peer.until(lambda m: m["type"] == "pong")


def test_hints_must_be_a_boolean(client: TestClient) -> None:
    for value in ("no", 2, None):
        body = {"game": "dice", "seats": [HUMAN, BOT], "hints": value}
        response = client.post("/api/tables", json=body)
        assert response.status_code == 422, value
        assert "hints" in response.json()["message"]


def test_rematch_keeps_hints_off(client: TestClient) -> None:
    table = create(client, [BOT, BOT], hints=False)
    start(client, table)
    wait_status(client, table["code"], "finished")
    answer = client.post(
        f"/api/tables/{table['code']}/rematch", json={"token": table["host_token"]}
    )
    assert answer.status_code == 200, answer.text
    assert client.get(f"/api/tables/{answer.json()['code']}").json()["hints"] is False


def test_database_from_before_the_switch_gets_the_column_with_hints_on(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite3"
    store = Store(f"sqlite:///{path}")
    seats = [("human", "", None), ("bot", "", "random")]
    common = {"params": {}, "seats": seats, "public": True, "turn_clock": None,
              "away_timeout": 60, "alertness": None}  # fmt: skip
    data = store.create_table(game="dice", seed=1, **common)  # type: ignore[arg-type]
    store.close()
    with sqlite3.connect(path) as raw:  # the schema as it was before the switch
        raw.execute("ALTER TABLE tables DROP COLUMN hints")
        raw.execute("DROP TABLE alembic_version")  # made before migrations, too
    store = Store(f"sqlite:///{path}")
    try:
        loaded = store.load(data.code)
        assert loaded is not None and loaded.hints is True
        off = store.create_table(game="dice", seed=2, hints=False, **common)  # type: ignore[arg-type]
        again = store.load(off.code)
        assert again is not None and again.hints is False
    finally:
        store.close()
