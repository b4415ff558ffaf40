"""SQLite WAL checkpoints off the commit path (issue 16): a commit below the cap never
checkpoints, the background thread keeps the WAL small under a burst of commits, and the
hard cap holds even when the checkpoints cannot keep up."""

from __future__ import annotations

import sqlite3
import threading
import time
from pathlib import Path

import pytest

from lamagames.web.checkpoint import WalCheckpointer
from lamagames.web.store import ActionData, Store, TableData

# SQLite's own default: a commit that brings the WAL to 1,000 pages checkpoints.
SQLITE_DEFAULT_AUTOCHECKPOINT = 1000


def _table(store: Store) -> TableData:
    return store.create_table(
        game="dice",
        params={},
        seed=1,
        seats=[("human", "", None), ("bot", "", "random")],
        public=False,
        turn_clock=None,
        away_timeout=30.0,
        alertness=None,
    )


def _wal(path: Path) -> Path:
    return Path(str(path) + "-wal")


def _burst(store: Store, table: TableData, count: int, path: Path, start: int = 0) -> int:
    """``count`` small transactions (one action each); the largest WAL file size seen."""
    largest = 0
    for idx in range(start, start + count):
        store.append_action(table.id, ActionData(idx, 0, "x" * 40, "human"))
        largest = max(largest, _wal(path).stat().st_size)
    return largest


def _wal_frames(path: Path) -> int:
    """Frames in the WAL now, as a PASSIVE checkpoint of a fresh connection reports them
    (it copies them too; call it last)."""
    conn = sqlite3.connect(path)
    try:
        _busy, frames, _copied = conn.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
        return int(frames)
    finally:
        conn.close()


def test_commits_do_not_checkpoint_below_the_cap(tmp_path: Path) -> None:
    """Without the thread, 3,000 commits leave every frame in the WAL: none of them ran
    SQLite's automatic checkpoint (at 1,000 pages by default, which the old store kept)."""
    path = tmp_path / "w.sqlite3"
    store = Store(f"sqlite:///{path}", wal_interval=None, wal_cap=256 * 2**20)
    try:
        table = _table(store)
        with store.engine.connect() as conn:
            page = conn.exec_driver_sql("PRAGMA page_size").scalar()
            auto = conn.exec_driver_sql("PRAGMA wal_autocheckpoint").scalar()
            limit = conn.exec_driver_sql("PRAGMA journal_size_limit").scalar()
        assert page is not None
        assert auto == 256 * 2**20 // page  # the cap, in pages
        assert limit == 128 * 2**20  # half of the cap
        _burst(store, table, 3000, path)
        assert store.checkpointer is None
        # (closing the store's last connection would checkpoint and delete the WAL)
        assert _wal_frames(path) > 2 * SQLITE_DEFAULT_AUTOCHECKPOINT
    finally:
        store.close()


def test_the_cap_holds_without_the_thread(tmp_path: Path) -> None:
    """The backstop: with no thread, a commit that brings the WAL to the cap checkpoints,
    and the WAL file never grows much past the cap."""
    path = tmp_path / "w.sqlite3"
    cap = 512 * 1024
    store = Store(f"sqlite:///{path}", wal_interval=None, wal_cap=cap)
    try:
        table = _table(store)
        largest = _burst(store, table, 3000, path)
    finally:
        store.close()
    assert largest <= cap + 64 * 1024  # one small transaction past the cap at most


def test_wal_stays_small_under_a_burst_with_the_thread(tmp_path: Path) -> None:
    """With the thread, 3,000 commits back to back keep the WAL below the cap (the cap, the
    backstop, is never needed), and every action is stored. Without the thread the same
    burst grows the WAL to about 50 MB; the cap here (24 MB) leaves room for one slow
    checkpoint of a loaded machine: at 8 MB a CI run saw 10.9 MB (a checkpoint's fsync
    stalled while the burst went on)."""
    path = tmp_path / "w.sqlite3"
    cap = 24 * 2**20
    store = Store(f"sqlite:///{path}", wal_interval=0.02, wal_cap=cap)
    try:
        table = _table(store)
        largest = _burst(store, table, 3000, path)
        checkpointer = store.checkpointer
        assert checkpointer is not None
        assert checkpointer.passive > 0 and checkpointer.completed > 0
        assert checkpointer.truncations == 0  # the TRUNCATE at the cap was not needed
        assert checkpointer.failures == 0
        # the frames of all 3,000 commits went through a WAL that started over many times
        assert checkpointer.max_frames < cap // 4096
    finally:
        store.close()
    assert largest < cap  # without the thread it reaches the cap (the test above)
    data = Store(f"sqlite:///{path}", wal_interval=None).load(table.code)
    assert data is not None and len(data.actions) == 3000


