"""SQLite WAL checkpoints in a thread of their own, off the commit path.

SQLite's automatic checkpoint (every 1,000 WAL pages by default) runs inside the commit
that crosses the threshold: under the group commit of a busy server (about 30 pages per
commit) every thirty-odd commits one paid for copying the WAL into the database file and
two fsyncs, and that was most of the tail of the commit time (docs/web.md, "Group
commit"). :class:`WalCheckpointer` moves that work to a thread with its own connection:

- the store's connections keep SQLite's automatic checkpoint only as a backstop at the
  hard cap (``wal_autocheckpoint`` = ``cap`` bytes in pages) and truncate the WAL file back
  to half of ``cap`` whenever it starts over (``journal_size_limit``), so below the cap a
  commit never checkpoints;
- every commit wakes the thread (:meth:`WalCheckpointer.wake`, cheap); at most every
  ``interval`` seconds while commits happen, it runs ``PRAGMA wal_checkpoint(PASSIVE)``,
  which copies the committed pages into the database file without taking any lock that a
  writer or reader waits for, and runs it again (a few times at most) while commits landed
  during the previous one, so that the whole WAL is copied and the next commit starts the
  WAL file over from its beginning;
- the WAL file starts over from its beginning only when a transaction begins after the
  whole WAL was copied, which commits that land while a PASSIVE checkpoint copies keep
  from happening; so when the WAL holds half of ``cap`` it runs
  ``PRAGMA wal_checkpoint(RESTART)``: writers wait while it copies the few pages left and
  fsyncs, and the next commit starts the WAL over;
- if the WAL still holds ``cap`` bytes or more (a long reader kept the checkpoints from
  finishing, or the thread fell behind), it runs ``PRAGMA wal_checkpoint(TRUNCATE)``, which
  waits for the writers (a batch may wait for it: bounded beats fast here) and leaves an
  empty WAL file.

Durability does not change: a commit is still written to the WAL before it returns, the
checkpoint only copies committed pages (with ``synchronous=NORMAL`` it fsyncs the WAL
before and the database file after copying, as the automatic one did).
"""

from __future__ import annotations

import logging
import threading
import time
from typing import Any

from sqlalchemy import create_engine
from sqlalchemy.pool import NullPool

__all__ = ["DEFAULT_WAL_CAP", "DEFAULT_WAL_INTERVAL", "WalCheckpointer"]

log = logging.getLogger("lamagames.web")

#: Hard cap of the WAL, bytes (128 MiB; 32,768 pages of 4 KiB). The blocking RESTART at
#: half of it comes about every 3 s at the 200-table benchmark's 20 MB of WAL per second.
DEFAULT_WAL_CAP = 128 * 2**20
#: Seconds between two checkpoint rounds while commits happen.
DEFAULT_WAL_INTERVAL = 0.25
#: Extra PASSIVE checkpoints in one round while commits landed during the previous one.
_REPEATS = 3


