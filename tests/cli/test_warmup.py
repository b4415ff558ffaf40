"""Compiled code on first use (issue 19): a one-line notice with a spinner while Numba
compiles, and the bots' code prepared in the background while people play."""

from __future__ import annotations

import contextlib
import io
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, ClassVar

import numba
import pytest
from rich.console import Console
from rich.text import Text

from lamagames.bots import base
from lamagames.bots.base import Bot
from lamagames.cli.session import Terminal, run_table
from lamagames.cli.views import get_view
from lamagames.cli.warmup import (
    PREPARING,
    AfterWarmUp,
    BackgroundWarmUp,
    compile_notice,
    compiled_kinds,
    decision_for,
    warm_bots,
)
from lamagames.core.game import State
from lamagames.core.records import SeatInfo
from lamagames.core.registry import make


def _terminal() -> tuple[Console, io.StringIO]:
    out = io.StringIO()
    return Console(file=out, force_terminal=True, width=80, height=24), out


def test_the_notice_shows_while_numba_compiles_on_a_terminal() -> None:
    def double(x: int) -> int:
        return 2 * x

    twice = numba.njit(cache=False)(double)
    console, out = _terminal()
    with compile_notice(console):
        assert twice(4) == 8  # compiled here
    assert PREPARING in out.getvalue()


def test_no_notice_without_a_compile() -> None:
    def triple(x: int) -> int:
        return 3 * x

    thrice = numba.njit(cache=False)(triple)
    assert thrice(2) == 6  # compiled before the block
    console, out = _terminal()
    with compile_notice(console):
        assert thrice(3) == 9  # already compiled
    plain = io.StringIO()
    with compile_notice(Console(file=plain, force_terminal=False)):
        assert thrice(4) == 12
    assert out.getvalue() == "" and plain.getvalue() == ""


def _throwaway_kernel() -> Callable[[int], int]:
    """A new Numba function: its first call compiles (a cache miss), as on a cold cache."""

    def add_one(x: int) -> int:
        return x + 1

    kernel: Callable[[int], int] = numba.njit(cache=False)(add_one)
    return kernel


def test_off_a_terminal_a_first_compile_is_one_plain_line_issue_19() -> None:
    """Issue 19: piped (``lama simulate dice | cat``, ``2>log``) a first compile sat silent
    for 15 s or more; now it is told once, in one plain line (no spinner, no control
    characters, not wrapped), at the first compile of the block."""
    first, second = _throwaway_kernel(), _throwaway_kernel()
    plain = io.StringIO()
    with compile_notice(Console(file=plain, force_terminal=False, width=20)):
        assert plain.getvalue() == ""  # nothing before a compile
        assert first(1) == 2 and second(1) == 2  # two compiles: one line
    assert plain.getvalue() == PREPARING + "\n"


class SlowFirstBot(Bot):
    """Stands for a compiled bot: its first decision in a process takes 1.5 s ("compiling");
    records whether each decision found the code ready."""

    kind = "slow-first"
    requires: ClassVar[tuple[str, ...]] = ("numba",)
    ready = False
    lock = threading.Lock()
    found_ready: ClassVar[list[bool]] = []

    def step(self, state: State) -> int:
        with SlowFirstBot.lock:
            if threading.current_thread() is threading.main_thread():
                SlowFirstBot.found_ready.append(SlowFirstBot.ready)
            if not SlowFirstBot.ready:
                time.sleep(1.5)
                SlowFirstBot.ready = True
        return state.legal_actions(self.seat)[0]


@pytest.fixture
def slow_first(monkeypatch: pytest.MonkeyPatch) -> type[SlowFirstBot]:
    monkeypatch.setitem(base._REGISTERED, ("dice", SlowFirstBot.kind), SlowFirstBot)
    monkeypatch.setattr(SlowFirstBot, "ready", False)
    monkeypatch.setattr(SlowFirstBot, "found_ready", [])
    return SlowFirstBot


