"""Speed of the Lama Express batch engine against a C reference (a benchmark, not a test).

Compiles ``benchmarks/c/express_ref.c`` (the same rules and benchmark policy, standard board,
E-4 default colours) with ``gcc -O2`` into a temporary folder and runs it; then plays the same
games with :class:`lamagames.express.batch.ExpressBatch` on one core (the kernels are serial).
Both seed game ``i`` with ``i`` the same way, so they play the very same games: the script
checks that the totals (rolls, wins per seat, truncations) are equal.

Prints games/s of C and of the batch engine in CPU time of one core (best of ``--repeat`` runs
each, since the machine may be shared), their ratio (goal: >= 0.3), and the Numba compile
times measured in fresh processes: a cold start with an empty on-disk cache and a warm start
that loads the cache.

Usage: python benchmarks/bench_batch_express.py [--games 20000] [--players 4] [--repeat 3]
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from lamagames.express.batch import DEFAULT_TURN_LIMIT, ExpressBatch

HERE = Path(__file__).resolve().parent
SOURCE = HERE / "c" / "express_ref.c"
FIRST_CALL = (
    "import time; t = time.perf_counter(); c = time.process_time(); import numpy as np; "
    "from lamagames.express.batch import ExpressBatch; "
    "e = ExpressBatch(num_players={players}); s = e.init(np.arange(2)); "
    "e.play(s, ['benchmark'] * {players}); e.legal_mask(s); e.step(s, np.zeros(2, np.int64)); "
    "print(time.perf_counter() - t, time.process_time() - c)"
)


def run_c(folder: Path, games: int, players: int, limit: int) -> tuple[float, list[int]]:
    """Compile (once) and run the C reference: seconds and totals (rolls, wins..., truncated)."""
    binary = folder / "express_ref"
    if not binary.exists():
        subprocess.run(["gcc", "-O2", "-o", str(binary), str(SOURCE)], check=True)
    out = subprocess.run(
        [str(binary), str(games), str(players), str(limit)],
        check=True,
        capture_output=True,
        text=True,
    ).stdout.split()
    return float(out[2]), [int(out[1]), *(int(v) for v in out[3:])]


def run_batch(games: int, players: int, limit: int) -> tuple[float, list[int]]:
    """Play the games with the batch engine: seconds (init and play) and the same totals."""
    engine = ExpressBatch(num_players=players, turn_limit=limit)
    start = time.process_time()
    states = engine.init(np.arange(games, dtype=np.uint64))
    engine.play(states, ["benchmark"] * players)
    seconds = time.process_time() - start
    wins = [int((states.winner == s).sum()) for s in range(players)]
    return seconds, [int(states.rolls.sum()), *wins, int((states.winner < 0).sum())]


def first_call_seconds(players: int, cache: Path) -> tuple[float, float]:
    """Wall and CPU seconds from import to the first results in a fresh process using
    ``cache``."""
    env = dict(os.environ, NUMBA_CACHE_DIR=str(cache))
    src = str(HERE.parent / "src")
    env["PYTHONPATH"] = src + os.pathsep + env.get("PYTHONPATH", "")
    out = subprocess.run(
        [sys.executable, "-c", FIRST_CALL.format(players=players)],
        check=True,
        capture_output=True,
        text=True,
        env=env,
    )
    wall, cpu = out.stdout.split()[-2:]
    return float(wall), float(cpu)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=20_000)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--turn-limit", type=int, default=DEFAULT_TURN_LIMIT)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    if shutil.which("gcc") is None:
        sys.exit("gcc is needed for the C reference")
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        cold = first_call_seconds(args.players, folder / "numba-cache")
        warm = first_call_seconds(args.players, folder / "numba-cache")
        run_batch(10, args.players, args.turn_limit)  # load the kernels in this process
        shape = (args.games, args.players, args.turn_limit)
        c_runs = [run_c(folder, *shape) for _ in range(args.repeat)]
        b_runs = [run_batch(*shape) for _ in range(args.repeat)]
    c_seconds, c_totals = min(c_runs)
    b_seconds, b_totals = min(b_runs)
    c_rate, b_rate = args.games / c_seconds, args.games / b_seconds
    print(f"Lama Express, {args.players} players, benchmark policy, {args.games} games")
    print(f"C reference (gcc -O2):  {c_rate:10.0f} games/s")
    print(f"batch engine, 1 core:   {b_rate:10.0f} games/s")
    print(f"ratio batch / C:        {b_rate / c_rate:10.2f}  (goal >= 0.3)")
    rolls, c_rolls = b_totals[0] / args.games, c_totals[0] / args.games
    print(f"mean rolls per game:    {rolls:10.2f}  (C {c_rolls:.2f})")
    print(f"same games as C:        {'yes' if b_totals == c_totals else 'NO'}  totals {b_totals}")
    print(f"first call, cold cache: {cold[0]:10.2f} s wall, {cold[1]:.2f} s CPU (compile, cache)")
    print(f"first call, warm cache: {warm[0]:10.2f} s wall, {warm[1]:.2f} s CPU (load the cache)")


if __name__ == "__main__":
    main()
