"""Live tables: each open table's engine, connections, seats and lifecycle.

Everything runs on the server's event loop; database calls run in worker threads
(:meth:`~lamagames.web.store.Store.call`), so a slow database stalls no other table. A
table's state changes only under its lock and only through :meth:`LiveTable.apply`, which
asks the synchronous engine (:class:`~lamagames.web.engine.TableEngine`; legality is the
game engine's business), stores the action (group commit: the actions of all tables share
transactions, :class:`~lamagames.web.writer.GroupWriter`), and only after that commit
applies it, acknowledges it and broadcasts the new state. When the database does not answer
(:class:`~lamagames.web.store.StoreUnavailable`) nothing changes: the person acting gets
the error ``unavailable`` and the driver tries again later. The rules about versions,
windows and ``ref`` are the engine's (see :mod:`lamagames.web.engine`); bots, chance and the
clocks run in the table's :class:`~lamagames.web.driver.TableDriver`.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import json
import logging
import math
import secrets
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

import anyio.to_thread
from pydantic import BaseModel
from sqlalchemy.exc import IntegrityError

from lamagames.bots.warmup import BackgroundWarmUp
from lamagames.core.errors import LamaError
from lamagames.core.game import State
from lamagames.core.records import GameRecord, SeatInfo, record_from_state
from lamagames.web.adapters import WebAdapter, adapter_ids, get_adapter
from lamagames.web.cluster import Cluster, ForwardFailed
from lamagames.web.connections import Connection, Settings
from lamagames.web.driver import BotFailure, TableDriver
from lamagames.web.engine import ClockKind, MoveLog, TableEngine, TableError, check_bot_seat
from lamagames.web.schemas import (
    AckMsg,
    ActionMsg,
    BotPace,
    ChatMsg,
    ClockOut,
    ErrorMsg,
    LegalAction,
    ReactionMsg,
    ReactMsg,
    RematchMsg,
    SayMsg,
    SeatOut,
    StateMsg,
    echo,
)
from lamagames.web.store import ActionData, Store, StoreUnavailable, TableData
from lamagames.web.talk import TalkLimiter, TalkRefused, check_chat_text, check_reaction
from lamagames.web.warmup import (
    close_warm_ups,
    import_compiled_code,
    preparing,
    start_warm_ups,
    wait_for_waiting_kinds,
)
from lamagames.web.writer import GroupWriter

__all__ = ["Connection", "Hub", "LiveSeat", "LiveTable", "Settings", "TableError"]

log = logging.getLogger("lamagames.web")

STATIC_DIR = Path(__file__).parent / "static"

#: Bot pause of each bot pace, as a multiple of :attr:`Settings.bot_delay`.
PACE_FACTORS: dict[str, float] = {"slow": 2.0, "normal": 1.0, "fast": 0.5}

#: The empty log of a state message's JSON, where :meth:`LiveTable.state_json` puts the log.
_NO_EVENTS = '"events":[]'
#: Young-generation collections between two full collections of a server process's garbage
#: collector (``Settings.freeze_gc``; Python's default is 10). A full collection scans every
#: object the freeze left in sight (the live tables, the connections: about 50,000 at 200
#: busy tables) and stopped the event loop for 30 to 160 ms, four or five times in 20 s of
#: the load benchmark; with 100, none in 20 s (issue 16). The collector still runs a full
#: collection only once the old generation grew by a quarter, as before.
GC_OLDEST_THRESHOLD = 100
#: Error code and message of an action that could not be stored (nothing was applied).
UNAVAILABLE = "unavailable"
UNAVAILABLE_MESSAGE = (
    "the game could not be saved: the database is not answering; nothing was applied, "
    "please try again in a moment"
)


@cache
def _english() -> dict[str, str]:
    catalog: dict[str, str] = json.loads((STATIC_DIR / "i18n" / "en.json").read_text("utf-8"))
    return catalog


def default_seat_name(seat: int, bot_kind: str | None) -> str:
    """The English name of a seat nobody named, as the browser shows it (``seatName`` in
    ``static/common.js``, words from ``static/i18n/en.json``): ``"Steady 3"`` for a
    ``benchmark`` bot in seat index 2, ``"Seat 2"`` for a person in seat index 1."""
    words = _english()
    if bot_kind is not None:
        return f"{words.get(f'bot.{bot_kind}', bot_kind)} {seat + 1}"
    return words.get("lobby.seat", "Seat {n}").replace("{n}", str(seat + 1))


@dataclass(slots=True)
class LiveSeat:
    """A seat at run time: who plays it and who is connected."""

    index: int
    kind: str
    name: str
    bot_kind: str | None
    token: str | None
    joined: bool
    connections: set[Connection] = field(default_factory=set)
    replaced: bool = False
    away_task: asyncio.Task[None] | None = None
    #: Connected through another process of the cluster (see :mod:`lamagames.web.cluster`).
    remote: bool = False

    def connected(self) -> bool:
        """True if the seat has a connection on this process or on another one."""
        return bool(self.connections) or self.remote

    def out(self) -> SeatOut:
        """Public description (built without validation: every field comes from the
        server's own seat, of the right type; one per seat and state message)."""
        return SeatOut.model_construct(
            seat=self.index,
            kind="bot" if self.kind == "bot" else "human",
            name=self.name,
            bot_kind=self.bot_kind,
            joined=bool(self.joined),
            connected=self.connected(),
            replaced=bool(self.replaced),
        )


class LiveTable:
    """An open (or finished) table in memory, rebuilt from the store.

    With several processes on one database (:mod:`lamagames.web.cluster`) every process that
    serves the table has one; only the owner's (``owned``) applies actions and runs the
    driver, the others follow its updates and forward what their clients ask to it.

    Raises:
        RecordError: the stored actions do not replay (the table is corrupt).
    """

    def __init__(self, hub: Hub, data: TableData) -> None:
        self.hub = hub
        self.data = data
        self.code = data.code
        self.adapter: WebAdapter = get_adapter(data.game)
        self.game = self.adapter.make_game(data.params, len(data.seats))
        self.engine = TableEngine(
            self.adapter,
            self.game,
            data.actions,
            ref_memory=hub.settings.ref_memory,
            name=f"table {data.code}",
        )
        self.status = data.status
        self.seats = [
            LiveSeat(s.seat, s.kind, s.name, s.bot_kind, s.token, s.joined) for s in data.seats
        ]
        self.spectators: set[Connection] = set()
        self.lock = asyncio.Lock()
        self.driver = TableDriver(self)
        #: This process applies the table's actions (always, without a cluster).
        self.owned = hub.cluster is None
        #: Version up to which the owner has published its actions to the other processes.
        self.published = self.engine.version
        #: Follower: the owner's clock (kind, seats, loop time it runs out) and process id.
        self.remote_clock: tuple[ClockKind, list[int], float] | None = None
        self.owner_proc: str | None = None
        #: Owner: seats connected through each other process, and when it last said so.
        self.presence: dict[str, tuple[set[int], float]] = {}
        #: Owner: the processes that follow the table (updates are published only then).
        self.followers: set[str] = set()
        #: Follower: updates held back while missing actions are read from the database.
        self._catchup: list[dict[str, Any]] | None = None
        #: Version of the last state sent to this process's connections (:meth:`_send_local`).
        self._sent_version = self.engine.version
        #: Reactions and chat lines per seat (this process's connections).
        self.talk_limit = TalkLimiter(hub.settings.talk_per_minute, hub.settings.talk_burst)

    @property
    def cluster(self) -> Cluster | None:
        """The hub's cluster membership (``None``: one process)."""
        return self.hub.cluster

    def reset(self, data: TableData) -> None:
        """Rebuild the table from freshly loaded ``data`` (a takeover or a catch-up),
        keeping its connections.

        Raises:
            RecordError: the stored actions do not replay.
        """
        self.data = data
        self.engine = TableEngine(
            self.adapter,
            self.game,
            data.actions,
            ref_memory=self.hub.settings.ref_memory,
            name=f"table {data.code}",
        )
        self.status = data.status
        for live, stored in zip(self.seats, data.seats, strict=True):
            live.name, live.token, live.joined = stored.name, stored.token, stored.joined
        self.published = self.engine.version

    # ------------------------------------------------------------------ helpers
    @property
    def settings(self) -> Settings:
        """The hub's settings."""
        return self.hub.settings

    @property
    def pace(self) -> BotPace:
        """The table's bot pace (``slow``, ``normal``, ``fast``; unknown stored values:
        ``normal``)."""
        pace = self.data.bot_pace
        return "slow" if pace == "slow" else "fast" if pace == "fast" else "normal"

    def bot_delay(self) -> float:
        """Seconds a bot pauses before each decision at this table."""
        return self.settings.bot_delay * PACE_FACTORS[self.pace]

    @property
    def state(self) -> State:
        """The current state (the engine's)."""
        return self.engine.state

    @property
    def version(self) -> int:
        """Number of applied actions."""
        return self.engine.version

    @property
    def events(self) -> MoveLog:
        """The move log (a sequence of :class:`~lamagames.web.schemas.EventOut`)."""
        return self.engine.events

    def seat_for_token(self, token: str | None) -> int | None:
        """The seat whose token this is, else ``None`` (constant-time comparison)."""
        if not token:
            return None
        found = None
        for seat in self.seats:
            if seat.token is not None and secrets.compare_digest(seat.token, token):
                found = seat.index
        return found

    def is_host(self, token: str) -> bool:
        """True if ``token`` is the host token."""
        return secrets.compare_digest(self.data.host_token, token)

    def bot_controlled(self, seat: int) -> bool:
        """True if a bot plays ``seat`` now (a bot seat, or a human who is away)."""
        live = self.seats[seat]
        return live.kind == "bot" or live.replaced

    def seat_infos(self) -> list[SeatInfo]:
        """Seats for a game record: name and ``human`` or the bot kind.

        A seat without a chosen name gets the words the browser shows in English
        (:func:`default_seat_name`: ``Steady 3``, ``Seat 2``), so records and the table agree.
        """
        return [
            SeatInfo(
                name=s.name or default_seat_name(s.index, s.bot_kind if s.kind == "bot" else None),
                kind=(s.bot_kind or "bot") if s.kind == "bot" else "human",
            )
            for s in self.seats
        ]

    def record(self) -> GameRecord:
        """The game so far as a :class:`GameRecord`; the seed only once the game is over."""
        seed = self.data.seed if self.status == "finished" else None
        return record_from_state(self.state, self.seat_infos(), seed=seed)

    # ------------------------------------------------------------------ messages
    def state_message(self, seat: int | None, events: bool = True) -> StateMsg:
        """The state as ``seat`` (``None``: a spectator) sees it (``events``: with the log
        window; without it, ``events`` is empty: :meth:`state_json` adds the log's JSON)."""
        state = self.state
        window = self.settings.event_window
        playing = self.status == "playing" and not state.is_terminal()
        legal: list[LegalAction] = []
        if seat is not None and playing:
            legal = [
                LegalAction(
                    action=state.action_to_string(a, seat),
                    label=self.adapter.action_label(state, seat, a),
                )
                for a in state.legal_actions(seat)
            ]
        clock = None
        if self.driver.clock is not None:
            running = self.driver.clock
            clock = ClockOut(
                kind=running.kind, seats=running.seats, remaining=self.driver.remaining()
            )
        elif self.remote_clock is not None and not self.owned:
            kind, seats, deadline = self.remote_clock
            left = max(0.0, deadline - asyncio.get_running_loop().time())
            clock = ClockOut(kind=kind, seats=seats, remaining=left)
        return StateMsg(
            code=self.code,
            game=self.data.game,
            status=self.status,
            version=self.version,
            seat=seat,
            seats=[s.out() for s in self.seats],
            acting=self.adapter.acting_players(state) if playing else [],
            view=self.adapter.view(state, seat),
            legal=legal,
            events=self.events[-window:] if events and window > 0 else [],
            clock=clock,
            rematch=self.data.rematch,
            chat=self.data.chat,
            preparing=playing and self.bots_preparing(),
        )

    def bots_preparing(self) -> bool:
        """Whether the compiled code of a bot of this table (a bot seat, or the stand-in of
        a person who is away) is still being compiled by the server's warm-up, the first
        run after an install (:func:`lamagames.web.warmup.preparing`, issue 19): such a bot
        may wait for it, and the browser says so."""
        kinds = {s.bot_kind or "random" for s in self.seats if s.kind == "bot"}
        if any(s.replaced for s in self.seats):
            kinds.add(self.adapter.substitute_bot())
        return preparing(self.data.game, kinds)

    def connections(self) -> list[Connection]:
        """Every connection of this table."""
        out = list(self.spectators)
        for seat in self.seats:
            out.extend(seat.connections)
        return out

    def broadcast(self) -> None:
        """Send the current state to every connection (one view per seat); the owner
        also publishes it to the other processes of the cluster."""
        if self.owned and self.cluster is not None:
            self.publish()
        self._send_local()

    def _send_local(self) -> None:
        """Send the state to this process's connections (serialised once per seat and
        kind of message). A connection's first state message carries the log window
        (``Settings.event_window`` entries); the later ones the entries since the previous
        state message, at least ``Settings.update_window`` (the client keeps the log)."""
        full = self.settings.event_window
        since = self.version - self._sent_version
        window = min(full, max(self.settings.update_window, since))
        self._sent_version = self.version
        cache: dict[tuple[int | None, bool], str] = {}
        for conn in self.connections():
            first = not conn.synced
            key = (conn.seat, first)
            text = cache.get(key)
            if text is None:
                text = cache[key] = self.state_json(conn.seat, full if first else window)
            conn.synced = True
            conn.send_text(text)

    def state_json(self, seat: int | None, window: int | None = None) -> str:
        """``state_message(seat).model_dump_json()``, the same text, made faster: the log
        window is the log's own JSON (:meth:`MoveLog.json_tail
        <lamagames.web.engine.MoveLog.json_tail>`: each entry serialised once, when it was
        logged), not serialised again for every message. ``window``: how many of the
        latest log entries (default ``Settings.event_window``)."""
        message = self.state_message(seat, events=False)  # the log is not validated again
        text = message.model_dump_json()
        at = text.rfind(_NO_EVENTS) + len(_NO_EVENTS) - 1  # the top-level one: only clock,
        # rematch, chat and preparing follow it
        if window is None:
            window = self.settings.event_window
        return "".join((text[:at], self.events.json_tail(window), text[at:]))

    # ------------------------------------------------------------------ talk
    def talk(self, conn: Connection, msg: ReactMsg | SayMsg) -> None:
        """Relay a quick reaction or a chat line of ``conn``'s seat to every connection of
        the table, on every process of a cluster (:mod:`lamagames.web.talk`; ephemeral,
        never stored). A refused one is answered with ``error`` (``unknown_reaction``,
        ``chat_off``, ``empty``, ``too_long``, ``control_chars``, ``talk_rate``) and nothing
        is relayed.

        Raises:
            ValueError: ``conn`` has no seat (the endpoint answers spectators itself).
        """
        seat = conn.seat
        if seat is None:
            raise ValueError("spectators have no seat")
        out: ReactionMsg | ChatMsg
        try:
            if isinstance(msg, ReactMsg):
                out = ReactionMsg(seat=seat, reaction=check_reaction(msg.reaction))
            else:
                if not self.data.chat:
                    raise TalkRefused(
                        "chat_off", "chat is off at this table (only the host can turn it on)"
                    )
                out = ChatMsg(seat=seat, text=check_chat_text(msg.text))
            if not self.talk_limit.allow(seat):
                wait = max(1, math.ceil(self.talk_limit.retry_after(seat)))
                raise TalkRefused("talk_rate", f"too many reactions and chat lines; wait {wait} s")
        except TalkRefused as exc:
            conn.send(ErrorMsg(code=exc.code, message=exc.message, version=self.version))
            return
        self.relay(out.model_dump())
        if self.cluster is not None:
            self.cluster.publish({"t": "x", "c": self.code, "m": out.model_dump()})

    def switch_chat(self, on: bool) -> None:
        """The host's chat switch was stored: take it, send the state to this process's
        connections and tell the other processes (which do the same)."""
        self.relay({"type": "chat_switch", "chat": on})
        if self.cluster is not None:
            self.cluster.publish(
                {"t": "x", "c": self.code, "m": {"type": "chat_switch", "chat": on}}
            )

    def relay(self, message: dict[str, Any]) -> None:
        """Send a ``reaction`` or ``chat`` message to this process's connections of the
        table (seats and spectators); a ``chat_switch`` (the host's, already stored) is
        taken and the state sent again; anything else is ignored."""
        if message.get("type") == "chat_switch":
            self.data.chat = bool(message.get("chat"))
            self._send_local()
            return
        if message.get("type") not in ("reaction", "chat"):
            return
        text = json.dumps(message, separators=(",", ":"), ensure_ascii=False)
        for conn in self.connections():
            conn.send_text(text)

    # ------------------------------------------------------------------ connections
    def attach(self, conn: Connection, seat: int | None) -> None:
        """Add a connection (a seat holder or a spectator) and send it the state, then the
        ``bot_unavailable`` error if a bot of the table could not be made (the driver
        stopped, :meth:`TableDriver.tell <lamagames.web.driver.TableDriver.tell>`)."""
        conn.seat = seat
        if seat is None:
            self.spectators.add(conn)
            conn.send_text(self.state_json(None))
            conn.synced = True
            self.driver.tell(conn)
            return
        live = self.seats[seat]
        live.connections.add(conn)
        if not self.owned:
            self.send_presence()
            conn.send_text(self.state_json(seat))
            conn.synced = True
            return
        self._come_back(live)
        self.broadcast()
        self.driver.tell(conn)
        self.kick()

    def detach(self, conn: Connection) -> None:
        """Remove a connection; a seat left without connections starts its away timer."""
        conn.close()
        if conn.seat is None:
            self.spectators.discard(conn)
            return
        live = self.seats[conn.seat]
        live.connections.discard(conn)
        if not self.owned:
            if not live.connections:
                self.send_presence()
            return
        if not live.connected():
            self._start_away(live)
            self.broadcast()

    def leave(self, seat: int) -> None:
        """The player leaves for now: a bot plays the seat until they come back."""
        if not self.owned:
            self._forget("leave", {"seat": seat})
            return
        live = self.seats[seat]
        if live.kind == "human" and not live.replaced and self.status == "playing":
            live.replaced = True
            self.broadcast()
            self.kick()

    def back(self, seat: int) -> None:
        """The player is back after :meth:`leave`."""
        if not self.owned:
            self._forget("back", {"seat": seat})
            return
        live = self.seats[seat]
        if live.replaced:
            self._come_back(live)
            self.broadcast()
            self.kick()

    def _come_back(self, live: LiveSeat) -> None:
        if live.away_task is not None:
            live.away_task.cancel()
            live.away_task = None
        live.replaced = False

    def _start_away(self, live: LiveSeat) -> None:
        if (
            not self.owned
            or live.kind != "human"
            or live.connected()
            or live.replaced
            or live.away_task is not None
            or self.status != "playing"
        ):
            return
        live.away_task = asyncio.create_task(self._away_expired(live))

    async def _away_expired(self, live: LiveSeat) -> None:
        await asyncio.sleep(self.data.away_timeout)
        live.away_task = None
        if not live.connected() and self.status == "playing" and self.owned:
            live.replaced = True
            self.broadcast()
            self.kick()

    # ------------------------------------------------------------------ lifecycle
    def resume(self) -> None:
        """After loading a playing table: absent humans get away timers, bots start."""
        if self.status != "playing":
            return
        for live in self.seats:
            self._start_away(live)
        self.kick()

    async def start(self) -> None:
        """Start a waiting table (idempotent for a table already playing).

        Raises:
            TableError: the table is finished.
            StoreUnavailable: the database (or the owning process) did not answer.
        """
        if await self._forward("start", {}) is not None:
            return
        async with self.lock:
            if self.status == "finished":
                raise TableError("finished", "this game is over", 409)
            if self.status == "playing":
                return
            store = self.hub.store
            await store.call(store.set_status, self.data.id, "playing")
            self.status = "playing"
            self.resume()
            self.broadcast()

    def close(self) -> None:
        """Cancel every task of this table (server shutdown)."""
        self.stop_tasks()
        for conn in self.connections():
            conn.close()

    def stop_tasks(self) -> None:
        """Cancel the driver, the clock and the away timers."""
        self.driver.close()
        self.driver.clock = None
        for live in self.seats:
            if live.away_task is not None:
                live.away_task.cancel()
                live.away_task = None

    def kick(self) -> None:
        """Make sure the driver runs (chance, bots, timers); only the owner drives."""
        if self.owned:
            self.driver.kick()

    # ------------------------------------------------------------------ acting
    async def submit(self, conn: Connection | RemoteConn, msg: ActionMsg) -> None:
        """A client's action: checked against seat, version (or window) and the engine.

        Applied in arrival order (the table lock is fair). Every refusal is sent to that
        client only (an :class:`ErrorMsg`); nothing changes. See
        :mod:`lamagames.web.engine` for the rules about versions, windows and ``ref``.
        """
        seat = conn.seat

        def refuse(code: str, message: str) -> None:
            conn.send(ErrorMsg(code=code, message=message, version=self.version, ref=msg.ref))

        if seat is None:
            refuse("spectator", "spectators cannot act; join with an invite link to play")
            return
        if not self.owned and self.cluster is not None and isinstance(conn, Connection):
            args = {"seat": seat, "version": msg.version, "action": msg.action, "ref": msg.ref}
            try:
                answer = await self.cluster.request(
                    self.code, "act", args, lambda reply: conn.send_data(reply.get("ws") or {})
                )
            except ForwardFailed:
                refuse(UNAVAILABLE, UNAVAILABLE_MESSAGE)
                return
            if answer is not None:
                return  # the owner answered (on_reply sent it to the client)
        async with self.lock:
            if self.status != "playing":
                refuse(
                    "not_playing",
                    "the game has not started" if self.status == "waiting" else "the game is over",
                )
                return
            applied = self.engine.applied_ref(seat, msg.ref)
            if applied is not None:
                conn.send(AckMsg(version=applied, ref=msg.ref, duplicate=True))
                return
            try:
                action = self.engine.judge(seat, msg.version, msg.action)
            except TableError as exc:
                refuse(exc.code, exc.message)
                return
            live = self.seats[seat]
            if live.replaced:
                self._come_back(live)
            try:
                await self.apply(seat, action, "human", ack=(conn, msg.ref))
            except LamaError as exc:
                refuse("illegal", str(exc))
                return
            except StoreUnavailable:
                log.warning("table %s: could not store an action of seat %d", self.code, seat)
                refuse(UNAVAILABLE, UNAVAILABLE_MESSAGE)
                return
        self.kick()

    async def apply(
        self,
        player: int | None,
        action: int,
        by: str,
        ack: tuple[Connection | RemoteConn, str | None] | None = None,
    ) -> None:
        """Apply, store, acknowledge (to ``ack``'s connection, echoing its ref), broadcast.

        Caller holds the lock (the state cannot change while the action is being stored).

        Raises:
            LamaError: the engine refused the action (nothing changed).
            StoreUnavailable: the database did not answer (nothing changed).
        """
        if not self.owned:  # the lease was lost while this action waited for the lock
            raise StoreUnavailable(f"table {self.code} is served by another process now")
        step = self.engine.plan(player, action, by)
        status = "finished" if step.finished else None
        try:
            await self.hub.writer.append(self.data.id, step.entry, status)
        except IntegrityError as exc:  # another process stored this index: we are stale
            log.warning("table %s: action %d stored elsewhere", self.code, step.entry.idx)
            self.hub.lost_lease(self)
            raise StoreUnavailable(f"table {self.code}: {exc.orig}") from exc
        ref = ack[1] if ack is not None else None
        self.engine.commit(step, ref)
        if step.finished:
            self.status = "finished"
            for live in self.seats:
                if live.away_task is not None:
                    live.away_task.cancel()
                    live.away_task = None
        self.hub.on_applied()
        self.driver.update_clock()
        if ack is not None:
            ack[0].send(AckMsg(version=self.version, ref=ack[1]))
        self.broadcast()

    # ------------------------------------------------------------------ cluster
    async def join(self, seat: int, name: str | None) -> None:
        """Mark a human seat as joined (optionally renamed), on the owning process.

        Raises:
            StoreUnavailable: the database (or the owning process) did not answer.
        """
        if await self._forward("join", {"seat": seat, "name": name}) is not None:
            return
        store = self.hub.store
        await store.call(store.join_seat, self.data.id, seat, name)
        live = self.seats[seat]
        live.joined = True
        if name:
            live.name = name
        self.broadcast()

    async def claim(self, name: str) -> tuple[int, str]:
        """Give the first free unnamed human seat to ``name`` under a fresh token.

        Returns:
            The seat and its new token.

        Raises:
            TableError: ``full`` (no such seat).
            StoreUnavailable: the database (or the owning process) did not answer.
        """
        answer = await self._forward("claim", {"name": name})
        if answer is not None:
            return int(answer["seat"]), str(answer["token"])
        async with self.lock:
            for live in self.seats:
                if live.kind == "human" and not live.joined and not live.name:
                    # A fresh token: the host's invite link for this seat no longer opens it.
                    store = self.hub.store
                    token = await store.call(store.claim_seat, self.data.id, live.index, name)
                    live.token = token
                    await self.join(live.index, name)
                    return live.index, token
        raise TableError("full", "no free seat at this table", 409)

    async def _forward(self, op: str, args: dict[str, Any]) -> dict[str, Any] | None:
        """Run ``op`` on the owning process; ``None`` when this process owns the table (the
        caller runs it here).

        Raises:
            TableError: the owner refused.
            StoreUnavailable: the owner (or its database) did not answer.
        """
        cluster = self.cluster
        if self.owned or cluster is None:
            return None
        try:
            answer = await cluster.request(self.code, op, args)
        except ForwardFailed as exc:
            raise StoreUnavailable(str(exc)) from exc
        if answer is None:
            return None  # this process took the table over
        error = answer.get("err")
        if error:
            code, message, status = error
            if code == UNAVAILABLE:
                raise StoreUnavailable(message)
            raise TableError(str(code), str(message), int(status))
        result: dict[str, Any] = answer.get("ok") or {}
        return result

    def _forget(self, op: str, args: dict[str, Any]) -> None:
        """Send ``op`` to the owner without waiting for an answer."""
        if self.cluster is not None:
            self.cluster.publish({"t": "q", "c": self.code, "o": op, "a": args})

    async def handle_remote(self, op: str, args: dict[str, Any], to: str, ident: str) -> None:
        """Run a request another process forwarded (this process owns the table) and
        answer it (requests with an ``ident``)."""
        cluster = self.cluster
        assert cluster is not None
        self.followers.add(to)
        if op == "presence":
            self.set_presence(to, [int(seat) for seat in args.get("seats", [])])
            return
        if op == "sync":  # a process just loaded the table: seats, clock and failure now
            self.publish()
            return
        if op in ("leave", "back"):
            seat = int(args["seat"])
            if 0 <= seat < len(self.seats):
                (self.leave if op == "leave" else self.back)(seat)
            return
        if op == "act":
            remote = RemoteConn(cluster, to, ident, int(args["seat"]))
            message = ActionMsg(
                type="action", version=args["version"], action=args["action"], ref=args["ref"]
            )
            await self.submit(remote, message)
            return
        result: dict[str, Any] = {}
        try:
            if op == "start":
                await self.start()
            elif op == "join":
                await self.join(int(args["seat"]), args.get("name"))
            elif op == "claim":
                seat, token = await self.claim(str(args["name"]))
                result = {"seat": seat, "token": token}
            elif op == "rematch":
                new, token, at = await self.hub.rematch(self, str(args["token"]))
                result = {"code": new.code, "token": token, "seat": at}
            else:
                return
        except TableError as exc:
            answer: dict[str, Any] = {"err": [exc.code, exc.message, exc.status]}
        except StoreUnavailable:
            answer = {"err": [UNAVAILABLE, UNAVAILABLE_MESSAGE, 503]}
        except LamaError as exc:
            answer = {"err": ["invalid", str(exc), 400]}
        else:
            answer = {"ok": result}
        if ident:
            cluster.reply(to, ident, answer)

    def meta(self) -> dict[str, Any]:
        """What the other processes need besides the actions: status, seats, clock,
        rematch."""
        clock = self.driver.clock
        failure = self.driver.failure
        return {
            "s": self.status,
            "st": [[s.name, s.joined, s.connected(), s.replaced, s.token] for s in self.seats],
            "k": None if clock is None else [clock.kind, clock.seats, self.driver.remaining()],
            "r": self.data.rematch,
            "f": None if failure is None else [failure.seat, failure.kind, failure.message],
        }

    def publish(self, force: bool = False) -> None:
        """Owner: send the actions since the last publication and the meta to every
        process, if another process follows the table (``force``: anyway, to announce a
        new owner)."""
        if self.cluster is None:
            return
        if not force and not self.followers:
            self.published = self.version
            return
        actions = self.engine.events.actions(self.published)
        self.published = self.version
        message = {"t": "u", "c": self.code, "v": self.version, "a": actions, "m": self.meta()}
        self.cluster.publish(message)

    def send_presence(self) -> None:
        """Follower: tell the owner which seats are connected through this process."""
        if self.cluster is None or self.owned:
            return
        seats = [s.index for s in self.seats if s.connections]
        self._forget("presence", {"seats": seats})

    def set_presence(self, proc: str, seats: list[int]) -> None:
        """Owner: the seats connected through process ``proc`` (a seat connected anywhere
        is not away)."""
        self.presence[proc] = ({s for s in seats if 0 <= s < len(self.seats)}, time.monotonic())
        self._update_remote()

    def expire_presence(self, older_than: float) -> None:
        """Owner: forget what processes silent since ``older_than`` (monotonic seconds)
        said (a dead process's players are away)."""
        stale = [proc for proc, (_s, at) in self.presence.items() if at < older_than]
        for proc in stale:
            del self.presence[proc]
        if stale:
            self._update_remote()

    def _update_remote(self) -> None:
        changed = False
        for live in self.seats:
            remote = any(live.index in seats for seats, _at in self.presence.values())
            if remote != live.remote:
                changed = True
                live.remote = remote
                if remote:
                    self._come_back(live)
                else:
                    self._start_away(live)
        if changed:
            self.broadcast()
            self.kick()

    def follow(self, message: dict[str, Any]) -> None:
        """Follower: apply an update of the owner (actions in version order, then the
        meta) and send the state to this process's connections; a gap is filled from the
        database first."""
        if self.owned:
            return
        if self._catchup is not None:
            self._catchup.append(message)
            return
        proc = message.get("p")
        if proc != self.owner_proc:
            self.owner_proc = proc
            self.send_presence()  # a new owner: tell it who is connected here
        try:
            fresh = [a for a in message.get("a") or [] if a[0] >= self.version]
            for number, (idx, player, notation, by) in enumerate(fresh):
                if idx == self.version:
                    self._replay(ActionData(idx, player, notation, by))
                    if number < len(fresh) - 1:
                        self._send_local()  # every version, in order
        except LamaError:
            log.exception("table %s: an update does not replay; reading the table", self.code)
            self.version_gap([message], reload=True)
            return
        if "m" not in message:  # by reference, seats too: read the whole table
            self.version_gap([], reload=True)
            return
        if self.version < int(message.get("v", 0)):
            self.version_gap([message])
            return
        meta = message.get("m")
        if meta:
            self._take_meta(meta)
        self._send_local()

    def version_gap(self, held: list[dict[str, Any]], reload: bool = False) -> None:
        """Follower: read what is missing from the database, then apply ``held``."""
        self._catchup = held
        task = asyncio.create_task(self._catch_up(reload))
        self.hub.background(task)

    async def _catch_up(self, reload: bool) -> None:
        store = self.hub.store
        try:
            if reload:
                data = await store.call(store.load, self.code)
                if data is not None:
                    self.reset(data)
                    self._send_local()
            else:
                for entry in await store.call(store.actions_since, self.data.id, self.version):
                    if entry.idx == self.version:
                        self._replay(entry)
                        self._send_local()  # every version, in order
        except Exception as exc:
            log.warning("table %s: catching up failed (%s)", self.code, exc)
            await asyncio.sleep(0.5)
        held, self._catchup = self._catchup or [], None
        for message in held:
            if self._catchup is not None:
                self._catchup.append(message)
            else:
                self.follow(message)

    def _replay(self, entry: ActionData) -> None:
        actor = None if entry.player < 0 else entry.player
        action = self.state.string_to_action(entry.notation, actor)
        step = self.engine.plan(actor, action, entry.by)
        self.engine.commit(step)
        if step.finished:
            self.status = "finished"

    def _take_meta(self, meta: dict[str, Any]) -> None:
        self.status = meta.get("s", self.status)
        for live, row in zip(self.seats, meta.get("st") or [], strict=False):
            live.name, live.joined, live.remote, live.replaced, live.token = row
        clock = meta.get("k")
        if clock:
            deadline = asyncio.get_running_loop().time() + float(clock[2])
            self.remote_clock = (clock[0], list(clock[1]), deadline)
        else:
            self.remote_clock = None
        failure = meta.get("f")
        if failure:  # the owner's bot cannot be made: tell this process's clients too
            seat, kind, text = failure
            if self.driver.failure is None or self.driver.failure.message != text:
                self.driver.failure = BotFailure(int(seat), str(kind), str(text))
                for conn in self.connections():
                    self.driver.tell(conn)
        else:
            self.driver.failure = None
        rematch = meta.get("r")
        if rematch and self.data.rematch != rematch:
            self.data.rematch = rematch
            self.hub.background(asyncio.create_task(self._tell_rematch(rematch)))

    async def _tell_rematch(self, code: str) -> None:
        """Follower: send this process's connections their seats' tokens at the rematch."""
        new = await self.hub.get(code)
        if new is None:
            return
        for conn in self.connections():
            token = None if conn.seat is None else new.seats[conn.seat].token
            conn.send(RematchMsg(code=new.code, token=token))

    async def take_over(self) -> None:
        """This process got the lease: read the table from the database (everything the
        last owner committed), become its owner and resume bots and clocks."""
        async with self.lock:
            store = self.hub.store
            data = await store.call(store.load, self.code)
            if data is None:
                return
            self.reset(data)
            self._catchup = None
            self.remote_clock = None
            self.owned = True
            self.owner_proc = self.cluster.proc if self.cluster else None
            for live in self.seats:
                live.remote = False
            self.presence.clear()
            self.followers.clear()
            log.info("table %s: taken over at version %d", self.code, self.version)
            self.resume()
            self.publish(force=True)  # the followers learn who owns it now
            self._send_local()

    def lose(self) -> None:
        """The lease is gone: stop driving; follow the next owner."""
        if not self.owned:
            return
        self.owned = False
        self.stop_tasks()
        self.owner_proc = None


def _warm_bots(
    warm: bool = True,
    freeze_gc: bool = False,
    compiled: bool = False,
    started: list[BackgroundWarmUp] | None = None,
) -> None:
    """Warm the bots of every game that can be played in the browser (a daemon thread);
    with ``compiled``, first start the warm-ups of the compiled bot kinds
    (:func:`lamagames.web.warmup.start_warm_ups`: on a cold cache a helper process
    compiles, issue 19), unless ``started`` gives them (started before the server serves),
    and wait for those whose bots wait for their code
    (:func:`lamagames.web.warmup.wait_for_waiting_kinds`) before warming the games' bots,
    then for all; then, with ``freeze_gc``, :func:`gc.freeze` what is alive
    (``Settings.freeze_gc``).

    Only the young generations are collected before the freeze, not all three: a full
    collection of the whole heap (the imported libraries, Numba's and LLVM's included)
    held the interpreter lock, and so stopped the event loop, for 140 ms on the
    development machine, and found 7 unreachable objects (issue 16); what little cyclic
    garbage the old generation holds then stays frozen. Full collections are then made
    rarer (:data:`GC_OLDEST_THRESHOLD`)."""
    if started is None:
        started = start_warm_ups(adapter_ids()) if compiled else []
    # the compiled kinds' code first (issue 19: the compile below holds Numba's lock)
    wait_for_waiting_kinds(started)
    for game_id in adapter_ids() if warm else []:
        try:
            get_adapter(game_id).warm_bots()
        except Exception:  # pragma: no cover - a failed warm-up leaves the slower path
            log.exception("warming the bots of %s failed", game_id)
    for warm_up in started:
        warm_up.wait()
    if freeze_gc:
        gc.collect(1)
        gc.freeze()
        young, middle, _oldest = gc.get_threshold()
        gc.set_threshold(young, middle, GC_OLDEST_THRESHOLD)


class RemoteConn:
    """A client connected through another process, as the owner's :meth:`LiveTable.submit`
    sees it: its seat, and ``send`` answers the forwarded request."""

    def __init__(self, cluster: Cluster, to: str, ident: str, seat: int) -> None:
        self.cluster = cluster
        self.to = to
        self.ident = ident
        self.seat: int | None = seat
        self.answered = False

    def send(self, message: BaseModel) -> None:
        """Answer the request (once)."""
        if not self.answered:
            self.answered = True
            self.cluster.reply(self.to, self.ident, {"ws": message.model_dump(mode="json")})


class Hub:
    """All live tables of one app, loaded from the store on demand.

    On PostgreSQL (unless ``settings.cluster`` is false) the hub joins the database's
    cluster of server processes (:mod:`lamagames.web.cluster`) when it starts: it owns the
    tables whose lease it holds and follows the others.

    Args:
        store: the storage.
        settings: server-wide knobs.
        on_applied: optional callback after every applied action (benchmarks count them).
    """

    def __init__(
        self, store: Store, settings: Settings, on_applied: Callable[[], None] | None = None
    ) -> None:
        self.store = store
        self.settings = settings
        self.tables: dict[str, LiveTable] = {}
        self.writer = GroupWriter(store, window=settings.commit_window)
        self._on_applied = on_applied
        self._rematch_lock = asyncio.Lock()
        self.cluster: Cluster | None = None
        self._loading: dict[str, asyncio.Future[LiveTable | None]] = {}
        self._held: dict[str, list[dict[str, Any]]] = {}  # updates seen while loading
        self._background: set[asyncio.Task[Any]] = set()

    def background(self, task: asyncio.Task[Any]) -> None:
        """Keep a reference to a background task until it ends."""
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    def on_applied(self) -> None:
        """Hook after each applied action."""
        if self._on_applied is not None:
            self._on_applied()

    async def get(self, code: str) -> LiveTable | None:
        """The live table of ``code`` (loaded and resumed on first use), or ``None``.

        Raises:
            StoreUnavailable: the database did not answer.
        """
        code = code.upper()
        table = self.tables.get(code)
        if table is not None:
            return table
        loading = self._loading.get(code)
        if loading is not None:  # loaded by another request meanwhile
            return await asyncio.shield(loading)
        future: asyncio.Future[LiveTable | None] = asyncio.get_running_loop().create_future()
        self._loading[code] = future
        self._held[code] = []
        try:
            table = await self._load(code)
        except BaseException as exc:
            future.set_exception(exc)
            future.exception()  # retrieved: nobody else may be waiting
            raise
        else:
            future.set_result(table)
            return table
        finally:
            del self._loading[code]
            held = self._held.pop(code, [])
            found = self.tables.get(code)
            if found is not None and not found.owned:
                for message in held:
                    found.follow(message)

    async def _load(self, code: str) -> LiveTable | None:
        store = self.store
        data = await store.call(store.load, code)
        if data is None:
            return None
        owned = True
        if self.cluster is not None:
            owned = await self.cluster.try_own(code)
            if owned:  # what the last owner committed before it let go
                data = await store.call(store.load, code) or data
        table = LiveTable(self, data)
        table.owned = owned
        self.tables[code] = table
        if owned:
            table.resume()
            if self.cluster is not None:
                table.publish(force=True)  # the followers learn who owns it now
        else:
            table._forget("sync", {})  # the owner sends what the database does not hold
        return table

    # ------------------------------------------------------------------ cluster
    async def took_lease(self, code: str) -> None:
        """This process got the lease of ``code`` (another owner died or let go): load
        the table, or take the loaded copy over."""
        table = self.tables.get(code)
        try:
            if table is None:
                await self.get(code)
            elif not table.owned:
                await table.take_over()
        except (StoreUnavailable, LamaError) as exc:
            log.warning("table %s: cannot take over (%s); letting go", code, exc)
            if table is not None:
                table.lose()
            if self.cluster is not None:
                await self.cluster.release(code)

    def lost_leases(self) -> None:
        """Every lease is gone (the lock connection failed): follow every table."""
        for table in self.tables.values():
            table.lose()

    def lost_lease(self, table: LiveTable) -> None:
        """Another process stored an action of ``table``: follow it from the database."""
        table.lose()
        if self.cluster is not None:
            self.background(asyncio.create_task(self.cluster.release(table.code)))
        table.version_gap([], reload=True)

    def remote_update(self, message: dict[str, Any]) -> None:
        """An update of another process (see :meth:`LiveTable.follow`)."""
        code = str(message.get("c", ""))
        table = self.tables.get(code)
        if table is not None:
            table.follow(message)
        elif code in self._held:
            self._held[code].append(message)

    def remote_talk(self, message: dict[str, Any]) -> None:
        """A reaction or chat line relayed by another process: sent to this process's
        connections of the table (if it has it loaded)."""
        table = self.tables.get(str(message.get("c", "")))
        payload = message.get("m")
        if table is not None and isinstance(payload, dict):
            table.relay(payload)

    async def remote_request(self, message: dict[str, Any]) -> None:
        """A request another process forwarded; answered if this process owns the table."""
        code = str(message.get("c", ""))
        loading = self._loading.get(code)
        if loading is not None:  # this process is loading it (maybe as its new owner)
            with contextlib.suppress(Exception):
                await asyncio.shield(loading)
        table = self.tables.get(code)
        if table is None or not table.owned:
            return
        try:
            await table.handle_remote(
                str(message.get("o")),
                dict(message.get("a") or {}),
                str(message.get("p")),
                str(message.get("i") or ""),
            )
        except Exception:
            log.exception("table %s: forwarded request failed", table.code)

    def resync_all(self) -> None:
        """Updates may have been missed: every followed table reads what it lacks."""
        for table in self.tables.values():
            if not table.owned and table._catchup is None:
                table.version_gap([])

    def tick(self, count: int) -> None:
        """Every lease check: followers repeat their presence now and then, owners forget
        the presence of processes that stopped repeating it."""
        if count % 5 == 0:
            for table in self.tables.values():
                if not table.owned and table.connections():
                    table.send_presence()  # also says: this process follows the table
        older = time.monotonic() - 6 * self.settings.lease_check * 5
        for table in self.tables.values():
            if table.owned and table.presence:
                table.expire_presence(older)

    async def require(self, code: str) -> LiveTable:
        """Like :meth:`get`.

        Raises:
            TableError: no such table (404).
            StoreUnavailable: the database did not answer.
        """
        table = await self.get(code)
        if table is None:
            raise TableError("not_found", f"no table with code {echo(code)}", 404)
        return table

    async def startup(self) -> None:
        """Join the cluster (PostgreSQL), then resume every table that was playing when the
        server stopped (on a cluster: those nobody owns; the others are loaded here only
        when a client asks for them, so a process does not replay every table). With
        ``settings.warm_bots`` the games' bots are warmed in a background thread
        (:meth:`~lamagames.web.adapters.WebAdapter.warm_bots`: Numba compiles or loads
        from its disk cache while the server already serves); with
        ``settings.warm_compiled`` the compiled bot kinds too (:mod:`lamagames.web.warmup`:
        on a cold cache compiled in a helper process, issue 19)."""
        settings = self.settings
        if settings.warm_bots or settings.warm_compiled:
            # one thread imports Numba and the compiled bots' modules before the warm-up
            # threads and the requests can (concurrent first imports deadlocked, issue 19)
            await anyio.to_thread.run_sync(import_compiled_code, adapter_ids())
        started: list[BackgroundWarmUp] = []
        if settings.warm_compiled:
            # before the first request: a table made at once must find its kind's warm-up
            # running (else its bot compiled on a worker thread, holding the GIL; issue 19)
            started = await anyio.to_thread.run_sync(start_warm_ups, adapter_ids())
        if settings.warm_bots or settings.freeze_gc or settings.warm_compiled:
            threading.Thread(
                target=_warm_bots,
                args=(settings.warm_bots, settings.freeze_gc, settings.warm_compiled, started),
                name="lama-warm-bots",
                daemon=True,
            ).start()
        if self.settings.cluster is not False and self.store.url.startswith("postgresql"):
            cluster = Cluster(
                self.store.url,
                self,
                lease_check=self.settings.lease_check,
                forward_timeout=self.settings.forward_timeout,
            )
            await cluster.start()
            self.cluster = cluster
        codes = await self.store.call(self.store.codes_with_status, "playing")
        if self.cluster is not None:
            held = await self.cluster.try_own_many(codes)
            codes = [code for code in codes if code in held]
        for code in codes:
            try:
                await self.get(code)
            except LamaError:
                log.exception("table %s cannot be resumed", code)

    def shutdown(self) -> None:
        """Cancel all tasks of all tables; stop the compiled bots' warm-ups still running
        (their helper processes)."""
        if self.settings.warm_compiled:
            close_warm_ups()
        for table in self.tables.values():
            table.close()
        self.writer.close()
        for task in self._background:
            task.cancel()

    async def leave_cluster(self) -> None:
        """Release every lease at once (the other processes take the tables over)."""
        if self.cluster is not None:
            await self.cluster.close()

    async def rematch(self, table: LiveTable, token: str) -> tuple[LiveTable, str, int | None]:
        """Create (once) and start the rematch of a finished table.

        Seated clients are sent their new seat tokens.

        Returns:
            The new table, the caller's token there and the caller's seat there.

        Raises:
            TableError: not finished, the token is neither the host's nor a seat's, or (when
                the rematch is created) a bot of the table cannot play on this server
                (:func:`~lamagames.web.engine.check_bot_seat`, as when a table is created).
        """
        seat = table.seat_for_token(token)
        host = table.is_host(token)
        if seat is None and not host:
            raise TableError("forbidden", "only the host or a seated player can ask", 403)
        if table.status != "finished":
            raise TableError("not_finished", "a rematch needs a finished game", 409)
        answer = await table._forward("rematch", {"token": token})
        if answer is not None:
            new = await self.require(str(answer["code"]))
            at = answer.get("seat")
            return new, str(answer["token"]), None if at is None else int(at)
        async with self._rematch_lock:
            store = self.store
            if table.data.rematch is not None:
                new = await self.require(table.data.rematch)
            else:
                data = table.data
                for live in table.seats:
                    if live.kind == "bot":
                        check_bot_seat(table.adapter, table.game, live.index, live.bot_kind or "")
                created = await store.call(
                    store.create_table,
                    game=data.game,
                    params=data.params,
                    seed=secrets.randbits(63),
                    seats=[(s.kind, s.name, s.bot_kind) for s in table.seats],
                    public=data.public,
                    turn_clock=data.turn_clock,
                    away_timeout=data.away_timeout,
                    alertness=data.alertness,
                    rematch_of=data.code,
                    bot_pace=data.bot_pace,
                    hints=data.hints,
                    chat=data.chat,
                )
                for old in table.seats:
                    if old.kind == "human" and old.joined:
                        await store.call(store.join_seat, created.id, old.index, None)
                await store.call(store.set_rematch, data.id, created.code)
                data.rematch = created.code
                new = await self.require(created.code)
                await new.start()
                for conn in table.connections():
                    new_token = None if conn.seat is None else new.seats[conn.seat].token
                    conn.send(RematchMsg(code=new.code, token=new_token))
                table.broadcast()
        if seat is not None:
            token_there = new.seats[seat].token
            if token_there is None:  # pragma: no cover - humans always have tokens
                raise TableError("forbidden", "seat has no token", 403)
            return new, token_there, seat
        return new, new.data.host_token, None
