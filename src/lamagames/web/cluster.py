"""Several server processes on one PostgreSQL database (issue 16): leases, forwarding and
fan-out, with PostgreSQL as the only coordination engine (no broker of our own).

* **Lease.** One process at a time owns a live table: it holds the table's session-level
  advisory lock (``pg_try_advisory_lock``) on a dedicated connection. Only the owner applies
  actions, runs the bots and clocks and changes seats. When the owner dies (even by
  ``kill -9``) PostgreSQL drops its connection and with it the locks; another process takes
  the table over (every ``lease_check`` seconds it tries the locks of the tables it follows
  and of every playing table nobody holds, and at once when a forwarded request finds no
  owner): it reads the table from the database, so nothing acknowledged is lost, and the
  unique index on ``(table, index)`` stays the final guard against an action applied
  twice.
* **Forwarding.** An action, claim, join, start, rematch, leave or back that reaches a
  process which does not own the table is sent to the owner as a ``NOTIFY`` on the
  cluster's channel; the owner answers with another ``NOTIFY`` addressed to the asking
  process (an ``ack``/``error`` for an action, a result or an error for the others).
* **Talk.** A quick reaction or chat line (:mod:`lamagames.web.talk`) is sent by the
  process that received it to its own connections and published (``NOTIFY``) to every
  process, which sends it to its connections of the table; it is not stored.
* **Fan-out.** After every change the owner publishes the table's new actions and its
  seats, status and clock (``NOTIFY``); every process applies them to its copy of the table
  (the same engine) and sends the state to its own connections, in version order (only
  for tables another process follows: a follower announces itself when it loads one). A
  payload over :data:`MAX_PAYLOAD` bytes goes by reference: the listener reads the actions
  from the database. A process that finds a gap in the versions reads the missing actions
  from the database too.

All of this runs on the event loop with psycopg 3's async connections: one holds the
locks, one listens, one sends (in order: a forwarded action's ``ack`` always reaches the
asking process before the state that follows it). The namespace of the locks and the
channel is the database and schema, so several test schemas on one server never meet.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import logging
import os
import secrets
import socket
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from sqlalchemy.engine import make_url

if TYPE_CHECKING:
    from psycopg import AsyncConnection

    from lamagames.web.live import Hub

__all__ = [
    "LEASE_APP",
    "MAX_PAYLOAD",
    "Cluster",
    "ForwardFailed",
    "Lease",
    "conninfo",
    "lease_holder",
    "lease_key",
    "lease_name",
    "namespace_of",
]

log = logging.getLogger("lamagames.web")

#: Largest NOTIFY payload sent as is, bytes (PostgreSQL's limit is 8,000).
MAX_PAYLOAD = 7900
#: PostgreSQL's NOTIFY payload limit, bytes (an update without its actions that is still
#: longer goes without its seats too: the listeners read the whole table).
NOTIFY_LIMIT = 7999


#: Start of the ``application_name`` of a process's lock connection (the one holding its
#: tables' advisory locks): ``lama-lease <host> <pid>``, so ``pg_stat_activity`` and
#: ``lama lease CODE`` name the worker that owns a table.
LEASE_APP = "lama-lease"


def lease_name(host: str | None = None, pid: int | None = None) -> str:
    """The ``application_name`` of this process's lock connection: ``lama-lease <host>
    <pid>`` (host name and process id only; at most 63 bytes, PostgreSQL's limit, the host
    shortened if needed)."""
    host = host if host is not None else socket.gethostname()
    pid = pid if pid is not None else os.getpid()
    room = 63 - len(f"{LEASE_APP}  {pid}")
    return f"{LEASE_APP} {host[:room]} {pid}"


def namespace_of(database: str, schema: str) -> str:
    """The namespace of the locks and the channel of one database and schema (10 hex
    digits): several schemas on one server never share a lock or a channel."""
    return hashlib.blake2b(f"{database}/{schema}".encode(), digest_size=5).hexdigest()


def lease_key(namespace: str, code: str) -> int:
    """The advisory-lock key of table ``code`` in ``namespace`` (a signed 64-bit integer).
    Every version of the server must compute the same key: processes of two versions share
    the tables during a rolling restart."""
    digest = hashlib.blake2b(f"{namespace}:{code}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big", signed=True)


@dataclass(frozen=True, slots=True)
class Lease:
    """Who holds a table's lease, as PostgreSQL sees it (``pg_locks`` and
    ``pg_stat_activity``): no password, no token.

    Attributes:
        worker_pid: process id of the owning ``lama serve`` worker on its host (``None``
            when the lock connection has no ``lama-lease`` name: a server older than this).
        worker_host: host name of that worker (``None`` likewise).
        backend_pid: PostgreSQL's process id of the lock connection
            (``pg_terminate_backend`` of it moves the table to another worker).
        client_addr: the worker's address as PostgreSQL sees it (``None``: a Unix socket).
        since: when the lock connection was opened (ISO 8601, the database's time zone).
    """

    worker_pid: int | None
    worker_host: str | None
    backend_pid: int
    client_addr: str | None
    since: str


def lease_holder(url: str, code: str) -> Lease | None:
    """The process that holds table ``code``'s lease now, or ``None`` when none does (the
    table is not loaded by any process, or its owner died and no other process has taken it
    over yet).

    Args:
        url: the SQLAlchemy PostgreSQL URL the servers use (same database and schema).
        code: the table's code.

    Raises:
        LookupError: the database has no table ``code`` (or no lamagames tables at all).
        psycopg.Error: the database cannot be reached or read.
    """
    import psycopg

    with psycopg.connect(conninfo(url), autocommit=True) as conn:
        try:
            known = conn.execute("SELECT 1 FROM tables WHERE code = %s", (code,)).fetchone()
        except psycopg.errors.UndefinedTable:
            raise LookupError("this database has no lamagames tables") from None
        if known is None:
            raise LookupError(f"no table {code!r} in this database")
        row = conn.execute("SELECT current_database(), current_schema()").fetchone()
        namespace = namespace_of(str(row[0]), str(row[1])) if row else "?"
        unsigned = lease_key(namespace, code) & 0xFFFFFFFFFFFFFFFF
        found = conn.execute(
            "SELECT a.pid, a.application_name, host(a.client_addr), a.backend_start::text "
            "FROM pg_locks AS l JOIN pg_stat_activity AS a ON a.pid = l.pid "
            "WHERE l.locktype = 'advisory' AND l.granted AND l.objsubid = 1 "
            "AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database()) "
            "AND l.classid::bigint = %s AND l.objid::bigint = %s",
            (unsigned >> 32, unsigned & 0xFFFFFFFF),
        ).fetchone()
    if found is None:
        return None
    parts = str(found[1] or "").split(" ")
    named = len(parts) == 3 and parts[0] == LEASE_APP and parts[2].isdigit()
    return Lease(
        worker_pid=int(parts[2]) if named else None,
        worker_host=parts[1] if named else None,
        backend_pid=int(found[0]),
        client_addr=found[2],
        since=str(found[3]),
    )


class ForwardFailed(Exception):
    """No process answered a forwarded request in time (and this one could not take the
    table over): the caller answers ``unavailable``."""


def conninfo(url: str) -> str:
    """The libpq connection string of an SQLAlchemy PostgreSQL URL (the driver name
    dropped, query options such as ``options=-csearch_path=...`` kept)."""
    parsed = make_url(url).set(drivername="postgresql")
    return parsed.render_as_string(hide_password=False)


@dataclass(slots=True)
class _Waiting:
    future: asyncio.Future[dict[str, Any]]
    on_reply: Callable[[dict[str, Any]], None] | None = None


@dataclass
class Cluster:
    """This process's membership of the cluster: locks, listener and sender.

    Args:
        url: the SQLAlchemy PostgreSQL URL of the store.
        hub: the live tables of this process.
        lease_check: seconds between two rounds of trying the locks of tables without a
            live owner (failover happens within about this time).
        forward_timeout: seconds a forwarded request waits for the owner's answer before
            this process tries to take the table over itself.
    """

    url: str
    hub: Hub
    lease_check: float = 1.0
    forward_timeout: float = 1.5
    proc: str = field(default_factory=lambda: secrets.token_hex(6))
    channel: str = ""
    namespace: str = ""
    _locks: AsyncConnection[Any] | None = None
    _listen: AsyncConnection[Any] | None = None
    _send: AsyncConnection[Any] | None = None
    _lock_guard: asyncio.Lock = field(default_factory=asyncio.Lock)
    _outbox: list[str] = field(default_factory=list)
    _outbox_ready: asyncio.Event = field(default_factory=asyncio.Event)
    _waiting: dict[str, _Waiting] = field(default_factory=dict)
    _tasks: list[asyncio.Task[None]] = field(default_factory=list)
    _handlers: set[asyncio.Task[None]] = field(default_factory=set)
    _held: set[int] = field(default_factory=set)
    _ticks: int = 0
    closed: bool = False

    # ------------------------------------------------------------------ lifecycle
    async def start(self) -> None:
        """Connect, learn the namespace, listen, and start the sender and the lease checks.

        Raises:
            psycopg.Error: the database cannot be reached.
        """
        from psycopg import AsyncConnection

        info = conninfo(self.url)
        self._listen = await AsyncConnection.connect(info, autocommit=True)
        self._send = await AsyncConnection.connect(info, autocommit=True)
        self._locks = await AsyncConnection.connect(
            info, autocommit=True, application_name=lease_name()
        )
        cursor = await self._send.execute("SELECT current_database(), current_schema()")
        row = await cursor.fetchone()
        assert row is not None  # one row, always
        self.namespace = namespace_of(str(row[0]), str(row[1]))
        self.channel = f"lama_{self.namespace}"
        await self._listen.execute(f"LISTEN {self.channel}")
        self._tasks = [
            asyncio.create_task(self._listener()),
            asyncio.create_task(self._sender()),
            asyncio.create_task(self._sweeper()),
        ]

    async def close(self) -> None:
        """Stop the tasks and close the connections (which releases every lock)."""
        self.closed = True
        await self._flush()
        for task in [*self._tasks, *self._handlers]:
            task.cancel()
        for task in [*self._tasks, *self._handlers]:
            with contextlib.suppress(BaseException):
                await task
        for conn in (self._locks, self._listen, self._send):
            if conn is not None:
                with contextlib.suppress(Exception):
                    await conn.close()
        self._held.clear()

    async def _flush(self) -> None:
        """Send what is queued (shutdown), for at most one second."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + 1.0
        while self._outbox and loop.time() < deadline:
            await asyncio.sleep(0.01)

    # ------------------------------------------------------------------ leases
    def key(self, code: str) -> int:
        """The advisory-lock key of a table (64-bit, from the namespace and the code)."""
        return lease_key(self.namespace, code)

    async def try_own(self, code: str) -> bool:
        """Take the lease of ``code`` if nobody holds it; True if this process holds it."""
        key = self.key(code)
        if key in self._held:
            return True
        got = await self._try_keys([key])
        return key in got

    async def try_own_many(self, codes: list[str]) -> set[str]:
        """Take the leases of those ``codes`` nobody holds (one query); the codes this
        process holds afterwards."""
        by_key = {self.key(code): code for code in codes}
        await self._try_keys(list(by_key))
        return {code for key, code in by_key.items() if key in self._held}

    async def _try_keys(self, keys: list[int]) -> set[int]:
        wanted = [k for k in keys if k not in self._held]
        if not wanted or self._locks is None or self.closed:
            return set()
        async with self._lock_guard:
            cursor = await self._locks.execute(
                "SELECT k FROM unnest(%s::bigint[]) AS k WHERE pg_try_advisory_lock(k)",
                (wanted,),
            )
            got = {int(row[0]) for row in await cursor.fetchall()}
        self._held |= got
        return got

    async def release(self, code: str) -> None:
        """Give up the lease of ``code`` (nothing happens if not held)."""
        key = self.key(code)
        if key not in self._held or self._locks is None:
            return
        self._held.discard(key)
        async with self._lock_guard:
            await self._locks.execute("SELECT pg_advisory_unlock(%s)", (key,))

    async def _sweeper(self) -> None:
        """Every ``lease_check`` seconds: check the lock connection (a lost one loses every
        lease), then try the locks of followed tables and of playing tables nobody holds."""
        while True:
            await asyncio.sleep(self.lease_check)
            try:
                await self._sweep()
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                log.warning("cluster: lease check failed (%s); giving up every lease", exc)
                await self._lost_locks()

    async def _sweep(self) -> None:
        hub = self.hub
        self._ticks += 1
        hub.tick(self._ticks)
        if self._locks is None or self._locks.closed:
            raise ConnectionError("the lock connection is closed")
        async with self._lock_guard:
            await self._locks.execute("SELECT 1")
        codes = {code for code, table in hub.tables.items() if not table.owned}
        if self._ticks % 3 == 1:  # tables nobody has loaded here (their bots must go on)
            store = hub.store
            playing = await store.call(store.codes_with_status, "playing")
            codes |= {code for code in playing if code not in hub.tables}
        by_key = {self.key(code): code for code in codes}
        for key in await self._try_keys(list(by_key)):
            await hub.took_lease(by_key[key])

    async def _lost_locks(self) -> None:
        """The lock connection failed: every lease is gone; reconnect (the next rounds take
        tables back, reading them from the database)."""
        from psycopg import AsyncConnection

        self._held.clear()
        self.hub.lost_leases()
        if self._locks is not None:
            with contextlib.suppress(Exception):
                await self._locks.close()
        try:
            self._locks = await AsyncConnection.connect(
                conninfo(self.url), autocommit=True, application_name=lease_name()
            )
        except Exception as exc:
            log.warning("cluster: cannot reconnect the lock connection: %s", exc)
            self._locks = None

    # ------------------------------------------------------------------ sending
    def publish(self, message: dict[str, Any]) -> None:
        """Queue a message for every process (sent in order, by the sender task)."""
        if self.closed:
            return
        message = {"p": self.proc, **message}  # first: listeners skip their own unparsed
        text = json.dumps(message, separators=(",", ":"))
        if len(text.encode()) > MAX_PAYLOAD:
            text = self._by_reference(message)
        self._outbox.append(text)
        self._outbox_ready.set()

    @staticmethod
    def _by_reference(message: dict[str, Any]) -> str:
        """A shorter form of a too-long message: an update without its actions (the
        listeners read them from the database) and, if still too long for PostgreSQL,
        without the seats (the listeners read the whole table)."""
        slim = dict(message)
        slim.pop("a", None)
        slim["ref"] = 1
        text = json.dumps(slim, separators=(",", ":"))
        if len(text.encode()) > NOTIFY_LIMIT:
            slim.pop("m", None)
            text = json.dumps(slim, separators=(",", ":"))
        return text

    async def _sender(self) -> None:
        while True:
            await self._outbox_ready.wait()
            self._outbox_ready.clear()
            while self._outbox:
                batch = self._outbox[:200]
                del self._outbox[:200]
                try:
                    await self._send_batch(batch)
                except asyncio.CancelledError:
                    raise
                except Exception as exc:  # lost: followers find the gap, requests time out
                    log.warning("cluster: notify failed (%s); reconnecting", exc)
                    await self._reconnect_sender()

    async def _send_batch(self, batch: list[str]) -> None:
        assert self._send is not None
        await self._send.execute(
            "SELECT pg_notify(%s, m) FROM unnest(%s::text[]) WITH ORDINALITY AS t(m, n) ORDER BY n",
            (self.channel, batch),
        )

    async def _reconnect_sender(self) -> None:
        from psycopg import AsyncConnection

        with contextlib.suppress(Exception):
            if self._send is not None:
                await self._send.close()
        try:
            self._send = await AsyncConnection.connect(conninfo(self.url), autocommit=True)
        except Exception:
            await asyncio.sleep(0.5)

    # ------------------------------------------------------------------ requests
    async def request(
        self,
        code: str,
        op: str,
        args: dict[str, Any],
        on_reply: Callable[[dict[str, Any]], None] | None = None,
    ) -> dict[str, Any] | None:
        """Send ``op`` for table ``code`` to its owner and wait for the answer.

        ``on_reply`` runs in the listener as soon as the answer arrives (before any later
        state of the table is handled), so an ``ack`` precedes the state after it.

        Returns:
            The owner's answer, or ``None`` when this process took the table over while
            waiting (the caller runs the operation itself).

        Raises:
            ForwardFailed: nobody answered within ``3 * forward_timeout`` seconds.
        """
        ident = secrets.token_hex(8)
        loop = asyncio.get_running_loop()
        waiting = _Waiting(loop.create_future(), on_reply)
        self._waiting[ident] = waiting
        try:
            for _ in range(3):
                self.publish({"t": "q", "c": code, "i": ident, "o": op, "a": args})
                with contextlib.suppress(TimeoutError):
                    return await asyncio.wait_for(
                        asyncio.shield(waiting.future), self.forward_timeout
                    )
                if await self.try_own(code):  # the owner is gone: this process takes over
                    await self.hub.took_lease(code)
                    return None
        finally:
            self._waiting.pop(ident, None)
        raise ForwardFailed(f"table {code}: no process answered")

    def reply(self, to: str, ident: str, answer: dict[str, Any]) -> None:
        """Answer request ``ident`` of process ``to``."""
        self.publish({"t": "r", "to": to, "i": ident, "m": answer})

    # ------------------------------------------------------------------ listening
    async def _listener(self) -> None:
        from psycopg import AsyncConnection

        while True:
            try:
                assert self._listen is not None
                async for note in self._listen.notifies():
                    self._dispatch(note.payload)
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                log.warning("cluster: listener lost (%s); reconnecting", exc)
                await asyncio.sleep(0.2)
                with contextlib.suppress(Exception):
                    self._listen = await AsyncConnection.connect(
                        conninfo(self.url), autocommit=True
                    )
                    await self._listen.execute(f"LISTEN {self.channel}")
                    self.hub.resync_all()  # updates may have been missed meanwhile

    def _dispatch(self, payload: str) -> None:
        if payload.startswith(f'{{"p":"{self.proc}"'):
            return  # our own update or request
        try:
            message = json.loads(payload)
        except ValueError:
            return
        kind = message.get("t")
        if kind == "r":
            if message.get("to") != self.proc:
                return
            waiting = self._waiting.pop(message.get("i", ""), None)
            if waiting is None:
                return
            answer = message.get("m") or {}
            if waiting.on_reply is not None:
                waiting.on_reply(answer)
            if not waiting.future.done():
                waiting.future.set_result(answer)
        elif message.get("p") == self.proc:
            return  # our own update or request
        elif kind == "u":
            self.hub.remote_update(message)
        elif kind == "x":  # a reaction or chat line (lamagames.web.talk)
            self.hub.remote_talk(message)
        elif kind == "q":
            task = asyncio.create_task(self.hub.remote_request(message))
            self._handlers.add(task)
            task.add_done_callback(self._handlers.discard)
