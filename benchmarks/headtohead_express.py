"""Lama Express head to head: a bot kind against others over seeded 2-player games.

Game ``i`` uses seed ``derive_seed(seed, "h2h", i)`` for the dice and both bots; the
measured bot sits in seat ``i % 2`` (seats alternate). A game truncated by the turn limit
(E-11) has no winner and counts as a non-win; the number of such games is reported. The win
share comes with a 95% Wilson score interval.

Usage: python benchmarks/headtohead_express.py [--games 1000] [--kind heuristic]
       [--against random,benchmark] [--seed 1] [--turn-limit 2000]
"""

from __future__ import annotations

import argparse
import math
import time
from dataclasses import dataclass

from lamagames.bots.base import make_bot
from lamagames.core import derive_seed, make
from lamagames.core.game import Game
from lamagames.sim.runner import play_game

Z_95 = 1.959964


@dataclass(frozen=True, slots=True)
class Match:
    """Result of :func:`head_to_head`: games, wins of ``kind``, truncated games, CI."""

    kind: str
    opponent: str
    games: int
    wins: int
    truncated: int
    ci_low: float
    ci_high: float

    @property
    def win_share(self) -> float:
        """Wins per game of the measured kind."""
        return self.wins / self.games


def wilson_interval(successes: int, trials: int, z: float = Z_95) -> tuple[float, float]:
    """Wilson score interval of a binomial proportion (95% for the default ``z``)."""
    p = successes / trials
    denom = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denom
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def head_to_head(game: Game, kind: str, opponent: str, games: int, seed: int) -> Match:
    """Play ``games`` seeded games of ``kind`` against ``opponent`` with alternating seats."""
    wins = truncated = 0
    for i in range(games):
        game_seed = derive_seed(seed, "h2h", i)
        seat = i % 2
        kinds = [kind, opponent] if seat == 0 else [opponent, kind]
        bots = [make_bot(k, game, s, game_seed) for s, k in enumerate(kinds)]
        returns = play_game(game, bots, game_seed).state.returns()
        if returns[seat] > 0:
            wins += 1
        elif not any(returns):
            truncated += 1
    low, high = wilson_interval(wins, games)
    return Match(kind, opponent, games, wins, truncated, low, high)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--kind", default="heuristic")
    parser.add_argument("--against", default="random,benchmark")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--turn-limit", type=int, default=2000)
    args = parser.parse_args()
    game = make("express", num_players=2, turn_limit=args.turn_limit)
    for opponent in args.against.split(","):
        start = time.perf_counter()
        m = head_to_head(game, args.kind, opponent, args.games, args.seed)
        seconds = time.perf_counter() - start
        print(
            f"express: {m.kind} vs {m.opponent}: {m.wins}/{m.games} wins, share "
            f"{m.win_share:.3f}, 95% Wilson CI [{m.ci_low:.3f}, {m.ci_high:.3f}], "
            f"truncated {m.truncated} (turn limit {args.turn_limit} rolls), {seconds:.1f} s"
        )


if __name__ == "__main__":
    main()
