"""The search bots against ``heuristic`` in every other seat (issue 10; not a test).

Usage: python benchmarks/headtohead_search.py dice --players 4 --games 120 [--seed 1]
       [--kind search] [--opponent heuristic] [--rollouts 256] [--set Z=0.5 ...]
       [--json FILE]
       python benchmarks/headtohead_search.py express --players 2 --games 200

Measure: the pairwise share of :mod:`lamagames.sim.match` (per game, the share of opponent
seats the measured seat finishes ahead of: LAMA Dice by final score, D-11; Lama Express by
the win, E-10; ties count one half) with a 95% normal interval over games. Game ``i`` uses
seed ``derive_seed(seed, "match", i)``; the measured seat rotates (``i % players``).
Prints one line per game (index, share, running mean) and a summary line; also the mean CPU
seconds per decision of the measured bot.
"""

from __future__ import annotations

import argparse
import json
import time

from lamagames.bots.base import bot_class
from lamagames.core import make
from lamagames.sim.match import pairwise_match


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("game", choices=["dice", "express"])
    parser.add_argument("--players", type=int, default=None)
    parser.add_argument("--games", type=int, default=120)
    parser.add_argument("--kind", default="search")
    parser.add_argument("--opponent", default="heuristic")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rollouts", type=int, default=None, help="override ROLLOUTS")
    parser.add_argument(
        "--set",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="override a class attribute of the measured bot (e.g. Z=0.5, ROUNDS=2)",
    )
    parser.add_argument("--json", default=None, help="write the summary as JSON here")
    args = parser.parse_args()
    params: dict[str, int] = {}
    if args.players is not None:
        params["num_players"] = args.players
    if args.game == "express":
        params["turn_limit"] = 2000
    game = make(args.game, **params)
    if args.rollouts is not None:
        cls = bot_class(args.game, args.kind)
        cls.ROLLOUTS = args.rollouts  # type: ignore[attr-defined]
        if hasattr(cls, "ROLLOUTS_FOUR_SEATS"):  # Express: its 4-seat default too
            cls.ROLLOUTS_FOUR_SEATS = args.rollouts
    for item in args.set:
        name, _, value = item.partition("=")
        cls = bot_class(args.game, args.kind)
        if not hasattr(cls, name):
            parser.error(f"--set {item}: {cls.__name__} has no attribute {name}")
        setattr(cls, name, type(getattr(cls, name))(value))
        print(f"{cls.__name__}.{name} = {getattr(cls, name)!r}", flush=True)
    total = [0.0]

    def progress(index: int, share: float) -> None:
        total[0] += share
        print(f"game {index}: share {share:.3f} running {total[0] / (index + 1):.3f}", flush=True)

    start = time.perf_counter()
    r = pairwise_match(game, args.kind, args.opponent, args.games, args.seed, on_game=progress)
    seconds = time.perf_counter() - start
    print(
        f"{args.game} {game.num_players}p: {r.kind} vs {r.opponent} x{game.num_players - 1}: "
        f"{r.games} games, pairwise share {r.mean:.3f}, 95% CI [{r.ci_low:.3f}, "
        f"{r.ci_high:.3f}], wins {r.wins} (fair share {r.games / game.num_players:.1f}), "
        f"unfinished {r.unfinished}, {r.seconds_per_decision * 1000:.1f} ms CPU per decision, "
        f"{seconds:.0f} s wall"
    )
    if args.json:
        with open(args.json, "w", encoding="utf-8") as handle:
            json.dump({**r.to_dict(), "seed": args.seed, "wall_seconds": seconds}, handle)


if __name__ == "__main__":
    main()
