"""One WebSocket client (a queued sender, a token-bucket rate limit) and the server's knobs."""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from dataclasses import dataclass

from pydantic import BaseModel
from starlette.websockets import WebSocket


@dataclass(slots=True)
class Settings:
    """Server-wide knobs (seconds, bytes).

    Attributes:
        bot_delay: pause before each bot decision at a table's ``normal`` bot pace, so people
            can follow (``slow`` tables pause twice as long, ``fast`` ones half); tests use 0.
        max_message_bytes: larger WebSocket messages are refused.
        rate_per_second: sustained client messages per second per connection.
        rate_burst: messages a connection may send at once.
        event_window: how many recent log entries a connection's first state message
            carries.
        update_window: how many log entries the later state messages carry at least: all
            the entries since the previous state message (at most ``event_window``), and
            never fewer than this. The clients keep the log they were sent (the browser's
            page log), so resending the 60 latest entries with every message only cost
            JSON and compression (issue 16).
        send_queue: messages queued for a slow client before it is dropped.
        hello_timeout: seconds a new connection has to say ``hello``.
        ref_memory: applied ``ref`` keys remembered per seat (duplicate detection).
        db_retry_for: seconds one database call retries transient errors (a locked SQLite
            file, a restarting PostgreSQL) before the action is refused as ``unavailable``.
        db_lock_timeout: seconds one SQLite attempt waits for another writer's lock.
        db_pause: seconds the driver waits before trying again after the database did not
            answer (doubling up to ten times that).
        commit_window: seconds the group commit waits for more actions after the first of
            a batch (``0``: a batch is what arrived while the previous one was committing;
            see :class:`~lamagames.web.writer.GroupWriter`).
        cluster: join the cluster of server processes on the database (``None``: on
            PostgreSQL; SQLite serves one process only); see :mod:`lamagames.web.cluster`.
        lease_check: seconds between two tries to take over tables without a live owner.
        forward_timeout: seconds a request forwarded to a table's owner waits for its answer
            before this process tries to take the table over (three tries).
        create_per_minute: tables one client address may create per minute (after
            ``create_burst`` at once); more are refused with 429 ``rate_limited``; ``0``:
            no limit.
        create_burst: tables one client address may create at once.
        claim_per_minute: seats one client address may claim from the lobby per minute
            (after ``claim_burst`` at once); more are 429 ``rate_limited``; ``0``: no limit.
        claim_burst: seats one client address may claim at once.
        join_per_minute: invite joins (``POST .../join``) per client address per minute
            (after ``join_burst`` at once; a page reload joins again); ``0``: no limit.
        join_burst: invite joins one client address may make at once.
        allowed_origins: origins (``scheme://host[:port]``) besides the served host whose
            pages may open the WebSocket (``lama serve --allowed-origin``); a browser's
            WebSocket from any other ``Origin`` is refused before it is accepted.
        talk_per_minute: quick reactions and chat lines one seat may send per minute (after
            ``talk_burst`` at once; per process: each process of a cluster counts the
            seat's connections it serves); more are refused with ``talk_rate``; ``0``: no
            limit. See :mod:`lamagames.web.talk`.
        talk_burst: reactions and chat lines one seat may send at once.
        seeded_humans: accept a creator's ``seed`` on tables with a human seat (tests and
            demos only: whoever chose the seed can predict every deal and roll). Off: such
            tables get a secret random seed and a client ``seed`` is refused.
        warm_bots: at start, prepare the games' bots to run fast in a background thread
            (LAMA Dice ``heuristic``: compiled with Numba where installed; the same moves,
            see :meth:`~lamagames.web.adapters.WebAdapter.warm_bots`).
        warm_compiled: at start, make the compiled bot kinds ready (the LAMA Dice ``exact``
            and ``search`` bots' Numba code; :mod:`lamagames.web.warmup`): loaded from
            Numba's disk cache, or on a cold cache (the first run after an install) compiled
            in a helper process while the server serves, then loaded; their bots wait for it
            off the event loop or decide interpreted meanwhile (issue 19). For a server
            process (``lama serve`` turns it on), not for a process that makes many apps
            (tests).
        freeze_gc: once the bots are warm, move every object alive then (the imported
            libraries, Numba's and LLVM's included) out of the garbage collector's sight
            (:func:`gc.freeze`), so its full collections stop scanning them again and
            again, and make those full collections ten times rarer
            (:data:`~lamagames.web.live.GC_OLDEST_THRESHOLD`); for a server process
            (``lama serve`` turns it on), not for a process that makes many apps (tests).
    """

    bot_delay: float = 1.2
    max_message_bytes: int = 4096
    rate_per_second: float = 8.0
    rate_burst: int = 16
    event_window: int = 60
    update_window: int = 8
    send_queue: int = 512
    hello_timeout: float = 15.0
    ref_memory: int = 256
    db_retry_for: float = 15.0
    db_lock_timeout: float = 2.0
    db_pause: float = 1.0
    commit_window: float = 0.0
    cluster: bool | None = None
    lease_check: float = 1.0
    forward_timeout: float = 1.5
    create_per_minute: float = 30.0
    create_burst: int = 10
    claim_per_minute: float = 6.0
    claim_burst: int = 4
    join_per_minute: float = 30.0
    join_burst: int = 20
    talk_per_minute: float = 20.0
    talk_burst: int = 5
    seeded_humans: bool = False
    allowed_origins: tuple[str, ...] = ()
    warm_bots: bool = True
    warm_compiled: bool = False
    freeze_gc: bool = False


class Connection:
    """One WebSocket client: a queued sender and a token-bucket rate limit."""

    def __init__(self, ws: WebSocket, settings: Settings) -> None:
        self.ws = ws
        self.seat: int | None = None
        self.queue: asyncio.Queue[str | None] = asyncio.Queue(settings.send_queue)
        self._rate = settings.rate_per_second
        self._burst = float(settings.rate_burst)
        self._tokens = float(settings.rate_burst)
        self._last = time.monotonic()
        self.closed = False
        self.overflowed = False
        #: Has been sent a state message (later ones carry only the log's latest entries).
        self.synced = False

    def allow(self) -> bool:
        """Take one message from the rate budget; False when it is used up."""
        now = time.monotonic()
        self._tokens = min(self._burst, self._tokens + (now - self._last) * self._rate)
        self._last = now
        if self._tokens >= 1.0:
            self._tokens -= 1.0
            return True
        return False

    def send(self, message: BaseModel) -> None:
        """Queue a message; a client too slow to keep up is disconnected."""
        if self.closed:
            return
        try:
            self.queue.put_nowait(message.model_dump_json())
        except asyncio.QueueFull:
            self.overflowed = True
            self.close()

    def send_data(self, message: dict[str, object]) -> None:
        """Queue a message given as JSON data (an answer forwarded by another process)."""
        if message:
            self.send_text(json.dumps(message, separators=(",", ":")))

    def send_text(self, text: str) -> None:
        """Queue a message already serialised (one state for many connections)."""
        if self.closed:
            return
        try:
            self.queue.put_nowait(text)
        except asyncio.QueueFull:
            self.overflowed = True
            self.close()

    def close(self) -> None:
        """Stop the sender (the socket is closed by the endpoint)."""
        if not self.closed:
            self.closed = True
            with contextlib.suppress(asyncio.QueueFull):
                self.queue.put_nowait(None)

    async def run_sender(self) -> None:
        """Send queued messages in order until :meth:`close`."""
        while True:
            text = await self.queue.get()
            if text is None:
                return
            await self.ws.send_text(text)
