"""Group commit (issue 16, item 1): the actions of many tables share one transaction, each
caller returns only once its action is committed, and one bad action of a batch fails alone
(its neighbours are stored). On SQLite and PostgreSQL."""

from __future__ import annotations

import asyncio
import sqlite3
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from db_helpers import Faults, terminate_other_connections
from sqlalchemy.exc import IntegrityError

from lamagames.web.store import ActionData, Store, StoreUnavailable, TableData
from lamagames.web.writer import GroupWriter


@pytest.fixture
def store(db_url: str) -> Iterator[Store]:
    """A store on a fresh database (both backends), quick to give up."""
    made = Store(db_url, retry_for=1.0)
    try:
        yield made
    finally:
        made.close()


def _tables(store: Store, count: int) -> list[TableData]:
    return [
        store.create_table(
            game="dice",
            params={},
            seed=number,
            seats=[("human", "", None), ("bot", "", "random")],
            public=False,
            turn_clock=None,
            away_timeout=30.0,
            alertness=None,
        )
        for number in range(count)
    ]


def _stored(store: Store, code: str) -> list[tuple[int, int, str, str]]:
    data = store.load(code)
    assert data is not None
    return [(a.idx, a.player, a.notation, a.by) for a in data.actions]


def test_actions_of_many_tables_share_one_commit(store: Store) -> None:
    tables = _tables(store, 20)

    async def run() -> GroupWriter:
        writer = GroupWriter(store)
        await asyncio.gather(
            *(writer.append(t.id, ActionData(0, -1, "roll", "chance")) for t in tables)
        )
        # each returned: its action is committed (a fresh read finds it)
        await asyncio.gather(
            *(
                writer.append(t.id, ActionData(1, 0, "stop", "human"), "finished" if i else None)
                for i, t in enumerate(tables)
            )
        )
        writer.close()
        return writer

    writer = asyncio.run(run())
    assert (writer.batches, writer.actions) == (2, 40)  # one transaction per wave
    for number, table in enumerate(tables):
        assert _stored(store, table.code) == [(0, -1, "roll", "chance"), (1, 0, "stop", "human")]
        loaded = store.load(table.code)
        assert loaded is not None
        assert loaded.version == 2
        assert loaded.status == ("finished" if number else "waiting")


def test_a_long_batch_stores_every_action(store: Store) -> None:
    """250 actions of 250 tables in one batch, some of them a game's last (with the
    status), in one transaction: every action and every table's version and status as
    written one by one."""
    count = 250
    tables = _tables(store, count)
    for table in tables[:3]:  # tables at other versions
        store.append_action(table.id, ActionData(0, -1, "roll", "chance"))
    items = [
        (
            t.id,
            ActionData(int(i < 3), i % 2, f"take {i % 6 + 1}", "human"),
            "finished" if i % 7 == 0 else None,
        )
        for i, t in enumerate(tables)
    ]
    store.append_batch(items)
    for number, table in enumerate(tables):
        loaded = store.load(table.code)
        assert loaded is not None
        idx = int(number < 3)
        assert loaded.version == idx + 1
        assert loaded.status == ("finished" if number % 7 == 0 else "waiting")
        assert (loaded.actions[-1].idx, loaded.actions[-1].notation) == (
            idx,
            f"take {number % 6 + 1}",
        )
        assert len(loaded.actions) == idx + 1


def test_one_bad_action_fails_alone(store: Store) -> None:
    good, bad, other = _tables(store, 3)
    store.append_action(bad.id, ActionData(0, 0, "roll", "human"))

    async def run() -> list[BaseException | None]:
        writer = GroupWriter(store)
        results = await asyncio.gather(
            writer.append(good.id, ActionData(0, 0, "roll", "human")),
            writer.append(bad.id, ActionData(0, 1, "quit", "human")),  # index 0 is taken
            writer.append(other.id, ActionData(0, 0, "roll", "human")),
            return_exceptions=True,
        )
        writer.close()
        return list(results)

    results = asyncio.run(run())
    assert results[0] is None and results[2] is None
    assert isinstance(results[1], IntegrityError)
    assert _stored(store, good.code) == [(0, 0, "roll", "human")]
    assert _stored(store, bad.code) == [(0, 0, "roll", "human")]  # the stored one stays
    assert _stored(store, other.code) == [(0, 0, "roll", "human")]


