"""Decisions per second of the OpenSpiel adapter against the raw engine (not a test).

Both loops play the same random games: at a chance node they draw an outcome from the listed
``(outcome, probability)`` pairs (the adapter: ``state.chance_outcomes()`` through pyspiel,
as ``random_sim_test`` and MCTS do; the engine: its own ``chance_outcomes()``), at a
decision a uniform legal action. The issue-20 goal: the adapter reaches at least 20% of
the engine's decisions per second (LAMA Dice deals two cards at a time in the adapter,
``RLSpec.chance_split``; the engine lists up to 918 hands per deal). ``--engine-sampler``
lets the engine draw with ``sample_chance_outcome`` instead (its fastest path).

Usage: python benchmarks/bench_openspiel.py [--game python_lama_dice] [--players 3]
[--seconds 5] [--rounds 10] [--engine-sampler] [--whole-chance]

Times are CPU seconds (``time.process_time``), the two loops interleaved in ``--rounds``
slices, so a loaded machine slows both alike.
"""

from __future__ import annotations

import argparse
import bisect
import dataclasses
import itertools
import random
import time
from collections.abc import Callable, Sequence
from typing import Any

import pyspiel

import lamagames.rl.openspiel  # noqa: F401  (registers the games)


def _draw(outcomes: Sequence[tuple[int, float]], rng: random.Random) -> int:
    cumulative = list(itertools.accumulate(p for _, p in outcomes))
    index = bisect.bisect_right(cumulative, rng.random() * cumulative[-1])
    return outcomes[min(index, len(outcomes) - 1)][0]


def _run(
    play_one: Callable[[random.Random], int], seconds: float, rng: random.Random
) -> tuple[float, int, int]:
    """Games until ``seconds`` of CPU time have passed: (CPU seconds, decisions, games)."""
    decisions = games = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        decisions += play_one(rng)
        games += 1
    return time.process_time() - start, decisions, games


def adapter_game(game: Any) -> Callable[[random.Random], int]:
    def play_one(rng: random.Random) -> int:
        state = game.new_initial_state()
        decisions = 0
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(_draw(state.chance_outcomes(), rng))
            else:
                state.apply_action(rng.choice(state.legal_actions()))
                decisions += 1
        return decisions

    return play_one


def engine_game(game: Any, sampler: bool) -> Callable[[random.Random], int]:
    def play_one(rng: random.Random) -> int:
        state = game.new_initial_state()
        decisions = 0
        while not state.is_terminal():
            if state.is_chance_node():
                outcome = (
                    state.sample_chance_outcome(rng)
                    if sampler
                    else _draw(state.chance_outcomes(), rng)
                )
                state.apply_action(outcome)
            else:
                state.apply_action(rng.choice(state.legal_actions()))
                decisions += 1
        return decisions

    return play_one


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="python_lama_dice")
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--engine-sampler", action="store_true")
    parser.add_argument(
        "--whole-chance", action="store_true", help="no chance split (one node per deal)"
    )
    args = parser.parse_args()
    game = pyspiel.load_game(f"{args.game}(players={args.players})")
    if args.whole_chance:  # the adapter before issue 20: one deal node of up to 918 hands
        cls = type(game)
        cls.rl = dataclasses.replace(cls.rl, chance_split=None)
    lama = game.lama_game
    adapter_game(game)(random.Random(1))  # warm up (imports, caches)
    runs = {"engine": engine_game(lama, args.engine_sampler), "adapter": adapter_game(game)}
    totals: dict[str, list[float]] = {name: [0.0, 0, 0] for name in runs}
    rngs = {name: random.Random(0) for name in runs}
    for _ in range(args.rounds):  # interleaved, so that load on the machine hits both
        for name, play_one in runs.items():
            seconds, decisions, games = _run(play_one, args.seconds / args.rounds, rngs[name])
            totals[name][0] += seconds
            totals[name][1] += decisions
            totals[name][2] += games
    rate = {name: t[1] / t[0] for name, t in totals.items()}
    print(f"{args.game}, {args.players} players, random play, CPU time, {args.rounds} rounds")
    for name, (cpu, _, played) in totals.items():
        print(f"{name:7s}: {rate[name]:9.0f} decisions/s ({played:.0f} games, {cpu:.1f} s)")
    print(f"adapter / engine: {rate['adapter'] / rate['engine']:.3f}")


if __name__ == "__main__":
    main()
