"""Speed of the LAMA Dice batch engine against a native C reference (not a test).

Compiles ``benchmarks/c/dice_ref.c`` (the same rules and benchmark policy, the same
SplitMix64 chance stream) with ``gcc -O2`` into a temporary folder, plays the same seeded
games with both and prints games/s of each on one core, their ratio (goal: batch >= 0.5x
C) and whether both played identical games (mean rounds, seat-0 score and wins agree
exactly, since game ``g`` uses seed ``g`` on both sides).

Compile time is measured separately in fresh processes: cold (an empty Numba cache in a
temporary ``NUMBA_CACHE_DIR``) and warm (machine code loaded from the on-disk cache, by
default ``src/lamagames/dice/__pycache__/*.nbi|*.nbc``).

``--compare N`` also plays ``N`` games of benchmark self-play with the scalar engine (the
bots through the core protocol) and prints, for rounds per game, points per round and each
seat's win share, both means and the gap in standard errors (agreement: |z| <= 4).

Usage: python benchmarks/bench_batch_dice.py [--games 300000] [--players 4] [--repeat 3]
       [--compare 5000] [--skip-compile]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import numpy.typing as npt

from lamagames.bots.base import make_bot
from lamagames.core.registry import make
from lamagames.dice import batch
from lamagames.dice.game import as_dice_state
from lamagames.sim.runner import play_game

HERE = Path(__file__).resolve().parent
FIRST_CALL = (
    "import time; t = time.perf_counter(); from lamagames.dice import batch; "
    "p = batch.check_params(4, {}); batch.play([0, 1], ['benchmark'] * 4, p); "
    "batch.play([0], ['random'] * 4, p); print(time.perf_counter() - t)"
)


def c_run(games: int, players: int, repeat: int) -> tuple[float, list[str]]:
    """Best games/s of the C reference over ``repeat`` runs, and its figures."""
    with tempfile.TemporaryDirectory() as tmp:
        exe = Path(tmp) / "dice_ref"
        subprocess.run(["gcc", "-O2", "-o", str(exe), str(HERE / "c" / "dice_ref.c")], check=True)
        best, fields = 0.0, []
        for _ in range(repeat):
            out = subprocess.run(
                [str(exe), str(games), str(players)], check=True, capture_output=True, text=True
            ).stdout.split()
            best = max(best, games / float(out[1]))
            fields = out
    return best, fields


def batch_run(games: int, players: int, repeat: int) -> tuple[float, list[str]]:
    """Best games/s of :func:`batch.play` (one core) and the same figures as the C run."""
    params = batch.check_params(players, {})
    seeds = np.arange(games, dtype=np.uint64)
    batch.play(seeds[:10], ["benchmark"] * players, params)  # compiled or loaded before timing
    best = 0.0
    for _ in range(repeat):
        start = time.perf_counter()
        results = batch.play(seeds, ["benchmark"] * players, params)
        best = max(best, games / (time.perf_counter() - start))
    fields = [
        str(games),
        "-",
        f"{results.length.mean():.4f}",
        f"{results.scores[:, 0].mean():.4f}",
        str(int(results.wins[:, 0].sum())),
    ]
    return best, fields


def first_call_seconds(cache_dir: str | None) -> float:
    """Seconds from import to the first finished games in a fresh Python process."""
    env = dict(os.environ)
    if cache_dir is not None:
        env["NUMBA_CACHE_DIR"] = cache_dir
    out = subprocess.run(
        [sys.executable, "-c", FIRST_CALL], check=True, capture_output=True, text=True, env=env
    )
    return float(out.stdout.split()[-1])


def _figures(
    rounds: npt.NDArray[np.float64], points: npt.NDArray[np.float64], wins: npt.NDArray[np.float64]
) -> dict[str, npt.NDArray[np.float64]]:
    out = {"rounds per game": rounds, "points per round": points / (rounds * wins.shape[1])}
    for seat in range(wins.shape[1]):
        out[f"win share seat {seat + 1}"] = wins[:, seat]
    return out


def compare(scalar_games: int, batch_games: int, players: int) -> None:
    """Benchmark self-play statistics: scalar engine vs batch engine (independent seeds)."""
    game = make("dice", num_players=players)
    rounds, points, wins = [], [], []
    start = time.perf_counter()
    for seed in range(scalar_games):
        bots = [make_bot("benchmark", game, seat, seed) for seat in range(players)]
        state = as_dice_state(play_game(game, bots, seed).state)
        rounds.append(len(state.round_points))
        points.append(float(np.sum(state.round_points)))
        wins.append(state.returns())
    seconds = time.perf_counter() - start
    scalar = _figures(np.array(rounds, float), np.array(points), np.array(wins))
    params = batch.check_params(players, {})
    seeds = np.arange(10**9, 10**9 + batch_games, dtype=np.uint64)
    r = batch.play(seeds, ["benchmark"] * players, params)
    fast = _figures(
        r.length.astype(float),
        r.extra["round_points"].sum(axis=1).astype(float),
        r.wins.astype(float),
    )
    print(
        f"statistics: scalar engine {scalar_games} games ({scalar_games / seconds:.0f} games/s)"
        f" vs batch engine {batch_games} games, {players} players, benchmark self-play"
    )
    for name, a in scalar.items():
        b = fast[name]
        se = float(np.sqrt(a.var(ddof=1) / len(a) + b.var(ddof=1) / len(b)))
        z = (a.mean() - b.mean()) / se
        print(f"  {name:18s} scalar {a.mean():8.4f}  batch {b.mean():8.4f}  z = {z:+.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=300_000)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--skip-compile", action="store_true", help="do not time compiling")
    parser.add_argument("--compare", type=int, default=0, help="scalar games to compare with")
    args = parser.parse_args()
    if not args.skip_compile:
        with tempfile.TemporaryDirectory() as cold:
            cold_s = first_call_seconds(cold)
            warm_s = first_call_seconds(cold)
        cache = Path(batch.__file__).parent / "__pycache__"
        print(
            f"first call (import + compile of play, cold cache): {cold_s:.1f} s; "
            f"with the on-disk cache: {warm_s:.1f} s "
            f"(cache: {os.environ.get('NUMBA_CACHE_DIR', cache)})"
        )
    c_speed, c_fields = c_run(args.games, args.players, args.repeat)
    b_speed, b_fields = batch_run(args.games, args.players, args.repeat)
    print(f"C reference (gcc -O2): {c_speed:,.0f} games/s ({args.players} players, 1 core)")
    print(f"batch engine (Numba):  {b_speed:,.0f} games/s ({args.players} players, 1 core)")
    print(f"ratio batch / C: {b_speed / c_speed:.2f}x (goal >= 0.5x)")
    same = c_fields[2:] == b_fields[2:]
    print(
        f"same games: {'yes' if same else 'NO'} (mean rounds, seat-0 mean score, seat-0 wins: "
        f"C {' '.join(c_fields[2:])}, batch {' '.join(b_fields[2:])})"
    )
    if args.compare:
        compare(args.compare, args.games, args.players)


if __name__ == "__main__":
    main()
