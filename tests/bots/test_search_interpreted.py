"""The ``search`` bot decides interpreted while its kernel compiles (issue 19): the
interpreted rollouts give the compiled results; a decision started interpreted plays the
first :attr:`~lamagames.bots.dice_search.DiceSearchBot.INTERPRETED_ROLLOUTS` of the same
simulations, so it chooses what a compiled bot with that many rollouts chooses, and the
bot's random stream is left as a compiled decision leaves it."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from lamagames import make
from lamagames.bots import make_bot
from lamagames.bots.base import Bot
from lamagames.bots.dice_search import DiceSearchBot
from lamagames.cli.warmup import AfterWarmUp, BackgroundWarmUp
from lamagames.core import jit
from lamagames.core.game import State
from lamagames.core.rng import make_rng
from lamagames.dice import batch_rollout
from lamagames.dice.batch_heuristic import rollouts as rollout_kernel


def _position(players: int, seed: int) -> State:
    """A seat's decision reached by random play (chance and actions from ``seed``)."""
    rng = random.Random(seed)
    state = make("dice", num_players=players).new_initial_state()
    for _ in range(rng.randrange(120)):
        if state.is_terminal():
            break
        player = state.current_player()
        if player < 0:
            state.apply_action(state.sample_chance_outcome(rng))
        else:
            state.apply_action(rng.choice(state.legal_actions(player)), player)
    while not state.is_terminal() and state.current_player() < 0:
        state.apply_action(state.sample_chance_outcome(rng))
    if state.is_terminal():
        return _position(players, seed + 1000)
    return state


@pytest.mark.parametrize("players", [2, 3, 5])
def test_interpreted_rollouts_equal_the_compiled_ones(players: int) -> None:
    """D-1 .. D-11 as simulated: every output array, trace included, is the same."""
    for trial in range(2):
        state = _position(players, 10 * players + trial)
        legal = state.legal_actions(state.current_player())
        seeds = np.arange(12, dtype=np.uint64) + np.uint64(2**61 + trial)
        with jit.interpreting():
            slow = batch_rollout.rollouts(state, legal, seeds, rounds=2, capacity=40)
        fast = batch_rollout.rollouts(state, legal, seeds, rounds=2, capacity=40)
        for name in ("changes", "over", "final_scores", "trace_player", "trace_action"):
            a, b = getattr(slow, name), getattr(fast, name)
            assert a.dtype == b.dtype and np.array_equal(a, b), name
        assert np.array_equal(slow.trace_length, fast.trace_length)


def test_search_bot_decides_the_same_interpreted() -> None:
    """The first decisions of a game, each made interpreted and compiled by bots of the
    same seed (their memos shared across decisions, as in play): interpreted with
    INTERPRETED_ROLLOUTS simulations, the same as a compiled bot given that many; the
    streams stay equal to a full-budget bot's."""
    game = make("dice", num_players=3)
    slow = make_bot("search", game, 0, 5)
    budget: int = slow.interpreted_rollouts()  # type: ignore[attr-defined]
    assert budget == 2 * DiceSearchBot.INTERPRETED_ROLLOUTS // 3
    assert budget < slow.rollouts  # type: ignore[attr-defined]
    fast = DiceSearchBot(game, 0, 5, rollouts=budget)
    full = make_bot("search", game, 0, 5)
    others = [make_bot("heuristic", game, s, 5) for s in range(3)]
    rng = make_rng(5, "chance")
    state = game.new_initial_state()
    decisions = 0
    while not state.is_terminal() and decisions < 4:
        player = state.current_player()
        if player < 0:
            state.apply_action(state.sample_chance_outcome(rng))
            continue
        if player == 0:
            with jit.interpreting():
                action = slow.step(state)
            assert fast.step(state) == action
            full.step(state)
            if len(state.legal_actions(0)) > 1 and slow.last_rollouts:  # type: ignore[attr-defined]
                assert slow.last_rollouts == budget  # type: ignore[attr-defined]
                assert full.last_rollouts == full.rollouts  # type: ignore[attr-defined]
            decisions += 1
        else:
            action = others[player].step(state)
        state.apply_action(action, player)
    assert decisions == 4
    assert slow.rng.getstate() == fast.rng.getstate() == full.rng.getstate()


