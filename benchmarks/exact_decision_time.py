"""Seconds per decision of the ``exact`` LAMA Dice bot, two players (not a test; issue 18).

Usage: python benchmarks/exact_decision_time.py [--games 4] [--seed 1] [--prefetch]
       [--pause 1.2] [--pause-all] [--max-work N]

Plays ``--games`` seeded two-player games (``exact`` in seat 0, ``heuristic`` in seat 1;
game ``g`` uses seed ``seed + g``) and times every decision of the exact seat: wall time
(``time.perf_counter``, what a player waits), CPU time of the deciding thread
(``time.thread_time``) and the *CPU wait*: that CPU time plus the CPU time the background
solve still needed when the decision began (read from the solve thread's own CPU clock),
a figure a loaded machine does not inflate (it overstates the wait on an idle core: under
load the pause gives the solve less than its length in CPU time). With ``--prefetch`` it also
prints a modelled idle-core wait: the decision's CPU plus the background solve's CPU beyond
``--pause`` (the solve running on its own core through the pause). Prints p50, p95 and max of
each over all games, and the process CPU time of the whole run (background solves included).

``--prefetch`` calls :meth:`~lamagames.bots.dice_exact.DiceExactBot.prepare` on every
position the exact seat sees, as the web app's driver does, and models the driver's pause
before each bot decision (``Settings.bot_delay``, 1.2 s by default): while a background solve
is under way the loop sleeps ``--pause`` seconds before timing the decision (no sleep when
nothing runs in the background, as nothing would change). The decisions themselves are the
same with and without ``--prefetch`` (checked here: the moves of each game are compared by
their digest with ``--compare``).

**What the pause models.** The web app's driver applies a new round's deal at once, tells the
bots the first decision (``prepare``) and then waits ``bot_delay`` (1.2 s at the normal pace,
0.6 s fast, 2.4 s slow) before *every* bot decision, the opponent's too. The terminal
(``lama play`` with a person) pauses 0.4 s after each narrated bot move or roll, and since
issue 18 tells the bots of a new position before that pause (``play_game(prepare=True)``);
before that the round's first solve started only after the deal's pause. So ``--pause 1.2``
models the web app at the normal pace, ``--pause 0.4`` the terminal. By default only the
exact seat's decisions get the pause (the heuristic opponent answers at once, as if a
person never thought): pessimistic. ``--pause-all`` also pauses before the opponent's
decisions while a solve runs, as the web app does for a bot opponent (a person's thinking
takes at least as long). Between rounds neither front end waits longer than one pause.

The machine these figures come from is shared (2 cores, other jobs running): wall times
include waiting for a core; the CPU figures do not.
"""

from __future__ import annotations

import argparse
import hashlib
import statistics
import threading
import time
from typing import Any

from lamagames.bots import make_bot
from lamagames.bots.dice_exact import DiceExactBot
from lamagames.core import make
from lamagames.core.rng import make_rng
from lamagames.dice.solver.two_player import Key, TwoPlayerSolver


