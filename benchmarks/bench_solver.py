"""Speed and size of the exact LAMA Dice solver (not a test; figures for docs/solver.md).

Usage: python benchmarks/bench_solver.py [--levels 10] [--masks 4] [--all] [--deals 3]
       python benchmarks/bench_solver.py --compare 400

The disk cache is switched off (``LAMAGAMES_SOLVER_CACHE=off``) so every table is solved.
Prints: the row universe and the transition structure; per llama row the solve time, the
fixed-point iterations and the Bellman residual; state counts of the whole one-player
problem; and for two players the size bound of fresh deals and the time of the Python
reference recursion on smaller positions (a fresh deal is beyond it; the compiled two-player
solver that handles fresh deals is timed by ``benchmarks/bench_two_player.py``).
"""

from __future__ import annotations

import argparse
import os
import random
import time

os.environ["LAMAGAMES_SOLVER_CACHE"] = "off"

from lamagames.core.registry import make
from lamagames.dice.solver import LastStandingSolver
from lamagames.dice.solver.kernel import warm_up
from lamagames.dice.solver.last_standing import NotTractableError
from lamagames.dice.solver.space import reachable_rows
from lamagames.dice.solver.two_player import (
    TwoPlayerSolver,
    state_bound,
)
from lamagames.dice.state import DiceState


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--levels", type=int, default=10, help="score levels per table")
    parser.add_argument("--masks", type=int, default=4, help="llama rows to time")
    parser.add_argument("--all", action="store_true", help="solve all 127 llama rows")
    parser.add_argument("--deals", type=int, default=3, help="two-player deals to try")
    parser.add_argument(
        "--compare", type=int, default=0, help="last-standing positions: exact vs heuristic"
    )
    args = parser.parse_args()
    if args.compare:
        compare_last_standing(args.compare)
        return

    start = time.perf_counter()
    warm_up()
    print(f"compile/load kernels: {time.perf_counter() - start:.2f} s")
    solver = LastStandingSolver(use_disk_cache=False)
    start = time.perf_counter()
    _group_ptr, group_prob, _succ_ptr, succ, _bust_prob = solver.structure
    print(
        f"row universe: {solver.universe.size} rows; roll classes: {len(solver.rolls.probs)}; "
        f"matching groups: {len(group_prob)}; discard successors: {len(succ)}; "
        f"built in {time.perf_counter() - start:.2f} s"
    )
    reach = sum(reachable_rows(m) for m in range(1, 128))
    levels = args.levels
    print(
        f"one-player states: universe {solver.universe.size} x 127 llama rows x {levels} "
        f"score levels = {solver.universe.size * 127 * levels:,}; reachable rows over all "
        f"llama rows {reach:,} (x {levels} levels = {reach * levels:,})"
    )
    masks = list(range(1, 128)) if args.all else [127, 64, 1, 0b0101010][: args.masks]
    total = 0.0
    worst_residual = 0.0
    for mask in masks:
        score = levels - 1
        solver._tables.clear()
        table = solver.table(mask, score)
        total += table.solve_seconds
        if not args.all or mask in (1, 64, 127):
            residual = table.bellman_residual()
            worst_residual = max(worst_residual, residual)
            print(
                f"  llama row {mask:07b}: {table.levels} levels solved in "
                f"{table.solve_seconds:.2f} s, max fixed-point iterations "
                f"{int(table.iterations.max())}, Bellman residual {residual:.2e}"
            )
    print(
        f"{len(masks)} llama rows: {total:.2f} s in all, {total / len(masks):.2f} s each; "
        f"worst residual {worst_residual:.2e}"
    )

    game = make("dice", num_players=2)
    rng = random.Random(1)
    for deal in range(args.deals):
        state = game.new_initial_state()
        assert isinstance(state, DiceState)
        while state.is_chance_node():
            state.apply_action(state.sample_chance_outcome(rng))
        key = (tuple(state.rows[0]), tuple(state.rows[1]), 127, 0, 0)
        print(f"fresh deal {deal}: state bound {state_bound(key):,} (row, row, llama row) combos")
    two = TwoPlayerSolver(
        LastStandingSolver(use_disk_cache=False), max_states=10**6, engine="recursion"
    )
    for rows, llama in [(("3", "5"), "1L"), (("12", "46"), "35L"), (("125", "46L"), "36L")]:
        key = (_counts(rows[0]), _counts(rows[1]), _mask(llama), 0, 0)
        start = time.perf_counter()
        try:
            value = two.value(key)
            outcome = f"margin {value.margin:+.4f}"
        except NotTractableError as exc:
            outcome = str(exc)
        print(
            f"two players {rows[0]} vs {rows[1]}, llama row {llama}: bound "
            f"{state_bound(key):,}, {two.states:,} states so far, {outcome}, "
            f"{time.perf_counter() - start:.2f} s (one-player tables included)"
        )