class _Probe(Bot):
    """Records whether each decision was made interpreted."""

    kind = "probe"
    interpretable = True

    def __init__(self, game: object, seat: int, interpretable: bool) -> None:
        super().__init__(game, seat)  # type: ignore[arg-type]
        self.interpretable = interpretable
        self.seen: list[bool] = []

    def step(self, state: State) -> int:
        self.seen.append(jit.choose(rollout_kernel) is not rollout_kernel)
        return state.legal_actions(self.seat)[0]


def test_after_warm_up_decides_interpreted_while_the_warm_up_runs() -> None:
    game = make("dice", num_players=2)
    warm_up = BackgroundWarmUp(game, [], 1)  # no compiled kinds: nothing runs
    release = threading.Event()
    warm_up._thread = threading.Thread(target=release.wait, daemon=True)
    warm_up._thread.start()
    warm_up.compiling.set()  # Numba compiles in it (a cache miss)
    able = _Probe(game, 0, interpretable=True)
    unable = _Probe(game, 0, interpretable=False)
    state = game.new_initial_state()
    while state.current_player() < 0:
        state.apply_action(state.sample_chance_outcome(random.Random(1)))
    AfterWarmUp(able, warm_up, None).step(state)  # at once, interpreted
    assert able.seen == [True] and warm_up.running
    waiting = threading.Thread(target=AfterWarmUp(unable, warm_up, None).step, args=(state,))
    waiting.start()
    waiting.join(0.3)
    assert waiting.is_alive() and unable.seen == []  # waits for the warm-up
    release.set()
    waiting.join(10)
    assert unable.seen == [False]
    AfterWarmUp(able, warm_up, None).step(state)
    assert able.seen == [True, False]  # compiled once the warm-up is done
    assert make_bot("search", game, 0, 1).interpretable
    assert not make_bot("heuristic", game, 0, 1).interpretable


def test_after_warm_up_waits_while_the_warm_up_only_loads_from_the_cache() -> None:
    """A warm cache: loading takes a second or two, less than an interpreted decision with
    many seats, so the bot waits for it and decides compiled."""
    game = make("dice", num_players=2)
    warm_up = BackgroundWarmUp(game, [], 1)
    release = threading.Event()
    warm_up._thread = threading.Thread(target=release.wait, daemon=True)
    warm_up._thread.start()
    able = _Probe(game, 0, interpretable=True)
    state = game.new_initial_state()
    while state.current_player() < 0:
        state.apply_action(state.sample_chance_outcome(random.Random(1)))
    deciding = threading.Thread(target=AfterWarmUp(able, warm_up, None).step, args=(state,))
    deciding.start()
    deciding.join(0.3)
    assert deciding.is_alive() and able.seen == []  # not compiling (yet): it waits
    release.set()
    deciding.join(10)
    assert able.seen == [False]


