"""Head to head: a bot kind against others over seeded 2-player games (not a test).

Usage: python benchmarks/headtohead.py dice --games 2000 [--kind heuristic]
       [--against random,benchmark] [--seed 1]
       python benchmarks/headtohead.py express --games 1000 [--turn-limit 2000]

Game ``i`` uses seed ``derive_seed(seed, "h2h", i)`` for the chance stream and both bots;
the measured bot sits in seat ``i % 2``. Games without a winner (Lama Express truncated by
its turn limit, E-11) count as non-wins and are reported as unfinished.
"""

from __future__ import annotations

import argparse
import time

from lamagames.core import make
from lamagames.sim.headtohead import head_to_head


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("game", choices=["dice", "express"])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--kind", default="heuristic")
    parser.add_argument("--against", default="random,benchmark")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--turn-limit", type=int, default=2000, help="Lama Express only")
    args = parser.parse_args()
    params = {"num_players": 2}
    if args.game == "express":
        params["turn_limit"] = args.turn_limit
    game = make(args.game, **params)
    for opponent in args.against.split(","):
        start = time.perf_counter()
        r = head_to_head(game, args.kind, opponent, args.games, args.seed)
        seconds = time.perf_counter() - start
        print(
            f"{args.game}: {r.kind} vs {r.opponent}: {r.wins}/{r.games} wins, "
            f"share {r.win_share:.3f}, 95% CI [{r.ci_low:.3f}, {r.ci_high:.3f}], "
            f"unfinished {r.unfinished}, {seconds:.1f} s"
        )


if __name__ == "__main__":
    main()