def compare_last_standing(positions: int) -> None:
    """Mean further points of the round for the ``exact`` and ``heuristic`` bots playing
    out the same random last-standing positions (D-8.5) with the same dice streams."""
    from lamagames.bots.dice import DiceHeuristicBot
    from lamagames.bots.dice_exact import DiceExactBot
    from lamagames.dice.game import DiceGame
    from lamagames.dice.rules import Phase

    game = DiceGame(num_players=2)
    rng = random.Random(3)
    totals = {"exact": 0.0, "heuristic": 0.0}
    diffs: list[float] = []
    for trial in range(positions):
        row = [0] * 7
        for _ in range(rng.randint(2, 5)):
            row[rng.choice([0, 1, 2, 3, 4, 4, 5, 6, 6])] += 1
        score = rng.randint(0, 15)
        for name, bot_type in (("exact", DiceExactBot), ("heuristic", DiceHeuristicBot)):
            state = game.state_from_dict(_last_standing_dict(row, score))
            bot = bot_type(game, 0)
            dice_rng = random.Random(trial)
            while state.phase not in (Phase.DEAL, Phase.OVER):
                if state.is_chance_node():
                    state.apply_action(state.sample_chance_outcome(dice_rng))
                else:
                    state.apply_action(bot.step(state))
            totals[name] += state.scores[0] - score
            diffs.append(float(state.scores[0] - score) * (1 if name == "heuristic" else -1))
    print(
        f"{positions} last-standing positions (2-5 cards, full llama row, score 0-15): mean "
        f"further points exact {totals['exact'] / positions:.3f}, heuristic "
        f"{totals['heuristic'] / positions:.3f}"
    )
    paired = [diffs[2 * i] + diffs[2 * i + 1] for i in range(positions)]
    mean = sum(paired) / positions
    sd = (sum((d - mean) ** 2 for d in paired) / (positions - 1)) ** 0.5
    print(
        f"heuristic minus exact, paired: {mean:.3f} points, 95% CI "
        f"[{mean - 1.96 * sd / positions**0.5:.3f}, {mean + 1.96 * sd / positions**0.5:.3f}]"
    )


def _last_standing_dict(row: list[int], score: int) -> dict[str, object]:
    """Seat 0 to act with ``row``, seat 1 has quit holding one 4 (D-8.5); full llama row."""
    other = [0, 0, 0, 1, 0, 0, 0]
    rest = [6 - 1 - row[s] - other[s] if s < 6 else 7 - 1 - row[s] for s in range(7)]
    setaside = [min(r, 5 if s < 6 else 6) for s, r in enumerate(rest)]
    return {
        "phase": 1, "player": 0, "starter": 0, "last_actor": 0, "deal_seat": 2, "round": 1,
        "dice": None, "scores": [score, 0], "rows": [row, other], "quit": [False, True],
        "llama_row": [1] * 7, "setaside": setaside,
        "discards": [r - a for r, a in zip(rest, setaside, strict=True)],
        "give_queue": [], "round_points": [], "history": [],
    }  # fmt: skip


def _counts(text: str) -> tuple[int, ...]:
    return tuple(text.count(c) for c in "123456L")


def _mask(text: str) -> int:
    return sum(1 << "123456L".index(c) for c in text)


if __name__ == "__main__":
    main()