def test_thread_truncates_at_the_cap_after_a_long_reader(tmp_path: Path) -> None:
    """A reader that holds an old snapshot keeps every checkpoint from finishing, so the
    WAL grows past the cap; once it lets go, the thread's TRUNCATE checkpoint empties the
    WAL file (the blocking checkpoint, bounded beats fast)."""
    path = tmp_path / "w.sqlite3"
    cap = 256 * 1024
    store = Store(f"sqlite:///{path}", wal_interval=0.01, wal_cap=cap)
    try:
        table = _table(store)
        reader = sqlite3.connect(path, check_same_thread=False)
        reader.execute("BEGIN")
        reader.execute("SELECT count(*) FROM actions").fetchone()
        _burst(store, table, 200, path)
        assert _wal(path).stat().st_size > cap  # the reader pins the frames
        reader.close()
        checkpointer = store.checkpointer
        assert checkpointer is not None
        deadline = time.monotonic() + 10
        while checkpointer.truncations == 0 and time.monotonic() < deadline:
            store.append_action(table.id, ActionData(200 + checkpointer.rounds, 0, "y", "human"))
            time.sleep(0.02)
        assert checkpointer.truncations > 0
        deadline = time.monotonic() + 10
        while _wal(path).stat().st_size > cap and time.monotonic() < deadline:
            time.sleep(0.02)
        assert _wal(path).stat().st_size <= cap
    finally:
        store.close()


def test_checkpoints_run_in_their_own_thread(tmp_path: Path) -> None:
    """Every checkpoint runs in the checkpointer's thread, never in a committing one."""
    path = tmp_path / "w.sqlite3"
    store = Store(f"sqlite:///{path}", wal_interval=0.01)
    checkpointer = store.checkpointer
    assert checkpointer is not None
    threads: set[str] = set()
    original = checkpointer._checkpoint

    def spy(conn: object, mode: str) -> tuple[int, int, int]:
        threads.add(threading.current_thread().name)
        return original(conn, mode)

    checkpointer._checkpoint = spy  # type: ignore[method-assign]
    try:
        table = _table(store)
        _burst(store, table, 300, path)
        deadline = time.monotonic() + 10
        while not threads and time.monotonic() < deadline:
            time.sleep(0.01)
    finally:
        store.close()
    assert threads == {"lamagames-wal-checkpoint"}
    assert not checkpointer.running  # close() ended it


def test_thread_ends_when_idle_and_starts_again(tmp_path: Path) -> None:
    path = tmp_path / "w.sqlite3"
    store = Store(f"sqlite:///{path}", wal_interval=0.01)
    checkpointer = store.checkpointer
    assert checkpointer is not None
    checkpointer.idle_exit = 0.05
    try:
        table = _table(store)
        deadline = time.monotonic() + 10
        while checkpointer.running and time.monotonic() < deadline:
            time.sleep(0.01)
        assert not checkpointer.running
        rounds = checkpointer.rounds
        store.append_action(table.id, ActionData(0, 0, "x", "human"))
        deadline = time.monotonic() + 10
        while checkpointer.rounds == rounds and time.monotonic() < deadline:
            time.sleep(0.01)
        assert checkpointer.rounds > rounds
    finally:
        store.close()


def test_memory_store_has_no_checkpointer() -> None:
    store = Store("sqlite://")
    try:
        assert store.checkpointer is None
    finally:
        store.close()


@pytest.mark.parametrize(
    ("interval", "cap", "message"),
    [(0.0, 1024, "interval must be positive"), (0.1, 0, "cap must be a positive")],
)
def test_bad_settings_are_refused(interval: float, cap: int, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        WalCheckpointer("sqlite:///x.sqlite3", interval=interval, cap=cap)


def test_store_refuses_a_bad_cap(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="wal_cap must be a positive"):
        Store(f"sqlite:///{tmp_path / 'w.sqlite3'}", wal_cap=0)
