"""Live tables survive database trouble (issue 8): a failed write is refused to the person
acting as ``unavailable`` (socket open, nothing applied), bots and clocks try again by
themselves, pooled PostgreSQL connections dropped by a restart are replaced, and a locked
SQLite file stalls no other request (database calls run off the event loop)."""

from __future__ import annotations

import sqlite3
import threading
import time
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest
from db_helpers import Faults, database_url, terminate_other_connections
from fastapi.testclient import TestClient
from web_helpers import FAST, Peer, create, live_table, start, wait_status

from lamagames.core.records import parse_record, replay
from lamagames.web import create_app

HUMAN = {"kind": "human"}
BOT = {"kind": "bot", "bot_kind": "heuristic"}
#: Give up on a database call after 0.2 s; the driver tries again after 0.05 s.
QUICK = replace(FAST, db_retry_for=0.2, db_pause=0.05)
SHORT = {"end_score": 5}  # short LAMA Dice games (D-11)


@pytest.fixture
def app_client(db_url: str) -> Iterator[TestClient]:
    """The app on a fresh database (SQLite and PostgreSQL), quick to give up."""
    with TestClient(create_app(db_url, settings=QUICK)) as client:
        yield client


def _faults(client: TestClient) -> Faults:
    return Faults(client.app.state.store)  # type: ignore[attr-defined]


def _assert_record_replays(client: TestClient, code: str) -> None:
    """The stored game is whole: its record replays to a finished game."""
    record = parse_record(client.get(f"/api/tables/{code}/record").text)
    assert replay(record).is_terminal()


def test_an_action_that_cannot_be_stored_is_refused_and_can_be_sent_again(
    app_client: TestClient,
) -> None:
    table = create(app_client, [HUMAN, BOT], params=SHORT)
    start(app_client, table)
    faults = _faults(app_client)
    with app_client.websocket_connect(f"/ws/{table['code']}") as ws:
        peer = Peer(ws)
        peer.hello(table["seats"][0]["token"])
        state = peer.turn(0)
        faults.fail_next(10_000)
        sent = peer.act(ref="r-1")
        error = peer.error()
        assert (error["code"], error["ref"], error["version"]) == (
            "unavailable",
            "r-1",
            state["version"],
        )
        assert "database" in error["message"] and "nothing was applied" in error["message"]
        peer.send({"type": "ping"})  # the socket stays open
        peer.until(lambda m: m["type"] == "pong")
        faults.remove()
        peer.send(sent)  # the same message again, now the database answers
        ack = peer.until(lambda m: m["type"] == "ack")
        assert (ack["ref"], ack["version"], ack["duplicate"]) == (
            "r-1",
            state["version"] + 1,
            False,
        )
        assert peer.play(0)["status"] == "finished"
    _assert_record_replays(app_client, table["code"])


def test_bots_go_on_by_themselves_when_the_database_is_back(app_client: TestClient) -> None:
    """Every write fails for a while (each call gives up after 0.2 s): the bots' table
    waits and finishes once writes work again, without a restart."""
    table = create(app_client, [BOT, BOT, BOT], params=SHORT)
    faults = _faults(app_client)
    faults.fail_next(12)  # whole calls fail (StoreUnavailable) a few times, then it clears
    start(app_client, table)
    wait_status(app_client, table["code"], "finished", timeout=60)
    assert faults.left == 0 and faults.raised == 12
    _assert_record_replays(app_client, table["code"])


def test_a_turn_clock_that_cannot_store_runs_out_again(app_client: TestClient) -> None:
    """The clock's bot move cannot be stored at first: the clock runs out again soon."""
    table = create(app_client, [HUMAN, HUMAN], turn_clock=5, params=SHORT)
    code = table["code"]
    live_table(app_client, code).data.turn_clock = 0.05  # shorten (the API minimum is 5 s)
    faults = _faults(app_client)
    faults.fail_next(8, only="clock")  # the clock's move fails in at least one whole call
    start(app_client, table)
    with app_client.websocket_connect(f"/ws/{code}") as ws:
        peer = Peer(ws)
        peer.hello(table["seats"][0]["token"])
        peer.until(
            lambda m: m["type"] == "state" and any(e["by"] == "clock" for e in m["events"])
        )
    assert faults.raised == 8


@pytest.mark.postgres
def test_postgresql_restart_mid_game(tmp_path: Path) -> None:
    """The server drops every connection (as a restart does) in the middle of a game: the
    next action is stored on a fresh connection and the game plays on."""
    with (
        database_url("postgresql", tmp_path) as url,
        TestClient(create_app(url, settings=replace(FAST, db_retry_for=10))) as client,
    ):
        table = create(client, [HUMAN, BOT], params=SHORT)
        start(client, table)
        with client.websocket_connect(f"/ws/{table['code']}") as ws:
            peer = Peer(ws)
            peer.hello(table["seats"][0]["token"])
            peer.turn(0)
            assert terminate_other_connections(url) >= 1
            peer.act(ref="after-restart")
            ack = peer.until(lambda m: m["type"] in ("ack", "error"))
            assert ack["type"] == "ack", ack
            assert peer.play(0)["status"] == "finished"
        _assert_record_replays(client, table["code"])


def test_a_locked_sqlite_file_stalls_no_other_request(tmp_path: Path) -> None:
    """Another process holds the SQLite write lock while a table starts (its write waits):
    the games list and another table's description answer meanwhile, while the lock is
    still held (on the event loop they would wait for the lock, 5 s or more), and the
    waiting table starts when the lock is gone."""
    db = tmp_path / "web.sqlite3"
    settings = replace(FAST, db_retry_for=30)
    with TestClient(create_app(f"sqlite:///{db}", settings=settings)) as client:
        waiting = create(client, [BOT, BOT], params=SHORT)
        other = create(client, [HUMAN, BOT], params=SHORT)
        client.get(f"/api/tables/{other['code']}")  # loaded before the lock
        locker = sqlite3.connect(db, timeout=5, check_same_thread=False)
        locker.execute("BEGIN IMMEDIATE")  # the write lock, as another process takes it
        released = threading.Event()

        def release() -> None:
            if not released.is_set():
                released.set()
                locker.rollback()

        safety = threading.Timer(15, release)  # never hang the suite
        started = threading.Thread(target=start, args=(client, waiting))
        try:
            safety.start()
            started.start()
            time.sleep(0.3)  # the start request is now waiting for the lock
            slowest = 0.0
            for path in ["/api/games", f"/api/tables/{other['code']}"] * 3:
                begun = time.monotonic()
                assert client.get(path).status_code == 200
                slowest = max(slowest, time.monotonic() - begun)
            assert not released.is_set(), "the requests waited for the lock"
            assert started.is_alive()  # the locked table is still waiting
            assert slowest < 2.5, f"a request waited {slowest:.1f} s"
        finally:
            release()
            safety.cancel()
        started.join(30)
        locker.close()
        assert not started.is_alive()
        wait_status(client, waiting["code"], "finished", timeout=60)
