"""Exact solution of LAMA Dice for the last player standing (D-8.5).

**Objective.** From a position in which every other seat has quit (D-6, D-7), the remaining
player minimises the *expected further points of the round*: the D-10 score of the row at
the round's end minus the points of the chips given back from now to the end of the round
(D-8.1 after three llamas; D-10 after emptying the row; D-4: black 10, white 1). That is the
expected change of the player's score from now until the round has been scored.

**State.** ``(row, llama row, score)``; see :mod:`lamagames.dice.solver.space` for why this
is complete. The llama row is fixed (no take under D-8.5), so one table per llama row
(bit mask) holds ``V[s, i]`` for scores ``s = 0 .. levels - 1`` and universe rows ``i``.

**Algorithm.** :func:`lamagames.dice.solver.kernel.solve_levels`: one ordered sweep (scores
up, rows by card count up); each state's three-llama self-loop is solved by value iteration
to ``1e-15``; :meth:`LastStandingTable.bellman_residual` then checks a full Bellman backup.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Final

import numpy as np
import numpy.typing as npt

from lamagames.core.errors import LamaError, ParameterError, quoted
from lamagames.dice import primitives
from lamagames.dice.actions import NUM_SYMBOLS
from lamagames.dice.game import DiceGame
from lamagames.dice.primitives import best_chip, row_score
from lamagames.dice.rules import (
    BUST_MASKS,
    STANDARD_DICE,
    validate_dice,
)
from lamagames.dice.solver import cache, kernel
from lamagames.dice.solver.space import (
    KEY_RADIX,
    PRESENCE_SCORES,
    PositionError,
    RollTable,
    RowUniverse,
    as_int,
    check_copies,
    check_counts,
    check_give,
    presence,
    presence_row,
    roll_table,
    row_universe,
    symbols_of,
)

#: Bump when the tables' meaning or layout changes (part of the disk cache key).
SOLVER_VERSION: Final = 1
#: Score levels are solved in blocks of this many (scores only drop during a round, D-8.1,
#: so a table for score ``s`` needs levels ``0 .. s``; they are rounded up to a block).
LEVEL_BLOCK: Final = 10
#: Most tables kept in memory per solver (the disk cache keeps the rest).
MEMORY_TABLES: Final = 24
#: Size budget: most score levels of one table (scores ``0 .. MAX_LEVELS - 1``). A level is
#: 45,305 rows x 8 bytes = 0.36 MB, so a table is at most about 36 MB in memory and on disk
#: and solves in a few seconds; the standard end score 40 (D-11) needs 40 levels and every
#: end score up to 100 stays exact. A higher score raises :class:`NotTractableError` (the
#: cost grows linearly: score 1995 would need a 725 MB table and 1.7 GB while solving).
MAX_LEVELS: Final = 100
_WEIGHTS: Final = KEY_RADIX ** np.arange(NUM_SYMBOLS, dtype=np.int64)
#: ``group_ptr, group_prob, succ_ptr, succ, bust_prob`` of :func:`kernel.build_transitions`.
Transitions = tuple[
    npt.NDArray[np.int64],
    npt.NDArray[np.float64],
    npt.NDArray[np.int64],
    npt.NDArray[np.int64],
    npt.NDArray[np.float64],
]


class NotTractableError(LamaError):
    """An exact solve would need more memory or time than allowed (last standing: a score
    beyond :data:`MAX_LEVELS`; two players: see :mod:`lamagames.dice.solver.two_player`)."""


@dataclass
class LastStandingTable:
    """Solved values for one llama row.

    Attributes:
        mask: the llama row as a bit mask (bit ``s`` = card of symbol ``s`` present).
        values: float64 array ``(levels, n)``: expected further points of the round at the
            start of a turn, score ``s`` and universe row ``i`` (points; lower is better).
        iterations: int64 array ``(levels, n)`` of fixed-point iterations (0 when loaded
            from the disk cache).
        solve_seconds: wall time of the solve (0.0 when loaded from the disk cache).
    """

    mask: int
    values: npt.NDArray[np.float64]
    iterations: npt.NDArray[np.int64]
    solve_seconds: float
    rolls: RollTable = field(repr=False)
    universe: RowUniverse = field(repr=False)
    structure: Transitions = field(repr=False)

    @property
    def levels(self) -> int:
        """Number of score levels (scores ``0 .. levels - 1``)."""
        return int(self.values.shape[0])

    def bellman_residual(self) -> float:
        """``max |T V - V|`` over all states of this table, in points."""
        quit_values, bust_values = _kernel_inputs(self.universe, self.mask)
        return float(
            kernel.bellman_residual(
                self.values,
                quit_values,
                bust_values,
                self.structure,
                self.rolls.three_llamas,
            )
        )

    def _score(self, score: int) -> int:
        """``score`` as an ``int``; refuses a score that is not an integer (``int`` or NumPy)
        of ``0 .. levels - 1``."""
        value = as_int(score)
        if value is None:  # bool and float too
            raise PositionError(f"score must be an integer, got {quoted(score)}")
        if not 0 <= value < self.levels:
            raise PositionError(f"score {value} is outside 0..{self.levels - 1}")
        return value

    def _row(self, row: tuple[int, ...] | list[int]) -> int:
        """Universe index of a row a last player standing can hold beside this llama row;
        the checks of every query (shared with the two-player solver's)."""
        counts = check_counts(row)
        if primitives.is_empty(counts):
            raise PositionError("the row is empty: the round is over (D-9)")
        check_copies((counts,), self.mask)
        i = self.universe.lookup(counts)
        if i < 0:
            raise PositionError(
                f"row {list(counts)} is not a row a player can hold (at most 6 of a number, "
                "7 llamas, 12 cards: D-3, D-5)"
            )
        return i

    def _index(self, row: tuple[int, ...] | list[int], score: int) -> tuple[int, int]:
        """The checked score and the row's universe index."""
        return self._score(score), self._row(row)

    def value(self, row: tuple[int, ...] | list[int], score: int) -> float:
        """Expected further points at the start of a turn (optimal play), in points.

        Raises:
            PositionError: a row that is not 7 non-negative integer counts, empty, or
                impossible (more cards of a symbol with the llama row than exist, D-3;
                more than a player can hold), or a score that is not an integer inside the
                table.
        """
        level, i = self._index(row, score)
        return float(self.values[level, i])

    def quit_value(self, row: tuple[int, ...] | list[int]) -> float:
        """Points of quitting now: the row's D-10 score (D-7).

        Raises:
            PositionError: the row is refused as by :meth:`value`.
        """
        counts = check_counts(row)
        self._row(counts)
        return float(row_score(counts))

    def roll_value(self, row: tuple[int, ...] | list[int], score: int) -> float:
        """Expected further points of rolling now and then playing optimally (D-8).

        Raises:
            PositionError: as :meth:`value`.
        """
        score, i = self._index(row, score)
        quit_values, bust_values = _kernel_inputs(self.universe, self.mask)
        _, rest, p3, give = kernel._parts(
            self.values,
            score,
            i,
            quit_values,
            bust_values,
            self.structure,
            self.rolls.three_llamas,
        )
        stay = float(self.values[score, i])
        return float(p3 * min(stay, give) + rest)

    def after_discard_value(self, row_after: tuple[int, ...] | list[int], score: int) -> float:
        """Expected further points once a discard has left ``row_after`` (D-8.2): the next
        turn's value, or minus the best chip if the row is empty (D-9, D-10).

        Raises:
            PositionError: as :meth:`value` (an empty row is allowed here).
        """
        score = self._score(score)
        if primitives.is_empty(check_counts(row_after)):
            return -float(best_chip(score))
        return self.value(row_after, score)

    def give_value(self, row: tuple[int, ...] | list[int], score: int, chip: int) -> float:
        """Expected further points after three llamas (D-8.1) when giving back a chip worth
        ``chip`` points (10 black, 1 white, 0 none); the same player then acts again.

        Raises:
            PositionError: as :meth:`value`, or the chip is not 0, 1 or 10 or cannot be
                given with this score.
        """
        score = self._score(score)
        chip = check_give(score, chip)  # D-4, D-8.1
        return -float(chip) + self.value(row, score - chip)


def bust_chance(
    rolls: RollTable,
    row: tuple[int, ...] | list[int],
    llama_row: tuple[int, ...] | list[int],
    last_standing: bool,
) -> float:
    """Probability that the next roll is a bust (D-8.4, or D-8.5 when ``last_standing``):
    not three llamas, no die matches the row, and (last standing or no die shows a symbol
    still in the llama row)."""
    total = 0.0
    for counts, p in zip(rolls.counts.tolist(), rolls.probs.tolist(), strict=True):
        a, b, c = symbols_of(counts)
        if primitives.roll_result(row, llama_row, a, b, c, last_standing) == primitives.BUST:
            total += p
    return total


class LastStandingSolver:
    """Solves and caches :class:`LastStandingTable` objects for one dice set (D-1).

    Args:
        dice: the three dice faces (validated by :class:`DiceGame`, D-1).
        use_disk_cache: read and write tables in :mod:`lamagames.dice.solver.cache`.
        max_levels: the size budget, most score levels of one table (default
            :data:`MAX_LEVELS`, at least :data:`LEVEL_BLOCK`); :meth:`table` refuses
            higher scores.

    Raises:
        ParameterError: the dice are not a list or tuple of three face strings or break
            D-1, or ``max_levels`` is below one block.
    """

    def __init__(
        self,
        dice: tuple[str, ...] | list[str] = STANDARD_DICE,
        use_disk_cache: bool = True,
        max_levels: int = MAX_LEVELS,
    ) -> None:
        dice = _dice_argument(dice)
        if type(max_levels) is not int or max_levels < LEVEL_BLOCK:
            raise ParameterError(
                f"max_levels must be an integer >= {LEVEL_BLOCK}, got {max_levels!r}"
            )
        game = DiceGame(num_players=2, dice=list(dice))
        self.dice: tuple[str, ...] = tuple(game.dice)
        self.rolls = roll_table(game)
        self.universe = row_universe()
        self.use_disk_cache = use_disk_cache
        self.max_levels = max_levels
        self._tables: dict[int, LastStandingTable] = {}
        self._structure: Transitions | None = None

    def covers(self, score: int) -> bool:
        """Whether a table covering ``score`` fits the size budget (``max_levels``).
        ``False`` for a score no table covers: negative or not an integer (:meth:`table`
        refuses those with :class:`PositionError`)."""
        value = as_int(score)
        if value is None or value < 0:
            return False
        return _levels(value) <= self.max_levels

    def has_table(self, llama_row: tuple[int, ...] | list[int] | int, score: int = 0) -> bool:
        """Whether :meth:`table` would answer ``llama_row`` and ``score`` from memory, without
        solving (``False`` for bad input, which :meth:`table` refuses)."""
        try:
            mask = _mask(llama_row)
        except PositionError:
            return False
        value = as_int(score)
        table = self._tables.get(mask)
        return value is not None and value >= 0 and table is not None and table.levels > value

    def table(
        self, llama_row: tuple[int, ...] | list[int] | int, score: int = 0
    ) -> LastStandingTable:
        """The solved table of a llama row (count vector of 0/1, or bit mask) covering
        ``score``.

        Raises:
            PositionError: an empty or malformed llama row (an empty llama row ends the
                round, D-9), or a negative score.
            NotTractableError: ``score`` is beyond the size budget (:meth:`covers`).
        """
        mask = _mask(llama_row)
        value = as_int(score)
        if value is None or value < 0:
            raise PositionError(f"score must be a non-negative integer, got {score!r}")
        score = value
        table = self._tables.get(mask)
        if table is not None and table.levels > score:
            return table
        levels = _levels(score)
        if levels > self.max_levels:
            megabytes = levels * self.universe.size * 8 / 1e6
            raise NotTractableError(
                f"score {score} needs a last-standing table of {levels} score levels "
                f"(about {megabytes:,.0f} MB), more than the limit of {self.max_levels} "
                "score levels"
            )
        table = self._solve(mask, levels)
        if len(self._tables) >= MEMORY_TABLES:
            self._tables.pop(next(iter(self._tables)))
        self._tables[mask] = table
        return table

    def _solve(self, mask: int, levels: int) -> LastStandingTable:
        u = self.universe
        shape = (levels, u.size)
        path = (
            cache.table_path(SOLVER_VERSION, self.dice, mask, levels)
            if self.use_disk_cache
            else None
        )
        structure = self.structure
        values = cache.load(path, shape)
        if values is not None:
            iterations = np.zeros(shape, dtype=np.int64)
            return LastStandingTable(mask, values, iterations, 0.0, self.rolls, u, structure)
        start = time.perf_counter()
        quit_values, bust_values = _kernel_inputs(u, mask)
        values, iterations = kernel.solve_levels(
            levels, quit_values, bust_values, structure, self.rolls.three_llamas
        )
        seconds = time.perf_counter() - start
        cache.store(path, values)
        return LastStandingTable(mask, values, iterations, seconds, self.rolls, u, structure)

    @property
    def structure(self) -> Transitions:
        """The matching-roll groups of every universe row (built on first use)."""
        if self._structure is None:
            u = self.universe
            self._structure = kernel.build_transitions(
                u.rows, u.index, _WEIGHTS, self.rolls.counts, self.rolls.probs
            )
        return self._structure


def _levels(score: int) -> int:
    """Score levels of a table covering ``score`` (rounded up to a :data:`LEVEL_BLOCK`)."""
    return LEVEL_BLOCK * (score // LEVEL_BLOCK + 1)


def _kernel_inputs(
    universe: RowUniverse, mask: int
) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
    """Quit values (D-10 score of each row) and bust values (score of the row joined by the
    llama row, D-8.4, through :data:`~lamagames.dice.rules.BUST_MASKS`) as float64 arrays
    of shape ``(n,)``, read from :data:`~lamagames.dice.solver.space.PRESENCE_SCORES` (D-10)."""
    quit_values = universe.scores.astype(np.float64)
    bust_values = PRESENCE_SCORES[BUST_MASKS[presence(universe.rows), mask]].astype(np.float64)
    return quit_values, bust_values


def _mask(llama_row: tuple[int, ...] | list[int] | int) -> int:
    flags = llama_row.tolist() if isinstance(llama_row, np.ndarray) else llama_row
    whole = as_int(flags)
    if whole is not None:
        mask = whole
    elif (
        isinstance(flags, list | tuple)
        and len(flags) == NUM_SYMBOLS
        and all(as_int(c) in (0, 1) for c in flags)
    ):
        mask = sum(1 << s for s in range(NUM_SYMBOLS) if flags[s])
    else:
        raise PositionError(
            f"a llama row is 7 flags of 0 or 1 (or a bit mask), got {quoted(llama_row)}"
        )
    if not 0 <= mask < 1 << NUM_SYMBOLS:
        raise PositionError(
            f"llama row mask {mask}: a mask of the 7 symbols is 1..{(1 << NUM_SYMBOLS) - 1}"
        )
    if primitives.is_empty(presence_row(mask)):
        raise PositionError("llama row mask 0: an empty llama row has ended the round (D-9)")
    return mask


def _dice_argument(dice: object) -> tuple[str, ...]:
    """``dice`` as a tuple of three face strings that meet D-1.

    Raises:
        ParameterError: not a list or tuple (naming the ``dice`` argument), or the D-1
            message of :func:`~lamagames.dice.rules.validate_dice`.
    """
    if not isinstance(dice, list | tuple):
        raise ParameterError(
            f"dice must be a list or tuple of three face strings (D-1), got {quoted(dice)}"
        )
    validate_dice(dice)
    return tuple(dice)


def get_solver(dice: Sequence[str] = STANDARD_DICE) -> LastStandingSolver:
    """A process-wide :class:`LastStandingSolver` for a dice set (tables shared); a list is
    taken as the tuple of its faces.

    Raises:
        ParameterError: ``dice`` is not a list or tuple of three face strings, or breaks D-1.
    """
    dice_key = _dice_argument(dice)
    with _SHARED_LOCK:  # one solver per dice set also when threads ask at once
        return _shared_solver(dice_key)


_SHARED_LOCK = threading.Lock()


@lru_cache(maxsize=8)
def _shared_solver(dice: tuple[str, ...]) -> LastStandingSolver:
    return LastStandingSolver(dice)