def _play(cache: Path, record: Path) -> list[dict[str, object]]:
    """``lama play`` with two search bots and seed 11, the Numba cache in ``cache``;
    the game's (player, action) steps as recorded."""
    env = {**os.environ, "NUMBA_CACHE_DIR": str(cache)}
    done = subprocess.run(
        [sys.executable, "-m", "lamagames.cli", "play", "dice", "--seats", "search,search",
         "--seed", "11", "--delay", "0", "--record", str(record)],
        env=env, capture_output=True, text=True, timeout=900, stdin=subprocess.DEVNULL,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    actions: list[dict[str, object]] = json.loads(record.read_text())["actions"]
    return actions


@pytest.mark.slow
def test_a_cold_game_replays_from_its_record_and_warm_games_from_their_seed(
    tmp_path: Path,
) -> None:
    """Cold: the first decisions are made interpreted, on fewer simulations, while the
    kernel compiles, so they may differ from a warm install's; the record (its actions)
    replays the game exactly all the same. Warm: every decision compiled from the cache,
    the same moves for the same seed."""
    from lamagames.core.records import load_record, replay

    cache = tmp_path / "numba-cache"
    cache.mkdir()
    cold = _play(cache, tmp_path / "cold.lamarec.json")  # over before the compile is
    final = replay(load_record(tmp_path / "cold.lamarec.json"))  # checks the result too
    assert final.is_terminal() and len(cold) > 20
    compile_all = "from lamagames.cli.warmup import warm_bots; from lamagames import make; "
    compile_all += "warm_bots(make('dice', num_players=2), ['search'], 1)"
    env = {**os.environ, "NUMBA_CACHE_DIR": str(cache)}
    subprocess.run([sys.executable, "-c", compile_all], env=env, check=True, timeout=900)
    assert any(cache.rglob("batch_heuristic.rollouts*.nbi"))
    warm = _play(cache, tmp_path / "warm.lamarec.json")  # compiled, after a cache load
    again = _play(cache, tmp_path / "again.lamarec.json")
    assert warm == again and len(warm) > 20


class _After:
    """``until`` for :func:`jit.interpreting`: true from the ``n``-th question on."""

    def __init__(self, n: int) -> None:
        self.n = n
        self.asked = 0

    def __call__(self) -> bool:
        self.asked += 1
        return self.asked >= self.n


@pytest.mark.parametrize("switch", [2, 3, 5])
def test_rollouts_started_interpreted_go_on_compiled_with_the_same_results(switch: int) -> None:
    """Interpreted in parts of INTERPRETED_CHUNK copies, compiled from the part where the
    code is ready (``until``): every output equals the compiled run's (D-1 .. D-11)."""
    state = _position(4, 40 + switch)
    legal = state.legal_actions(state.current_player())
    k = 2 * batch_rollout.INTERPRETED_CHUNK + 5  # three parts, the last one short
    seeds = np.arange(k, dtype=np.uint64) + np.uint64(2**60 + switch)
    until = _After(switch)
    with jit.interpreting(until=until):
        mixed = batch_rollout.rollouts(state, legal, seeds, rounds=2, capacity=30)
    assert until.asked >= 4  # asked before each part: some interpreted, the rest compiled
    fast = batch_rollout.rollouts(state, legal, seeds, rounds=2, capacity=30)
    for name in ("changes", "over", "final_scores", "trace_player", "trace_action"):
        a, b = getattr(mixed, name), getattr(fast, name)
        assert a.dtype == b.dtype and np.array_equal(a, b), name
    assert np.array_equal(mixed.trace_length, fast.trace_length)


def test_search_bot_decides_the_same_when_its_code_gets_ready_within_a_decision() -> None:
    """Six seats: decisions started interpreted (so on INTERPRETED_ROLLOUTS simulations)
    and finished compiled equal those of a compiled bot of the same seed given that many."""
    game = make("dice", num_players=6)
    mixed = make_bot("search", game, 1, 9)
    # the count is decided at the decision's start (interpreted: the smaller budget)
    budget = max(16, 2 * DiceSearchBot.INTERPRETED_ROLLOUTS // 6)
    fast = DiceSearchBot(game, 1, 9, rollouts=budget)
    others = [make_bot("heuristic", game, s, 9) for s in range(6)]
    rng = make_rng(9, "chance")
    state = game.new_initial_state()
    decisions = 0
    while not state.is_terminal() and decisions < 2:
        player = state.current_player()
        if player < 0:
            state.apply_action(state.sample_chance_outcome(rng))
            continue
        if player == 1:
            # asked at the start (interpreted: the smaller count), then before each part:
            # the first part interpreted, the others compiled
            until = _After(4)
            with jit.interpreting(until=until):
                action = mixed.step(state)
            assert fast.step(state) == action
            if until.asked:
                assert until.asked >= 4
                assert mixed.last_rollouts == budget  # type: ignore[attr-defined]
                decisions += 1
        else:
            action = others[player].step(state)
        state.apply_action(action, player)
    assert decisions == 2
    assert mixed.rng.getstate() == fast.rng.getstate()


@pytest.mark.parametrize(
    "key",
    [
        ((1, 0, 0, 0, 0, 0, 0), (0, 1, 0, 0, 0, 0, 0), 1 << 6, 0, 0),
        ((1, 0, 1, 0, 0, 0, 0), (0, 1, 0, 0, 0, 1, 0), (1 << 6) | (1 << 3), 3, 11),
    ],
)
def test_two_player_solver_kernels_interpreted_equal_the_compiled_ones(
    key: tuple[tuple[int, ...], tuple[int, ...], int, int, int],
) -> None:
    """The ``exact`` bot's kernels (last-standing solve, sweep, roll values: D-8 .. D-10)
    run interpreted while the others compile (``lama play``'s warm-up, issue 19): the same
    floats as compiled."""
    game = make("dice", num_players=2)
    bot = make_bot("exact", game, 0, 1)
    new = bot._new_two_player  # type: ignore[attr-defined]  # a fresh solver, no disk cache
    with jit.interpreting():
        slow = new().roll_outcome(key)
    fast = new().roll_outcome(key)
    assert slow == fast


def _roll_value_calls(monkeypatch: pytest.MonkeyPatch) -> list[bool]:
    """Spy on the solver's :func:`~lamagames.core.jit.choose` of the roll value kernel:
    one entry per call, whether the compiled form was chosen."""
    from lamagames.dice.solver import kernel2p, pair_table

    calls: list[bool] = []

    def spy(kernel: Any) -> Any:
        chosen = jit.choose(kernel)
        if kernel is kernel2p.roll_value:
            calls.append(chosen is kernel)
        return chosen

    monkeypatch.setattr(pair_table, "choose", spy)
    return calls


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_exact_bot_runs_its_deferred_roll_value_interpreted_with_the_same_moves_issue_19(
    seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 19: ``lama play``'s warm-up compiles the two-seat ``exact`` bot's roll value
    kernel after its first decision (:meth:`~lamagames.bots.base.Bot.later_code`);
    until :attr:`~lamagames.bots.base.Bot.later_ready` says it is compiled, the bot's
    decisions and its solve ahead run it interpreted, choosing the same actions."""
    from lamagames.bots.warmup import decision_for
    from lamagames.dice.solver import kernel2p

    calls = _roll_value_calls(monkeypatch)
    game = make("dice", num_players=2)
    state = decision_for(game, 1, seed)
    assert state is not None
    compiled_bot = make_bot("exact", game, 1, seed)
    expected = compiled_bot.step(state)
    assert calls and all(calls)  # compiled without a warm-up
    calls.clear()
    late = make_bot("exact", game, 1, seed)
    assert kernel2p.roll_value in late.later_code()
    late.later_ready = lambda item: isinstance(item, str)  # the kernel not ready, kinds are
    assert late.step(state) == expected
    assert calls and not any(calls)  # interpreted
    calls.clear()
    late.prepare(state)  # finds the table solved: its roll value on this thread
    assert calls and not any(calls)
    calls.clear()
    ahead = make_bot("exact", game, 1, seed)
    ahead.later_ready = lambda item: isinstance(item, str)
    ahead.prepare(state)
    while ahead.preparing():
        threading.Event().wait(0.01)
    assert calls and not any(calls)  # the solve ahead's thread too
    assert ahead.step(state) == expected


def test_the_warm_ups_game_share_leaves_the_roll_value_interpreted_issue_19(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Issue 19: with two seats ``lama play`` compiles the last-standing solve while the
    helper compiles the sweep; the roll value kernel (0.4-0.7 CPU s) runs interpreted in
    both shares and in the load after the helper (part ``now``), compiled only later."""
    from lamagames.bots.warmup import decision_for, warm_bots

    calls = _roll_value_calls(monkeypatch)
    game = make("dice", num_players=2)
    assert decision_for(game, 0, 1) is not None
    for part in ("here", "helper", "now"):
        warm_bots(game, ["exact"], 1, part=part)
        assert calls and not any(calls), part
        calls.clear()
    warm_bots(game, ["exact"], 1)  # "all": the later phase's
    assert calls and all(calls)