class WalCheckpointer:
    """Checkpoints an SQLite database's WAL in a background thread (see the module).

    The thread starts at the first :meth:`wake` and ends after ``idle_exit`` seconds
    without a commit (the next commit starts it again), so an idle store holds no thread.

    Args:
        url: SQLAlchemy URL of the SQLite file (the store's).
        interval: seconds between two checkpoint rounds while commits happen (> 0).
        cap: WAL size, bytes, at which a blocking ``TRUNCATE`` checkpoint runs (> 0).
        busy_timeout: seconds a RESTART or TRUNCATE checkpoint waits for the writer and
            the readers (writers wait meanwhile; if they are not done it gives up and the
            next round tries again: a reader that holds an old snapshot for long keeps any
            checkpoint from finishing, and writers should not wait for it).
        idle_exit: seconds without a commit after which the thread ends.

    Attributes:
        rounds: checkpoint rounds run (each one or more PASSIVE checkpoints).
        passive: PASSIVE checkpoints run.
        restarts: RESTART checkpoints run (half of the cap was reached).
        truncations: TRUNCATE checkpoints run (the cap was reached).
        completed: PASSIVE checkpoints that copied the whole WAL.
        max_frames: the most WAL frames (pages) a checkpoint found.
        failures: checkpoints that raised (logged; the thread goes on).

    Raises:
        ValueError: ``interval`` or ``cap`` is not positive.
    """

    def __init__(
        self,
        url: str,
        *,
        interval: float = DEFAULT_WAL_INTERVAL,
        cap: int = DEFAULT_WAL_CAP,
        busy_timeout: float = 0.2,
        idle_exit: float = 5.0,
    ) -> None:
        if not interval > 0:
            raise ValueError(f"WAL checkpoint interval must be positive, got {interval!r}")
        if cap <= 0:
            raise ValueError(f"WAL cap must be a positive number of bytes, got {cap!r}")
        self.url = url
        self.interval = interval
        self.cap = cap
        self.busy_timeout = busy_timeout
        self.idle_exit = idle_exit
        self.rounds = 0
        self.passive = 0
        self.truncations = 0
        self.restarts = 0
        self.completed = 0
        self.max_frames = 0
        self.failures = 0
        self._lock = threading.Lock()
        self._dirty = threading.Event()
        self._stopping = threading.Event()
        self._thread: threading.Thread | None = None
        self._closed = False

    def wake(self, *_args: Any) -> None:
        """A commit happened: checkpoint within ``interval`` seconds (starts the thread if
        needed). Cheap; called by the store after every commit (any arguments ignored)."""
        with self._lock:
            self._dirty.set()
            if self._thread is None and not self._closed:
                self._thread = threading.Thread(
                    target=self._run, name="lamagames-wal-checkpoint", daemon=True
                )
                self._thread.start()

    @property
    def running(self) -> bool:
        """True while the thread is alive."""
        thread = self._thread
        return thread is not None and thread.is_alive()

    def close(self, timeout: float = 10.0) -> None:
        """Stop the thread (after a checkpoint in progress ends, ``timeout`` seconds at
        most). A later :meth:`wake` starts it again (:meth:`reopen` first)."""
        with self._lock:
            self._closed = True
            thread = self._thread
            self._stopping.set()
            self._dirty.set()
        if thread is not None and thread is not threading.current_thread():
            thread.join(timeout)

    def reopen(self) -> None:
        """Allow the thread to start again after :meth:`close`."""
        with self._lock:
            if self._thread is not None and not self._thread.is_alive():
                self._thread = None
            self._closed = False
            self._stopping.clear()

    # ------------------------------------------------------------------ the thread
    def _run(self) -> None:
        engine = create_engine(
            self.url,
            poolclass=NullPool,
            connect_args={"check_same_thread": False, "timeout": self.busy_timeout},
        )
        conn: Any = None
        cap_frames = 1
        last = 0.0
        try:
            while True:
                if not self._dirty.wait(self.idle_exit):
                    with self._lock:
                        if not self._dirty.is_set():  # no commit came: end (wake restarts)
                            self._thread = None
                            return
                if self._stopping.is_set():
                    return
                # commits gather for ``interval`` seconds since the last round
                if self._stopping.wait(max(0.0, last + self.interval - time.monotonic())):
                    return
                self._dirty.clear()
                try:
                    if conn is None:
                        conn = engine.raw_connection()
                        page = conn.cursor().execute("PRAGMA page_size").fetchone()[0]
                        cap_frames = max(1, self.cap // int(page))
                    self._round(conn, cap_frames)
                except Exception as exc:  # a failed round must not end the checkpoints
                    self.failures += 1
                    log.warning("WAL checkpoint failed: %s", exc)
                    if conn is not None:
                        conn.close()
                        conn = None
                last = time.monotonic()
        finally:
            with self._lock:
                if self._thread is threading.current_thread():
                    self._thread = None
            if conn is not None:
                conn.close()
            engine.dispose()

    def _round(self, conn: Any, cap_frames: int) -> None:
        """One round: PASSIVE (again while commits landed meanwhile), TRUNCATE at the cap."""
        self.rounds += 1
        _busy, frames, copied = self._checkpoint(conn, "PASSIVE")
        repeats = 0
        while 0 <= copied < frames and repeats < _REPEATS and not self._stopping.is_set():
            repeats += 1  # commits landed during it (or a reader holds older pages)
            _busy, frames, copied = self._checkpoint(conn, "PASSIVE")
        if frames >= cap_frames:
            self.truncations += 1
            self._checkpoint(conn, "TRUNCATE")
        elif frames >= cap_frames // 2:
            # The WAL did not start over for a while: a PASSIVE checkpoint reports the
            # frames there were when it began, and commits that land while it copies keep
            # the next transaction from starting the WAL over. Finish with writers held
            # back (the few pages left and the fsyncs) so that the next commit restarts it.
            self.restarts += 1
            self._checkpoint(conn, "RESTART")

    def _checkpoint(self, conn: Any, mode: str) -> tuple[int, int, int]:
        cursor = conn.cursor()
        try:
            busy, frames, copied = cursor.execute(f"PRAGMA wal_checkpoint({mode})").fetchone()
        finally:
            cursor.close()
        if mode == "PASSIVE":
            self.passive += 1
            if frames >= 0 and copied == frames:
                self.completed += 1
        self.max_frames = max(self.max_frames, int(frames))
        return int(busy), int(frames), int(copied)