def test_compiled_kinds_are_those_that_need_numba(slow_first: type[SlowFirstBot]) -> None:
    kinds = ["human", "benchmark", "slow-first", "random", "slow-first", "nonsense"]
    assert compiled_kinds("dice", kinds) == ["slow-first"]
    assert compiled_kinds("dice", ["search", "exact", "heuristic"]) == ["search", "exact"]


def test_decision_for_reaches_the_seat_without_touching_the_game() -> None:
    game = make("dice", num_players=3)
    state = decision_for(game, 2, 7)
    assert state is not None and state.current_player() == 2
    assert decision_for(game, 2, 7) == state  # from the seed alone


def test_a_first_bot_move_waits_for_the_background_warm_up_with_the_notice(
    slow_first: type[SlowFirstBot],
) -> None:
    """The person answers at once; the bot's first move waits for the warm-up started with
    the game (the notice shows meanwhile) and finds its code ready."""
    answers = iter(["1"] * 3)

    def read_line(prompt: Text) -> str:
        try:
            return next(answers)
        except StopIteration:
            raise EOFError from None

    console, out = _terminal()
    seats = [SeatInfo(name="Ann", kind="human"), SeatInfo(name="Bot", kind="slow-first")]
    outcome = run_table(
        get_view("dice"),
        make("dice", num_players=2),
        seats,
        seed=3,
        terminal=Terminal(console, read_line),
    )
    assert outcome.stopped == "Ann left the game."
    assert slow_first.found_ready and all(slow_first.found_ready)
    assert PREPARING in out.getvalue()


def test_warm_bots_and_background_warm_up(slow_first: type[SlowFirstBot]) -> None:
    game = make("dice", num_players=2)
    warm_up = BackgroundWarmUp(game, ["human", "slow-first"], 1)
    assert warm_up.kinds == ["slow-first"] and warm_up.running
    bot = AfterWarmUp(base.make_bot("slow-first", game, 1, 1), warm_up, None)
    state = decision_for(game, 1, 2)
    assert state is not None
    assert bot.step(state) in state.legal_actions(1)
    assert not warm_up.running and slow_first.found_ready == [True]
    nothing = BackgroundWarmUp(game, ["human", "benchmark"], 1)
    assert nothing.kinds == [] and not nothing.running
    nothing.wait(None)
    warm_bots(game, ["benchmark", "no-such-kind"], 1)  # nothing compiled, nothing raised


class _Told(Bot):
    """Records the positions passed on to it and the thread that passed them."""

    kind = "told"

    def __init__(self, *args: object) -> None:
        super().__init__(*args)  # type: ignore[arg-type]
        self.told: list[tuple[State, str]] = []

    def step(self, state: State) -> int:
        return state.legal_actions(self.seat)[0]

    def prepare(self, state: State) -> None:
        self.told.append((state, threading.current_thread().name))


def test_a_position_told_during_the_warm_up_is_passed_on_once_the_code_is_ready(
    slow_first: type[SlowFirstBot],
) -> None:
    """An ``exact`` bot can start its real solve the moment the kernels are compiled,
    while the person still thinks, not only at its own first move."""
    game = make("dice", num_players=2)
    warm_up = BackgroundWarmUp(game, ["human", "slow-first"], 1)  # 1.5 s of "compiling"
    inner = _Told(game, 1, 1)
    wrapped = AfterWarmUp(inner, warm_up, None)
    first = decision_for(game, 0, 1)
    second = decision_for(game, 0, 2)
    assert first is not None and second is not None
    wrapped.prepare(first)
    wrapped.prepare(second)
    assert inner.told == []  # still compiling: kept, not passed on
    warm_up.wait(None)
    assert inner.told == [(second, "lama-warm-up")]  # the last one, by the warm-up thread
    wrapped.prepare(first)
    assert inner.told[1:] == [(first, threading.current_thread().name)]  # straight on now


