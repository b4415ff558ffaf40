"""The web store on SQLite and PostgreSQL: tables, seats, actions, and recovery from
transient database errors (issue 8: locked SQLite, a restarted PostgreSQL)."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from db_helpers import Faults, database_url, terminate_other_connections
from sqlalchemy.exc import IntegrityError, OperationalError

from lamagames.web.store import ActionData, Store, StoreUnavailable, TableData, normalise_url


@pytest.fixture
def store(db_url: str) -> Iterator[Store]:
    """A store on a fresh database (both backends), quick to give up in tests."""
    made = Store(db_url, retry_for=5.0)
    try:
        yield made
    finally:
        made.close()


def _table(store: Store, public: bool = True) -> TableData:
    return store.create_table(
        game="dice",
        params={"end_score": 40},
        seed=2**63 - 1,
        seats=[("human", "Ada", None), ("bot", "", "heuristic"), ("human", "", None)],
        public=public,
        turn_clock=None,
        away_timeout=30.0,
        alertness=None,
    )


def test_tables_seats_and_actions_round_trip(store: Store) -> None:
    data = _table(store)
    assert [s.kind for s in data.seats] == ["human", "bot", "human"]
    assert data.seats[0].token and data.seats[2].token and data.seats[1].token is None
    assert data.seed == 2**63 - 1  # the largest seed fits (BigInteger)
    store.set_status(data.id, "playing")
    store.append_action(data.id, ActionData(0, -1, "deal", "chance"))
    store.append_action(data.id, ActionData(1, 0, "play 3", "human"), status="finished")
    loaded = store.load(data.code)
    assert loaded is not None
    assert (loaded.status, loaded.version) == ("finished", 2)
    assert [(a.idx, a.player, a.notation, a.by) for a in loaded.actions] == [
        (0, -1, "deal", "chance"),
        (1, 0, "play 3", "human"),
    ]
    assert store.load("NOPE22") is None


def test_an_action_index_is_stored_once(store: Store) -> None:
    data = _table(store)
    store.append_action(data.id, ActionData(0, 0, "roll", "human"))
    with pytest.raises(IntegrityError):
        store.append_action(data.id, ActionData(0, 1, "quit", "human"))
    loaded = store.load(data.code)
    assert loaded is not None
    assert loaded.version == 1
    assert [a.notation for a in loaded.actions] == ["roll"]


def test_claim_retires_the_invite_and_lobby_lists_public_tables(store: Store) -> None:
    first = _table(store)
    hidden = _table(store, public=False)
    last = _table(store)
    old = first.seats[2].token
    assert old is not None
    token = store.claim_seat(first.id, 2, "Bo")
    assert token != old
    assert store.retired_seat(first.id, old) == 2
    assert store.retired_seat(first.id, token) is None
    assert store.retired_seat(last.id, old) is None
    loaded = store.load(first.code)
    assert loaded is not None
    assert (loaded.seats[2].name, loaded.seats[2].joined) == ("Bo", True)
    assert store.lobby() == [last.code, first.code]  # newest first, private left out
    store.set_status(hidden.id, "playing")
    assert store.codes_with_status("playing") == [hidden.code]


def test_transient_errors_are_retried(store: Store) -> None:
    data = _table(store)
    faults = Faults(store)
    faults.fail_next(3)
    store.append_action(data.id, ActionData(0, 0, "roll", "human"))
    assert faults.raised == 3
    loaded = store.load(data.code)
    assert loaded is not None
    assert [a.notation for a in loaded.actions] == ["roll"]


def test_a_database_that_stays_away_raises_store_unavailable(db_url: str) -> None:
    store = Store(db_url, retry_for=0.3)
    try:
        data = _table(store)
        faults = Faults(store)
        faults.fail_next(10_000)
        with pytest.raises(StoreUnavailable, match="did not answer"):
            store.append_action(data.id, ActionData(0, 0, "roll", "human"))
        assert faults.raised >= 2  # it was tried again before giving up
        faults.remove()
        loaded = store.load(data.code)
        assert loaded is not None
        assert loaded.actions == []  # nothing half-stored
    finally:
        store.close()


def test_a_commit_whose_answer_was_lost_counts_once(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The first attempt commits but its connection dies before answering: the retry finds
    the action stored and succeeds without storing it twice."""
    data = _table(store)
    real = store._append
    calls = 0

    def flaky(table_id: int, action: ActionData, status: str | None) -> None:
        nonlocal calls
        calls += 1
        real(table_id, action, status)
        if calls == 1:
            raise OperationalError("COMMIT", {}, Exception("connection lost after commit"))

    monkeypatch.setattr(store, "_append", flaky)
    store.append_action(data.id, ActionData(0, 0, "roll", "human"))
    assert calls == 2
    with pytest.raises(IntegrityError):  # a different action at that index still conflicts
        store.append_action(data.id, ActionData(0, 0, "quit", "human"))
    loaded = store.load(data.code)
    assert loaded is not None
    assert [a.notation for a in loaded.actions] == ["roll"]


