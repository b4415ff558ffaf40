"""CPU seconds per decision of the ``search`` bots at default settings (not a test).

Usage: python benchmarks/search_decision_time.py [--decisions 40] [--seed 1]

Plays one game per setting (search in seat 0, heuristic elsewhere) and times every
decision of the search seat with ``time.process_time`` (CPU time of this process, so a
machine shared with other jobs does not inflate it); stops after ``--decisions`` of them.
Prints mean, median and max per setting.
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
    for game_id, players in (("express", 2), ("dice", 3), ("dice", 4), ("dice", 6)):
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
            f"max {max(times):.3f}",
            flush=True,
        )


if __name__ == "__main__":
    main()
