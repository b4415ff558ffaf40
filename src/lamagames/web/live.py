"""Live tables: the in-memory game of each open table, its connections, bots and timers.

Everything runs on the server's event loop. A table's state changes only under its lock and
only through :meth:`LiveTable._apply`, which asks the engine (legality is the engine's
business), stores the action, and only then broadcasts the new state. Chance outcomes are
drawn from ``make_rng(seed, "chance", index)`` (``index`` = the action's position), so a
table rebuilt after a restart continues with the very outcomes it would have drawn.

Which actions are accepted (:meth:`LiveTable.submit`):

* outside free-action windows an action must name the table's current version (anything
  else is ``stale``), so turns are strictly serialised;
* inside a window (E-9; the adapter's ``window_id``) several seats act at once: an action
  chosen at any version since the window opened is applied in arrival order if the engine
  accepts it now, unless the same seat has acted since that version (one choice, one
  action); one that was possible when chosen but no longer is (somebody was quicker) is
  ``stale``; a ``pass`` counts unless a chance the seat did not see has come up since;
* the client's ``ref`` is an idempotency key: a ``ref`` already applied for the seat is
  acknowledged again (``duplicate``) and never applied twice.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Literal

from pydantic import BaseModel
from starlette.websockets import WebSocket

from lamagames.bots import Bot, make_bot
from lamagames.core.errors import LamaError, RecordError
from lamagames.core.game import State
from lamagames.core.records import GameRecord, SeatInfo, record_from_state
from lamagames.core.rng import derive_seed, make_rng
from lamagames.web.adapters import WebAdapter, get_adapter
from lamagames.web.schemas import (
    AckMsg,
    ActionMsg,
    ClockOut,
    ErrorMsg,
    EventOut,
    LegalAction,
    RematchMsg,
    SeatOut,
    StateMsg,
)
from lamagames.web.store import ActionData, Store, TableData

log = logging.getLogger("lamagames.web")


class TableError(Exception):
    """A request about a table was refused.

    Attributes:
        code: machine-readable reason (``stale``, ``not_your_turn``, ``illegal`` ...).
        status: HTTP status to use over HTTP.
    """

    def __init__(self, code: str, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.status = status


@dataclass(slots=True)
class Settings:
    """Server-wide knobs (seconds, bytes).

    Attributes:
        bot_delay: pause before each bot decision, so people can follow; tests use 0.
        max_message_bytes: larger WebSocket messages are refused.
        rate_per_second: sustained client messages per second per connection.
        rate_burst: messages a connection may send at once.
        event_window: how many recent events a state message carries.
        send_queue: messages queued for a slow client before it is dropped.
        hello_timeout: seconds a new connection has to say ``hello``.
        ref_memory: applied ``ref`` keys remembered per seat (duplicate detection).
    """

    bot_delay: float = 0.8
    max_message_bytes: int = 4096
    rate_per_second: float = 8.0
    rate_burst: int = 16
    event_window: int = 60
    send_queue: int = 512
    hello_timeout: float = 15.0
    ref_memory: int = 256


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


ClockKind = Literal["turn", "alertness"]


@dataclass(slots=True)
class Clock:
    """A running turn clock or alertness timer.

    ``key`` says which decision it times: the table version for the turn clock (a new
    decision, a new clock); for the alertness timer the window and the version of its last
    free action (passes do not restart it, a free action does: everybody looks again).
    """

    kind: ClockKind
    seats: list[int]
    deadline: float
    task: asyncio.Task[None]
    key: tuple[object, ...]


@dataclass(slots=True)
class Window:
    """The open free-action window (E-9) as the table follows it.

    Attributes:
        key: the adapter's ``window_id``.
        opened: table version at which it opened (or at which the table was loaded).
        states: the state at each version since ``opened`` (``states[v - opened]``), so an
            action chosen at an earlier version of the window can be judged against what
            its sender saw.
        mark: version of the opening or of the last free action (not a pass) in it.
        acted: per seat, the version at which its last action in this window was applied.
    """

    key: str
    opened: int
    states: list[State]
    mark: int
    acted: dict[int, int] = field(default_factory=dict)


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
        self.state: State = self.game.new_initial_state()
        self.events: list[EventOut] = []
        for entry in data.actions:
            actor = None if entry.player < 0 else entry.player
            before = self.state
            try:
                action = before.string_to_action(entry.notation, actor)
                self.state = before.child(action, actor)
            except LamaError as exc:
                raise RecordError(f"table {data.code}: stored action {entry.idx}: {exc}") from None
            self.events.append(
                EventOut(
                    index=entry.idx,
                    player=entry.player,
                    action=entry.notation,
                    by=entry.by,
                    notes=self.adapter.notes(before, actor, action, self.state),
                )
            )
        self.version = len(data.actions)
        self.window: Window | None = None
        self._track_window(None, None)
        self._refs: dict[int, OrderedDict[str, int]] = {}
        self.status = data.status
        self.seats = [
            LiveSeat(s.seat, s.kind, s.name, s.bot_kind, s.token, s.joined) for s in data.seats
        ]
        self.spectators: set[Connection] = set()
        self.lock = asyncio.Lock()
        self.clock: Clock | None = None
        self._bots: dict[tuple[int, str], Bot] = {}
        self._driver: asyncio.Task[None] | None = None

    # ------------------------------------------------------------------ helpers
    @property
    def settings(self) -> Settings:
        """The hub's settings."""
        return self.hub.settings

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

    def _bot(self, seat: int, kind: str | None = None) -> Bot:
        live = self.seats[seat]
        if kind is None:
            is_bot = live.kind == "bot"
            kind = (live.bot_kind or "random") if is_bot else self.adapter.substitute_bot()
        key = (seat, kind)
        bot = self._bots.get(key)
        if bot is None:
            seed = derive_seed(self.data.seed, "bot", kind)
            bot = self._bots[key] = make_bot(kind, self.game, seat, seed)
        return bot

    def seat_infos(self) -> list[SeatInfo]:
        """Seats for a game record: name and ``human`` or the bot kind."""
        return [
            SeatInfo(
                name=s.name or f"Seat {s.index + 1}",
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
        if self.clock is not None:
            remaining = max(0.0, self.clock.deadline - asyncio.get_running_loop().time())
            clock = ClockOut(kind=self.clock.kind, seats=self.clock.seats, remaining=remaining)
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
        """Add a connection (a seat holder or a spectator) and send it the state."""
        conn.seat = seat
        if seat is None:
            self.spectators.add(conn)
            conn.send(self.state_message(None))
            return
        live = self.seats[seat]
        live.connections.add(conn)
        self._come_back(live)
        self.broadcast()
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
            self.status = "playing"
            self.hub.store.set_status(self.data.id, "playing")
            self.resume()
            self.broadcast()

    def close(self) -> None:
        """Cancel every task of this table (server shutdown)."""
        for task in [self._driver, self.clock.task if self.clock else None]:
            if task is not None:
                task.cancel()
        for live in self.seats:
            if live.away_task is not None:
                live.away_task.cancel()
        for conn in self.connections():
            conn.close()

    # ------------------------------------------------------------------ acting
    async def submit(self, conn: Connection, msg: ActionMsg) -> None:
        """A client's action: checked against seat, version (or window) and the engine.

        Applied in arrival order (the table lock is fair). Every refusal is sent to that
        client only (an :class:`ErrorMsg`); nothing changes. See the module docstring for
        the rules about versions, windows and ``ref``.
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
            refs = self._refs.get(seat)
            applied = refs.get(msg.ref) if refs is not None and msg.ref else None
            if applied is not None:
                conn.send(AckMsg(version=applied, ref=msg.ref, duplicate=True))
                return
            basis = self._basis(msg.version)
            if basis is not None and basis is not self.state and self._acted_since(seat, msg):
                refuse(
                    "stale",
                    f"you have acted since version {msg.version}; choose again from the "
                    f"table's version {self.version} (nothing was applied)",
                )
                return
            if basis is None:
                refuse(
                    "stale",
                    f"that action was chosen at version {msg.version}, but the table is at "
                    f"version {self.version}; it was not applied",
                )
                return
            state = self.state
            try:
                action = state.string_to_action(msg.action, seat)
            except LamaError as exc:
                refuse("invalid", str(exc))
                return
            acting = self.adapter.acting_players(state)
            if seat not in acting or action not in state.legal_actions(seat):
                if basis is not state and action in basis.legal_actions(seat):
                    refuse(
                        "stale",
                        f"{msg.action!r} is no longer possible: somebody was quicker "
                        f"(table version {self.version}); it was not applied",
                    )
                elif seat not in acting:
                    refuse("not_your_turn", "it is not your turn")
                else:
                    refuse("illegal", f"{msg.action!r} is not legal now")
                return
            if (
                basis is not state
                and action == self.adapter.window_pass(state, seat)
                and not set(state.legal_actions(seat)) <= set(basis.legal_actions(seat))
            ):
                refuse(
                    "stale",
                    "a new chance came up for you since you passed; look again "
                    "(nothing was applied)",
                )
                return
            live = self.seats[seat]
            if live.replaced:
                self._come_back(live)
            try:
                self._apply(seat, action, "human", ack=(conn, msg.ref))
            except LamaError as exc:
                refuse("illegal", str(exc))
                return
        self.kick()

    def _basis(self, version: int) -> State | None:
        """The state an action chosen at ``version`` was chosen in, if it may still count:
        the current state, or an earlier state of the window that is still open."""
        if version == self.version:
            return self.state
        window = self.window
        if window is not None and window.opened <= version < self.version:
            return window.states[version - window.opened]
        return None

    def _acted_since(self, seat: int, msg: ActionMsg) -> bool:
        """True if ``seat`` had an action applied in the open window at or after the version
        ``msg`` was chosen at: one choice, one action (a repeated message never counts
        twice, with or without ``ref``)."""
        window = self.window
        return window is not None and window.acted.get(seat, -1) >= msg.version

    def _track_window(self, player: int | None, passed: bool | None) -> None:
        """Follow the open window after the state changed: ``player`` acted (``None``:
        chance), ``passed`` tells whether that was its window pass (``None``: the table
        was just loaded)."""
        key = self.adapter.window_id(self.state)
        window = self.window
        if key is None:
            self.window = None
            return
        if window is None or window.key != key or passed is None:
            window = self.window = Window(key, self.version, [self.state], self.version)
        else:
            window.states.append(self.state)
            if not passed:
                window.mark = self.version
        if player is not None and passed is not None:
            window.acted[player] = self.version - 1

    def _remember_ref(self, seat: int, ref: str) -> None:
        refs = self._refs.setdefault(seat, OrderedDict())
        refs[ref] = self.version
        while len(refs) > self.settings.ref_memory:
            refs.popitem(last=False)

    def _apply(
        self,
        player: int | None,
        action: int,
        by: str,
        ack: tuple[Connection, str | None] | None = None,
    ) -> None:
        """Apply, store, acknowledge (to ``ack``'s connection, echoing its ref), broadcast.

        Caller holds the lock.

        Raises:
            LamaError: the engine refused the action (nothing changed).
        """
        notation = self.state.action_to_string(action, player)
        passed = player is not None and action == self.adapter.window_pass(self.state, player)
        new_state = self.state.child(action, player)
        finished = new_state.is_terminal()
        entry = ActionData(
            idx=self.version, player=-1 if player is None else player, notation=notation, by=by
        )
        self.hub.store.append_action(self.data.id, entry, status="finished" if finished else None)
        notes = self.adapter.notes(self.state, player, action, new_state)
        self.state = new_state
        self.version += 1
        self.events.append(
            EventOut(index=entry.idx, player=entry.player, action=notation, by=by, notes=notes)
        )
        self._track_window(player, passed)
        if finished:
            self.status = "finished"
            for live in self.seats:
                if live.away_task is not None:
                    live.away_task.cancel()
                    live.away_task = None
        self.hub.on_applied()
        self._update_clock()
        if ack is not None:
            if ack[1] and player is not None:
                self._remember_ref(player, ack[1])
            ack[0].send(AckMsg(version=self.version, ref=ack[1]))
        self.broadcast()

    def kick(self) -> None:
        """Make sure the driver runs (chance, bots, timers)."""
        if self.status == "playing" and (self._driver is None or self._driver.done()):
            self._driver = asyncio.create_task(self._drive())

    async def _drive(self) -> None:
        """Apply chance outcomes and bot decisions until a human must act."""
        try:
            while self.status == "playing":
                async with self.lock:
                    state = self.state
                    if state.is_terminal():
                        return
                    if state.is_chance_node():
                        rng = make_rng(self.data.seed, "chance", self.version)
                        self._apply(None, state.sample_chance_outcome(rng), "chance")
                        continue
                    bots = [p for p in self.adapter.acting_players(state) if self.bot_controlled(p)]
                    if not bots:
                        if self._update_clock():
                            self.broadcast()
                        return
                await asyncio.sleep(self.settings.bot_delay)
                async with self.lock:
                    state = self.state
                    if state.is_terminal() or state.is_chance_node():
                        continue
                    for seat in self.adapter.acting_players(state):
                        if self.bot_controlled(seat):
                            by = "bot" if self.seats[seat].kind == "bot" else "stand-in"
                            self._bot_act(seat, by)
                            break
        except Exception:  # pragma: no cover - logged, the table keeps its stored state
            log.exception("table %s: driver failed", self.code)

    def _bot_act(self, seat: int, by: str) -> None:
        state = self.state
        legal = state.legal_actions(seat)
        if not legal:
            return
        action = self._bot(seat).step(state)
        if action not in legal:  # pragma: no cover - a bot bug must not stall the table
            log.error("table %s: bot for seat %d chose illegal %r", self.code, seat, action)
            action = legal[0]
        self._apply(seat, action, by)

    # ------------------------------------------------------------------ timers
    def _update_clock(self) -> bool:
        """Start, keep or stop the alertness timer or turn clock for the humans who must act.

        A clock already timing the same decision keeps running (reconnecting does not buy
        time; a pass in a window does not restart the alertness timer, a free action does).
        Caller holds the lock (or runs before anyone can act).

        Returns:
            True if the clock changed (the caller broadcasts).
        """
        wanted: tuple[ClockKind, list[int], float, tuple[object, ...]] | None = None
        if self.status == "playing" and not self.state.is_terminal():
            acting = self.adapter.acting_players(self.state)
            humans = [p for p in acting if not self.bot_controlled(p)]
            window = [p for p in humans if self.adapter.window_pass(self.state, p) is not None]
            if window and self.data.alertness and self.window is not None:
                key: tuple[object, ...] = ("alertness", self.window.key, self.window.mark)
                wanted = ("alertness", window, self.data.alertness, key)
            elif humans and self.data.turn_clock:
                wanted = ("turn", humans, self.data.turn_clock, ("turn", self.version))
        clock = self.clock
        if clock is not None and wanted is not None and clock.key == wanted[3]:
            if clock.seats == wanted[1]:
                return False
            clock.seats = wanted[1]
            return True
        if clock is None and wanted is None:
            return False
        if clock is not None:
            if clock.task is not asyncio.current_task():
                clock.task.cancel()
            self.clock = None
        if wanted is not None:
            kind, seats, delay, key = wanted
            loop = asyncio.get_running_loop()
            task = asyncio.create_task(self._clock_expired(kind, key, delay))
            self.clock = Clock(kind, seats, loop.time() + delay, task, key)
        return True

    async def _clock_expired(self, kind: ClockKind, key: tuple[object, ...], delay: float) -> None:
        await asyncio.sleep(delay)
        async with self.lock:
            clock = self.clock
            if clock is None or clock.key != key or self.status != "playing":
                return
            self.clock = None
            acting = self.adapter.acting_players(self.state)
            if kind == "turn":
                for seat in acting:
                    if not self.bot_controlled(seat):
                        self._bot_act(seat, "clock")
                        break
            else:
                progressed = True
                while progressed and self.status == "playing":
                    progressed = False
                    if self.window is None or self.window.key != key[1]:
                        break  # only the window the timer was running for
                    for seat in self.adapter.acting_players(self.state):
                        pass_action = self.adapter.window_pass(self.state, seat)
                        if pass_action is not None and not self.bot_controlled(seat):
                            self._apply(seat, pass_action, "timer")
                            progressed = True
                            break
            if self._update_clock():
                self.broadcast()
        self.kick()


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
        self._on_applied = on_applied
        self._rematch_lock = asyncio.Lock()

    def on_applied(self) -> None:
        """Hook after each applied action."""
        if self._on_applied is not None:
            self._on_applied()

    def get(self, code: str) -> LiveTable | None:
        """The live table of ``code`` (loaded and resumed on first use), or ``None``."""
        code = code.upper()
        table = self.tables.get(code)
        if table is not None:
            return table
        data = self.store.load(code)
        if data is None:
            return None
        table = LiveTable(self, data)
        self.tables[code] = table
        table.resume()
        return table

    def require(self, code: str) -> LiveTable:
        """Like :meth:`get`.

        Raises:
            TableError: no such table (404).
        """
        table = self.get(code)
        if table is None:
            raise TableError("not_found", f"no table with code {code!r}", 404)
        return table

    def startup(self) -> None:
        """Resume every table that was playing when the server stopped."""
        for code in self.store.codes_with_status("playing"):
            try:
                self.get(code)
            except LamaError:
                log.exception("table %s cannot be resumed", code)

    def shutdown(self) -> None:
        """Cancel all tasks of all tables."""
        for table in self.tables.values():
            table.close()

    async def rematch(self, table: LiveTable, token: str) -> tuple[LiveTable, str, int | None]:
        """Create (once) and start the rematch of a finished table.

        Seated clients are sent their new seat tokens.

        Returns:
            The new table, the caller's token there and the caller's seat there.

        Raises:
            TableError: not finished, or the token is neither the host's nor a seat's.
        """
        seat = table.seat_for_token(token)
        host = table.is_host(token)
        if seat is None and not host:
            raise TableError("forbidden", "only the host or a seated player can ask", 403)
        if table.status != "finished":
            raise TableError("not_finished", "a rematch needs a finished game", 409)
        async with self._rematch_lock:
            if table.data.rematch is not None:
                new = self.require(table.data.rematch)
            else:
                data = table.data
                created = self.store.create_table(
                    game=data.game,
                    params=data.params,
                    seed=secrets.randbits(63),
                    seats=[(s.kind, s.name, s.bot_kind) for s in table.seats],
                    public=data.public,
                    turn_clock=data.turn_clock,
                    away_timeout=data.away_timeout,
                    alertness=data.alertness,
                    rematch_of=data.code,
                )
                for old in table.seats:
                    if old.kind == "human" and old.joined:
                        self.store.join_seat(created.id, old.index, None)
                self.store.set_rematch(data.id, created.code)
                data.rematch = created.code
                new = self.require(created.code)
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
