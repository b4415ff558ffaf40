"""Speed of the Lama Express engine through the public protocol (not a test).

Plays full games with one ``benchmark`` bot per seat through
:func:`lamagames.sim.runner.play_game`: chance sampling, legal actions, the bots' choices and
apply action all go through :class:`lamagames.core.game.State`. For comparison it also times
a tight plain-Python loop of the same rules and policy on bare lists (no validation, no
history, no protocol): the gap is the protocol's overhead.

Usage: python benchmarks/bench_express.py [--games 2000] [--players 4]
"""

from __future__ import annotations

import argparse
import random
import time

from lamagames.bots.base import make_bot
from lamagames.core import make
from lamagames.express import standard_board
from lamagames.express.material import ROLE_ARROW, ROLE_BOARDING, ROLE_EXIT, ROLE_REBOARD
from lamagames.sim.runner import play_game

CARS = 5
TRAIN = 7
#: Seat at each station (clockwise) for the E-4 default colours; -1: inert.
SEAT_OF_STATION = {2: [0, -1, 1, -1], 3: [0, 1, 2, -1], 4: [0, 1, 2, 3]}


def protocol_run(games: int, players: int) -> tuple[float, int, int]:
    """Seconds, seat decisions and die rolls for ``games`` benchmark-bot games."""
    game = make("express", num_players=players)
    decisions = rolls = 0
    start = time.perf_counter()
    for seed in range(games):
        bots = [make_bot("benchmark", game, seat, seed) for seat in range(players)]
        result = play_game(game, bots, seed)
        decisions += result.decisions
        rolls += result.chance_events
    return time.perf_counter() - start, decisions, rolls


def _plain_game(rng: random.Random, players: int) -> int:
    """One game of the benchmark policy on bare lists; returns the number of die rolls."""
    board = standard_board()
    n = len(board.track)
    role, index, need, nxt = board.role, board.role_index, board.exit_need, board.next_distance
    seat_of = SEAT_OF_STATION[players]
    tips = [board.stations[0].boarding, board.stations[2].boarding]
    owner = [-1] * 10
    prog = [0] * 10
    station = [4] * players
    house = [0] * players
    paths: list[list[tuple[int, int]]] = [[] for _ in board.footpaths]

    def window(start_seat: int) -> bool:
        """Everyone takes every free action in benchmark order; True when someone won."""
        while True:
            best: list[tuple[int, int, int] | None] = [None] * players
            for t in (0, 1):
                for c in range(CARS):
                    slot = t * CARS + c
                    sp = (tips[t] - 3 - c) % n
                    r = role[sp]
                    who = owner[slot]
                    cand: list[tuple[int, tuple[int, int, int]]] = []
                    if who < 0:
                        if r == ROLE_BOARDING:
                            s = seat_of[index[sp]]
                            if s >= 0 and station[s]:
                                cand.append((s, (1, 0, slot)))
                        elif r == ROLE_REBOARD and paths[index[sp]]:
                            cand.append((paths[index[sp]][0][0], (2, index[sp], slot)))
                    elif r == ROLE_EXIT:
                        if seat_of[index[sp]] == who and prog[slot] >= need[sp]:
                            cand.append((who, (0, 0, slot)))
                    elif r == ROLE_ARROW and len(paths[index[sp]]) < 3:
                        cand += [(s, (3, index[sp], slot)) for s in range(players) if s != who]
                    for s, key in cand:
                        old = best[s]
                        if old is None or key < old:
                            best[s] = key
            chosen = None
            for i in range(players):
                seat = (start_seat + i) % players
                chosen = best[seat]
                if chosen is not None:
                    break
            if chosen is None:
                return False
            kind, fp, slot = chosen
            if kind == 0:
                owner[slot] = -1
                house[seat] += 1
                if house[seat] == 4:
                    return True
            elif kind == 1:
                station[seat] -= 1
                owner[slot] = seat
                prog[slot] = 0
            elif kind == 2:
                owner[slot], prog[slot] = paths[fp].pop(0)
            else:
                paths[fp].append((owner[slot], prog[slot] - 3))
                owner[slot] = -1
            start_seat = (seat + 1) % players

    active = 0
    rolls = 0
    while True:
        die = int(rng.random() * 6)
        rolls += 1
        if window(active):
            return rolls
        can = [nxt[die][tips[t]] <= (tips[1 - t] - TRAIN - tips[t]) % n for t in (0, 1)]
        if can[0] or can[1]:
            t = (0 if rng.random() < 0.5 else 1) if can[0] and can[1] else can.index(True)
            d = nxt[die][tips[t]]
            tips[t] = (tips[t] + d) % n
            for slot in range(t * CARS, t * CARS + CARS):
                if owner[slot] >= 0:
                    prog[slot] += d
            if window(active):
                return rolls
        active = (active + 1) % players


def plain_loop(games: int, players: int) -> tuple[float, int]:
    """The benchmark policy on bare lists (standard board, E-4 default colours): seconds
    and die rolls in all."""
    rng = random.Random(0)
    start = time.perf_counter()
    rolls = sum(_plain_game(rng, players) for _ in range(games))
    return time.perf_counter() - start, rolls


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--players", type=int, default=4)
    args = parser.parse_args()
    seconds, decisions, rolls = protocol_run(args.games, args.players)
    print(
        f"protocol: {args.games} games of {args.players} benchmark bots in {seconds:.2f} s: "
        f"{args.games / seconds:.0f} games/s, {decisions / seconds:.0f} decisions/s, "
        f"{rolls / args.games:.1f} rolls/game, {decisions / args.games:.1f} decisions/game"
    )
    plain, plain_rolls = plain_loop(args.games, args.players)
    print(
        f"plain loop: {args.games / plain:.0f} games/s, {plain_rolls / args.games:.1f} "
        f"rolls/game; protocol time / plain time = {seconds / plain:.2f}"
    )


if __name__ == "__main__":
    main()