def test_an_action_already_stored_by_a_lost_answer_counts_as_done(store: Store) -> None:
    """A batch whose commit reached the database but whose answer was lost is retried; the
    retry finds exactly its actions stored and reports success (alone or with others)."""
    first, second = _tables(store, 2)
    store.append_action(first.id, ActionData(0, 0, "roll", "human"))

    async def run() -> None:
        writer = GroupWriter(store)
        await writer.append(first.id, ActionData(0, 0, "roll", "human"))
        await asyncio.gather(
            writer.append(first.id, ActionData(0, 0, "roll", "human")),
            writer.append(second.id, ActionData(0, 0, "roll", "human")),
        )
        writer.close()

    asyncio.run(run())
    assert _stored(store, first.code) == [(0, 0, "roll", "human")]
    assert _stored(store, second.code) == [(0, 0, "roll", "human")]


def test_transient_errors_are_retried_and_an_absent_database_fails_the_batch(
    store: Store,
) -> None:
    one, two = _tables(store, 2)
    faults = Faults(store)

    async def run(count: int) -> list[BaseException | None]:
        writer = GroupWriter(store)
        faults.fail_next(count)
        results = await asyncio.gather(
            writer.append(one.id, ActionData(count, 0, "roll", "human")),
            writer.append(two.id, ActionData(count, 0, "roll", "human")),
            return_exceptions=True,
        )
        writer.close()
        return list(results)

    try:
        assert asyncio.run(run(0)) == [None, None]
        assert asyncio.run(run(2)) == [None, None]  # two failed attempts, then stored
        results = asyncio.run(run(10_000))  # never answers within retry_for
        assert all(isinstance(r, StoreUnavailable) for r in results)
    finally:
        faults.remove()
    assert [a[0] for a in _stored(store, one.code)] == [0, 2]
    assert [a[0] for a in _stored(store, two.code)] == [0, 2]


def test_the_peoples_actions_are_woken_before_the_bots_of_the_same_batch(store: Store) -> None:
    """One batch: the person's caller (``by == "human"``) goes on before the bots' and the
    chance outcomes' callers, though its action came last (issue 16: the acknowledgement
    no longer waits behind every other table of the batch)."""
    tables = _tables(store, 5)
    kinds = ["chance", "bot", "stand-in", "clock", "human"]
    order: list[str] = []

    async def one(table: TableData, by: str) -> None:
        await writer.append(table.id, ActionData(0, 0 if by != "chance" else -1, "roll", by))
        order.append(by)

    async def run() -> None:
        await asyncio.gather(*(one(t, by) for t, by in zip(tables, kinds, strict=True)))
        writer.close()

    writer = GroupWriter(store)
    asyncio.run(run())
    assert writer.batches == 1
    assert order[0] == "human" and sorted(order[1:]) == sorted(kinds[:-1])


def test_batches_commit_from_the_event_loop_without_a_worker_thread(store: Store) -> None:
    """On an SQLite file and on PostgreSQL a batch commits from the event loop itself
    (``batches_now``; issue 16: no hand-over to a worker thread and back), and is stored
    exactly as through the thread."""
    tables = _tables(store, 6)

    async def run() -> GroupWriter:
        writer = GroupWriter(store)
        await asyncio.gather(
            *(writer.append(t.id, ActionData(0, 0, "roll", "human")) for t in tables)
        )
        await writer.append(tables[0].id, ActionData(1, 1, "quit", "bot"), "finished")
        writer.close()
        await store.aclose_now()
        return writer

    writer = asyncio.run(run())
    assert writer.batches == writer.batches_now == 2
    assert _stored(store, tables[0].code) == [(0, 0, "roll", "human"), (1, 1, "quit", "bot")]
    for table in tables[1:]:
        assert _stored(store, table.code) == [(0, 0, "roll", "human")]
    loaded = store.load(tables[0].code)
    assert loaded is not None and (loaded.version, loaded.status) == (2, "finished")


def test_an_in_memory_database_always_goes_through_the_thread() -> None:
    """``sqlite://`` shares one connection between threads under a lock: never from the
    loop."""
    store = Store("sqlite://", retry_for=1.0)
    try:
        (table,) = _tables(store, 1)
        item = (table.id, ActionData(0, 0, "roll", "human"), None)
        assert asyncio.run(store.append_batch_now_async([item])) is False
        assert store.append_batch_now([item]) is False
        assert _stored(store, table.code) == []
    finally:
        store.close()


