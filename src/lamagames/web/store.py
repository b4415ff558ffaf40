"""Persistent storage of tables, seats and applied actions (SQLAlchemy 2, any database URL).

The default database is an SQLite file in the user's data directory (platformdirs); the
schema is made and kept up to date by the Alembic migrations shipped in the package
(:mod:`lamagames.web.migrations`), run on every start. Every applied action is one row keyed by
``(table_id, idx)``, so an action can never be stored twice; a table is rebuilt after a
restart by replaying its rows through the engine.

Robustness (issue 8): every call retries transient database errors (SQLite "database is
locked", a PostgreSQL server that restarted or dropped the connection) with exponential
backoff for up to ``retry_for`` seconds, then raises :class:`StoreUnavailable`; pooled
connections are checked before use (``pool_pre_ping``), so a restarted server costs no
failed call. The web app runs every call in a worker thread (:meth:`Store.call`), so a
slow database never stalls the event loop and the other tables.

PostgreSQL needs the ``postgres`` extra (``pip install 'lamagames[postgres]'``, the psycopg
driver); ``postgresql://`` URLs are read as ``postgresql+psycopg://``.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import secrets
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Concatenate, Final, ParamSpec, TypeVar

import anyio
import anyio.to_thread
import platformdirs
from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    Float,
    ForeignKey,
    Integer,
    String,
    UniqueConstraint,
    bindparam,
    create_engine,
    event,
    false,
    insert,
    select,
    true,
    update,
)
from sqlalchemy.engine import Connection, Engine, make_url
from sqlalchemy.exc import DBAPIError, IntegrityError, InterfaceError, OperationalError
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column, sessionmaker
from sqlalchemy.pool import StaticPool

from lamagames.web import migrations
from lamagames.web.checkpoint import DEFAULT_WAL_CAP, DEFAULT_WAL_INTERVAL, WalCheckpointer

#: Room-code alphabet: no 0/O, 1/I/L, so codes survive being read aloud.
CODE_ALPHABET: Final = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
CODE_LENGTH: Final = 6

log = logging.getLogger("lamagames.web")

P = ParamSpec("P")
R = TypeVar("R")


class StoreUnavailable(Exception):
    """The database did not answer within the store's ``retry_for`` seconds (locked,
    restarting, unreachable). Nothing was stored by the failed call; try again later."""


def normalise_url(url: str) -> str:
    """``postgresql://`` and ``postgres://`` mean the psycopg 3 driver (the ``postgres``
    extra); every other SQLAlchemy URL is returned unchanged."""
    for prefix in ("postgresql://", "postgres://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix) :]
    return url


def is_transient(exc: BaseException) -> bool:
    """True for database errors that may go away when tried again: operational errors
    (SQLite "database is locked", a lost or refused connection) and invalidated
    connections. Integrity and programming errors are not."""
    if isinstance(exc, IntegrityError):
        return False
    if isinstance(exc, OperationalError | InterfaceError):
        return True
    return isinstance(exc, DBAPIError) and exc.connection_invalidated


def default_db_url() -> str:
    """``sqlite:///<user data dir>/lamagames/web.sqlite3`` (the directory is created)."""
    folder = Path(platformdirs.user_data_dir("lamagames", appauthor=False))
    folder.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{folder / 'web.sqlite3'}"


def new_token() -> str:
    """An unguessable token (128 random bits, URL-safe)."""
    return secrets.token_urlsafe(16)


def new_code() -> str:
    """A short room code such as ``K7QF2M``."""
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def _driver_params(
    rows: list[dict[str, Any]], keys: tuple[str, ...] | None
) -> list[dict[str, Any]] | list[tuple[Any, ...]]:
    """Rows of named parameters as the driver takes them: tuples in ``keys`` order for a
    positional parameter style (SQLite's ``?``), else the dictionaries."""
    if keys is None:
        return rows
    return [tuple(row[k] for k in keys) for row in rows]


#: The group commit on PostgreSQL as one statement: the batch's actions inserted from arrays
#: (``unnest``) and, in the same statement, each table's version (and status where one is
#: given) set. One statement is one round trip and, on an autocommit connection, its own
#: transaction: all or nothing, as the executemany form in a transaction was, for about half
#: the client CPU per batch (psycopg's pipelined executemany costs more than the database).
_PG_BATCH = (
    "WITH stored AS ("
    "INSERT INTO actions (table_id, idx, player, notation, by, created) "
    "SELECT * FROM unnest(%s::integer[], %s::integer[], %s::integer[], %s::varchar[], "
    "%s::varchar[], %s::varchar[])) "
    "UPDATE tables AS t SET version = v.version, updated = v.updated, "
    "status = coalesce(v.status, t.status) "
    "FROM unnest(%s::integer[], %s::integer[], %s::varchar[], %s::varchar[]) "
    "AS v(id, version, updated, status) WHERE t.id = v.id"
)