def test_the_exact_bot_warms_up_on_a_tiny_solve_with_two_seats(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Two seats: the solver's kernels run on a tiny table, not a throwaway decision (whose
    fresh-deal solve costs about a second); more seats: a decision (the search fallback)."""
    from lamagames.bots.dice_exact import DiceExactBot

    two = make("dice", num_players=2)
    bot = DiceExactBot(two, 1, 1)
    state = decision_for(two, 1, 1)
    assert state is not None

    def no_step(self: Bot, state: State) -> int:
        raise AssertionError("warm_code decided")

    with monkeypatch.context() as patch:
        patch.setattr(DiceExactBot, "step", no_step)
        bot.warm_code(state)
    assert bot._two.tables == []  # its own round's solver untouched
    assert not bot.interpretable
    three = make("dice", num_players=3)
    stepped: list[int] = []
    many = DiceExactBot(three, 1, 1)
    assert many.interpretable  # its decisions are mostly the search fallback's

    def step(self: Bot, state: State) -> int:
        stepped.append(state.current_player())
        return 0

    monkeypatch.setattr(DiceExactBot, "step", step)
    at = decision_for(three, 1, 1)
    assert at is not None
    many.warm_code(at)
    assert stepped == [1]


class _CompilingForever:
    """Stands for a :class:`BackgroundWarmUp` that is still compiling and never ends: a
    decision that waits for it fails the test."""

    def __init__(self) -> None:
        self.then: list[object] = []
        self.ready = threading.Event()
        self.later_ready = threading.Event()
        self.deferred_ready = threading.Event()
        self.running = True

    def later_code_ready(self, item: object) -> bool:
        return (self.later_ready if isinstance(item, str) else self.deferred_ready).is_set()

    def compiling_now(self) -> bool:
        return True

    def wait(self, console: Console | None = None, timeout: float | None = None) -> bool:
        raise AssertionError("the decision waited for the warm-up")

    def deciding(self) -> contextlib.AbstractContextManager[None]:
        return contextlib.nullcontext()

    def busy_while(self, working: object) -> None:
        """Nothing held back here."""


def test_a_last_player_standing_decides_interpreted_during_the_warm_up_d8_5() -> None:
    """Issue 19: a person who quits at once against ``exact`` with two seats makes the bot
    the last player standing (D-8.5); its table of its own rows runs interpreted in a few
    milliseconds, so it does not wait for the two-player kernels' compile (3.8 s on a cold
    install before). Its two-player decisions still wait (they cannot run interpreted)."""
    from tests.dice.helpers import make_state

    from lamagames.bots.dice_exact import DiceExactBot
    from lamagames.dice.hints import hints

    alone = make_state(["335L", "6"], llama_row="12", quit=[False, True], scores=[3, 0])
    warm_up: Any = _CompilingForever()
    bot = AfterWarmUp(DiceExactBot(alone.game, 0), warm_up, None)
    assert bot.interpretable_at(alone) and not bot.interpretable
    assert bot.step(alone) == next(h.action for h in hints(alone, 0) if h.best)
    both_in = make_state(["335L", "6"], llama_row="12", scores=[3, 0])
    assert not bot.interpretable_at(both_in)
    with pytest.raises(AssertionError, match="waited for the warm-up"):
        bot.step(both_in)


def test_warm_interpreted_bots_builds_the_interpreted_rollouts_issue_19() -> None:
    """On a cold cache the warm-up builds the interpreted rollouts (a few tenths of a
    second of reading and rewriting source) while the people make their first moves, so a
    ``search`` bot's first interpreted decision does not pay for it."""
    from lamagames.cli.warmup import warm_interpreted_bots
    from lamagames.core import jit
    from lamagames.dice.batch_heuristic import rollouts

    for players, kind in ((6, "search"), (3, "exact")):
        jit._runners.pop(rollouts, None)
        game = make("dice", num_players=players)
        warm_interpreted_bots(game, ["human", kind, "no-such-kind"], 1)
        assert jit._runners[rollouts].__name__ == "run_on_views"
    jit._runners.pop(rollouts, None)
    warm_interpreted_bots(make("dice", num_players=2), ["exact"], 1)  # solves: not interpreted
    assert rollouts not in jit._runners