@pytest.mark.postgres
def test_postgresql_connections_dropped_by_a_restart_are_replaced(tmp_path: Path) -> None:
    """Every pooled connection dies (as in a server restart): the next calls work."""
    with database_url("postgresql", tmp_path) as url:
        store = Store(url, retry_for=5.0)
        try:
            data = _table(store)
            assert store.load(data.code) is not None  # the pool holds a connection now
            assert terminate_other_connections(url) >= 1
            store.append_action(data.id, ActionData(0, 0, "roll", "human"))
            loaded = store.load(data.code)
            assert loaded is not None
            assert loaded.version == 1
        finally:
            store.close()


def test_postgres_urls_mean_psycopg() -> None:
    assert normalise_url("postgresql://u:p@h/db") == "postgresql+psycopg://u:p@h/db"
    assert normalise_url("postgres://h/db") == "postgresql+psycopg://h/db"
    assert normalise_url("postgresql+psycopg://h/db") == "postgresql+psycopg://h/db"
    assert normalise_url("sqlite:///x.db") == "sqlite:///x.db"


def test_shutdown_waits_for_a_write_still_running_in_its_thread(db_url: str) -> None:
    """Server shutdown cancels the tasks, but a worker thread cannot be cancelled: the store
    waits for the write in flight before it releases the connections, so nothing writes
    after the app stopped (a PostgreSQL schema dropped then deadlocked with such a write),
    and the write is stored whole. Later calls fail at once."""
    store = Store(db_url, retry_for=5.0)
    data = _table(store)
    writing = threading.Event()

    def slow_append() -> None:
        writing.set()
        time.sleep(0.3)
        store.append_action(data.id, ActionData(0, 0, "roll", "human"))

    async def shut_down_mid_write() -> None:
        task = asyncio.create_task(store.call(slow_append))
        while not writing.is_set():
            await asyncio.sleep(0.005)
        task.cancel()  # as Hub.shutdown does
        await store.aclose(timeout=10)
        assert store.in_flight == 0
        with pytest.raises(StoreUnavailable, match="shutting down"):
            await store.call(store.load, data.code)

    asyncio.run(shut_down_mid_write())
    again = Store(db_url)
    try:
        loaded = again.load(data.code)
        assert loaded is not None
        assert [a.notation for a in loaded.actions] == ["roll"]
    finally:
        again.close()


def test_shutdown_stops_a_call_that_retries_a_database_that_stays_away(db_url: str) -> None:
    """A call retrying a database that does not answer gives up at shutdown instead of
    retrying for its whole ``retry_for`` (60 s here) with the app gone."""
    store = Store(db_url, retry_for=60.0)
    data = _table(store)
    faults = Faults(store)
    faults.fail_next(10_000)

    async def shut_down_mid_retry() -> float:
        task = asyncio.create_task(
            store.call(store.append_action, data.id, ActionData(0, 0, "roll", "human"))
        )
        while faults.raised < 2:
            await asyncio.sleep(0.005)
        task.cancel()
        began = time.monotonic()
        await store.aclose(timeout=30)
        return time.monotonic() - began

    assert asyncio.run(shut_down_mid_retry()) < 5  # the backoff pause is at most 1 s
    assert store.in_flight == 0
