"""How tight is Lama Express's ``max_game_length``? Build long games and compare.

For each seat count and turn limit, :func:`lamagames.express.longgame.long_game` builds a
game on the scalar engine (an adversary choosing every die colour and every decision, a beam
search), which is replayed and checked; the script prints its decisions beside the proven
bound :func:`lamagames.express.rl.max_game_length` and random play (docs/rl.md). Each of
the search's rankings (``--rankings``: ``seats``, ``park``) builds a game; the longer is
printed, with the ranking that built it.

    python scripts/express_long_game.py --players 2 3 4 --limits 100 1000 --beam 8
"""

from __future__ import annotations

import argparse
import random
import time

from lamagames.express.game import ExpressGame
from lamagames.express.longgame import RANKINGS, count_decisions, long_game
from lamagames.express.rl import max_game_length


def random_decisions(game: ExpressGame, games: int, seed: int) -> float:
    """Mean decisions of ``games`` uniformly random games (seeded)."""
    rng = random.Random(seed)
    total = 0
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(state.sample_chance_outcome(rng))
            else:
                state.apply_action(rng.choice(state.legal_actions()))
                total += 1
    return total / games


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, nargs="+", default=[2, 3, 4])
    parser.add_argument("--limits", type=int, nargs="+", default=[100, 1000])
    parser.add_argument("--llamas", type=int, nargs="+", default=[4, 3], help="4, or 3: short")
    parser.add_argument("--beam", type=int, default=8)
    parser.add_argument("--rankings", nargs="+", choices=RANKINGS, default=list(RANKINGS))
    parser.add_argument("--random-games", type=int, default=20)
    args = parser.parse_args()
    print("players llamas rolls  bound  built  built/bound  ranking  random  seconds")
    for players in args.players:
        for llamas in args.llamas:
            for limit in args.limits:
                game = ExpressGame(num_players=players, llamas_to_win=llamas, turn_limit=limit)
                bound = max_game_length(game)
                assert bound is not None
                start = time.perf_counter()
                games = {r: long_game(game, beam=args.beam, ranking=r) for r in args.rankings}
                seconds = time.perf_counter() - start
                ranking, built = max(games.items(), key=lambda item: item[1].decisions)
                assert count_decisions(built.state.history()) == built.decisions <= bound
                rand = random_decisions(game, args.random_games, seed=players * 100 + llamas)
                print(
                    f"{players:7d} {llamas:6d} {limit:5d} {bound:6d} {built.decisions:6d}"
                    f" {built.decisions / bound:12.3f} {ranking:>8} {rand:7.1f} {seconds:8.1f}"
                )


if __name__ == "__main__":
    main()