@pytest.mark.parametrize("path", ["loop", "thread"])
def test_several_actions_of_one_table_in_a_batch_leave_its_last_version_and_status(
    store: Store, path: str
) -> None:
    """A batch holding three actions of one table (the game's end status given with the
    middle one) and one of another: every action stored in order, the table's version is
    the one after its last action and its status the one given, as per-action writes in
    order would leave them (PostgreSQL writes a batch as one statement whose update must
    not pick an arbitrary one of the table's rows)."""
    busy, other = _tables(store, 2)
    items: list[tuple[int, ActionData, str | None]] = [
        (busy.id, ActionData(0, -1, "roll", "chance"), None),
        (other.id, ActionData(0, 0, "stop", "human"), None),
        (busy.id, ActionData(1, 0, "take 3", "human"), "finished"),
        (busy.id, ActionData(2, 1, "quit", "bot"), None),
    ]

    async def attempt() -> bool:
        try:
            return await store.append_batch_now_async(items)
        finally:
            await store.aclose_now()

    if path == "loop":
        assert asyncio.run(attempt()) is True
    else:
        store.append_batch(items)
    assert _stored(store, busy.code) == [
        (0, -1, "roll", "chance"),
        (1, 0, "take 3", "human"),
        (2, 1, "quit", "bot"),
    ]
    assert _stored(store, other.code) == [(0, 0, "stop", "human")]
    loaded, loaded_other = store.load(busy.code), store.load(other.code)
    assert loaded is not None and loaded_other is not None
    assert (loaded.version, loaded.status) == (3, "finished")
    assert (loaded_other.version, loaded_other.status) == (1, "waiting")


def test_a_conflicting_index_gives_way_and_stores_nothing_of_the_batch(store: Store) -> None:
    """The attempt from the loop is one transaction: a conflict stores nothing of it, says
    so (``False``), and the writer's thread path then stores the others one by one."""
    good, bad = _tables(store, 2)
    store.append_action(bad.id, ActionData(0, 0, "roll", "human"))
    items: list[tuple[int, ActionData, str | None]] = [
        (good.id, ActionData(0, 0, "roll", "human"), None),
        (bad.id, ActionData(0, 1, "quit", "human"), None),
    ]

    async def attempt() -> bool:
        try:
            return await store.append_batch_now_async(items)
        finally:
            await store.aclose_now()

    assert asyncio.run(attempt()) is False
    assert _stored(store, good.code) == []
    assert _stored(store, bad.code) == [(0, 0, "roll", "human")]


def test_a_locked_sqlite_file_gives_way_at_once_and_the_thread_waits_for_it(
    tmp_path: Path,
) -> None:
    """Another writer holds the SQLite file's lock: the attempt from the loop does not
    wait for it (the loop must not block for the lock timeout) and stores nothing; the
    writer then stores the batch through its thread once the lock is free."""
    path = tmp_path / "locked.sqlite3"
    store = Store(f"sqlite:///{path}", retry_for=5.0, lock_timeout=2.0)
    try:
        (table,) = _tables(store, 1)
        other = sqlite3.connect(path, isolation_level=None)
        other.execute("BEGIN IMMEDIATE")
        item = (table.id, ActionData(0, 0, "roll", "human"), None)
        started = time.monotonic()
        assert store.append_batch_now([item]) is False
        assert time.monotonic() - started < 0.5  # not the 2 s lock timeout

        async def run() -> GroupWriter:
            writer = GroupWriter(store)
            release = asyncio.get_running_loop().call_later(0.3, other.execute, "COMMIT")
            await writer.append(table.id, ActionData(0, 0, "roll", "human"))
            release.cancel()
            writer.close()
            return writer

        writer = asyncio.run(run())
        other.close()
        assert (writer.batches, writer.batches_now) == (1, 0)  # through the thread
        assert _stored(store, table.code) == [(0, 0, "roll", "human")]
        assert store.append_batch_now([(table.id, ActionData(1, 1, "quit", "bot"), None)])
        assert [a[0] for a in _stored(store, table.code)] == [0, 1]
    finally:
        store.close()


def test_a_lost_connection_gives_way_and_is_replaced(db_url: str) -> None:
    """The loop's connection dies under it (PostgreSQL: the server ends it, as a restart
    does; SQLite: the driver's connection is closed): the next attempt gives way (the
    thread path stores the batch) and the one after it connects again."""
    store = Store(db_url, retry_for=5.0)

    def lose_connection() -> None:
        if db_url.startswith("sqlite"):
            now_conn = store._now_conn  # the loop's own connection (private: the test's cut)
            assert now_conn is not None
            now_conn.connection.driver_connection.close()  # type: ignore[union-attr]
        else:
            store.engine.dispose()
            assert terminate_other_connections(db_url) >= 1

    try:
        (table,) = _tables(store, 1)

        async def run() -> GroupWriter:
            writer = GroupWriter(store)
            await writer.append(table.id, ActionData(0, 0, "roll", "human"))
            await asyncio.to_thread(lose_connection)
            await writer.append(table.id, ActionData(1, 1, "roll", "bot"))
            await writer.append(table.id, ActionData(2, 1, "quit", "bot"))
            writer.close()
            await store.aclose_now()
            return writer

        writer = asyncio.run(run())
        assert (writer.batches, writer.batches_now) == (3, 2)
        assert [a[0] for a in _stored(store, table.code)] == [0, 1, 2]
    finally:
        store.close()
