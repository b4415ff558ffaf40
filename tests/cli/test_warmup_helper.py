"""``lama play``'s warm-up on a cold cache (issue 19): a helper process compiles into Numba's
disk cache while this process compiles its own share, then this process loads the helper's
kernels instead of compiling them; a failing helper falls back to compiling here, and the
helper never outlives the game (killed and reaped, or ended by its closed stdin)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any, ClassVar

import numba  # a dev dependency: missing, the tests fail instead of skipping
import pytest

from lamagames.bots import base
from lamagames.bots.base import Bot
from lamagames.cli.warmup import HELPER_CODE, BackgroundWarmUp
from lamagames.core.game import State
from lamagames.core.registry import make


class FreshKernelBot(Bot):
    """Stands for a compiled bot: each decision calls :attr:`kernel`, a Numba function not
    compiled yet in this process (a cache miss at its first call)."""

    kind = "fresh-kernel"
    requires: ClassVar[tuple[str, ...]] = ("numba",)
    kernel: ClassVar[Any] = None

    def step(self, state: State) -> int:
        assert FreshKernelBot.kernel(3) == 9
        return state.legal_actions(self.seat)[0]


@pytest.fixture
def fresh(monkeypatch: pytest.MonkeyPatch) -> Iterator[type[FreshKernelBot]]:
    def _triple(x: int) -> int:
        return 3 * x

    monkeypatch.setitem(base._REGISTERED, ("dice", FreshKernelBot.kind), FreshKernelBot)
    monkeypatch.setattr(FreshKernelBot, "kernel", numba.njit(cache=False)(_triple))
    yield FreshKernelBot


def _helper(monkeypatch: pytest.MonkeyPatch, code: str) -> None:
    monkeypatch.setattr(BackgroundWarmUp, "helper_command", (sys.executable, "-c", code))


def _gone(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    return False


def test_a_failing_helper_falls_back_to_compiling_here(
    fresh: type[FreshKernelBot], monkeypatch: pytest.MonkeyPatch
) -> None:
    """numba missing in the helper, a crash: whatever it is, this process compiles."""
    _helper(monkeypatch, "raise SystemExit(3)")
    warm_up = BackgroundWarmUp(make("dice", num_players=2), ["human", "fresh-kernel"], 1)
    warm_up.wait(None)
    assert warm_up.helped is False and warm_up.compiling.is_set() and warm_up.ready.is_set()
    assert warm_up.compiles["after"] >= 1  # compiled here after all
    assert fresh.kernel.signatures  # the code is ready for the real game
    assert warm_up.helper is not None and warm_up.helper.returncode == 3  # reaped


def test_a_helper_that_cannot_start_falls_back_too(
    fresh: type[FreshKernelBot], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setattr(BackgroundWarmUp, "helper_command", (str(tmp_path / "no-python"),))
    warm_up = BackgroundWarmUp(make("dice", num_players=2), ["fresh-kernel"], 1)
    warm_up.wait(None)
    assert warm_up.helper is None and warm_up.helped is None
    assert warm_up.compiles["after"] >= 1 and fresh.kernel.signatures


class LeaningBot(Bot):
    """Stands for the ``exact`` bot with two seats: its own code needs no compile, but at
    some positions it decides with a ``fresh-kernel`` bot (its fallback)."""

    kind = "leaning"
    requires: ClassVar[tuple[str, ...]] = ("numba",)

    def step(self, state: State) -> int:
        return state.legal_actions(self.seat)[0]

    def later_code(self) -> tuple[object, ...]:
        return (FreshKernelBot.kind,)


def test_the_warm_up_prepares_the_fallbacks_code_after_the_bots_own_issue_19(
    fresh: type[FreshKernelBot], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """Issue 19: the code of the kinds a bot falls back on (the ``exact`` bot's ``search``
    with two seats) is prepared after the bots' own, by a helper process that compiles all
    of it (``part`` ``all``), then loaded in the warm-up's own thread, never on the thread
    that decides; :attr:`BackgroundWarmUp.later_ready` and ``later_then`` tell when."""
    from lamagames.bots.warmup import on_compile

    monkeypatch.setitem(base._REGISTERED, ("dice", LeaningBot.kind), LeaningBot)
    specs = tmp_path / "specs"
    _helper(monkeypatch, f"import sys; open({str(specs)!r}, 'a').write(sys.argv[1] + '\\n')")
    threads: list[str] = []
    told: list[bool] = []
    with on_compile(lambda: threads.append(threading.current_thread().name)):
        warm_up = BackgroundWarmUp(make("dice", num_players=2), ["human", "leaning"], 1)
        warm_up.later_then.append(lambda: told.append(True))
        warm_up.wait(None)
        assert warm_up.later_ready.wait(60)
    assert warm_up.later_kinds == [FreshKernelBot.kind] and told == [True]
    assert fresh.kernel.signatures  # ready for the fallback's decisions
    assert threads and set(threads) == {"lama-warm-up-later"}  # never the deciding thread
    later = [json.loads(line) for line in specs.read_text().splitlines()]
    assert {"kinds": [FreshKernelBot.kind], "part": "all"}.items() <= later[-1].items()
    assert warm_up.later_helper is None  # reaped


class HoldingBot(LeaningBot):
    """A :class:`LeaningBot` whose decision runs until :attr:`go` is set and whose work
    ahead (:meth:`preparing`) runs until :attr:`done_ahead` is set."""

    kind = "holding"
    go: ClassVar[threading.Event]
    done_ahead: ClassVar[threading.Event]

    def warm_code(self, state: State) -> None:
        """Nothing to compile (the warm-up's throwaway decision does not wait)."""

    def step(self, state: State) -> int:
        assert HoldingBot.go.wait(60)
        return super().step(state)

    def preparing(self) -> bool:
        return not HoldingBot.done_ahead.is_set()


def _later_specs(specs: Path) -> list[dict[str, Any]]:
    if not specs.exists():
        return []
    lines = [json.loads(line) for line in specs.read_text().splitlines()]
    return [spec for spec in lines if spec["kinds"] == [FreshKernelBot.kind]]


def test_the_fallbacks_code_waits_for_the_decision_under_way_issue_19(
    fresh: type[FreshKernelBot], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """Issue 19: started as soon as the bots' own code was ready, the preparation of the
    fallback's code (a helper process's start, the interpreted code's build) took a core
    and the GIL from the first ``exact`` decision's solve (about 1 s instead of 0.3 s on a
    cold install). It now starts only once no bot decides (:class:`AfterWarmUp`) and no
    bot works ahead (``preparing``)."""
    from lamagames.bots.warmup import AfterWarmUp, decision_for

    monkeypatch.setitem(base._REGISTERED, ("dice", HoldingBot.kind), HoldingBot)
    monkeypatch.setattr(HoldingBot, "go", threading.Event(), raising=False)
    monkeypatch.setattr(HoldingBot, "done_ahead", threading.Event(), raising=False)
    specs = tmp_path / "specs"
    _helper(monkeypatch, f"import sys; open({str(specs)!r}, 'a').write(sys.argv[1] + '\\n')")
    game = make("dice", num_players=2)
    warm_up = BackgroundWarmUp(game, ["human", "holding"], 1)
    bot = AfterWarmUp(HoldingBot(game, 1, 1), warm_up)
    state = decision_for(game, 1, 1)
    assert state is not None
    chosen: list[int] = []
    decision = threading.Thread(target=lambda: chosen.append(bot.step(state)))
    decision.start()
    assert warm_up.ready.wait(60)
    time.sleep(0.5)
    assert not warm_up.later_ready.is_set() and _later_specs(specs) == []  # held back
    HoldingBot.go.set()
    decision.join(60)
    assert chosen == [state.legal_actions(1)[0]]
    time.sleep(0.5)
    assert not warm_up.later_ready.is_set() and _later_specs(specs) == []  # work ahead
    HoldingBot.done_ahead.set()
    assert warm_up.later_ready.wait(60)
    assert len(_later_specs(specs)) == 1 and fresh.kernel.signatures
    warm_up.close()


class DeferringBot(Bot):
    """Stands for the ``exact`` bot with two seats: each decision calls a kernel
    (:attr:`FreshKernelBot.kernel`) through :func:`~lamagames.core.jit.choose` that it
    leaves to be compiled after its first decision (:meth:`later_code`)."""

    kind = "deferring"
    requires: ClassVar[tuple[str, ...]] = ("numba",)

    def step(self, state: State) -> int:
        from lamagames.core.jit import choose

        assert choose(FreshKernelBot.kernel)(3) == 9
        return state.legal_actions(self.seat)[0]

    def later_code(self) -> tuple[object, ...]:
        return (FreshKernelBot.kernel,)


def test_a_deferred_kernel_is_compiled_in_the_later_phase_only_issue_19(
    fresh: type[FreshKernelBot], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 19: a kernel a bot defers (the ``exact`` bot's roll value) is not compiled
    before the bots' code is ready (the first decision runs it interpreted) but after, in
    the warm-up's later thread; :attr:`BackgroundWarmUp.deferred_ready` then tells the bot
    to run it compiled."""
    from lamagames.bots.warmup import AfterWarmUp, decision_for, on_compile

    monkeypatch.setitem(base._REGISTERED, ("dice", DeferringBot.kind), DeferringBot)
    threads: list[str] = []
    game = make("dice", num_players=2)
    with on_compile(lambda: threads.append(threading.current_thread().name)):
        warm_up = BackgroundWarmUp(game, ["human", "deferring"], 1)
        bot = AfterWarmUp(DeferringBot(game, 1, 1), warm_up)
        assert warm_up.later_ready.wait(60)
    assert warm_up.ready.is_set() and warm_up.deferred_ready.is_set()
    assert threads and set(threads) == {"lama-warm-up-later"}  # not before the code is ready
    assert bot.bot.later_ready is not None and bot.bot.later_ready(FreshKernelBot.kernel)
    state = decision_for(game, 1, 1)
    assert state is not None and bot.step(state) == state.legal_actions(1)[0]
    warm_up.close()


def test_closing_kills_and_reaps_the_helper_and_compiles_nothing_more(
    fresh: type[FreshKernelBot], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The game ends (``q``, Ctrl-C, its end) while the helper still compiles: no process
    and no zombie is left, and this process does not start compiling instead."""
    _helper(monkeypatch, "import time; time.sleep(120)")
    warm_up = BackgroundWarmUp(make("dice", num_players=2), ["fresh-kernel"], 1)
    assert warm_up.compiling_now()  # a cache miss: the helper compiles
    helper = warm_up.helper
    assert helper is not None and helper.poll() is None
    warm_up.close()
    assert helper.returncode is not None and _gone(helper.pid)  # killed and reaped
    warm_up.wait(None)
    assert warm_up.compiles["after"] == 0 and not fresh.kernel.signatures
    warm_up.close()  # again: nothing happens


def test_a_warm_cache_stops_the_helper_at_once(
    fresh: type[FreshKernelBot], monkeypatch: pytest.MonkeyPatch
) -> None:
    _helper(monkeypatch, "import time; time.sleep(120)")
    assert fresh.kernel(1) == 3  # compiled already: the warm-up only finds it
    warm_up = BackgroundWarmUp(make("dice", num_players=2), ["fresh-kernel"], 1)
    assert not warm_up.compiling_now()
    warm_up.wait(None)
    assert warm_up.helped is None and warm_up.compiles == {"here": 0, "after": 0}
    helper = warm_up.helper
    assert helper is not None and helper.returncode is not None and _gone(helper.pid)


def test_the_helper_ends_when_its_stdin_closes(tmp_path: Path) -> None:
    """Its parent died without closing it (killed): the helper does not compile on alone."""
    spec = {"game": "dice", "params": make("dice", num_players=2).params,
            "kinds": ["search"], "seed": 1}  # fmt: skip
    helper = subprocess.Popen(
        [sys.executable, "-c", HELPER_CODE, json.dumps(spec)],
        stdin=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env={**os.environ, "NUMBA_CACHE_DIR": str(tmp_path)},  # cold: about 10 CPU s
    )
    assert helper.stdin is not None
    helper.stdin.close()
    try:
        assert helper.wait(timeout=30) == 0
    finally:
        helper.kill()
        helper.wait()
    assert helper.stderr is not None and helper.stderr.read() == b""
    assert not any(tmp_path.rglob("batch_heuristic.rollouts*.nbi"))  # ended before


_COLD_EXACT = """
import json, sys
from lamagames import make, prestart
from lamagames.cli.warmup import BackgroundWarmUp
from lamagames.dice.solver import kernel2p
if sys.argv[1:] == ["prestart"]:  # as ``lama play dice --seats human,exact`` does
    prestart.start(["play", "dice", "--seats", "human,exact"])
early = prestart._started
warm_up = BackgroundWarmUp(make("dice", num_players=2), ["human", "exact"], 3)
warm_up.wait(None)
found = {"helped": warm_up.helped, "compiles": warm_up.compiles,
         "prestarted": early is not None and warm_up.helper is early,
         "loaded": len(kernel2p.sweep_pair.signatures),
         "hits": len(kernel2p.sweep_pair.stats.cache_hits),
         "roll_missed": len(kernel2p.roll_value.stats.cache_misses),
         "ls_missed": len(kernel2p.solve_last_standing.stats.cache_misses)}
assert warm_up.deferred_ready.wait(600)
found["roll_later"] = len(kernel2p.roll_value.signatures)
warm_up.close()
print(json.dumps(found))
"""


@pytest.mark.slow
@pytest.mark.parametrize("how", ["prestart", "late"])
def test_the_parent_loads_the_helpers_kernels_from_the_cache(tmp_path: Path, how: str) -> None:
    """``exact`` with two seats on an empty NUMBA_CACHE_DIR: the helper (started early by
    ``lama``'s entry point, or by the warm-up) compiles the sweep, this process the
    last-standing solve (``here``); afterwards this process compiles nothing (Numba's
    ``numba:compile`` events: ``after`` 0) and has the helper's kernels, loaded from the
    cache (a cache hit). The roll value is compiled after the code is ready (issue 19: it
    was the game's share too, which then ended after the helper's on a loaded machine)."""
    done = subprocess.run(
        [sys.executable, "-c", _COLD_EXACT, how],
        env={**os.environ, "NUMBA_CACHE_DIR": str(tmp_path)},
        capture_output=True, text=True, timeout=600, check=True,
    )  # fmt: skip
    found = json.loads(done.stdout)
    assert found["helped"] is True
    assert found["prestarted"] is (how == "prestart")
    assert found["compiles"]["here"] > 0 and found["compiles"]["after"] == 0
    assert found["loaded"] == 1 and found["hits"] == 1  # the helper's, loaded
    assert found["roll_missed"] == 0  # not before the code is ready: deferred
    assert found["roll_later"] == 1  # compiled in the later phase
    assert found["ls_missed"] == 1  # this process's share, compiled here
    assert any(tmp_path.rglob("kernel2p.sweep_pair*.nbi"))


def test_parameters_a_helper_cannot_be_given_mean_no_helper() -> None:
    """A game whose parameters are not JSON (an object) compiles without a helper instead
    of failing in the warm-up thread (the helper gets them as one JSON argument)."""
    import threading
    from types import SimpleNamespace

    warm_up = BackgroundWarmUp.__new__(BackgroundWarmUp)  # its parts, no thread started
    warm_up.kinds = ["search"]
    warm_up.helper = None
    warm_up._closed = False
    warm_up._lock = threading.Lock()
    odd = SimpleNamespace(game_id="dice", params={"num_players": 2, "board": object()})
    warm_up._start_helper(odd, 1)  # type: ignore[arg-type]
    assert warm_up.helper is None


@pytest.mark.parametrize(
    ("argument", "code", "error"),
    [
        (json.dumps({"game": "dice", "params": {}, "kinds": [], "seed": 1}), 0, b""),
        ("{not json", 1, b"JSONDecodeError"),
    ],
)
def test_the_helper_ends_with_its_own_exit_code(argument: str, code: int, error: bytes) -> None:
    """The helper ends with ``os._exit`` once done (no interpreter shutdown for the parent
    to wait for, issue 19); an error still ends it with code 1 and its traceback."""
    helper = subprocess.Popen(
        [sys.executable, "-c", HELPER_CODE, argument],
        stdin=subprocess.PIPE,  # kept open: its end would end the helper (exit code 0)
        stderr=subprocess.PIPE,
    )
    try:
        assert helper.wait(timeout=120) == code
    finally:
        helper.kill()
        helper.wait()
        assert helper.stdin is not None
        helper.stdin.close()
    assert helper.stderr is not None
    stderr = helper.stderr.read()
    helper.stderr.close()
    assert error in stderr if error else stderr == b""


_COLD_FALLBACK = """
import json, sys, threading, time
from tests.dice.helpers import make_state
from lamagames.bots.dice_exact import DiceExactBot
from lamagames.bots.warmup import AfterWarmUp, BackgroundWarmUp, on_compile
from lamagames.dice import batch_heuristic

# a two-player turn at scores 14/0 (round 2 after a person quit at once): its table is over
# DiceExactBot.MAX_WORK, so the bot decides with its search fallback
state = make_state(["123456", "12345L"], scores=[14, 0], player=1)
warm_up = BackgroundWarmUp(state.game, ["human", "exact"], 1)
bot = AfterWarmUp(DiceExactBot(state.game, 1, 1), warm_up, None)
main = []
with on_compile(lambda: main.append(1), threading.current_thread()):
    bot.step(state)  # waits for the solver's kernels, then the fallback
    later = getattr(warm_up, "later_ready", None) or warm_up.ready  # (absent before the fix)
    first = {"basis": bot.bot.last_basis, "later_ready": later.is_set(),
             "main_compiles": len(main), "later_kinds": getattr(warm_up, "later_kinds", [])}
    later.wait(600)
    bot.step(state)  # compiled now, loaded from the helper's cache
print(json.dumps({**first, "main_compiles_after": len(main),
                  "loaded": bool(batch_heuristic.rollouts.signatures),
                  "hits": len(batch_heuristic.rollouts.stats.cache_hits)}))
"""


@pytest.mark.slow
def test_the_exact_bots_fallback_compiles_in_a_helper_not_on_the_deciding_thread(
    tmp_path: Path,
) -> None:
    """Issue 19: a cold install, ``--seats human,exact``, the person quitting round 1 at once:
    round 2's first bot move (a table over ``MAX_WORK``: the ``search`` fallback) compiled the
    rollouts kernel (15-18 CPU s) on the main thread, holding the GIL (a frozen spinner,
    19-26 s of waiting). The warm-up now plans the fallback's kernel after the solver's (a
    helper process compiles it), the fallback decides interpreted meanwhile, and the
    deciding thread compiles nothing, before or after (Numba's ``numba:compile`` events)."""
    root = Path(__file__).resolve().parents[2]
    done = subprocess.run(
        [sys.executable, "-c", _COLD_FALLBACK],
        env={**os.environ, "NUMBA_CACHE_DIR": str(tmp_path)}, cwd=root,
        capture_output=True, text=True, timeout=900, check=True,
    )  # fmt: skip
    found = json.loads(done.stdout)
    assert found["basis"] == "search"
    assert found["main_compiles"] == 0 and found["main_compiles_after"] == 0
    assert found["later_kinds"] == ["search"]
    assert found["later_ready"] is False  # decided interpreted while the helper compiled
    assert found["loaded"] and found["hits"] == 1  # the helper's kernel, from the cache
    assert any(tmp_path.rglob("batch_heuristic.rollouts*.nbi"))
