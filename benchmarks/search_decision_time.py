"""CPU seconds per decision of the ``search`` bots at default settings (not a test).

Usage: python benchmarks/search_decision_time.py [--decisions 40] [--seed 1]

Plays one game per setting (search in seat 0, heuristic elsewhere) and times every
decision of the search seat with ``time.process_time`` (CPU time of this process, so a
machine shared with other jobs does not inflate it); stops after ``--decisions`` of them.
Prints mean, median, 90th percentile and max per setting. Before the LAMA Dice settings one
untimed decision loads the compiled kernels from Numba's disk cache (or compiles them), a
one-off per process, not a per-decision cost.
"""

from __future__ import annotations

import argparse
import statistics
import time

from lamagames.bots import make_bot
from lamagames.core import make
from lamagames.core.rng import make_rng


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--decisions", type=int, default=40)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    settings = [("express", 2)] + [("dice", n) for n in (2, 3, 4, 5, 6)]
    warm = make("dice", num_players=3)
    warm_state = warm.new_initial_state()
    warm_rng = make_rng(0, "chance")
    while warm_state.current_player() < 0:
        warm_state.apply_action(warm_state.sample_chance_outcome(warm_rng))
    make_bot("search", warm, warm_state.current_player(), 0).step(warm_state)
    for game_id, players in settings:
        game = make(game_id, num_players=players)
        bots = [
            make_bot("search" if s == 0 else "heuristic", game, s, args.seed)
            for s in range(players)
        ]
        rng = make_rng(args.seed, "chance")
        state = game.new_initial_state()
        times: list[float] = []
        while not state.is_terminal() and len(times) < args.decisions:
            player = state.current_player()
            if player < 0:
                state.apply_action(state.sample_chance_outcome(rng))
                continue
            start = time.process_time()
            action = bots[player].step(state)
            if player == 0:
                times.append(time.process_time() - start)
            state.apply_action(action)
        print(
            f"{game_id} {players}p: {len(times)} decisions, CPU s per decision: mean "
            f"{statistics.mean(times):.3f}, median {statistics.median(times):.3f}, "
            f"90% {statistics.quantiles(times, n=10)[-1]:.3f}, max {max(times):.3f}",
            flush=True,
        )


if __name__ == "__main__":
    main()