def _recording_warm_up(
    order: list[str], made: list[BackgroundWarmUp]
) -> type[BackgroundWarmUp]:
    """A :class:`BackgroundWarmUp` that appends ``"warm-up"`` to ``order`` when made and
    itself to ``made`` once started."""

    class Recorded(BackgroundWarmUp):
        def __init__(self, *args: object, **kwargs: object) -> None:
            order.append("warm-up")
            super().__init__(*args, **kwargs)  # type: ignore[arg-type]
            made.append(self)

    return Recorded


def _order_recorded(
    monkeypatch: pytest.MonkeyPatch, fail: bool
) -> tuple[list[str], list[BackgroundWarmUp]]:
    from lamagames.cli import session

    order: list[str] = []
    made: list[BackgroundWarmUp] = []
    recorded = _recording_warm_up(order, made)

    def recorded_make_bot(kind: str, game: object, seat: int, seed: int = 0) -> Bot:
        order.append("bot")
        if fail:
            raise RuntimeError("this bot cannot be made")
        return base.make_bot(kind, game, seat, seed)  # type: ignore[arg-type]

    monkeypatch.setattr(session, "BackgroundWarmUp", recorded)
    monkeypatch.setattr(session, "make_bot", recorded_make_bot)
    return order, made


def test_the_warm_up_starts_before_the_bots_are_made_issue_19(
    slow_first: type[SlowFirstBot], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Making a compiled bot imports its code (about half a second for ``exact``): the
    background compile starts first, so the first bot move waits that much less."""
    order, _made = _order_recorded(monkeypatch, fail=False)
    seats = [SeatInfo(name="Bot", kind="slow-first"), SeatInfo(name="Ben", kind="slow-first")]
    console, _ = _terminal()
    outcome = run_table(
        get_view("dice"),
        make("dice", num_players=2),
        seats,
        seed=3,
        terminal=Terminal(console, lambda prompt: "1"),
    )
    assert outcome.result is not None
    assert order == ["warm-up", "bot", "bot"]


def test_a_bot_that_cannot_be_made_stops_the_warm_up_issue_19(
    slow_first: type[SlowFirstBot], monkeypatch: pytest.MonkeyPatch
) -> None:
    order, made = _order_recorded(monkeypatch, fail=True)
    seats = [SeatInfo(name="Ann", kind="human"), SeatInfo(name="Bot", kind="slow-first")]
    console, _ = _terminal()
    with pytest.raises(RuntimeError, match="cannot be made"):
        run_table(
            get_view("dice"),
            make("dice", num_players=2),
            seats,
            seed=3,
            terminal=Terminal(console, lambda prompt: "1"),
        )
    assert order == ["warm-up", "bot"]
    assert len(made) == 1 and made[0]._closed
    helper = made[0].helper  # killed and reaped, if one was started
    assert helper is None or helper.returncode is not None


def _play_recorded(
    monkeypatch: pytest.MonkeyPatch, refuse: bool
) -> tuple[list[str], list[BackgroundWarmUp]]:
    """``lama play``'s warm-up and bot check, recorded in order; ``refuse``: the check
    refuses a seat's bot (as for a kind that cannot play this game)."""
    import typer

    from lamagames.cli import play, session
    from lamagames.cli.options import check_bots

    order: list[str] = []
    made: list[BackgroundWarmUp] = []
    recorded = _recording_warm_up(order, made)

    class NotAgain(BackgroundWarmUp):
        def __init__(self, *args: object, **kwargs: object) -> None:
            raise AssertionError("the table started a second warm-up")

    def recorded_check(game: object, kinds: list[str], seed: int) -> None:
        order.append("check")
        if refuse:
            raise typer.BadParameter("seat 2 (slow-first): refused", param_hint="--seats")
        check_bots(game, kinds, seed)  # type: ignore[arg-type]

    monkeypatch.setattr(play, "BackgroundWarmUp", recorded)
    monkeypatch.setattr(session, "BackgroundWarmUp", NotAgain)
    monkeypatch.setattr(play, "check_bots", recorded_check)
    return order, made


def test_lama_play_starts_the_warm_up_before_it_checks_the_bots_issue_19(
    slow_first: type[SlowFirstBot], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """Checking the seats' bots imports their code (about a third of a second for
    ``exact``): the background compile and its helper process start first, and the table
    plays with that warm-up (it starts no second one) and closes it at the end."""
    from typer.testing import CliRunner

    from lamagames.cli.main import app

    order, made = _play_recorded(monkeypatch, refuse=False)
    record = tmp_path / "game.lamarec.json"
    args = ["play", "dice", "--seats", "human,slow-first", "--seed", "3", "--delay", "0"]
    result = CliRunner().invoke(app, [*args, "--record", str(record)], input="1\n" * 400)
    assert result.exit_code == 0, result.output
    assert order == ["warm-up", "check"]
    assert len(made) == 1 and made[0]._closed and record.exists()


def test_lama_play_closes_its_warm_up_when_a_bot_is_refused_issue_19(
    slow_first: type[SlowFirstBot], monkeypatch: pytest.MonkeyPatch
) -> None:
    from typer.testing import CliRunner

    from lamagames.cli.main import app

    order, made = _play_recorded(monkeypatch, refuse=True)
    result = CliRunner().invoke(app, ["play", "dice", "--seats", "human,slow-first"])
    assert result.exit_code == 2 and "refused" in result.output
    assert order == ["warm-up", "check"]
    assert len(made) == 1 and made[0]._closed
    helper = made[0].helper  # killed and reaped, if one was started
    assert helper is None or helper.returncode is not None


def test_lama_play_starts_no_warm_up_for_a_batch_of_bot_games_issue_19(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from typer.testing import CliRunner

    from lamagames.cli.main import app

    order, made = _play_recorded(monkeypatch, refuse=False)
    result = CliRunner().invoke(
        app, ["play", "dice", "--seats", "heuristic,benchmark", "--games", "3", "--quiet"]
    )
    assert result.exit_code == 0, result.output
    assert order == ["check"] and made == []


def _compiling_first(module: Any, name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """``module.name`` compiles throwaway Numba functions before it runs, as on a cold
    cache (the real kernels are likely in the disk cache already)."""
    original = getattr(module, name)

    def compiling(*args: Any, **kwargs: Any) -> Any:
        assert _throwaway_kernel()(1) == 2 and _throwaway_kernel()(2) == 3
        return original(*args, **kwargs)

    monkeypatch.setattr(module, name, compiling)


@pytest.mark.parametrize("command", ["simulate", "ladder", "play"])
def test_piped_commands_tell_a_first_compile_on_stderr_only_issue_19(
    command: str, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """Every command with :func:`compile_notice`, its output piped: one plain line on
    standard error at the first compile, nothing on standard output (the tables there, the
    JSON and CSV files stay clean)."""
    from typer.testing import CliRunner

    from lamagames.cli import ladder, play
    from lamagames.cli.main import app
    from lamagames.sim import simulate

    json_file = tmp_path / "out.json"
    if command == "simulate":
        _compiling_first(simulate, "play_chunk", monkeypatch)
        args = ["simulate", "dice", "--games", "4", "--seats", "random,benchmark"]
        args += ["--workers", "1", "--out", str(tmp_path / "out.csv")]
    elif command == "ladder":
        _compiling_first(ladder, "warm_bots", monkeypatch)
        args = ["ladder", "dice", "--games", "1", "--kinds", "random,benchmark"]
        args += ["--param", "end_score=20", "--json", str(json_file)]
    else:
        _compiling_first(play, "warm_bots", monkeypatch)
        args = ["play", "dice", "--seats", "random,benchmark", "--games", "3"]
        args += ["--summary-json", str(json_file)]
    result = CliRunner().invoke(app, [*args, "--seed", "1"])
    assert result.exit_code == 0, result.output
    assert result.stderr.splitlines().count(PREPARING) == 1, result.stderr
    assert result.stderr.count(PREPARING) == 1
    assert not any(c in result.stderr for c in "\x1b\r\b"), repr(result.stderr)
    assert PREPARING not in result.stdout
    for written in (tmp_path / "out.csv", json_file):
        if written.exists():
            assert PREPARING not in written.read_text(encoding="utf-8")


class _Slow(Bot):
    """Decides its first legal action after ``seconds``."""

    interpretable = True

    def __init__(self, game: Any, seat: int, seconds: float) -> None:
        super().__init__(game, seat)
        self.seconds = seconds

    def step(self, state: State) -> int:
        time.sleep(self.seconds)
        return state.legal_actions(self.seat)[0]


def test_a_slow_interpreted_decision_during_the_warm_up_shows_the_notice_issue_19() -> None:
    """Issue 19: with six ``search`` seats on a cold install the first bot moves were made
    interpreted for 2-5 s without a word. Past :data:`NOTICE_AFTER` seconds the terminal now
    shows :data:`PREPARING` (and clears it); a quick decision shows nothing (no flicker)."""
    from lamagames.bots.warmup import NOTICE_AFTER
    from lamagames.cli.warmup import preparing_notice

    game = make("dice", num_players=2)
    state = decision_for(game, 1, 3)
    assert state is not None
    warm_up: Any = _CompilingForever()
    for seconds, shown in ((NOTICE_AFTER + 0.4, True), (0.0, False)):
        console, out = _terminal()
        bot = AfterWarmUp(_Slow(game, 1, seconds), warm_up, preparing_notice(console))
        assert bot.step(state) == state.legal_actions(1)[0]
        assert (PREPARING in out.getvalue()) is shown, out.getvalue()
    console, out = _terminal()
    bot = AfterWarmUp(_Slow(game, 1, NOTICE_AFTER + 0.4), warm_up, None)
    bot.step(state)  # no console: nothing to show, nothing fails
    assert out.getvalue() == ""


class _SlowInterpreted(Bot):
    """An interpretable compiled bot whose every decision takes a little longer than
    :data:`~lamagames.bots.warmup.NOTICE_AFTER` (interpreted, while the code compiles)."""

    kind = "slow-interpreted"
    requires: ClassVar[tuple[str, ...]] = ("numba",)
    interpretable = True
    decisions: ClassVar[list[int]] = []

    def step(self, state: State) -> int:
        from lamagames.bots.warmup import NOTICE_AFTER

        time.sleep(NOTICE_AFTER + 0.05)
        _SlowInterpreted.decisions.append(self.seat)
        return state.legal_actions(self.seat)[0]


class _PreparingTable(_CompilingForever):
    """A table's :class:`BackgroundWarmUp` that compiles for the whole game: every bot
    decision is made interpreted."""

    def __init__(self) -> None:
        super().__init__()
        self.kinds = [_SlowInterpreted.kind]
        self.later_then: list[object] = []

    def close(self) -> None:
        """Nothing to stop."""


def test_the_notice_starts_once_per_run_of_bot_decisions_not_per_decision_issue_19(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Issue 19: six ``search`` seats on a cold install flashed the notice on and off 63
    times in about 13 s, once per interpreted decision. Now it starts at most once per run
    of bot decisions (between the person's turns), stays on through the run, and is off
    at each of the person's turns and after the game."""
    from lamagames.cli import session

    monkeypatch.setitem(base._REGISTERED, ("dice", _SlowInterpreted.kind), _SlowInterpreted)
    monkeypatch.setattr(_SlowInterpreted, "decisions", [])
    entered: list[float] = []
    left: list[float] = []

    @contextlib.contextmanager
    def counted() -> Iterator[None]:
        entered.append(time.perf_counter())
        try:
            yield
        finally:
            left.append(time.perf_counter())

    monkeypatch.setattr(session, "preparing_notice", lambda console: counted)
    on_at_turns: list[int] = []
    answers = iter(["1"] * 6)

    def read_line(prompt: Text) -> str:
        on_at_turns.append(len(entered) - len(left))
        _SlowInterpreted.decisions.append(-1)  # the person's turn
        try:
            return next(answers)
        except StopIteration:
            raise EOFError from None

    console, _ = _terminal()
    seats = [SeatInfo(name="Ann", kind="human")]
    seats += [SeatInfo(name=f"Bot {i}", kind=_SlowInterpreted.kind) for i in (2, 3)]
    warm_up: Any = _PreparingTable()
    outcome = run_table(
        get_view("dice"),
        make("dice", num_players=3),
        seats,
        seed=3,
        terminal=Terminal(console, read_line),
        warm_up=warm_up,
    )
    assert outcome.stopped == "Ann left the game."
    events = _SlowInterpreted.decisions  # the bots' seats, -1 for the person's turns
    decisions = sum(seat >= 0 for seat in events)
    runs = sum(seat >= 0 and (at == 0 or events[at - 1] < 0) for at, seat in enumerate(events))
    assert decisions >= 2 * runs >= 4  # several slow decisions in each run of bot moves
    assert 1 <= len(entered) <= runs  # at most once per run (it was once per decision)
    assert on_at_turns == [0] * len(on_at_turns)  # off whenever the person is asked
    assert len(left) == len(entered)  # and off after the game


class _SolverReady(_CompilingForever):
    """A :class:`BackgroundWarmUp` whose bots' own code is ready while the code of the
    kinds they fall back on still compiles (:attr:`BackgroundWarmUp.later_ready` unset)."""

    def __init__(self) -> None:
        super().__init__()
        self.ready.set()
        self.running = False

    def compiling_now(self) -> bool:
        return False

    def wait(self, console: Console | None = None, timeout: float | None = None) -> bool:
        """Ready: nothing to wait for."""
        return True


def test_the_exact_bots_fallback_decides_interpreted_until_its_code_is_ready_issue_19(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Issue 19: with two seats a table over ``MAX_WORK`` (round 2, scores 14/0) is decided
    by the ``search`` fallback, whose rollouts kernel compiled on the main thread for
    15-18 CPU s. The ``exact`` bot now names that fallback (``later_code``) and, wrapped
    by :class:`AfterWarmUp`, runs its kernels interpreted until the warm-up has them."""
    from tests.dice.helpers import make_state

    from lamagames.bots.dice_exact import DiceExactBot
    from lamagames.core import jit
    from lamagames.dice import batch_rollout

    assert "search" in DiceExactBot(make("dice", num_players=2), 0).later_code()
    assert DiceExactBot(make("dice", num_players=3), 0).later_code() == ()
    compiled: list[bool] = []

    def recorded(kernel: Any) -> Any:
        chosen = jit.choose(kernel)
        compiled.append(chosen is kernel)
        return chosen

    monkeypatch.setattr(batch_rollout, "choose", recorded)
    state = make_state(["123456", "12345L"], scores=[14, 0], player=1)
    warm_up: Any = _SolverReady()
    inner = DiceExactBot(state.game, 1, 1)
    bot = AfterWarmUp(inner, warm_up, None)
    assert bot.step(state) in state.legal_actions(1)
    assert inner.last_basis == "search"
    assert compiled and not any(compiled)  # every rollouts call interpreted
    warm_up.later_ready.set()
    assert inner.later_ready is not None and inner.later_ready("search")
