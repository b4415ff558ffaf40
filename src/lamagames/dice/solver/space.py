"""State space of the last-player-standing problem of LAMA Dice (D-8.5).

When every other seat has quit (D-8.5) the remaining player's position is fully described by

* the own **row** as a count vector over the symbols ``1..6, L`` (D-3): no take is possible
  any more (a roll that matches nothing is a bust, D-8.5), so the row only shrinks;
* the **llama row** (a subset of the seven llama-row cards, D-3): it no longer changes and
  matters only through a bust, which puts all of it into the row (D-8.4);
* the own **score** ``s`` (D-4), which fixes which chips can be given back after three
  llamas (D-8.1) or after emptying the row (D-10).

The dice are fixed objects (D-1), so the cards set aside or discarded do not change any
probability: they are not part of the state.

Rows are enumerated once per dice set in a *universe* that contains every row a last player
standing can hold: at most 6 cards of a number and 7 llamas (D-3) and at most 12 cards (6
dealt, D-5, plus at most 6 llama-row cards taken while others were still in, D-8.3, since the
llama row is never empty during a round, D-9). Row ``i`` of the universe is
``UNIVERSE.rows[i]``; rows are sorted by card count so every discard leads to a lower index.
"""

from __future__ import annotations

import numbers
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Final

import numpy as np
import numpy.typing as npt

from lamagames.core.errors import LamaError, quoted
from lamagames.dice import primitives
from lamagames.dice.actions import (
    GIVE_BLACK,
    GIVE_NONE,
    GIVE_WHITE,
    NUM_SYMBOLS,
    SYMBOLS,
    roll_symbols,
)
from lamagames.dice.game import DiceGame
from lamagames.dice.rules import BUST_MASKS

#: Most cards of each symbol a row can hold: 5 deck + 1 llama-row card per number, 6 + 1 llamas.
ROW_CAPS: Final = (6, 6, 6, 6, 6, 6, 7)
#: Most cards a row can hold during a round (6 dealt + 6 taken).
MAX_ROW_CARDS: Final = 12
#: Cards of each symbol in the game (deck plus llama-row card, D-3): numbers 6, llamas 7.
TOTAL_COPIES: Final = (6, 6, 6, 6, 6, 6, 7)
#: Radix of the dense row key (every count is at most 7).
KEY_RADIX: Final = 8
KEY_SIZE: Final = KEY_RADIX**NUM_SYMBOLS
#: Bit ``s`` of a *presence mask*: the row holds at least one card of symbol ``s``.
PRESENCE_BITS: Final = np.left_shift(1, np.arange(NUM_SYMBOLS, dtype=np.int64))


def presence_row(mask: int) -> list[int]:
    """The row holding one card of each symbol of presence mask ``mask`` (bit ``s``:
    symbol ``s``), a count vector of 7.

    >>> presence_row(0b1000001)
    [1, 0, 0, 0, 0, 0, 1]
    """
    return [mask >> s & 1 for s in range(NUM_SYMBOLS)]


#: D-10 score of a row by the symbols it holds (int64, shape ``(128,)``): entry ``m`` is
#: :func:`lamagames.dice.primitives.row_score` of :func:`presence_row` ``(m)``, the one
#: ruling called once per entry. D-10 counts each symbol a row holds once, whatever the
#: number of its cards, so ``row_score(r) == PRESENCE_SCORES[presence(r)]`` for every row
#: (tested over the whole universe); the solvers read their row and bust scores here rather
#: than summing card values.
PRESENCE_SCORES: Final = np.array(
    [primitives.row_score(presence_row(m)) for m in range(1 << NUM_SYMBOLS)], dtype=np.int64
)

#: D-10 points of holding symbol ``s`` (int64, shape ``(7,)``): ``PRESENCE_SCORES[1 << s]``,
#: :func:`~lamagames.dice.primitives.row_score` of the row of one card of ``s``. D-10 adds
#: the symbols a row holds, so a row scores the sum of these over its symbols (tested for
#: every presence mask); the two-player kernels (:mod:`lamagames.dice.solver.kernel2p`) sum
#: them per index, as fast as summing the card values they replace.
SYMBOL_SCORES: Final = PRESENCE_SCORES[PRESENCE_BITS]