class TimedExactBot(DiceExactBot):
    """The exact bot, recording the CPU seconds of each background solve (``solve_cpu``,
    keyed by thread ident)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.solve_cpu: dict[int, float] = {}

    def _solve_ahead(self, two: TwoPlayerSolver, key: Key) -> None:  # type: ignore[override]
        start = time.thread_time()
        super()._solve_ahead(two, key)
        self.solve_cpu[threading.get_ident()] = time.thread_time() - start


def cpu_done(thread: threading.Thread | None) -> tuple[int, float] | None:
    """(ident, CPU seconds used so far) of a running solve thread, else ``None``."""
    if thread is None or thread.ident is None or not thread.is_alive():
        return None
    try:
        return thread.ident, time.clock_gettime(time.pthread_getcpuclockid(thread.ident))
    except OSError:  # it ended meanwhile
        return None


def play(
    seed: int, prefetch: bool, pause: float, pause_all: bool = False, max_work: int = 0
) -> tuple[list[float], list[float], list[float], list[float], str, list[str]]:
    """One game; (wall s, thread CPU s, CPU wait s, modelled idle-core wait s) per exact
    decision, a digest of the moves and the basis of each decision (``exact``/``search``);
    ``max_work`` > 0 replaces :attr:`DiceExactBot.MAX_WORK`."""
    game = make("dice", num_players=2)
    bot_class: type[TimedExactBot] = TimedExactBot
    if max_work > 0:  # a subclass with the other budget (MAX_WORK is a class constant)
        bot_class = type("BudgetExactBot", (TimedExactBot,), {"MAX_WORK": max_work})
    exact = bot_class(game, 0, seed)
    bots = [exact, make_bot("heuristic", game, 1, seed)]
    rng = make_rng(seed, "chance")
    state = game.new_initial_state()
    walls: list[float] = []
    cpus: list[float] = []
    waits: list[float] = []
    idles: list[float] = []
    moves = hashlib.sha256()
    bases: list[str] = []
    while not state.is_terminal():
        player = state.current_player()
        if player < 0:
            state.apply_action(state.sample_chance_outcome(rng))
            continue
        if prefetch:
            exact.prepare(state)
        if player == 1 and pause_all and prefetch and exact.preparing():
            time.sleep(pause)  # the driver's pause before the opponent bot's decision
        if player == 0:
            if prefetch and exact.preparing():
                time.sleep(pause)  # the web driver's pause before a bot decision
            running = cpu_done(exact._ahead)
            wall, cpu = time.perf_counter(), time.thread_time()
            action = exact.step(state)
            bases.append(exact.last_basis)
            cpus.append(time.thread_time() - cpu)
            walls.append(time.perf_counter() - wall)
            left = 0.0
            if running is not None:  # the solve's CPU time after the decision began
                left = max(0.0, exact.solve_cpu.get(running[0], 0.0) - running[1])
            waits.append(cpus[-1] + left)
            total = exact.solve_cpu.get(running[0], 0.0) if running is not None else 0.0
            idles.append(cpus[-1] + max(0.0, total - pause))
        else:
            action = bots[player].step(state)
        moves.update(f"{player}:{action};".encode())
        state.apply_action(action)
    return walls, cpus, waits, idles, moves.hexdigest()[:16], bases


def summary(name: str, values: list[float]) -> str:
    """p50, p95 and max of ``values`` (seconds)."""
    p95 = statistics.quantiles(values, n=20)[-1]
    return f"{name}: p50 {statistics.median(values):.3f}, p95 {p95:.3f}, max {max(values):.3f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--prefetch", action="store_true", help="call prepare() (see above)")
    parser.add_argument("--pause", type=float, default=1.2, help="driver pause (s)")
    parser.add_argument(
        "--pause-all", action="store_true", help="pause before the opponent's decisions too"
    )
    parser.add_argument(
        "--compare", action="store_true", help="also play without prefetch; compare moves"
    )
    parser.add_argument(
        "--max-work", type=int, default=0,
        help="the bot's two-player solve budget (default: DiceExactBot.MAX_WORK)",
    )  # fmt: skip
    args = parser.parse_args()
    warm = make("dice", num_players=2)
    warm_state = warm.new_initial_state()
    warm_rng = make_rng(0, "chance")
    while warm_state.current_player() < 0:
        warm_state.apply_action(warm_state.sample_chance_outcome(warm_rng))
    make_bot("exact", warm, warm_state.current_player(), 0).step(warm_state)  # load kernels
    walls: list[float] = []
    cpus: list[float] = []
    waits: list[float] = []
    idles: list[float] = []
    bases: list[str] = []
    start = time.process_time()
    for g in range(args.games):
        w, c, waited, idle, digest, basis = play(
            args.seed + g, args.prefetch, args.pause, args.pause_all, args.max_work
        )
        bases += basis
        walls += w
        cpus += c
        waits += waited
        idles += idle
        line = f"game seed {args.seed + g}: {len(w)} decisions, moves {digest}"
        if args.compare:
            plain = play(args.seed + g, not args.prefetch, args.pause, False, args.max_work)[4]
            line += f", other mode {plain} ({'same' if plain == digest else 'DIFFERENT'})"
        print(line, flush=True)
    mode = f"prefetch, pause {args.pause} s" if args.prefetch else "no prefetch"
    if args.prefetch and args.pause_all:
        mode += " before both seats' decisions"
    budget = args.max_work or DiceExactBot.MAX_WORK
    print(
        f"exact vs heuristic, 2 players, {args.games} games, {mode}, MAX_WORK {budget:,}: "
        f"{len(walls)} decisions, {bases.count('exact')} exact, {bases.count('search')} search"
    )
    print(summary("wall s per decision", walls))
    print(summary("thread CPU s per decision", cpus))
    print(summary("CPU wait s per decision (solve CPU left at the decision)", waits))
    if args.prefetch:
        print(summary("modelled idle-core wait s (CPU + solve CPU beyond the pause)", idles))
    over = sum(1 for v in (idles if args.prefetch else waits) if v > 1.0)
    print(f"decisions over 1 s ({'modelled idle-core' if args.prefetch else 'CPU'} wait): {over}")
    print(f"process CPU s, whole run: {time.process_time() - start:.1f}")


if __name__ == "__main__":
    main()
