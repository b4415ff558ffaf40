"""Speed of ``lama review`` (not a test; figures for docs/cli.md and the issue's note).

Usage: python benchmarks/bench_review.py [--seed 1] [--games 1] [--cache off|on]

Plays games with bots (``exact`` + ``heuristic`` for 2-player LAMA Dice, four
``heuristic`` seats for 4-player LAMA Dice, ``search`` + ``heuristic`` for 2-player and
``heuristic`` x 4 for 4-player Lama Express), builds their records and times
:func:`lamagames.coach.review.review_record` on each, after one warm-up review so compiled
code (Numba) is loaded. Prints wall time and this process's CPU time (on a shared
machine the CPU time is the one-core figure). With ``--cache off`` (default) the solver's
disk cache is off, so
every last-standing and two-player table is solved during the review (the slow case);
``--cache on`` uses the user's cache as ``lama review`` does. Goals (issue 18): 2-player
LAMA Dice <= 10 s, 4-player <= 30 s, a Lama Express game <= 30 s, one core.
"""

from __future__ import annotations

import argparse
import os
import sys
import time


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--games", type=int, default=1)
    parser.add_argument("--cache", choices=("on", "off"), default="off")
    args = parser.parse_args()
    if args.cache == "off":
        os.environ["LAMAGAMES_SOLVER_CACHE"] = "off"

    from lamagames.bots import make_bot
    from lamagames.coach.review import review_record
    from lamagames.core.records import record_from_state
    from lamagames.core.registry import make
    from lamagames.sim.runner import play_game

    cases = [
        ("dice", 2, ["exact", "heuristic"]),
        ("dice", 4, ["heuristic"] * 4),
        ("express", 2, ["search", "heuristic"]),
        ("express", 4, ["heuristic"] * 4),
    ]
    warmed: set[str] = set()
    for game_id, n, kinds in cases:
        game = make(game_id, num_players=n)
        for g in range(args.games):
            seed = args.seed + g
            bots = [make_bot(kind, game, seat, seed) for seat, kind in enumerate(kinds)]
            result = play_game(game, bots, seed)
            record = record_from_state(
                result.state, [(f"{k} {i + 1}", k) for i, k in enumerate(kinds)], seed=seed
            )
            if game_id not in warmed:  # load the compiled code once
                short = record.model_copy(update={"actions": record.actions[:40], "result": None})
                review_record(short)
                warmed.add(game_id)
            start, cpu = time.perf_counter(), time.process_time()
            review = review_record(record, seed=seed)
            elapsed, cpu = time.perf_counter() - start, time.process_time() - cpu
            exact = sum(d.exact for d in review.decisions)
            print(
                f"{game_id} {n}p {'+'.join(kinds)} seed {seed}: {len(record.actions)} actions, "
                f"{len(review.decisions)} decisions ({exact} exact), review {elapsed:.1f} s wall, "
                f"{cpu:.1f} s CPU",
                flush=True,
            )
    sys.exit(0)


if __name__ == "__main__":
    main()
