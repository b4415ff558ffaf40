"""Speed of the LAMA Dice engine through the public protocol (not a test).

Plays full 4-player games with four ``benchmark`` bots: legal actions, apply action and
chance sampling all go through :class:`lamagames.core.game.State`. For comparison it also
times a tight plain-Python loop of the same policy that bypasses the protocol (no
validation, no history): the gap is the protocol's overhead.

Usage: python benchmarks/bench_dice.py [--games 2000] [--players 4]
"""

from __future__ import annotations

import argparse
import random
import time

from lamagames.bots.base import make_bot
from lamagames.core import make
from lamagames.sim.runner import play_game

VALUES = (1, 2, 3, 4, 5, 6, 10)
FACES = ((6, 6, 2, 3, 4, 5), (0, 1, 6, 6, 4, 5), (0, 1, 2, 3, 6, 6))


def protocol_run(games: int, players: int) -> tuple[float, int]:
    game = make("dice", num_players=players)
    decisions = 0
    start = time.perf_counter()
    for seed in range(games):
        bots = [make_bot("benchmark", game, seat, seed) for seat in range(players)]
        decisions += play_game(game, bots, seed).decisions
    return time.perf_counter() - start, decisions


def plain_loop(games: int, players: int) -> float:
    """The benchmark policy on bare lists: the floor the protocol is compared with."""
    rng = random.Random(0)
    start = time.perf_counter()
    for _ in range(games):
        scores = [0] * players
        starter = 0
        while max(scores) < 40:
            deck = [s for s in range(7) for _ in range(6 if s == 6 else 5)]
            rng.shuffle(deck)
            rows = [[0] * 7 for _ in range(players)]
            for p in range(players):
                for s in deck[6 * p : 6 * p + 6]:
                    rows[p][s] += 1
            llama = [1] * 7
            quit_ = [False] * players
            p = starter
            last = p
            while True:
                score = sum(VALUES[s] for s in range(7) if rows[p][s])
                last = p
                if score <= 6:
                    quit_[p] = True
                    if all(quit_):
                        break
                else:
                    dice = [f[int(rng.random() * 6)] for f in FACES]
                    if dice == [6, 6, 6]:
                        if scores[p]:
                            scores[p] -= 10 if scores[p] >= 10 else 1
                    elif any(rows[p][d] for d in dice):
                        for d in set(dice):
                            rows[p][d] -= min(dice.count(d), rows[p][d])
                        if not any(rows[p]):
                            break
                    else:
                        lone = all(quit_[i] for i in range(players) if i != p)
                        avail = sorted(d for d in set(dice) if llama[d])
                        if avail and not lone:
                            llama[avail[0]] = 0
                            rows[p][avail[0]] += 1
                            if not any(llama):
                                break
                        else:
                            for s in range(7):
                                rows[p][s] += llama[s]
                            break
                for _ in range(players):
                    p = (p + 1) % players
                    if not quit_[p]:
                        break
            for i in range(players):
                scores[i] += sum(VALUES[s] for s in range(7) if rows[i][s])
                if not any(rows[i]) and scores[i]:
                    scores[i] -= 10 if scores[i] >= 10 else 1
            starter = last
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--players", type=int, default=4)
    args = parser.parse_args()
    seconds, decisions = protocol_run(args.games, args.players)
    print(
        f"protocol: {args.games} games of {args.players} benchmark bots in {seconds:.2f} s: "
        f"{args.games / seconds:.0f} games/s, {decisions / seconds:.0f} decisions/s, "
        f"{decisions / args.games:.1f} decisions/game"
    )
    plain = plain_loop(args.games, args.players)
    print(f"plain loop: {args.games / plain:.0f} games/s")


if __name__ == "__main__":
    main()