def _last_per_table(
    items: list[tuple[int, ActionData, str | None]],
) -> dict[int, tuple[int, str | None]]:
    """Each table of a group-commit batch (``(table id, action, status or None)`` in the
    order applied) with the version after its last action and the last status given
    (``None``: the status stays as stored), as per-action updates in order leave it."""
    last: dict[int, tuple[int, str | None]] = {}
    for table_id, action, status in items:
        before = last.get(table_id)
        keep = status if status is not None else (before[1] if before else None)
        last[table_id] = (action.idx + 1, keep)
    return last


def _pg_batch_statement(
    items: list[tuple[int, ActionData, str | None]], now: str
) -> tuple[str, tuple[list[Any], ...]]:
    """:data:`_PG_BATCH` and its arrays for ``items`` (``(table id, action, status or
    None)`` in the order applied). A table with several actions in the batch gets one
    row of the update (``UPDATE ... FROM`` would pick an arbitrary one of several), from
    :func:`_last_per_table`."""
    last = _last_per_table(items)
    return _PG_BATCH, (
        [table_id for table_id, _a, _s in items],
        [action.idx for _t, action, _s in items],
        [action.player for _t, action, _s in items],
        [action.notation for _t, action, _s in items],
        [action.by for _t, action, _s in items],
        [now] * len(items),
        list(last),
        [version for version, _status in last.values()],
        [now] * len(last),
        [status for _version, status in last.values()],
    )


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


class Base(DeclarativeBase):
    """Declarative base of the web schema."""


class TableRow(Base):
    """A table: game, parameters, seed, options and status."""

    __tablename__ = "tables"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    code: Mapped[str] = mapped_column(String(16), unique=True, index=True)
    game: Mapped[str] = mapped_column(String(32))
    params: Mapped[dict[str, Any]] = mapped_column(JSON)
    seed: Mapped[int] = mapped_column(BigInteger)
    status: Mapped[str] = mapped_column(String(16), index=True)
    version: Mapped[int] = mapped_column(Integer, default=0)
    host_token: Mapped[str] = mapped_column(String(64))
    public: Mapped[bool] = mapped_column(Boolean, default=True)
    turn_clock: Mapped[float | None] = mapped_column(Float, nullable=True)
    away_timeout: Mapped[float] = mapped_column(Float)
    alertness: Mapped[float | None] = mapped_column(Float, nullable=True)
    bot_pace: Mapped[str] = mapped_column(String(8), default="normal", server_default="normal")
    hints: Mapped[bool] = mapped_column(Boolean, default=True, server_default=true())
    chat: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    rematch_of: Mapped[str | None] = mapped_column(String(16), nullable=True)
    rematch: Mapped[str | None] = mapped_column(String(16), nullable=True)
    created: Mapped[str] = mapped_column(String(32))
    updated: Mapped[str] = mapped_column(String(32))


