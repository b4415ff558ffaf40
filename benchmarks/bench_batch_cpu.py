"""CPU time of the batch engines against their C references, interleaved (not a test).

The shared development machine is loaded, so wall-clock rates swing with the neighbours and
runs taken one after the other see different loads. This script measures CPU time instead
(user + system seconds, as ``/usr/bin/time -f %U+%S`` prints) and alternates the two sides:
C, batch engine, C, batch engine, ... ``--runs`` times each, then reports the median of
each side and the ratio of the medians.

- C side: ``benchmarks/c/dice_ref.c`` or ``benchmarks/c/express_ref.c`` built with
  ``gcc -O2`` into a temporary folder; the CPU time of the whole child process comes from
  ``os.wait4``'s resource usage (user + system), the same figure ``/usr/bin/time`` reports.
- Batch side: :func:`lamagames.dice.batch.play` or
  :class:`lamagames.express.batch.ExpressBatch` (``init`` + ``play``) with the benchmark
  policy on one core, in this process after one small warm-up call (compile or cache load
  not counted), timed with :func:`time.process_time` (user + system of this process).

Both sides play the same seeded games (game ``g`` uses seed ``g``); the script checks the
totals agree and says so.

Usage: python benchmarks/bench_batch_cpu.py dice [--games 300000] [--players 4] [--runs 7]
       python benchmarks/bench_batch_cpu.py express [--games 200000] [--players 4] [--runs 7]
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent


def child_cpu(argv: list[str]) -> tuple[float, list[str]]:
    """Run ``argv``; its user + system CPU seconds (``os.wait4``) and its stdout fields."""
    with tempfile.TemporaryFile() as out:
        proc = subprocess.Popen(argv, stdout=out)
        _pid, status, usage = os.wait4(proc.pid, 0)
        proc.returncode = os.waitstatus_to_exitcode(status)
        if proc.returncode != 0:
            raise SystemExit(f"{argv[0]} failed with exit code {proc.returncode}")
        out.seek(0)
        return usage.ru_utime + usage.ru_stime, out.read().decode().split()


def dice_sides(
    folder: Path, games: int, players: int
) -> tuple[Callable[[], tuple[float, list[str]]], Callable[[], tuple[float, list[str]]]]:
    """The C and batch runs of LAMA Dice; each returns CPU seconds and comparable totals."""
    from lamagames.dice import batch

    exe = folder / "dice_ref"
    subprocess.run(["gcc", "-O2", "-o", str(exe), str(HERE / "c" / "dice_ref.c")], check=True)
    params = batch.check_params(players, {})
    seeds = np.arange(games, dtype=np.uint64)
    batch.play(seeds[:10], ["benchmark"] * players, params)  # compile or load before timing

    def c_side() -> tuple[float, list[str]]:
        seconds, fields = child_cpu([str(exe), str(games), str(players)])
        return seconds, fields[2:]  # mean rounds, seat-0 mean score, seat-0 wins

    def batch_side() -> tuple[float, list[str]]:
        start = time.process_time()
        r = batch.play(seeds, ["benchmark"] * players, params)
        seconds = time.process_time() - start
        totals = [f"{r.length.mean():.4f}", f"{r.scores[:, 0].mean():.4f}",
                  str(int(r.wins[:, 0].sum()))]  # fmt: skip
        return seconds, totals

    return c_side, batch_side


def express_sides(
    folder: Path, games: int, players: int
) -> tuple[Callable[[], tuple[float, list[str]]], Callable[[], tuple[float, list[str]]]]:
    """The C and batch runs of Lama Express; each returns CPU seconds and comparable totals."""
    from lamagames.express.batch import DEFAULT_TURN_LIMIT, ExpressBatch

    exe = folder / "express_ref"
    src = HERE / "c" / "express_ref.c"
    subprocess.run(["gcc", "-O2", "-o", str(exe), str(src)], check=True)
    engine = ExpressBatch(num_players=players, turn_limit=DEFAULT_TURN_LIMIT)
    engine.play(engine.init(np.arange(10, dtype=np.uint64)), ["benchmark"] * players)

    def c_side() -> tuple[float, list[str]]:
        seconds, fields = child_cpu([str(exe), str(games), str(players), str(DEFAULT_TURN_LIMIT)])
        return seconds, [fields[1], *fields[3:]]  # rolls, wins per seat, truncated

    def batch_side() -> tuple[float, list[str]]:
        start = time.process_time()
        states = engine.init(np.arange(games, dtype=np.uint64))
        engine.play(states, ["benchmark"] * players)
        seconds = time.process_time() - start
        wins = [str(int((states.winner == s).sum())) for s in range(players)]
        return seconds, [str(int(states.rolls.sum())), *wins, str(int((states.winner < 0).sum()))]

    return c_side, batch_side


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("game", choices=["dice", "express"])
    parser.add_argument("--games", type=int, default=0, help="default 300000 dice, 200000 express")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--runs", type=int, default=7, help="runs of each side, alternated")
    args = parser.parse_args()
    if shutil.which("gcc") is None:
        sys.exit("gcc is needed for the C reference")
    games = args.games or (300_000 if args.game == "dice" else 200_000)
    with tempfile.TemporaryDirectory() as tmp:
        sides = dice_sides if args.game == "dice" else express_sides
        c_side, batch_side = sides(Path(tmp), games, args.players)
        c_times, b_times, same = [], [], True
        for run in range(args.runs):
            c_s, c_totals = c_side()
            b_s, b_totals = batch_side()
            same = same and c_totals == b_totals
            c_times.append(c_s)
            b_times.append(b_s)
            print(f"run {run + 1}: C {c_s:.3f} s CPU, batch {b_s:.3f} s CPU", flush=True)
    c_med, b_med = statistics.median(c_times), statistics.median(b_times)
    print(f"{args.game}, {args.players} players, benchmark policy, {games} games, "
          f"{args.runs} interleaved runs each, CPU time (user + system)")  # fmt: skip
    print(f"C reference (gcc -O2): median {c_med:.3f} s, {games / c_med:,.0f} games/s "
          f"(runs {min(c_times):.3f} .. {max(c_times):.3f} s)")  # fmt: skip
    print(f"batch engine (Numba):  median {b_med:.3f} s, {games / b_med:,.0f} games/s "
          f"(runs {min(b_times):.3f} .. {max(b_times):.3f} s)")  # fmt: skip
    print(f"ratio batch / C (speed, from the medians): {c_med / b_med:.2f}x")
    print(f"same games on both sides: {'yes' if same else 'NO'}")


if __name__ == "__main__":
    main()
