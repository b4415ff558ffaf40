"""Speed and size of the compiled two-player LAMA Dice solver (not a test; figures for
docs/solver.md, issue 10: "a fresh deal solved in under 10 s on one core").

Usage: python benchmarks/bench_two_player.py [--deals 3] [--scores 23 17] [--seed 1]

The solver's disk cache is switched off (``LAMAGAMES_SOLVER_CACHE=off``) so every table is
solved; Numba's own compiled-code cache stays on (``cache=True``). Prints the time to
compile/load the kernels, to group the rolls, and per deal (the same deals as
``bench_solver.py``: ``random.Random(seed)``, two players) the indices of the table, the
level pairs, the solve time, states per second, the peak memory of the value arrays
(``tracemalloc``), the most three-llama pair iterations and the Bellman residual; then the
first deal again at the given later-round scores (chips, D-4).
"""

from __future__ import annotations

import argparse
import os
import random
import resource
import time
import tracemalloc

os.environ["LAMAGAMES_SOLVER_CACHE"] = "off"

from lamagames.core.registry import make
from lamagames.dice.rules import STANDARD_DICE
from lamagames.dice.solver.pair_table import (
    greedy_chain,
    roll_groups,
    solve_table,
    table_bytes,
    table_states,
)
from lamagames.dice.state import DiceState

DICE = tuple(STANDARD_DICE)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--deals", type=int, default=3, help="fresh deals to solve")
    parser.add_argument("--seed", type=int, default=1, help="seed of the deals")
    parser.add_argument(
        "--scores", type=int, nargs=2, default=(23, 17), help="scores of the later-round deal"
    )
    args = parser.parse_args()

    start = time.perf_counter()
    roll_groups(DICE)
    groups = roll_groups(DICE)
    print(
        f"roll groups: {len(groups.g_prob):,} groups, {len(groups.d_ent):,} discards, "
        f"{len(groups.m_prob):,} non-matching classes over 2,187 patterns, built in "
        f"{time.perf_counter() - start:.2f} s"
    )
    start = time.perf_counter()
    solve_table(DICE, (1, 0, 0, 0, 0, 0, 1), (0, 0, 1, 0, 0, 0, 0), 0b1000001, 1, 1, False)
    print(f"compile/load kernels (first tiny solve): {time.perf_counter() - start:.2f} s")

    game = make("dice", num_players=2)
    rng = random.Random(args.seed)
    deals = []
    for _ in range(args.deals):
        state = game.new_initial_state()
        assert isinstance(state, DiceState)
        while state.is_chance_node():
            state.apply_action(state.sample_chance_outcome(rng))
        deals.append((tuple(state.rows[0]), tuple(state.rows[1])))
    for n, (a, b) in enumerate(deals):
        report(f"fresh deal {n} (scores 0 0)", a, b, 0, 0)
    a, b = deals[0]
    report(f"deal 0 at scores {args.scores[0]} {args.scores[1]}", a, b, *args.scores)
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"process peak RSS: {rss:.0f} MB")


def report(label: str, a: tuple[int, ...], b: tuple[int, ...], sa: int, sb: int) -> None:
    """Solve one table from scratch and print its figures."""
    states = table_states(a, b, 127)
    pairs = len(greedy_chain(sa)) * len(greedy_chain(sb))
    tracemalloc.start()
    start = time.perf_counter()
    table = solve_table(DICE, a, b, 127, sa, sb, use_disk_cache=False)
    seconds = time.perf_counter() - start
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    start = time.perf_counter()
    residual = table.bellman_residual()
    check = time.perf_counter() - start
    found = table.find(a, b, 127, sa, sb)
    assert found is not None
    margin, own = table.value(found)
    print(
        f"{label}: rows {''.join(map(str, a))} vs {''.join(map(str, b))}, {states:,} indices "
        f"x {pairs} level pairs x 2 seats = {2 * states * pairs:,} states; solved in "
        f"{seconds:.2f} s ({2 * states * pairs / seconds / 1e6:.2f} M states/s); peak "
        f"{peak / 1e6:.0f} MB traced (estimate {table_bytes(a, b, 127, sa, sb) / 1e6:.0f} MB); "
        f"pair iterations {table.pair_iterations}; residual {residual:.1e} ({check:.2f} s); "
        f"margin of the seat to act {margin:+.4f}, its expected points {own:.4f}"
    )


if __name__ == "__main__":
    main()