class SeatRow(Base):
    """A seat of a table: human (with its secret token) or bot."""

    __tablename__ = "seats"
    __table_args__ = (UniqueConstraint("table_id", "seat"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    table_id: Mapped[int] = mapped_column(ForeignKey("tables.id"), index=True)
    seat: Mapped[int] = mapped_column(Integer)
    kind: Mapped[str] = mapped_column(String(8))
    name: Mapped[str] = mapped_column(String(64))
    bot_kind: Mapped[str | None] = mapped_column(String(32), nullable=True)
    token: Mapped[str | None] = mapped_column(String(64), unique=True, nullable=True)
    joined: Mapped[bool] = mapped_column(Boolean, default=False)


class RetiredTokenRow(Base):
    """A seat token that no longer opens its seat: the seat was claimed from the lobby and
    got a fresh token, so the host's invite link for it now tells that the seat is taken."""

    __tablename__ = "retired_tokens"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    table_id: Mapped[int] = mapped_column(ForeignKey("tables.id"), index=True)
    seat: Mapped[int] = mapped_column(Integer)
    token: Mapped[str] = mapped_column(String(64), unique=True)


class ActionRow(Base):
    """One applied action (chance outcomes included), in order."""

    __tablename__ = "actions"
    __table_args__ = (UniqueConstraint("table_id", "idx"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    table_id: Mapped[int] = mapped_column(ForeignKey("tables.id"), index=True)
    idx: Mapped[int] = mapped_column(Integer)
    player: Mapped[int] = mapped_column(Integer)
    notation: Mapped[str] = mapped_column(String(200))
    by: Mapped[str] = mapped_column(String(16))
    created: Mapped[str] = mapped_column(String(32))


class ReviewRow(Base):
    """A finished table's game review (issue 18): the JSON of
    :func:`lamagames.web.review.review_json`, stored once (migration ``0002_reviews``)."""

    __tablename__ = "reviews"
    table_id: Mapped[int] = mapped_column(
        Integer, ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True
    )
    rollouts: Mapped[int | None] = mapped_column(Integer, nullable=True)
    result: Mapped[dict[str, Any]] = mapped_column(JSON)
    created: Mapped[str] = mapped_column(String(32))


@dataclass(slots=True)
class SeatData:
    """A seat as loaded from the store."""

    seat: int
    kind: str
    name: str
    bot_kind: str | None
    token: str | None
    joined: bool


@dataclass(slots=True)
class ActionData:
    """A stored action."""

    idx: int
    player: int
    notation: str
    by: str


@dataclass(slots=True)
class TableData:
    """A table with its seats and actions as loaded from the store."""

    id: int
    code: str
    game: str
    params: dict[str, Any]
    seed: int
    status: str
    version: int
    host_token: str
    public: bool
    turn_clock: float | None
    away_timeout: float
    alertness: float | None
    rematch_of: str | None
    rematch: str | None
    created: str
    bot_pace: str = "normal"
    hints: bool = True
    chat: bool = False
    seats: list[SeatData] = field(default_factory=list)
    actions: list[ActionData] = field(default_factory=list)


def _retried(method: Callable[Concatenate[Store, P], R]) -> Callable[Concatenate[Store, P], R]:
    """Run a :class:`Store` method through :meth:`Store._retrying`."""

    def wrapper(self: Store, /, *args: P.args, **kwargs: P.kwargs) -> R:
        return self._retrying(lambda: method(self, *args, **kwargs))

    functools.update_wrapper(wrapper, method)  # name and docstring
    return wrapper


class Store:
    """Storage facade; one instance per app. Its methods are synchronous (the app runs them
    in worker threads through :meth:`call`) and each is one transaction.

    Args:
        url: any SQLAlchemy URL; ``None`` means :func:`default_db_url`. SQLite files run in
            WAL mode; ``sqlite://`` (in memory) shares one connection.
        retry_for: seconds a call keeps retrying transient errors (backoff from 0.05 s,
            doubling up to 1 s) before it raises :class:`StoreUnavailable`.
        lock_timeout: seconds one SQLite attempt waits for another writer's lock.
        threads: worker threads for :meth:`call` (at most this many calls at once).
        wal_interval: SQLite files: seconds between two WAL checkpoint rounds of the
            background thread while commits happen (see
            :class:`~lamagames.web.checkpoint.WalCheckpointer`); ``None``: no thread, the
            WAL is checkpointed only by a commit that finds it at ``wal_cap``.
        wal_cap: SQLite files: the WAL's hard cap, bytes (a commit that reaches it
            checkpoints, and so does the thread, blocking writers until the WAL is empty).
        now_timeout: seconds the group commit's attempt on the event loop may take on
            PostgreSQL before it gives way to a worker thread
            (:meth:`append_batch_now_async`).

    Raises:
        sqlalchemy.exc.SQLAlchemyError: the database cannot be opened or its schema made.
        ValueError: ``wal_interval`` or ``wal_cap`` is not positive.
    """

    def __init__(
        self,
        url: str | None = None,
        *,
        retry_for: float = 15.0,
        lock_timeout: float = 2.0,
        threads: int = 16,
        wal_interval: float | None = DEFAULT_WAL_INTERVAL,
        wal_cap: int = DEFAULT_WAL_CAP,
        now_timeout: float = 2.0,
    ) -> None:
        if wal_cap <= 0:
            raise ValueError(f"wal_cap must be a positive number of bytes, got {wal_cap!r}")
        self.url = normalise_url(url or default_db_url())
        self.retry_for = retry_for
        kwargs: dict[str, Any] = {"pool_pre_ping": True}
        memory = self.url in ("sqlite://", "sqlite:///:memory:")
        if self.url.startswith("sqlite"):
            kwargs["connect_args"] = {"check_same_thread": False, "timeout": lock_timeout}
            if memory:
                kwargs["poolclass"] = StaticPool
        self.engine: Engine = create_engine(self.url, **kwargs)
        #: SQL of the group commit's statements in this dialect (:meth:`_batch_sql`).
        self._batch_statements: dict[str, tuple[str, tuple[str, ...] | None]] = {}
        #: The WAL's background checkpoints (SQLite files only; issue 16).
        self.checkpointer: WalCheckpointer | None = None
        if self.url.startswith("sqlite"):
            event.listen(self.engine, "connect", functools.partial(_sqlite_pragmas, wal_cap))
            if not memory and wal_interval is not None:
                self.checkpointer = WalCheckpointer(self.url, interval=wal_interval, cap=wal_cap)
                event.listen(self.engine, "commit", self.checkpointer.wake)
        #: SQLite files: the connection of :meth:`append_batch_now` (made at its first
        #: call; it never waits for a lock).
        self._now_conn: Connection | None = None
        self._now_ok = self.url.startswith("sqlite") and not memory
        #: PostgreSQL: the asyncio connection of :meth:`append_batch_now_async`.
        self._pg_now_conn: Any = None
        self._pg_now_ok = self.url.startswith("postgresql+psycopg")
        #: Seconds an event-loop attempt of the group commit may take before it gives way
        #: to the worker thread (:meth:`append_batch_now_async`).
        self.now_timeout = now_timeout
        # one shared in-memory connection must not be used by two threads at once
        self._limiter = anyio.CapacityLimiter(1 if memory else threads)
        self._memory_lock = threading.RLock() if memory else None  # calls nest (create_table loads)
        #: Calls of :meth:`call` whose worker thread has not finished (see :meth:`aclose`).
        self._in_flight = 0
        self._closing = False
        self._count_lock = threading.Lock()
        # the schema through the Alembic migrations shipped in the package (issue 16)
        self._retrying(lambda: migrations.upgrade(self.engine))
        self._sessions = sessionmaker(self.engine, expire_on_commit=False)

    def close(self) -> None:
        """Release the database connections (connections still checked out by a running
        call stay open; on the event loop use :meth:`aclose`, which waits for them)."""
        if self.checkpointer is not None:
            self.checkpointer.close()
        self._close_now_conn()
        self.engine.dispose()

    @property
    def in_flight(self) -> int:
        """Calls of :meth:`call` running in worker threads now."""
        return self._in_flight

    def reopen(self) -> None:
        """Take calls again after :meth:`aclose` (an app whose lifespan runs once more, as
        a test client entered twice does; the engine makes new connections on demand)."""
        with self._count_lock:
            self._closing = False
        if self.checkpointer is not None:
            self.checkpointer.reopen()

    @property
    def closing(self) -> bool:
        """True once :meth:`aclose` began (the server is shutting down)."""
        return self._closing

    async def aclose(self, timeout: float = 10.0) -> None:
        """Server shutdown: stop retrying, wait up to ``timeout`` seconds for the calls
        still running in worker threads, then release the connections.

        A thread cannot be cancelled: disposing the engine under a running write left that
        write going on a connection of its own after the app stopped (a test's schema drop
        then deadlocked with it). Calls that start after this point fail at once.
        """
        with self._count_lock:
            self._closing = True
        deadline = time.monotonic() + timeout
        while self._in_flight and time.monotonic() < deadline:
            await asyncio.sleep(0.01)
        if self._in_flight:
            log.warning("closing the store with %d database calls still running", self._in_flight)
        if self.checkpointer is not None:  # waits for a checkpoint in progress
            await anyio.to_thread.run_sync(self.checkpointer.close)
        await self.aclose_now()
        self.engine.dispose()

    async def call(self, method: Callable[P, R], *args: P.args, **kwargs: P.kwargs) -> R:
        """Run ``method(*args, **kwargs)`` (a method of this store) in a worker thread, so
        the event loop goes on serving other tables while the database is slow.

        Raises:
            StoreUnavailable: the database did not answer within ``retry_for`` seconds.
        """
        if self._closing:
            raise StoreUnavailable("the server is shutting down")
        bound = functools.partial(method, *args, **kwargs)

        def counted() -> R:  # counted in the thread: a cancelled caller does not wait for it
            with self._count_lock:
                if self._closing:
                    raise StoreUnavailable("the server is shutting down")
                self._in_flight += 1
            try:
                return bound()
            finally:
                with self._count_lock:
                    self._in_flight -= 1

        return await anyio.to_thread.run_sync(counted, limiter=self._limiter)

    def _retrying(self, attempt: Callable[[], R]) -> R:
        """``attempt()``, tried again after transient errors (see
        :func:`is_transient`) with exponential backoff for up to ``retry_for`` seconds.

        Raises:
            StoreUnavailable: still failing after ``retry_for`` seconds.
        """
        deadline = time.monotonic() + self.retry_for
        pause = 0.05
        tries = 0
        while True:
            tries += 1
            try:
                if self._memory_lock is None:
                    return attempt()
                with self._memory_lock:
                    return attempt()
            except DBAPIError as exc:
                if not is_transient(exc):
                    raise
                left = deadline - time.monotonic()
                if left <= 0 or self._closing:
                    raise StoreUnavailable(
                        f"the database did not answer for {self.retry_for:g} s "
                        f"({tries} attempts): {exc.orig or exc}"
                    ) from exc
                log.warning("database error (attempt %d, retrying): %s", tries, exc.orig)
                time.sleep(min(pause, left))
                pause = min(pause * 2, 1.0)

    # ------------------------------------------------------------------ writes
    @_retried
    def create_table(
        self,
        *,
        game: str,
        params: dict[str, Any],
        seed: int,
        seats: list[tuple[str, str, str | None]],
        public: bool,
        turn_clock: float | None,
        away_timeout: float,
        alertness: float | None,
        rematch_of: str | None = None,
        bot_pace: str = "normal",
        hints: bool = True,
        chat: bool = False,
    ) -> TableData:
        """Insert a waiting table; human seats get fresh tokens.

        Args:
            seats: ``(kind, name, bot_kind)`` per seat.
            bot_pace: ``slow``, ``normal`` or ``fast`` (how long bots pause).
            hints: whether seated players may ask for hints.
            chat: whether seated players may send short chat lines (off by default).
        """
        with self._sessions.begin() as session:
            code = self._free_code(session)
            now = _now()
            row = TableRow(
                code=code,
                game=game,
                params=params,
                seed=seed,
                status="waiting",
                version=0,
                host_token=new_token(),
                public=public,
                turn_clock=turn_clock,
                away_timeout=away_timeout,
                alertness=alertness,
                rematch_of=rematch_of,
                bot_pace=bot_pace,
                hints=hints,
                chat=chat,
                created=now,
                updated=now,
            )
            session.add(row)
            session.flush()
            for index, (kind, name, bot_kind) in enumerate(seats):
                session.add(
                    SeatRow(
                        table_id=row.id,
                        seat=index,
                        kind=kind,
                        name=name,
                        bot_kind=bot_kind,
                        token=new_token() if kind == "human" else None,
                        joined=kind == "bot",
                    )
                )
        data = self.load(code)
        if data is None:  # pragma: no cover - just inserted
            raise RuntimeError("table vanished after insert")
        return data

    def _free_code(self, session: Session) -> str:
        for _ in range(100):
            code = new_code()
            if session.scalar(select(TableRow.id).where(TableRow.code == code)) is None:
                return code
        raise RuntimeError("no free room code")  # pragma: no cover - 31**6 codes

    def append_action(
        self,
        table_id: int,
        action: ActionData,
        *,
        status: str | None = None,
        maybe_stored: bool = False,
    ) -> None:
        """Store one applied action (and optionally a new status) in one transaction.

        Retried like every call; when an attempt's commit reached the database but its
        answer was lost (the connection dropped), the retry finds that very action stored
        and counts it as done (``maybe_stored``: on the first attempt too, when an earlier
        call, such as a group commit whose answer was lost, may have stored it).

        Raises:
            sqlalchemy.exc.IntegrityError: another action with that index is stored.
            StoreUnavailable: the database did not answer within ``retry_for`` seconds.
        """
        tried = False

        def attempt() -> None:
            nonlocal tried
            try:
                self._append(table_id, action, status)
            except IntegrityError:
                if (tried or maybe_stored) and self._stored(table_id, action):
                    return  # an earlier attempt committed it
                raise
            finally:
                tried = True

        self._retrying(attempt)

    def append_batch(self, items: list[tuple[int, ActionData, str | None]]) -> None:
        """Store the applied actions of several tables in one transaction (group commit).

        Args:
            items: ``(table_id, action, status)`` per action, at most one per table (the
                table lock allows one action in flight per table); ``status`` is the
                table's new status or ``None``.

        Retried like every call. Nothing is stored if any row fails (the caller falls back
        to :meth:`append_action` one by one, see :class:`~lamagames.web.writer.GroupWriter`).

        Raises:
            sqlalchemy.exc.IntegrityError: an action with one of these indexes is stored.
            StoreUnavailable: the database did not answer within ``retry_for`` seconds.
        """
        if not items:
            return
        self._retrying(lambda: self._append_many(items))

    def append_batch_now(self, items: list[tuple[int, ActionData, str | None]]) -> bool:
        """Try :meth:`append_batch` once on the calling thread, without waiting: on an
        SQLite file, one attempt on a connection of its own whose busy timeout is zero.

        The group commit's fast path (issue 16): on a server's event loop it saves the
        hand-over to a worker thread and back (two waits for the GIL, each up to the
        interpreter's switch interval, while the loop is busy). An SQLite commit in WAL
        mode with ``synchronous=NORMAL`` writes the WAL and does not fsync, a fraction of
        a millisecond for a batch; whenever it cannot be that quick it is not tried: the
        database is locked by another writer or a blocking checkpoint (``SQLITE_BUSY`` at
        once, no wait), or the store is closing.

        Returns:
            ``True``: committed. ``False``: nothing was stored by this attempt (not an SQLite
            file, closing, busy, or any database error, a conflicting index included); the
            caller then calls :meth:`append_batch` in a worker thread (:meth:`call`), which
            retries, raises the error, or finds the actions stored if an ambiguous failure
            of this attempt did commit them.
        """
        if not items or not self._now_ok or self._closing:
            return not items
        try:
            conn = self._now_conn
            if conn is None or conn.invalidated or conn.closed:
                self._close_now_conn()
                conn = self._now_conn = self.engine.connect()
                conn.exec_driver_sql("PRAGMA busy_timeout = 0")
                conn.commit()
            with conn.begin():
                self._write_many(conn, items)
        except DBAPIError as exc:
            log.debug("group commit on the event loop gave way (%s)", exc.orig)
            self._close_now_conn()
            return False
        return True

    def _close_now_conn(self) -> None:
        pg, self._pg_now_conn = self._pg_now_conn, None
        if pg is not None:  # off its event loop: libpq's own close, which does not wait
            with contextlib.suppress(Exception):
                pg.pgconn.finish()
        conn, self._now_conn = self._now_conn, None
        if conn is not None:  # closed, not pooled: no other call gets its zero busy timeout
            with contextlib.suppress(Exception):
                conn.invalidate()
            with contextlib.suppress(Exception):
                conn.close()

    async def append_batch_now_async(self, items: list[tuple[int, ActionData, str | None]]) -> bool:
        """:meth:`append_batch_now` for the event loop on either database: on an SQLite
        file the same attempt; on PostgreSQL one attempt over an asyncio connection of its
        own (psycopg's ``AsyncConnection``), awaited on the loop, so no worker thread
        hands the batch over and back; at most :attr:`now_timeout` seconds.

        Returns:
            ``True``: committed. ``False``: nothing may be assumed stored by this attempt
            (another database, closing, a database error, a conflicting index, a lost
            connection or the timeout); the caller goes on with :meth:`append_batch` in a
            worker thread, which retries, raises, or finds the actions already stored if
            the commit went through but its answer was lost.
        """
        if not items:
            return True
        if self._now_ok:
            return self.append_batch_now(items)
        if not self._pg_now_ok or self._closing:
            return False
        import psycopg

        try:
            async with asyncio.timeout(self.now_timeout):
                conn = self._pg_now_conn
                if conn is None or conn.closed:
                    info = make_url(self.url).set(drivername="postgresql")
                    conn = self._pg_now_conn = await psycopg.AsyncConnection.connect(
                        info.render_as_string(hide_password=False), autocommit=True
                    )
                # one statement (_PG_BATCH): one round trip, its own transaction
                for sql, params in self._batch_statements_for(items):
                    await conn.execute(sql, params)
        except (psycopg.Error, OSError, TimeoutError) as exc:
            log.debug("group commit over the asyncio connection gave way (%s)", exc)
            await self._close_pg_now_conn()
            return False
        return True

    async def _close_pg_now_conn(self) -> None:
        conn, self._pg_now_conn = self._pg_now_conn, None
        if conn is not None:
            with contextlib.suppress(Exception):
                await conn.close()

    async def aclose_now(self) -> None:
        """Close the connections of the event-loop attempts (:meth:`append_batch_now`,
        :meth:`append_batch_now_async`); the next attempt opens a new one."""
        await self._close_pg_now_conn()
        self._close_now_conn()

    def _append_many(self, items: list[tuple[int, ActionData, str | None]]) -> None:
        with self.engine.begin() as conn:
            self._write_many(conn, items)

    def _write_many(
        self, conn: Connection, items: list[tuple[int, ActionData, str | None]]
    ) -> None:
        """The group commit's statements, in ``conn``'s open transaction."""
        for sql, params in self._batch_statements_for(items):
            conn.exec_driver_sql(sql, params)

    def _batch_statements_for(
        self, items: list[tuple[int, ActionData, str | None]]
    ) -> list[tuple[str, Any]]:
        """The group commit's statements (insert the actions; set the tables' versions,
        and statuses where given) with their parameters as the driver takes them: a list
        of rows (run with executemany) or, on PostgreSQL, one statement with a tuple of
        arrays (:data:`_PG_BATCH`, run once)."""
        now = _now()
        if self.engine.dialect.name == "postgresql":
            return [_pg_batch_statement(items, now)]
        rows = [
            {
                "p_table_id": table_id,
                "p_idx": action.idx,
                "p_player": action.player,
                "p_notation": action.notation,
                "p_by": action.by,
                "p_created": now,
            }
            for table_id, action, _status in items
        ]
        # one update per table, the last version and status (not one per action: the
        # plain and the status updates run as two statements, so a table's rows in both
        # would end at whichever ran last)
        last = _last_per_table(items)
        plain = [
            {"tid": table_id, "v": version, "u": now}
            for table_id, (version, status) in last.items()
            if status is None
        ]
        with_status = [
            {"tid": table_id, "v": version, "u": now, "s": status}
            for table_id, (version, status) in last.items()
            if status is not None
        ]
        # The statements compiled once, the rows handed to the driver as they are:
        # SQLAlchemy's per-row parameter processing cost more than the database
        # (all values are ints and strings, which need no conversion).
        out: list[tuple[str, Any]] = []
        for which, params in (("insert", rows), ("update", plain), ("update_status", with_status)):
            if params:
                sql, keys = self._batch_sql(which)
                out.append((sql, _driver_params(params, keys)))
        return out

    def _batch_sql(self, which: str) -> tuple[str, tuple[str, ...] | None]:
        """The SQL of one of :meth:`_append_many`'s statements in this database's dialect
        and, for positional parameter styles, the order of its parameters (made once)."""
        found = self._batch_statements.get(which)
        if found is None:
            statement: Any
            if which == "insert":
                columns = ("table_id", "idx", "player", "notation", "by", "created")
                statement = insert(ActionRow).values({c: bindparam("p_" + c) for c in columns})
            else:
                values: dict[str, Any] = {"version": bindparam("v"), "updated": bindparam("u")}
                if which == "update_status":
                    values["status"] = bindparam("s")
                statement = update(TableRow).where(TableRow.id == bindparam("tid")).values(values)
            compiled = statement.compile(dialect=self.engine.dialect, for_executemany=True)
            keys = tuple(compiled.positiontup or ()) if compiled.positional else None
            found = self._batch_statements[which] = (compiled.string, keys)
        return found

    def _append(self, table_id: int, action: ActionData, status: str | None) -> None:
        now = _now()
        values: dict[str, Any] = {"version": action.idx + 1, "updated": now}
        if status is not None:
            values["status"] = status
        # SQLAlchemy Core (no ORM unit of work): this runs once per applied action.
        with self.engine.begin() as conn:
            conn.execute(
                insert(ActionRow).values(
                    table_id=table_id,
                    idx=action.idx,
                    player=action.player,
                    notation=action.notation,
                    by=action.by,
                    created=now,
                )
            )
            conn.execute(update(TableRow).where(TableRow.id == table_id).values(**values))

    @_retried
    def stored(self, table_id: int, action: ActionData) -> bool:
        """True if exactly ``action`` (player, notation, by) is stored at its index."""
        return self._stored(table_id, action)

    def _stored(self, table_id: int, action: ActionData) -> bool:
        """True if exactly ``action`` is stored at its index."""
        with self.engine.connect() as conn:
            row = conn.execute(
                select(ActionRow.player, ActionRow.notation, ActionRow.by).where(
                    ActionRow.table_id == table_id, ActionRow.idx == action.idx
                )
            ).first()
        return row is not None and tuple(row) == (action.player, action.notation, action.by)

    @_retried
    def set_status(self, table_id: int, status: str) -> None:
        """Change a table's status."""
        with self._sessions.begin() as session:
            session.execute(
                update(TableRow)
                .where(TableRow.id == table_id)
                .values(status=status, updated=_now())
            )

    @_retried
    def set_rematch(self, table_id: int, rematch: str) -> None:
        """Remember the rematch table of a finished table."""
        with self._sessions.begin() as session:
            session.execute(update(TableRow).where(TableRow.id == table_id).values(rematch=rematch))

    @_retried
    def set_chat(self, table_id: int, chat: bool) -> None:
        """Store the host's chat switch of a table (issue 19)."""
        with self._sessions.begin() as session:
            session.execute(update(TableRow).where(TableRow.id == table_id).values(chat=chat))

    @_retried
    def join_seat(self, table_id: int, seat: int, name: str | None) -> None:
        """Mark a human seat as joined, optionally renaming it."""
        values: dict[str, Any] = {"joined": True}
        if name:
            values["name"] = name
        with self._sessions.begin() as session:
            session.execute(
                update(SeatRow)
                .where(SeatRow.table_id == table_id, SeatRow.seat == seat)
                .values(**values)
            )

    @_retried
    def claim_seat(self, table_id: int, seat: int, name: str) -> str:
        """Give a free human seat to a claimer from the lobby under a fresh token.

        The seat's old token (the host's invite link) is retired: it no longer opens the
        seat, and :meth:`retired_seat` recognises it.

        Returns:
            The new seat token.
        """
        token = new_token()
        with self._sessions.begin() as session:
            row = session.scalar(
                select(SeatRow).where(SeatRow.table_id == table_id, SeatRow.seat == seat)
            )
            if row is None:  # pragma: no cover - callers pass existing seats
                raise RuntimeError(f"no seat {seat}")
            if row.token is not None:
                session.add(RetiredTokenRow(table_id=table_id, seat=seat, token=row.token))
            row.token = token
            row.joined = True
            row.name = name
        return token

    @_retried
    def retired_seat(self, table_id: int, token: str) -> int | None:
        """The seat a retired token of this table belonged to, else ``None``."""
        with self._sessions() as session:
            return session.scalar(
                select(RetiredTokenRow.seat).where(
                    RetiredTokenRow.table_id == table_id, RetiredTokenRow.token == token
                )
            )

    # ------------------------------------------------------------------ reads
    @_retried
    def load(self, code: str) -> TableData | None:
        """A table with its seats and actions, or ``None``."""
        with self._sessions() as session:
            row = session.scalar(select(TableRow).where(TableRow.code == code))
            if row is None:
                return None
            return self._data(session, row)

    @_retried
    def actions_since(self, table_id: int, idx: int) -> list[ActionData]:
        """The stored actions of a table from index ``idx`` on, in order."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(ActionRow.idx, ActionRow.player, ActionRow.notation, ActionRow.by)
                .where(ActionRow.table_id == table_id, ActionRow.idx >= idx)
                .order_by(ActionRow.idx)
            ).all()
        return [ActionData(*row) for row in rows]

    @_retried
    def codes_with_status(self, *statuses: str) -> list[str]:
        """Codes of every table whose status is one of ``statuses``."""
        with self._sessions() as session:
            return list(session.scalars(select(TableRow.code).where(TableRow.status.in_(statuses))))

    @_retried
    def lobby(self, limit: int = 50) -> list[str]:
        """Codes of public tables that wait or play, newest first."""
        with self._sessions() as session:
            query = (
                select(TableRow.code)
                .where(TableRow.public.is_(True), TableRow.status.in_(("waiting", "playing")))
                .order_by(TableRow.id.desc())
                .limit(limit)
            )
            return list(session.scalars(query))

    @staticmethod
    def _data(session: Session, row: TableRow) -> TableData:
        seats = session.scalars(
            select(SeatRow).where(SeatRow.table_id == row.id).order_by(SeatRow.seat)
        )
        actions = session.scalars(
            select(ActionRow).where(ActionRow.table_id == row.id).order_by(ActionRow.idx)
        )
        return TableData(
            id=row.id,
            code=row.code,
            game=row.game,
            params=dict(row.params),
            seed=row.seed,
            status=row.status,
            version=row.version,
            host_token=row.host_token,
            public=row.public,
            turn_clock=row.turn_clock,
            away_timeout=row.away_timeout,
            alertness=row.alertness,
            rematch_of=row.rematch_of,
            rematch=row.rematch,
            created=row.created,
            bot_pace=row.bot_pace,
            hints=row.hints,
            chat=row.chat,
            seats=[SeatData(s.seat, s.kind, s.name, s.bot_kind, s.token, s.joined) for s in seats],
            actions=[ActionData(a.idx, a.player, a.notation, a.by) for a in actions],
        )


def _sqlite_pragmas(wal_cap: int, dbapi_connection: Any, _record: Any) -> None:
    """Every SQLite connection: WAL mode, ``synchronous=NORMAL`` (durable against a killed
    process), foreign keys; the automatic checkpoint only at the WAL's hard cap
    (``wal_cap`` bytes), the WAL file cut back to half of that when it starts over
    (the checkpoints run in :class:`~lamagames.web.checkpoint.WalCheckpointer`'s thread)."""
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA foreign_keys=ON")
    page = int(cursor.execute("PRAGMA page_size").fetchone()[0])
    cursor.execute(f"PRAGMA wal_autocheckpoint={max(1, wal_cap // page)}")
    cursor.execute(f"PRAGMA journal_size_limit={int(wal_cap) // 2}")
    cursor.close()
