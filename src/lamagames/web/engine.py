"""The synchronous table engine: one table's game, versions, refs, windows and log.

No asyncio, no sockets, no storage: :class:`TableEngine` judges a seat's action message
against the table's version (or the open free-action window, E-9), applies actions through
the game engine (legality is the engine's business) and keeps the move log. The live layer
(:mod:`lamagames.web.live`) adds connections, the lock and storage around it; the async
bot driver and clocks (:mod:`lamagames.web.driver`) ask it which clock a decision needs.

Which actions are accepted (:meth:`TableEngine.judge`):

* outside free-action windows an action must name the table's current version (anything
  else is ``stale``), so turns are strictly serialised;
* inside a window (E-9; the adapter's ``window_id``) several seats act at once: an action
  chosen at any version since the window opened is applied in arrival order if the engine
  accepts it now, unless the same seat has acted since that version (one choice, one
  action); one that was possible when chosen but no longer is (somebody was quicker) is
  ``stale``; a ``pass`` counts unless a chance the seat did not see has come up since;
* the client's ``ref`` is an idempotency key: a ``ref`` already applied for the seat is
  acknowledged again (``duplicate``) and never applied twice (:meth:`TableEngine.applied_ref`).

Applying is two steps so the caller can store an action before the table changes:
:meth:`TableEngine.plan` asks the game engine for the next state (raises, changes nothing),
:meth:`TableEngine.commit` makes it the table's state. :meth:`TableEngine.apply` does both.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Literal, overload

from lamagames.bots import BotUnavailableError, make_bot
from lamagames.core.errors import LamaError, RecordError
from lamagames.core.game import Game, State
from lamagames.web.adapters import WebAdapter
from lamagames.web.schemas import EventOut, echo
from lamagames.web.store import ActionData

#: Error code of a bot kind this server cannot run (a package is missing): refused when a
#: table is created, and sent to everyone at a table whose bot cannot be made.
BOT_UNAVAILABLE = "bot_unavailable"


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


def check_bot_seat(adapter: WebAdapter, game: Game, index: int, kind: str) -> None:
    """Refuse a bot seat this server cannot play: the one check of ``POST /api/tables``
    and of a rematch (whose bots were chosen on a server that may have had more packages).

    Args:
        adapter: the game's web adapter.
        game: the table's game (parameters and seat count).
        index: the seat (0-based), named as ``seats.<index>`` in the message.
        kind: the bot kind.

    Raises:
        TableError: 400 ``bot_unavailable`` for a kind of the game this server cannot run
            (the message names the package and the extra that installs it, and the kinds it
            can run: ``"...; use benchmark, heuristic, random"``); 400 ``invalid`` for an
            unknown kind or a bot that refuses the table.
    """
    kinds = adapter.bot_kinds()
    usable = ", ".join(kinds)
    if kind not in kinds:
        why = adapter.bot_unavailable(kind)
        if why is not None:  # a kind of the game that this server cannot run
            raise TableError(
                BOT_UNAVAILABLE,
                f"seats.{index}: the {echo(kind)} bot is not available on this server "
                f"({why}); use {usable}",
            )
        raise TableError("invalid", f"seats.{index}: unknown bot kind {echo(kind)}; use {usable}")
    try:  # a bot that cannot be made now would stall the table later
        make_bot(kind, game, index, 0)
    except BotUnavailableError as exc:
        raise TableError(BOT_UNAVAILABLE, f"seats.{index}: {exc}") from None
    except LamaError as exc:
        raise TableError("invalid", f"seats.{index}: {exc}") from None


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


ClockKind = Literal["turn", "alertness"]


@dataclass(frozen=True, slots=True)
class ClockPlan:
    """The timer a decision needs.

    Attributes:
        kind: ``turn`` (a bot plays for the late seat) or ``alertness`` (E-9: the seats
            still in the window pass).
        seats: the seats it times.
        delay: seconds from now.
        key: which decision it times: the table version for the turn clock; for the
            alertness timer the window and the version of its last free action (passes do
            not restart it, a free action does: everybody looks again).
    """

    kind: ClockKind
    seats: list[int]
    delay: float
    key: tuple[object, ...]


@dataclass(frozen=True, slots=True)
class Step:
    """One planned action: the stored entry, its log event and the state after it.

    Attributes:
        entry: what the store keeps (``idx`` = version before the action).
        event: the move-log entry.
        after: the state after the action.
        passed: the action was the actor's window pass.
        finished: the game ends with it.
    """

    entry: ActionData
    event: EventOut
    after: State
    passed: bool
    finished: bool


class MoveLog(Sequence[EventOut]):
    """A table's move log, kept as JSON text: a sequence of :class:`EventOut` whose entries
    are stored as their JSON and ``(index, player, action, by)`` tuples of numbers and
    strings.

    A live server keeps every table's whole log in memory. As pydantic models (with their
    ``events`` lists and dicts) a busy server's logs were most of the objects the garbage
    collector scans: 36,000 entries at 200 busy tables after 20 s, about 180,000 objects,
    and each full collection stopped the event loop for 60 to 270 ms, longer as the logs
    grew (issue 16). Tuples of numbers and strings are not tracked by the collector, so a
    log costs it nothing; the text is also what a state message sends (:meth:`json_tail`).

    Reading an entry (``log[i]``, a slice, iterating) parses it back into a new
    :class:`EventOut` (the same data: entries are JSON data); hot paths use
    :meth:`json_tail` and :meth:`actions` instead.
    """

    __slots__ = ("_rows", "_texts")

    def __init__(self) -> None:
        self._rows: list[tuple[int, int, str, str]] = []
        self._texts: list[str] = []

    def append(self, event: EventOut) -> None:
        """Log one entry (serialised here, once)."""
        self._rows.append((event.index, event.player, event.action, event.by))
        self._texts.append(event.model_dump_json())

    def __len__(self) -> int:
        return len(self._rows)

    @overload
    def __getitem__(self, at: int) -> EventOut: ...

    @overload
    def __getitem__(self, at: slice) -> list[EventOut]: ...

    def __getitem__(self, at: int | slice) -> EventOut | list[EventOut]:
        """The entry at ``at`` (a new model), or a list of them for a slice.

        Raises:
            IndexError: no such entry.
        """
        if isinstance(at, slice):
            return [EventOut.model_validate_json(text) for text in self._texts[at]]
        return EventOut.model_validate_json(self._texts[at])

    def json_tail(self, count: int) -> str:
        """The JSON of the last ``count`` entries (all when there are fewer), joined with
        commas: the inside of a JSON array, ``""`` for none."""
        if count <= 0:
            return ""
        return ",".join(self._texts[-count:])

    def actions(self, start: int) -> list[list[int | str]]:
        """``[index, player, action, by]`` of every entry from position ``start`` on."""
        return [list(row) for row in self._rows[start:]]


class TableEngine:
    """One table's game as a sequence of versions (version = number of applied actions).

    Args:
        adapter: the game's web adapter (views, labels, windows, log events).
        game: the table's game.
        actions: stored actions to replay (``idx`` 0, 1, ...).
        ref_memory: applied ``ref`` keys remembered per seat (duplicate detection).
        name: the table's code, for error messages.

    Raises:
        RecordError: a stored action does not replay (the table is corrupt).
    """

    def __init__(
        self,
        adapter: WebAdapter,
        game: Game,
        actions: Iterable[ActionData] = (),
        *,
        ref_memory: int = 256,
        name: str = "table",
    ) -> None:
        self.adapter = adapter
        self.game = game
        self.state: State = game.new_initial_state()
        self.version = 0
        #: The move log (:class:`MoveLog`: a sequence of :class:`EventOut`).
        self.events = MoveLog()
        self.window: Window | None = None
        self.ref_memory = ref_memory
        self._refs: dict[int, OrderedDict[str, int]] = {}
        for entry in actions:
            actor = None if entry.player < 0 else entry.player
            try:
                action = self.state.string_to_action(entry.notation, actor)
                step = self.plan(actor, action, entry.by)
            except LamaError as exc:
                raise RecordError(f"{name}: stored action {entry.idx}: {exc}") from None
            self.state = step.after
            self.version += 1
            self.events.append(step.event)
        self._track_window(None, None)

    # ------------------------------------------------------------------ reading
    def acting(self) -> list[int]:
        """Seats that may act now (none once the game is over)."""
        return [] if self.state.is_terminal() else self.adapter.acting_players(self.state)

    def window_pass(self, seat: int) -> int | None:
        """The seat's pass action in the open window, else ``None``."""
        return self.adapter.window_pass(self.state, seat)

    def applied_ref(self, seat: int, ref: str | None) -> int | None:
        """The version after which ``seat``'s action with ``ref`` was applied, if it was."""
        refs = self._refs.get(seat)
        return refs.get(ref) if refs is not None and ref else None

    # ------------------------------------------------------------------ judging
    def judge(self, seat: int, version: int, notation: str) -> int:
        """The action ``seat`` chose at ``version`` (its notation), if it counts now.

        Nothing changes here; apply the answer with :meth:`apply` (or plan/commit).

        Raises:
            TableError: ``stale`` (chosen at a version that no longer counts, or made
                impossible by a quicker seat), ``invalid`` (unreadable notation),
                ``not_your_turn`` or ``illegal``.
        """
        basis = self._basis(version)
        if basis is not None and basis is not self.state and self._acted_since(seat, version):
            raise TableError(
                "stale",
                f"you have acted since version {version}; choose again from the "
                f"table's version {self.version} (nothing was applied)",
            )
        if basis is None:
            raise TableError(
                "stale",
                f"that action was chosen at version {version}, but the table is at "
                f"version {self.version}; it was not applied",
            )
        state = self.state
        try:
            action = state.string_to_action(notation, seat)
        except LamaError as exc:
            raise TableError("invalid", str(exc)) from None
        acting = self.adapter.acting_players(state)
        if seat not in acting or action not in state.legal_actions(seat):
            if basis is not state and action in basis.legal_actions(seat):
                raise TableError(
                    "stale",
                    f"{notation!r} is no longer possible: somebody was quicker "
                    f"(table version {self.version}); it was not applied",
                )
            if seat not in acting:
                raise TableError("not_your_turn", "it is not your turn")
            raise TableError("illegal", f"{notation!r} is not legal now")
        if (
            basis is not state
            and action == self.adapter.window_pass(state, seat)
            and not set(state.legal_actions(seat)) <= set(basis.legal_actions(seat))
        ):
            raise TableError(
                "stale",
                "a new chance came up for you since you passed; look again (nothing was applied)",
            )
        return action

    def _basis(self, version: int) -> State | None:
        """The state an action chosen at ``version`` was chosen in, if it may still count:
        the current state, or an earlier state of the window that is still open."""
        if version == self.version:
            return self.state
        window = self.window
        if window is not None and window.opened <= version < self.version:
            return window.states[version - window.opened]
        return None

    def _acted_since(self, seat: int, version: int) -> bool:
        """True if ``seat`` had an action applied in the open window at or after
        ``version``: one choice, one action (a repeated message never counts twice, with
        or without ``ref``)."""
        window = self.window
        return window is not None and window.acted.get(seat, -1) >= version

    # ------------------------------------------------------------------ applying
    def plan(self, player: int | None, action: int, by: str) -> Step:
        """What applying ``action`` for ``player`` (``None``: chance) would lead to.

        Raises:
            LamaError: the game engine refused the action (nothing changed).
        """
        state = self.state
        notation = state.action_to_string(action, player)
        passed = player is not None and action == self.adapter.window_pass(state, player)
        after = state.child(action, player)
        entry = ActionData(
            idx=self.version, player=-1 if player is None else player, notation=notation, by=by
        )
        happened = self.adapter.events(state, player, action, after)
        event = EventOut(
            index=entry.idx, player=entry.player, action=notation, by=by, events=happened
        )
        return Step(entry, event, after, passed, after.is_terminal())

    def commit(self, step: Step, ref: str | None = None) -> None:
        """Make a planned step the table's state; remember ``ref`` for its actor.

        Raises:
            TableError: the step was planned at another version (``stale``).
        """
        if step.entry.idx != self.version:
            raise TableError("stale", "the table changed since this step was planned")
        self.state = step.after
        self.version += 1
        self.events.append(step.event)
        player = None if step.entry.player < 0 else step.entry.player
        self._track_window(player, step.passed)
        if ref and player is not None:
            refs = self._refs.setdefault(player, OrderedDict())
            refs[ref] = self.version
            while len(refs) > self.ref_memory:
                refs.popitem(last=False)

    def apply(self, player: int | None, action: int, by: str, ref: str | None = None) -> Step:
        """:meth:`plan` and :meth:`commit` in one (no storage step in between).

        Raises:
            LamaError: the game engine refused the action (nothing changed).
        """
        step = self.plan(player, action, by)
        self.commit(step, ref)
        return step

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

    # ------------------------------------------------------------------ clocks
    def clock_plan(
        self,
        bot_controlled: Callable[[int], bool],
        turn_clock: float | None,
        alertness: float | None,
    ) -> ClockPlan | None:
        """The timer the current decision needs, if any (the table is playing).

        The alertness timer (E-9) when a human may still act in an open window and the
        table has one; else the turn clock for the humans who must act, if the table has
        one. Seats a bot plays (``bot_controlled``) are never timed.
        """
        acting = self.acting()
        humans = [p for p in acting if not bot_controlled(p)]
        window = [p for p in humans if self.adapter.window_pass(self.state, p) is not None]
        if window and alertness and self.window is not None:
            key: tuple[object, ...] = ("alertness", self.window.key, self.window.mark)
            return ClockPlan("alertness", window, alertness, key)
        if humans and turn_clock:
            return ClockPlan("turn", humans, turn_clock, ("turn", self.version))
        return None

    def timed_out_pass(
        self, window_key: object, bot_controlled: Callable[[int], bool]
    ) -> tuple[int, int] | None:
        """The next pass to apply after the alertness timer of window ``window_key`` ran
        out (E-9): the first human seat that may still act in it, as ``(seat, action)``;
        ``None`` once nobody may or that window has closed. Apply it and ask again.
        """
        if self.window is None or self.window.key != window_key:
            return None
        for seat in self.acting():
            pass_action = self.adapter.window_pass(self.state, seat)
            if pass_action is not None and not bot_controlled(seat):
                return seat, pass_action
        return None
