"""CPU seconds Numba spends compiling a compiled bot's kernels on a cold cache (issue 19).

Usage: python benchmarks/compile_times.py [--kind search] [--players 2] [--cache DIR]

Runs, in a child process with an empty ``NUMBA_CACHE_DIR`` (or ``--cache``), what ``lama
play``'s background warm-up runs for the kind (:func:`lamagames.cli.warmup.warm_bots`) and
prints the CPU seconds (``time.process_time``: not inflated by a loaded machine, what a
person on an idle machine waits) of every compile Numba reports (its ``numba:compile``
event), as a tree: each line a function and the argument types it was compiled for, its
time including the compiles nested in it. Then the total of the warm-up and the part spent
in LLVM (Numba's ``numba:llvm_lock`` event).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from typing import Any


def child(kind: str, players: int, depth: int) -> None:
    """Warm the kind up in this process and print the compile tree."""
    from numba.core import event

    lines: list[tuple[int, str, float]] = []
    llvm = [0.0]

    class Compiles(event.Listener):
        def __init__(self) -> None:
            self.stack: list[float] = []

        def on_start(self, ev: Any) -> None:
            self.stack.append(time.process_time())

        def on_end(self, ev: Any) -> None:
            started = self.stack.pop()
            dispatcher = ev.data.get("dispatcher")
            name = getattr(getattr(dispatcher, "py_func", None), "__qualname__", str(dispatcher))
            args = str(ev.data.get("args"))
            lines.append((len(self.stack), f"{name} {args[:70]}", time.process_time() - started))

    class Llvm(event.Listener):
        def on_start(self, ev: Any) -> None:
            self.started = time.process_time()

        def on_end(self, ev: Any) -> None:
            llvm[0] += time.process_time() - self.started

    event.register("numba:compile", Compiles())  # type: ignore[no-untyped-call]
    event.register("numba:llvm_lock", Llvm())  # type: ignore[no-untyped-call]
    from lamagames.cli.warmup import warm_bots
    from lamagames.core.registry import make

    game = make("dice", num_players=players)
    started = time.process_time()
    warm_bots(game, [kind], 1)
    total = time.process_time() - started
    # Events end innermost first: print each compile after its nested ones, indented.
    for level, text, seconds in lines:
        if level <= depth:
            print(f"{seconds:7.2f}  {'  ' * level}{text}")
    print(f"{kind}, {players} seats: warm-up {total:.2f} CPU s, of which Numba compiles "
          f"{sum(s for level, _, s in lines if level == 0):.2f} (LLVM {llvm[0]:.2f})")  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--kind", default="search", help="search or exact")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--depth", type=int, default=1, help="nesting levels shown")
    parser.add_argument("--cache", default=None, help="reuse this Numba cache (warm)")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args.kind, args.players, args.depth)
        return
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"load average {load:.1f}")
    with tempfile.TemporaryDirectory() as empty:
        env = {**os.environ, "NUMBA_CACHE_DIR": args.cache or empty}
        command = [sys.executable, __file__, "--child", "--kind", args.kind,
                   "--players", str(args.players), "--depth", str(args.depth)]  # fmt: skip
        subprocess.run(command, env=env, check=True)


if __name__ == "__main__":
    main()
