"""Bot pace per table (issue 8): a creator option, stored with the table, kept for rematches."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from fastapi.testclient import TestClient
from web_helpers import create, live_table, make_client, start, wait_status

from lamagames.web.live import Settings
from lamagames.web.store import Store

BOT = {"kind": "bot", "bot_kind": "random"}
HUMAN = {"kind": "human"}


def test_pace_is_stored_and_scales_the_bot_pause(db: Path) -> None:
    settings = Settings(bot_delay=0.0, rate_per_second=10_000, rate_burst=10_000)
    with make_client(db, settings) as client:
        codes = {}
        for pace in ("slow", "normal", "fast"):
            codes[pace] = create(client, [HUMAN, BOT], bot_pace=pace)["code"]
            assert client.get(f"/api/tables/{codes[pace]}").json()["bot_pace"] == pace
        default = create(client, [HUMAN, BOT])["code"]
        assert client.get(f"/api/tables/{default}").json()["bot_pace"] == "normal"
    # After a restart the tables keep their pace; it scales the server's pause.
    with make_client(db, Settings(bot_delay=1.0)) as client:
        delays = {pace: live_table(client, code).bot_delay() for pace, code in codes.items()}
        assert delays == {"slow": 2.0, "normal": 1.0, "fast": 0.5}
        assert client.get(f"/api/tables/{codes['slow']}").json()["bot_pace"] == "slow"


def test_unknown_pace_is_refused(client: TestClient) -> None:
    for pace in ("turbo", 2, None):
        body = {"game": "dice", "seats": [HUMAN, BOT], "bot_pace": pace}
        response = client.post("/api/tables", json=body)
        assert response.status_code == 422, pace
        assert "bot_pace" in response.json()["message"]


def test_rematch_keeps_the_pace(client: TestClient) -> None:
    table = create(client, [BOT, BOT], bot_pace="slow")
    start(client, table)
    wait_status(client, table["code"], "finished")
    answer = client.post(
        f"/api/tables/{table['code']}/rematch", json={"token": table["host_token"]}
    )
    assert answer.status_code == 200, answer.text
    assert client.get(f"/api/tables/{answer.json()['code']}").json()["bot_pace"] == "slow"


def test_database_from_before_the_pace_gets_the_column(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite3"
    store = Store(f"sqlite:///{path}")
    data = store.create_table(
        game="dice",
        params={},
        seed=1,
        seats=[("human", "", None), ("bot", "", "random")],
        public=True,
        turn_clock=None,
        away_timeout=60,
        alertness=None,
    )
    store.close()
    with sqlite3.connect(path) as raw:  # the schema as it was before bot_pace
        raw.execute("ALTER TABLE tables DROP COLUMN bot_pace")
        raw.execute("DROP TABLE alembic_version")  # made before migrations, too
    store = Store(f"sqlite:///{path}")
    try:
        loaded = store.load(data.code)
        assert loaded is not None and loaded.bot_pace == "normal"
        fast = store.create_table(
            game="dice",
            params={},
            seed=2,
            seats=[("human", "", None), ("bot", "", "random")],
            public=True,
            turn_clock=None,
            away_timeout=60,
            alertness=None,
            bot_pace="fast",
        )
        again = store.load(fast.code)
        assert again is not None and again.bot_pace == "fast"
    finally:
        store.close()
