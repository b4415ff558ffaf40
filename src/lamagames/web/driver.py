"""The async side of a live table: the bot driver and the clocks.

The driver applies chance outcomes and bot decisions until a human must act, pausing
``bot_delay`` seconds before each bot decision so people can follow. Chance outcomes are
drawn from ``make_rng(seed, "chance", index)`` (``index`` = the action's position), so a
table rebuilt after a restart continues with the very outcomes it would have drawn.

The clocks are the optional turn clock (a bot plays for a human who is out of time) and the
alertness timer (E-9: when it runs out, the humans still in the free-action window pass).
Which clock a decision needs is the synchronous engine's answer
(:meth:`lamagames.web.engine.TableEngine.clock_plan`); this module runs the timers.

A bot whose kind runs compiled code (its class ``requires`` numba: the LAMA Dice ``search``
and ``exact`` bots) decides in a worker thread, not on the event loop: its decision may take
a second (the ``exact`` bot waits there for the rest of a solve started ahead), and while
the server's warm-up still prepares its code (:mod:`lamagames.web.warmup`, issue 19) such a
bot, made then, is an :class:`~lamagames.bots.warmup.AfterWarmUp`: it decides interpreted
where it can, else waits for the warm-up, without stalling the other tables. The table's
lock stays held meanwhile, so nothing else changes the table.

When the database does not answer (:class:`~lamagames.web.store.StoreUnavailable`, after
the store's own retries) nothing was applied: the driver waits (``Settings.db_pause``,
doubling up to ten times that) and tries the same decision again; an expired clock tries
its action again after the same pause. A table thus recovers by itself once the database is
back, without a server restart.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
from dataclasses import dataclass
from typing import TYPE_CHECKING

import anyio.to_thread

from lamagames.bots import Bot, make_bot
from lamagames.bots.warmup import AfterWarmUp
from lamagames.core.errors import LamaError
from lamagames.core.rng import derive_seed, make_rng
from lamagames.web.engine import BOT_UNAVAILABLE, ClockKind, ClockPlan
from lamagames.web.schemas import ErrorMsg
from lamagames.web.store import StoreUnavailable
from lamagames.web.warmup import running_warm_up

if TYPE_CHECKING:
    from lamagames.core.game import State
    from lamagames.web.connections import Connection
    from lamagames.web.live import LiveTable

log = logging.getLogger("lamagames.web")


class BotFailure(Exception):
    """The bot of a seat cannot be made on this server (a missing package, a kind that
    refuses the table): the driver stops and tells everyone at the table instead of
    trying again and again.

    Attributes:
        seat: the seat (0-based); ``kind``: the bot kind; ``message``: why.
    """

    def __init__(self, seat: int, kind: str, message: str) -> None:
        super().__init__(f"seat {seat + 1}: {message}")
        self.seat = seat
        self.kind = kind
        self.message = message


@dataclass(slots=True)
class Clock:
    """A running turn clock or alertness timer (see :class:`ClockPlan` for ``key``).

    Attributes:
        deadline: event-loop time (seconds) at which it runs out.
    """

    kind: ClockKind
    seats: list[int]
    deadline: float
    task: asyncio.Task[None]
    key: tuple[object, ...]


class TableDriver:
    """Runs one table's bots, chance outcomes and clocks on the event loop.

    Args:
        table: the live table (its lock, engine, seats and ``apply``).
    """

    def __init__(self, table: LiveTable) -> None:
        self.table = table
        self.clock: Clock | None = None
        self._bots: dict[tuple[int, str], Bot] = {}
        #: the (seat, kind) of the bots that decide in a worker thread (compiled code)
        self._threaded: set[tuple[int, str]] = set()
        self._task: asyncio.Task[None] | None = None
        #: The bot that could not be made when the driver last stopped, else ``None``:
        #: told to every connection once, and to each new connection (:meth:`tell`).
        self.failure: BotFailure | None = None

    # ------------------------------------------------------------------ bots
    def bot(self, seat: int, kind: str | None = None) -> Bot:
        """The bot that plays ``seat`` (its own kind, or the stand-in for an away human);
        seeded from the table seed, created once per seat and kind; made while the
        server's warm-up of its kind runs, it waits for that warm-up
        (:class:`~lamagames.bots.warmup.AfterWarmUp`, see the module docstring).

        Raises:
            BotFailure: the bot cannot be made here (for example the LAMA Dice ``search``
                bot without numba); the message says why.
        """
        table = self.table
        if kind is None:
            kind = self._kind(seat)
        key = (seat, kind)
        bot = self._bots.get(key)
        if bot is None:
            seed = derive_seed(table.data.seed, "bot", kind)
            try:
                bot = make_bot(kind, table.game, seat, seed)
            except (LamaError, ImportError, AttributeError) as exc:
                raise BotFailure(seat, kind, str(exc)) from exc
            if "numba" in type(bot).requires:
                self._threaded.add(key)
                # the warm-up of the code it runs (exact with 3+ seats: search's)
                warm_up = running_warm_up(table.data.game, bot.warm_kind())
                if warm_up is not None:
                    bot = AfterWarmUp(bot, warm_up)
            self._bots[key] = bot
        return bot

    def _kind(self, seat: int) -> str:
        """The kind of the bot that plays ``seat`` now (see :meth:`bot`)."""
        live = self.table.seats[seat]
        if live.kind == "bot":
            return live.bot_kind or "random"
        return self.table.adapter.substitute_bot()

    def failure_message(self) -> ErrorMsg | None:
        """The ``bot_unavailable`` error of :attr:`failure` at the table's version, else
        ``None``."""
        if self.failure is None:
            return None
        return ErrorMsg(
            code=BOT_UNAVAILABLE,
            message=f"{self.failure}; the game cannot go on on this server",
            version=self.table.version,
        )

    def report(self, failure: BotFailure) -> None:
        """Log a bot that cannot be made and tell every connection of the table (an
        ``error`` with code ``bot_unavailable``): the game cannot go on on this server.
        The same failure found again (the driver is kicked by a new connection) is not
        sent to everyone again: :meth:`tell` gives it to each new connection, seated or
        spectating."""
        table = self.table
        if self.failure is not None and str(self.failure) == str(failure):
            return
        log.error("table %s: %s", table.code, failure)
        self.failure = failure
        self._tell(table.connections())
        if table.cluster is not None and table.owned:
            table.publish()  # the other processes tell their clients too

    def tell(self, conn: Connection) -> None:
        """Send a new connection (a player or a spectator) the failure that stopped the
        driver, if any (after its first ``state``)."""
        self._tell([conn])

    def _tell(self, connections: list[Connection]) -> None:
        message = self.failure_message()
        if message is not None:
            for conn in connections:
                conn.send(message)

    async def bot_act(self, seat: int, by: str) -> None:
        """Let the bot for ``seat`` choose and apply one action. Caller holds the lock.

        Raises:
            StoreUnavailable: the database did not answer (nothing was applied).
            BotFailure: the bot cannot be made (nothing was applied).
        """
        table = self.table
        state = table.state
        legal = state.legal_actions(seat)
        if not legal:
            return
        bot = self.bot(seat)
        key = (seat, self._kind(seat))
        if key in self._threaded:  # compiled code: off the event loop (module docstring)
            action = await anyio.to_thread.run_sync(bot.step, state.clone(), abandon_on_cancel=True)
        else:
            action = bot.step(state)
        if action not in legal:  # pragma: no cover - a bot bug must not stall the table
            log.error("table %s: bot for seat %d chose illegal %r", table.code, seat, action)
            action = legal[0]
        await table.apply(seat, action, by)

    def prepare_bots(self, state: State) -> None:
        """Tell every bot-controlled seat's bot the new position (:meth:`Bot.prepare`), so
        a bot can work ahead in the background while people think and during the pause
        before its decision (the ``exact`` LAMA Dice bot solves the round's deal, issue 18).
        A bot that cannot be made is skipped here; its decision reports why."""
        for seat in range(len(self.table.seats)):
            if self.table.bot_controlled(seat):
                try:
                    self.bot(seat).prepare(state)
                except BotFailure:
                    continue

    def kick(self) -> None:
        """Make sure the driver runs (chance, bots, timers)."""
        if self.table.status == "playing" and (self._task is None or self._task.done()):
            self._task = asyncio.create_task(self._drive())

    def pace(self) -> float:
        """Seconds to wait before each bot decision (the table's bot pace)."""
        return self.table.bot_delay()

    async def _drive(self) -> None:
        """Apply chance outcomes and bot decisions until a human must act; wait and try
        again while the database does not answer."""
        pause = self.table.settings.db_pause
        while True:
            try:
                await self._drive_once()
                return
            except StoreUnavailable:
                log.warning("table %s: database not answering; trying again", self.table.code)
                await asyncio.sleep(pause)
                pause = min(pause * 2, 10 * self.table.settings.db_pause)

    async def _drive_once(self) -> None:
        table = self.table
        try:
            while table.status == "playing" and table.owned:
                async with table.lock:
                    state = table.state
                    if state.is_terminal():
                        self.failure = None
                        return
                    if state.is_chance_node():
                        rng = make_rng(table.data.seed, "chance", table.version)
                        await table.apply(None, state.sample_chance_outcome(rng), "chance")
                        continue
                    self.prepare_bots(state)
                    acting = table.adapter.acting_players(state)
                    if not any(table.bot_controlled(p) for p in acting):
                        self.failure = None  # people act now: no bot holds the table up
                        if self.update_clock():
                            table.broadcast()
                        return
                await asyncio.sleep(self.pace())
                async with table.lock:
                    state = table.state
                    if state.is_terminal() or state.is_chance_node():
                        continue
                    for seat in table.adapter.acting_players(state):
                        if table.bot_controlled(seat):
                            by = "bot" if table.seats[seat].kind == "bot" else "stand-in"
                            await self.bot_act(seat, by)
                            self.failure = None  # a bot could be made and acted
                            break
        except StoreUnavailable:
            raise
        except BotFailure as failure:  # nothing applied; trying again would spin
            self.report(failure)
        except Exception:  # pragma: no cover - logged, the table keeps its stored state
            log.exception("table %s: driver failed", table.code)

    # ------------------------------------------------------------------ clocks
    def update_clock(self) -> bool:
        """Start, keep or stop the alertness timer or turn clock for the humans who must act.

        A clock already timing the same decision keeps running (reconnecting does not buy
        time; a pass in a window does not restart the alertness timer, a free action does).
        Caller holds the lock (or runs before anyone can act).

        Returns:
            True if the clock changed (the caller broadcasts).
        """
        table = self.table
        wanted: ClockPlan | None = None
        if table.status == "playing":
            wanted = table.engine.clock_plan(
                table.bot_controlled, table.data.turn_clock, table.data.alertness
            )
        clock = self.clock
        if clock is not None and wanted is not None and clock.key == wanted.key:
            if clock.seats == wanted.seats:
                return False
            clock.seats = wanted.seats
            return True
        if clock is None and wanted is None:
            return False
        if clock is not None:
            if clock.task is not asyncio.current_task():
                clock.task.cancel()
            self.clock = None
        if wanted is not None:
            loop = asyncio.get_running_loop()
            task = asyncio.create_task(self._clock_expired(wanted))
            self.clock = Clock(
                wanted.kind, wanted.seats, loop.time() + wanted.delay, task, wanted.key
            )
        return True

    def remaining(self) -> float:
        """Seconds left on the running clock (0 if none)."""
        if self.clock is None:
            return 0.0
        return max(0.0, self.clock.deadline - asyncio.get_running_loop().time())

    async def _clock_expired(self, plan: ClockPlan) -> None:
        await asyncio.sleep(plan.delay)
        table = self.table
        async with table.lock:
            clock = self.clock
            if clock is None or clock.key != plan.key or table.status != "playing":
                return
            self.clock = None
            try:
                await self._run_out(plan)
            except StoreUnavailable:  # nothing applied: the same clock runs out again soon
                log.warning("table %s: database not answering; clock tries again", table.code)
                pause = table.settings.db_pause
                retry = dataclasses.replace(plan, delay=pause)
                task = asyncio.create_task(self._clock_expired(retry))
                deadline = asyncio.get_running_loop().time() + pause
                self.clock = Clock(plan.kind, plan.seats, deadline, task, plan.key)
                return
            if self.update_clock():
                table.broadcast()
        self.kick()

    async def _run_out(self, plan: ClockPlan) -> None:
        """Apply what an expired clock decides. Caller holds the lock.

        Raises:
            StoreUnavailable: the database did not answer (that action was not applied).
        """
        table = self.table
        if plan.kind == "turn":
            for seat in table.adapter.acting_players(table.state):
                if not table.bot_controlled(seat):
                    try:
                        await self.bot_act(seat, "clock")
                    except BotFailure as failure:
                        self.report(failure)
                    break
        else:
            while table.status == "playing":
                found = table.engine.timed_out_pass(plan.key[1], table.bot_controlled)
                if found is None:
                    break  # only the window the timer was running for
                await table.apply(found[0], found[1], "timer")

    def close(self) -> None:
        """Cancel the driver and the clock (server shutdown)."""
        for task in [self._task, self.clock.task if self.clock else None]:
            if task is not None:
                task.cancel()
