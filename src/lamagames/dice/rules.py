"""LAMA Dice rule functions and constants shared by the engine, bots and events: pure.

Rows, the llama row and discards are count vectors over the seven symbols (index 0..5 for
the numbers 1..6, index 6 = :data:`~lamagames.dice.actions.LLAMA`), see
:mod:`lamagames.dice.actions`.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from enum import IntEnum, StrEnum
from typing import Final

import numpy as np
import numpy.typing as npt

from lamagames.core.errors import ParameterError
from lamagames.dice import primitives
from lamagames.dice.actions import (
    DISCARD_ACTION_CODES,
    DISCARD_BASE,
    HAND_ID,
    HAND_SIZE,
    HANDS,
    LLAMA,
    NUM_SYMBOLS,
    SYMBOLS,
)

#: Standard dice faces of D-1, dice A, B, C.
STANDARD_DICE: Final = ("LL3456", "12LL56", "1234LL")
#: Llama-row cards (D-3): one of each symbol.
LLAMA_ROW_CARDS: Final = (1, 1, 1, 1, 1, 1, 1)
#: Deck cards (D-3): five of each number, six llamas.
DECK_CARDS: Final = (5, 5, 5, 5, 5, 5, 6)
TOTAL_CARDS: Final = sum(LLAMA_ROW_CARDS) + sum(DECK_CARDS)  # 43
MIN_PLAYERS: Final = 2
MAX_PLAYERS: Final = 6
DEFAULT_END_SCORE: Final = 40


class Phase(IntEnum):
    """What the next action of a LAMA Dice state is (the value is the tensor slot)."""

    #: chance: six cards for the seat being dealt (D-5)
    DEAL = 0
    #: the seat to act rolls or quits (D-6)
    TURN = 1
    #: chance: the three dice (D-1)
    DICE = 2
    #: the roller discards after a match (D-8.2)
    DISCARD = 3
    #: the roller takes one llama-row card (D-8.3)
    TAKE = 4
    #: the roller may give back a chip after three llamas (D-8.1)
    GIVE_LLAMAS = 5
    #: a seat with an emptied row may give back a chip (D-10)
    GIVE_EMPTY = 6
    #: the game is over (D-11)
    OVER = 7

    @property
    def label(self) -> str:
        """Name in observations: ``deal``, ``turn``, ``dice``, ``discard``, ``take``,
        ``give`` (both give phases) or ``over``."""
        return "give" if self in (Phase.GIVE_LLAMAS, Phase.GIVE_EMPTY) else self.name.lower()


PHASE_NAMES: Final = tuple(p.label for p in Phase)
NUM_PHASES: Final = len(Phase)
#: Phases in which the current roll is shown (the dice stay visible until the turn passes).
ROLL_PHASES: Final = (Phase.DISCARD, Phase.TAKE, Phase.GIVE_LLAMAS)


class RollResult(StrEnum):
    """What a roll leads to (D-8, checked in this order)."""

    #: three llamas: nothing is discarded; a chip may be given back (D-8.1)
    THREE_LLAMAS = "three_llamas"
    #: a die shows a symbol of the roller's row: discard (D-8.2)
    MATCH = "match"
    #: no match; take one llama-row card of a rolled symbol (D-8.3)
    TAKE = "take"
    #: no match and nothing to take (D-8.4), or the last player standing (D-8.5)
    BUST = "bust"


class RoundEndReason(StrEnum):
    """Why a round ended (D-9, D-8.4, D-8.5)."""

    #: a roll took the whole llama row (D-8.4, D-8.5)
    BUST = "bust"
    #: a discard emptied the roller's row (D-9)
    EMPTIED = "emptied"
    #: a take emptied the llama row (D-9)
    LLAMA_ROW = "llama_row"
    #: the last seat quit (D-9)
    ALL_QUIT = "all_quit"


def validate_dice(dice: list[str] | tuple[str, ...]) -> tuple[tuple[int, ...], ...]:
    """Check a dice face set against D-1 and return it as symbol indices.

    Args:
        dice: three strings of six faces each, ``"1"``..``"6"`` or ``"L"``.

    Returns:
        Three tuples of six symbol indices.

    Raises:
        ParameterError: naming the constraint that failed.
    """
    if not isinstance(dice, list | tuple) or len(dice) != 3:
        raise ParameterError(f"dice: need exactly three dice, got {dice!r}")
    faces: list[tuple[int, ...]] = []
    for i, die in enumerate(dice):
        name = "ABC"[i]
        if not isinstance(die, str) or len(die) != 6:
            raise ParameterError(f"dice: die {name} must have six faces, got {die!r}")
        indices = []
        for char in die.upper():
            index = SYMBOLS.find(char)
            if index < 0:
                raise ParameterError(f"dice: die {name} has face {char!r}; faces are 1-6 or L")
            indices.append(index)
        if indices.count(LLAMA) != 2:
            raise ParameterError(f"dice: die {name} must have exactly two llama faces")
        numbers = [s for s in indices if s != LLAMA]
        if len(set(numbers)) != 4:
            raise ParameterError(f"dice: die {name} repeats a number; its four numbers differ")
        faces.append(tuple(sorted(indices)))
    for number in range(6):
        on = sum(1 for f in faces if number in f)
        if on != 2:
            raise ParameterError(
                f"dice: number {number + 1} is on {on} dice; every number must be on exactly two"
            )
    return tuple(faces)


#: :class:`RollResult` of each code of :func:`lamagames.dice.primitives.roll_result`.
_ROLL_RESULTS: Final = (RollResult.THREE_LLAMAS, RollResult.MATCH, RollResult.TAKE, RollResult.BUST)


def roll_result(
    row: Sequence[int], llama_row: Sequence[int], dice: Sequence[int], *, last_standing: bool
) -> RollResult:
    """D-8, checked in order: what a roll of ``dice`` means for a seat with this row
    (:func:`lamagames.dice.primitives.roll_result` as a :class:`RollResult`).

    Args:
        row: the roller's row, count vector of 7.
        llama_row: the llama row, count vector of 7 (0 or 1 each).
        dice: the symbols shown by dice A, B and C.
        last_standing: every other seat has quit this round (D-8.5).

    Returns:
        :attr:`RollResult.THREE_LLAMAS` when every die shows a llama (D-8.1, whether or not
        the roller has a chip to give back), else :attr:`~RollResult.MATCH` (D-8.2),
        :attr:`~RollResult.TAKE` (D-8.3) or :attr:`~RollResult.BUST` (D-8.4, D-8.5).

    Raises:
        ValueError: ``dice`` is not three symbols.
    """
    if len(dice) != 3:
        raise ValueError(f"dice: need the symbols of three dice, got {list(dice)!r}")
    a, b, c = dice
    return _ROLL_RESULTS[primitives.roll_result(row, llama_row, a, b, c, last_standing)]


def phase_after_roll(result: RollResult, score: int) -> Phase:
    """The phase a roll result leads to for a roller with ``score`` points (D-8):
    :attr:`Phase.GIVE_LLAMAS` after three llamas with a chip to give back, else
    :attr:`Phase.TURN` (the turn passes, D-8.1); :attr:`Phase.DISCARD` (D-8.2);
    :attr:`Phase.TAKE` (D-8.3); :attr:`Phase.OVER` standing for a bust (the round ends,
    D-8.4, D-8.5)."""
    if result == RollResult.THREE_LLAMAS:
        return Phase.GIVE_LLAMAS if primitives.chip_choices(score) else Phase.TURN
    if result == RollResult.MATCH:
        return Phase.DISCARD
    if result == RollResult.TAKE:
        return Phase.TAKE
    return Phase.OVER


def legal_discards(row: Sequence[int], dice: Sequence[int]) -> list[int]:
    """Discard action ids allowed by a match (D-8.2), ascending: the non-empty
    sub-multisets of :func:`lamagames.dice.primitives.max_discard`, as
    :func:`lamagames.dice.primitives.next_discard` steps through them.

    Args:
        row: the roller's row, count vector of 7.
        dice: the symbols shown by dice A, B and C.
    """
    a, b, c = dice
    code = primitives.max_discard(row, a, b, c)
    out = []
    sub = primitives.next_discard(0, code)
    while sub:
        out.append(_DISCARD_ID_OF_CODE[sub])
        sub = primitives.next_discard(sub, code)
    out.sort()
    return out


def discard_codes(max_code: int) -> list[int]:
    """The legal discards after a match (D-8.2) as discard codes (``sum k_s * 4**s``), in
    lexicographic order of their count vectors (the count of symbol 1 changing slowest, the
    order the solver's tables list them): the non-empty sub-multisets of ``max_code``, the
    largest legal discard (:func:`lamagames.dice.primitives.max_discard`), as
    :func:`lamagames.dice.primitives.next_discard` steps through them; ``[]`` for 0."""
    out = []
    sub = primitives.next_discard(0, max_code)
    while sub:
        out.append(sub)
        sub = primitives.next_discard(sub, max_code)
    out.sort(key=_lexicographic)
    return out


def _lexicographic(code: int) -> tuple[int, ...]:
    """Sort key of a discard code: its count vector."""
    return tuple((code >> (2 * s)) & 3 for s in range(NUM_SYMBOLS))


def after_discard(row: Sequence[int], action: int) -> tuple[int, ...]:
    """The roller's row after the discard action ``action`` (D-8.2), from
    :func:`lamagames.dice.primitives.discard` (``row``, a count vector of 7, is not
    changed)."""
    return primitives.discard(row, DISCARD_ACTION_CODES[action - DISCARD_BASE])


def after_bust(row: Sequence[int], llama: Sequence[int]) -> tuple[int, ...]:
    """The roller's row after a bust (D-8.4, D-8.5): the row joined by the whole llama row,
    as :func:`lamagames.dice.primitives.bust` leaves it (applied to copies; ``row`` and
    ``llama``, count vectors of 7, are not changed)."""
    new_row = list(row)
    primitives.bust(new_row, list(llama))
    return tuple(new_row)


def _bust_masks() -> npt.NDArray[np.uint8]:
    """:data:`BUST_MASKS`: :func:`lamagames.dice.primitives.bust` applied once to the count
    vectors of every pair of presence masks, one pair per column (the primitive steps
    through the 7 symbols; NumPy rows add elementwise)."""
    pairs = np.arange(1 << 14, dtype=np.int64)
    bits = np.arange(NUM_SYMBOLS, dtype=np.int64)[:, None]
    rows = (pairs[None, :] >> 7 >> bits) & 1  # row mask: the high 7 bits of the pair
    llama = (pairs[None, :] >> bits) & 1  # llama-row mask: the low 7 bits
    primitives.bust(rows, llama)  # D-8.4 on every pair at once
    masks: npt.NDArray[np.uint8] = ((rows > 0).astype(np.int64) << bits).sum(axis=0)
    return masks.reshape(1 << 7, 1 << 7).astype(np.uint8)


#: D-8.4 by presence masks (uint8, shape ``(128, 128)``): entry ``[row, llama]`` is the
#: presence mask of the roller's row after a bust, for a row holding the symbols of mask
#: ``row`` and the llama row of mask ``llama``, from :func:`lamagames.dice.primitives.bust`
#: (the one ruling, applied to every entry). D-10 scores a row by the symbols it holds, so
#: the solvers and the in-kernel heuristic read the score of a bust through this table.
BUST_MASKS: Final = _bust_masks()


#: Discard code (``sum k_s * 4**s``) -> discard action id.
_DISCARD_ID_OF_CODE: Final[dict[int, int]] = {
    code: DISCARD_BASE + index for index, code in enumerate(DISCARD_ACTION_CODES)
}


def deal_outcomes(deck: Sequence[int]) -> list[tuple[int, float]]:
    """Chance outcomes of dealing six cards from ``deck`` (count vector of 7), with their
    probabilities (multivariate hypergeometric, D-5), in hand-id order."""
    total = math.comb(sum(deck), HAND_SIZE)
    out = []
    for hand in HANDS:
        ways = 1
        for s in range(NUM_SYMBOLS):
            if hand[s]:
                ways *= math.comb(deck[s], hand[s])
                if not ways:
                    break
        if ways:
            out.append((HAND_ID[hand], ways / total))
    return out
