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
import json
import logging
import secrets
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

from lamagames.core.errors import LamaError
from lamagames.core.game import State
from lamagames.core.records import GameRecord, SeatInfo, record_from_state
from lamagames.web.adapters import WebAdapter, get_adapter
from lamagames.web.connections import Connection, Settings
from lamagames.web.driver import TableDriver
from lamagames.web.engine import TableEngine, TableError, check_bot_seat
from lamagames.web.schemas import (
    AckMsg,
    ActionMsg,
    BotPace,
    ClockOut,
    ErrorMsg,
    EventOut,
    LegalAction,
    RematchMsg,
    SeatOut,
    StateMsg,
    echo,
)
from lamagames.web.store import Store, StoreUnavailable, TableData
from lamagames.web.writer import GroupWriter

__all__ = ["Connection", "Hub", "LiveSeat", "LiveTable", "Settings", "TableError"]

log = logging.getLogger("lamagames.web")

STATIC_DIR = Path(__file__).parent / "static"

#: Bot pause of each bot pace, as a multiple of :attr:`Settings.bot_delay`.
PACE_FACTORS: dict[str, float] = {"slow": 2.0, "normal": 1.0, "fast": 0.5}

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

    def out(self) -> SeatOut:
        """Public description."""
        return SeatOut(
            seat=self.index,
            kind="bot" if self.kind == "bot" else "human",
            name=self.name,
            bot_kind=self.bot_kind,
            joined=self.joined,
            connected=bool(self.connections),
            replaced=self.replaced,
        )


class LiveTable:
    """An open (or finished) table in memory, rebuilt from the store.

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
    def events(self) -> list[EventOut]:
        """The move log."""
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
    def state_message(self, seat: int | None) -> StateMsg:
        """The state as ``seat`` (``None``: a spectator) sees it."""
        state = self.state
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
            events=self.events[-self.settings.event_window :],
            clock=clock,
            rematch=self.data.rematch,
        )

    def connections(self) -> list[Connection]:
        """Every connection of this table."""
        out = list(self.spectators)
        for seat in self.seats:
            out.extend(seat.connections)
        return out

    def broadcast(self) -> None:
        """Send the current state to every connection (one view per seat)."""
        cache: dict[int | None, StateMsg] = {}
        for conn in self.connections():
            message = cache.get(conn.seat)
            if message is None:
                message = cache[conn.seat] = self.state_message(conn.seat)
            conn.send(message)

    # ------------------------------------------------------------------ connections
    def attach(self, conn: Connection, seat: int | None) -> None:
        """Add a connection (a seat holder or a spectator) and send it the state, then the
        ``bot_unavailable`` error if a bot of the table could not be made (the driver
        stopped, :meth:`TableDriver.tell <lamagames.web.driver.TableDriver.tell>`)."""
        conn.seat = seat
        if seat is None:
            self.spectators.add(conn)
            conn.send(self.state_message(None))
            self.driver.tell(conn)
            return
        live = self.seats[seat]
        live.connections.add(conn)
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
        if not live.connections:
            self._start_away(live)
            self.broadcast()

    def leave(self, seat: int) -> None:
        """The player leaves for now: a bot plays the seat until they come back."""
        live = self.seats[seat]
        if live.kind == "human" and not live.replaced and self.status == "playing":
            live.replaced = True
            self.broadcast()
            self.kick()

    def back(self, seat: int) -> None:
        """The player is back after :meth:`leave`."""
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
            live.kind != "human"
            or live.connections
            or live.replaced
            or live.away_task is not None
            or self.status != "playing"
        ):
            return
        live.away_task = asyncio.create_task(self._away_expired(live))

    async def _away_expired(self, live: LiveSeat) -> None:
        await asyncio.sleep(self.data.away_timeout)
        live.away_task = None
        if not live.connections and self.status == "playing":
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
        """
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
        self.driver.close()
        for live in self.seats:
            if live.away_task is not None:
                live.away_task.cancel()
        for conn in self.connections():
            conn.close()

    def kick(self) -> None:
        """Make sure the driver runs (chance, bots, timers)."""
        self.driver.kick()

    # ------------------------------------------------------------------ acting
    async def submit(self, conn: Connection, msg: ActionMsg) -> None:
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
        ack: tuple[Connection, str | None] | None = None,
    ) -> None:
        """Apply, store, acknowledge (to ``ack``'s connection, echoing its ref), broadcast.

        Caller holds the lock (the state cannot change while the action is being stored).

        Raises:
            LamaError: the engine refused the action (nothing changed).
            StoreUnavailable: the database did not answer (nothing changed).
        """
        step = self.engine.plan(player, action, by)
        status = "finished" if step.finished else None
        await self.hub.writer.append(self.data.id, step.entry, status)
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


class Hub:
    """All live tables of one app, loaded from the store on demand.

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
        data = await self.store.call(self.store.load, code)
        table = self.tables.get(code)  # loaded by another request meanwhile
        if table is not None or data is None:
            return table
        table = LiveTable(self, data)
        self.tables[code] = table
        table.resume()
        return table

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
        """Resume every table that was playing when the server stopped."""
        for code in await self.store.call(self.store.codes_with_status, "playing"):
            try:
                await self.get(code)
            except LamaError:
                log.exception("table %s cannot be resumed", code)

    def shutdown(self) -> None:
        """Cancel all tasks of all tables."""
        for table in self.tables.values():
            table.close()
        self.writer.close()

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