#: D-8.4 / D-10 score of the roller's row after a bust (int64, shape ``(128, 128)``): entry
#: ``[row, llama]`` is :data:`PRESENCE_SCORES` of :data:`~lamagames.dice.rules.BUST_MASKS`
#: ``[row, llama]``, the row holding the symbols of mask ``row`` joined by the llama row of
#: mask ``llama`` (:func:`~lamagames.dice.primitives.bust`). The two-player kernels read
#: their bust scores here.
BUST_SCORES: Final = PRESENCE_SCORES[BUST_MASKS]


def _take_mask(shown: int, llama: int) -> int:
    """Presence mask of the llama-row cards :func:`~lamagames.dice.primitives.can_take`
    allows (D-8.3) after a roll showing the symbols of presence mask ``shown`` (1 to 3 of
    them, a symbol repeated for a die showing it twice), with llama row ``llama``; 0 for a
    mask no roll shows."""
    symbols = [s for s in range(NUM_SYMBOLS) if shown >> s & 1]
    if not 1 <= len(symbols) <= 3:
        return 0
    a, b, c = (symbols * 3)[:3]
    row = presence_row(llama)
    return sum(1 << s for s in range(NUM_SYMBOLS) if primitives.can_take(row, a, b, c, s))


#: D-8.3 cards that may be taken (uint8, shape ``(128, 128)``): entry ``[shown, llama]`` is
#: the presence mask of the llama-row cards :func:`~lamagames.dice.primitives.can_take`
#: allows after a roll showing the symbols of presence mask ``shown`` with llama row
#: ``llama`` (0 where no roll shows ``shown``: more than three symbols, or none), the one
#: ruling called once per entry. The two-player solvers read their takes here (a roll
#: that matches nothing and may take nothing is a bust, D-8.4).
TAKE_MASKS: Final = np.array(
    [[_take_mask(shown, llama) for llama in range(1 << NUM_SYMBOLS)]
     for shown in range(1 << NUM_SYMBOLS)],
    dtype=np.uint8,
)  # fmt: skip


