"""The last player standing on its own rows only (D-8.5): a small exact table per decision.

Once every other seat has quit (D-6, D-7), the seat left plays alone until its row empties
(D-9), it busts (D-8.4, D-8.5) or it quits. Nothing is taken (D-8.5), so the llama row stays
as it is, and the seat's row only loses cards (D-8.2). Its score only changes on three
llamas (D-8.1), where giving back the best chip is optimal
(:func:`~lamagames.dice.solver.pair_table.greedy_chain` has the proof), so the score moves
down its greedy chain.

A :class:`SeatTable` is therefore rooted at the seat's row ``row0``, the llama row and its
score: its index space holds, per symbol, the counts ``0 .. row0[s]`` (one code per count,
the llama-row card fixed), a mixed-radix number in which every discard lowers the index.
The values are the same kernel the two-player tables use after a quit,
:func:`lamagames.dice.solver.kernel2p.solve_last_standing` (equal to the one-player
tables of :mod:`~lamagames.dice.solver.last_standing` to 1e-12, tested). A fresh deal of
six cards has at most 64 rows per level, against the 45,305 rows of a one-player table,
so a table is solved in well under a millisecond compiled and in a fraction of a second
interpreted; the ``exact`` bot solves one at its decisions as last player standing instead of
solving (and, on a new install, compiling) a one-player table (issue 19: a person who quit
at once waited 3.8 s for the bot's first move).

Values are *expected further points of the round* (lower is better for the seat), as in
:mod:`~lamagames.dice.solver.last_standing`: the D-10 row score at the round's end minus
the points of chips given back from now on.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

import numpy as np
import numpy.typing as npt

from lamagames.core.jit import choose
from lamagames.dice.actions import NUM_SYMBOLS
from lamagames.dice.primitives import row_score
from lamagames.dice.solver import kernel2p
from lamagames.dice.solver.pair_table import (
    greedy_chain,
    kernel_groups,
    left_after_discard,
    roll_groups,
)
from lamagames.dice.solver.space import SYMBOL_SCORES, PositionError, check_counts

#: Largest table solved (rows times score levels): about 0.1 CPU s compiled. A seat's rows
#: hold at most a few cards of each symbol, so only scores in the thousands come near it;
#: beyond it :func:`solve_seat` raises :class:`SeatTooLargeError`.
MAX_SEAT_WORK: Final = 5_000_000

Row = tuple[int, ...]
FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]


class SeatTooLargeError(PositionError):
    """The table would be larger than :data:`MAX_SEAT_WORK` (rows times score levels)."""


@dataclass(frozen=True)
class SeatTable:
    """Solved last-standing values of one seat (see the module docstring).

    Attributes:
        row0: the root row, counts per symbol (length 7).
        mask: the llama row as a bit mask (bit ``s``: the card of symbol ``s`` is there).
        chain: the scores of the greedy chain of the root's score, ascending
            (:func:`~lamagames.dice.solver.pair_table.greedy_chain`).
        radix: int64 ``(7,)``: the index of row ``r`` is ``sum(r[s] * radix[s])``.
        values: float64 ``(len(chain), prod(row0[s] + 1))``: expected further points of the
            round at the start of a turn, per chain level and row index (points).
    """

    row0: Row
    mask: int
    chain: list[int]
    radix: IntArray
    values: FloatArray

    def covers(self, row: Row, mask: int, score: int) -> bool:
        """Whether the table holds ``row`` (each count within the root's) at ``score`` (on
        the root's greedy chain) with llama row ``mask``."""
        return (
            mask == self.mask
            and score in self.chain
            and len(row) == NUM_SYMBOLS
            and all(0 <= c <= c0 for c, c0 in zip(row, self.row0, strict=True))
        )

    def value(self, row: Row, score: int) -> float:
        """Expected further points of the round at a turn with ``row`` and ``score``, under
        the best play (points, lower is better); an empty row has ``-best chip`` (D-9,
        D-10). Raises :class:`~lamagames.dice.solver.space.PositionError` when the table
        does not hold the position (:meth:`covers`)."""
        if not self.covers(row, self.mask, score):
            raise PositionError(f"the table rooted at {self.row0} does not hold {row} at {score}")
        index = int(np.dot(np.asarray(row, dtype=np.int64), self.radix))
        return float(self.values[self.chain.index(score), index])

    def rolls(self, row: Row, score: int) -> bool:
        """At a turn (D-6): whether rolling (D-8) is better than quitting (D-7), that is
        whether the turn's value is below the row's D-10 score (the kernel takes the
        smaller of the two, quitting on a tie). Raises as :meth:`value`."""
        return self.value(row, score) < float(row_score(list(row)))


def seat_space(row0: Row, mask: int) -> kernel2p.SeatSpace:
    """The kernel's :data:`~lamagames.dice.solver.kernel2p.SeatSpace` of the rows within
    ``row0`` (counts per symbol) with the llama row ``mask`` fixed (D-8.5: nothing is
    taken): per symbol one code per count ``0 .. row0[s]``.

    Returns ``(ncodes, own, card, delta)``, all int64: ``ncodes`` shape ``(7,)`` (codes per
    symbol, ``row0[s] + 1``); ``own`` and ``card`` shape ``(7, M)``, ``M = max(ncodes)``
    (the count of code ``c``, and whether the symbol's llama-row card is out); ``delta``
    shape ``(7, M, 3)``: the index drop when ``k`` (1 or 2) cards of the symbol are
    discarded from count ``c`` (D-8.2). The last-standing part of
    :func:`~lamagames.dice.solver.pair_table.pair_space` builds the same arrays over
    ``(count, card)`` pairs, where the card may still be taken; here it cannot, which keeps
    the space up to 2**7 times smaller."""
    ncodes = np.array([c + 1 for c in row0], dtype=np.int64)
    radix = np.cumprod(np.concatenate(([1], ncodes[:-1]))).astype(np.int64)
    width = int(ncodes.max())
    own = np.zeros((NUM_SYMBOLS, width), dtype=np.int64)
    card = np.zeros_like(own)
    delta = np.zeros((NUM_SYMBOLS, width, 3), dtype=np.int64)
    for s in range(NUM_SYMBOLS):
        for count in range(row0[s] + 1):
            own[s, count] = count
            card[s, count] = mask >> s & 1
            for k in range(1, min(count, 2) + 1):
                delta[s, count, k] = (count - left_after_discard(s, count, k)) * radix[s]
    return ncodes, own, card, delta


def seat_work(row0: Row, score: int) -> int:
    """The size of the table :func:`solve_seat` would solve: its rows (``prod(row0[s] +
    1)``) times its score levels (the greedy chain of ``score``, D-8.1), a count compared
    with :data:`MAX_SEAT_WORK`."""
    return int(np.prod([c + 1 for c in row0])) * len(greedy_chain(score))


def solve_seat(dice: tuple[str, ...], row0: Row, mask: int, score: int) -> SeatTable:
    """Solve the last-standing table of a seat with row ``row0`` (counts per symbol), llama
    row ``mask`` (bit mask) and ``score`` (D-4), with the dice ``dice`` (D-1).

    Runs :func:`~lamagames.dice.solver.kernel2p.solve_last_standing` compiled, or
    interpreted inside :func:`lamagames.core.jit.interpreting`.

    Raises:
        PositionError: counts out of range (D-3), an empty row or llama row (the round would
            be over, D-9), or a negative score.
        SeatTooLargeError: more than :data:`MAX_SEAT_WORK` rows times score levels.
    """
    row0 = tuple(int(c) for c in check_counts(row0, "row"))
    if not any(row0) or not 0 < mask < 1 << NUM_SYMBOLS:
        raise PositionError("the row and the llama row must both hold a card (D-9)")
    if score < 0:
        raise PositionError(f"a score is never negative, got {score}")
    work = seat_work(row0, score)
    if work > MAX_SEAT_WORK:
        raise SeatTooLargeError(f"a last-standing table of {work:,} rows times levels")
    space = seat_space(row0, mask)
    chain = greedy_chain(score)
    chips = np.array([0] + [chain[i] - chain[i - 1] for i in range(1, len(chain))], np.int64)
    size = int(np.prod(space[0]))
    values = choose(kernel2p.solve_last_standing)(
        chips, size, space, SYMBOL_SCORES, kernel_groups(roll_groups(dice))
    )
    radix = np.cumprod(np.concatenate(([1], space[0][:-1]))).astype(np.int64)
    return SeatTable(row0, mask, chain, radix, values)