def presence(rows: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
    """Presence masks of count vectors: int64 array of shape ``(..., 7)`` to ``(...)``."""
    return (rows > 0).astype(np.int64) @ PRESENCE_BITS


class PositionError(LamaError):
    """A position the solver does not cover (empty row, impossible row, bad llama row, or
    other seats still in the round)."""


def as_int(value: object) -> int | None:
    """``value`` as a Python ``int`` when it is an integer (``int`` or a NumPy integer; a
    ``bool`` is none), else ``None``.

    >>> as_int(np.int64(3)), as_int(True), as_int(2.0)
    (3, None, None)
    """
    if isinstance(value, bool | np.bool_) or not isinstance(value, numbers.Integral):
        return None
    return int(value)


def check_counts(counts: object, what: str = "a row") -> tuple[int, ...]:
    """``counts`` as a tuple of Python ints when it is a list, tuple or 1-d NumPy array of 7
    non-negative integer card counts (symbols ``1..6, L``; a ``bool`` or float is not a
    count, a NumPy integer is).

    Raises:
        PositionError: naming ``what`` and the value given.
    """
    if isinstance(counts, np.ndarray) and counts.ndim == 1:
        counts = counts.tolist()
    if not isinstance(counts, list | tuple) or len(counts) != NUM_SYMBOLS:
        raise PositionError(
            f"{what} is {NUM_SYMBOLS} counts (symbols 1..6, L), got {quoted(counts)}"
        )
    ints = [as_int(c) for c in counts]
    if any(c is None or c < 0 for c in ints):
        raise PositionError(
            f"card counts must be non-negative integers, got {what} {quoted(counts)}"
        )
    return tuple(c for c in ints if c is not None)


def check_copies(rows: Sequence[Sequence[int]], mask: int) -> None:
    """Refuse rows that, with the llama row ``mask``, hold more cards of a symbol than the
    game has (D-3: :data:`TOTAL_COPIES`). The rows must have passed :func:`check_counts`.

    Raises:
        PositionError: naming the symbol and both counts.
    """
    where = "row" if len(rows) == 1 else "rows"
    for s in range(NUM_SYMBOLS):
        held = sum(r[s] for r in rows) + (mask >> s & 1)
        if held > TOTAL_COPIES[s]:
            raise PositionError(
                f"{held} cards of symbol {SYMBOLS[s]} in the {where} and llama row, "
                f"but only {TOTAL_COPIES[s]} exist (D-3)"
            )


@dataclass(frozen=True)
class RowUniverse:
    """Every row count vector a last player standing can hold.

    Attributes:
        rows: int64 array of shape ``(n, 7)``, counts per symbol, sorted by card count
            (ascending, then lexicographically); every row holds 1..12 cards.
        index: int64 array of shape ``(8**7,)``: ``index[row_key(r)]`` is the position of
            ``r`` in ``rows``, or -1 for a count vector outside the universe.
        scores: int64 array of shape ``(n,)``: D-10 score of each row.
    """

    rows: npt.NDArray[np.int64]
    index: npt.NDArray[np.int64]
    scores: npt.NDArray[np.int64]

    @property
    def size(self) -> int:
        """Number of rows in the universe."""
        return int(self.rows.shape[0])

    def lookup(self, row: tuple[int, ...] | list[int]) -> int:
        """Position of a row count vector, or -1 if it is outside the universe."""
        if len(row) != NUM_SYMBOLS or any(not 0 <= c < KEY_RADIX for c in row):
            return -1
        return int(self.index[row_key(row)])


def row_key(row: tuple[int, ...] | list[int] | npt.NDArray[np.int64]) -> int:
    """Dense key of a count vector: ``sum(row[s] * 8**s)``."""
    return int(sum(int(row[s]) * KEY_RADIX**s for s in range(NUM_SYMBOLS)))


@lru_cache(maxsize=1)
def row_universe() -> RowUniverse:
    """The row universe (built once per process, about 50 000 rows)."""
    grids = np.indices(tuple(c + 1 for c in ROW_CAPS)).reshape(NUM_SYMBOLS, -1).T
    sizes = grids.sum(axis=1)
    keep = (sizes >= 1) & (sizes <= MAX_ROW_CARDS)
    rows = grids[keep].astype(np.int64)
    order = np.lexsort((*(rows[:, s] for s in reversed(range(NUM_SYMBOLS))), rows.sum(1)))
    rows = np.ascontiguousarray(rows[order])
    keys = rows @ (KEY_RADIX ** np.arange(NUM_SYMBOLS, dtype=np.int64))
    index = np.full(KEY_SIZE, -1, dtype=np.int64)
    index[keys] = np.arange(rows.shape[0], dtype=np.int64)
    scores = PRESENCE_SCORES[presence(rows)]  # D-10
    return RowUniverse(rows=rows, index=index, scores=scores)


@dataclass(frozen=True)
class RollTable:
    """The roll distribution of a dice set (D-1), aggregated by the symbols shown.

    Only which symbols show, and how many dice show each, matter to D-8, so the 125 ordered
    outcomes of the standard dice collapse into fewer classes.

    Attributes:
        counts: int64 array of shape ``(m, 7)``: dice showing each symbol (sums to 3).
        probs: float64 array of shape ``(m,)``: probability of each class (sums to 1).
    """

    counts: npt.NDArray[np.int64]
    probs: npt.NDArray[np.float64]

    @property
    def three_llamas(self) -> float:
        """Probability of three llamas (D-8.1)."""
        empty = [0] * NUM_SYMBOLS
        llamas = [
            primitives.roll_result(empty, empty, *symbols_of(c), True) == primitives.THREE_LLAMAS
            for c in self.counts.tolist()
        ]
        return float(self.probs[np.array(llamas, dtype=bool)].sum())


def roll_table(game: DiceGame) -> RollTable:
    """Aggregate ``game.roll_outcomes`` by symbol counts (deterministic order)."""
    acc: dict[tuple[int, ...], float] = {}
    for outcome, probability in game.roll_outcomes:
        vector = [0] * NUM_SYMBOLS
        for s in roll_symbols(outcome):
            vector[s] += 1
        key = tuple(vector)
        acc[key] = acc.get(key, 0.0) + probability
    keys = sorted(acc)
    return RollTable(
        counts=np.array(keys, dtype=np.int64),
        probs=np.array([acc[k] for k in keys], dtype=np.float64),
    )


def llama_mask(llama_row: tuple[int, ...] | list[int]) -> int:
    """Bit mask of a llama row (bit ``s`` set when the card of symbol ``s`` is present)."""
    return sum(1 << s for s in range(NUM_SYMBOLS) if llama_row[s])


def mask_symbols(mask: int) -> npt.NDArray[np.int64]:
    """The llama row of a bit mask as a 0/1 int64 array of shape ``(7,)``."""
    return np.array([(mask >> s) & 1 for s in range(NUM_SYMBOLS)], dtype=np.int64)


#: Points each give-back action takes off the giver's score (D-4):
#: :func:`lamagames.dice.primitives.chip_points` of ``give black``, ``give white``,
#: ``give none``.
CHIP_POINTS: Final = {a: primitives.chip_points(a) for a in (GIVE_BLACK, GIVE_WHITE, GIVE_NONE)}


_GIVE_POINTS: Final = sorted(set(CHIP_POINTS.values()))
_GIVE_WORDS: Final = ", ".join(map(str, _GIVE_POINTS[:-1])) + f" or {_GIVE_POINTS[-1]}"


def give_choices(score: int) -> list[int]:
    """Points of each chip a seat with ``score`` points may give back after three llamas
    (D-4, D-8.1), black before white (:func:`lamagames.dice.primitives.chip_choices` and
    :func:`~lamagames.dice.primitives.chip_points`); declining (0 points) is always allowed
    and not listed.

    >>> give_choices(23), give_choices(20), give_choices(3), give_choices(0)
    ([10, 1], [10], [1], [])
    """
    choices = primitives.chip_choices(score)
    black = [CHIP_POINTS[GIVE_BLACK]] if choices & 1 else []
    return black + ([CHIP_POINTS[GIVE_WHITE]] if choices & 2 else [])


def check_give(score: int, chip: object) -> int:
    """``chip`` as the points of a chip a seat with ``score`` points may give back after
    three llamas (D-4, D-8.1): one of :data:`CHIP_POINTS` (0: none) that
    :func:`give_choices` allows.

    Raises:
        PositionError: ``chip`` is not the points of a chip (naming it), or that chip cannot
            be given with ``score``.
    """
    given = as_int(chip)
    if given is None or given not in _GIVE_POINTS:
        raise PositionError(f"chip must be {_GIVE_WORDS} points, got {quoted(chip)}")
    if given != CHIP_POINTS[GIVE_NONE] and given not in give_choices(score):
        raise PositionError(f"a chip of {given} points cannot be given back with score {score}")
    return given


def symbols_of(counts: Sequence[int]) -> tuple[int, int, int]:
    """The three symbols (ascending) of a roll given as a count vector of 7."""
    a, b, c = (s for s in range(NUM_SYMBOLS) for _ in range(counts[s]))
    return a, b, c


def reachable_rows(mask: int) -> int:
    """Rows of the universe a last player standing can hold beside llama row ``mask``.

    A llama-row card still in the llama row is not in any row (D-3 caps drop by one) and
    the row holds at most ``6 + (7 - |llama row|)`` cards (D-5, D-8.3).
    """
    universe = row_universe()
    caps = np.array(ROW_CAPS, dtype=np.int64) - mask_symbols(mask)
    limit = 6 + NUM_SYMBOLS - bin(mask).count("1")
    rows = universe.rows
    ok = (rows <= caps).all(axis=1) & (rows.sum(axis=1) <= limit)
    return int(ok.sum())
