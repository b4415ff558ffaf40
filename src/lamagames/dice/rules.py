"""LAMA Dice rule functions and constants shared by the engine, bots and events: pure.

Rows, the llama row and discards are count vectors over the seven symbols (index 0..5 for
the numbers 1..6, index 6 = :data:`~lamagames.dice.actions.LLAMA`), see
:mod:`lamagames.dice.actions`.
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import IntEnum, StrEnum
from typing import Final

from lamagames.core.errors import ParameterError
from lamagames.dice.actions import LLAMA, NUM_SYMBOLS, SYMBOLS, VALUES

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


def row_score(counts: Sequence[int]) -> int:
    """Minus points of a row (D-10): distinct numbers once each, plus 10 for any llama.

    Args:
        counts: count vector of 7 entries (cards per symbol).
    """
    return sum(VALUES[s] for s in range(NUM_SYMBOLS) if counts[s])


def roll_result(
    row: Sequence[int], llama_row: Sequence[int], dice: Sequence[int], *, last_standing: bool
) -> RollResult:
    """D-8, checked in order: what a roll of ``dice`` means for a seat with this row.

    Args:
        row: the roller's row, count vector of 7.
        llama_row: the llama row, count vector of 7 (0 or 1 each).
        dice: the symbols shown (any number of dice; three in the game).
        last_standing: every other seat has quit this round (D-8.5).

    Returns:
        :attr:`RollResult.THREE_LLAMAS` when every die shows a llama (D-8.1, whether or not
        the roller has a chip to give back), else :attr:`~RollResult.MATCH` (D-8.2),
        :attr:`~RollResult.TAKE` (D-8.3) or :attr:`~RollResult.BUST` (D-8.4, D-8.5).
    """
    if all(s == LLAMA for s in dice):  # D-8.1
        return RollResult.THREE_LLAMAS
    if any(row[s] for s in dice):  # D-8.2
        return RollResult.MATCH
    if not last_standing and any(llama_row[s] for s in dice):  # D-8.3 (not D-8.5)
        return RollResult.TAKE
    return RollResult.BUST  # D-8.4 / D-8.5


def last_standing(quit_flags: Sequence[bool], seat: int) -> bool:
    """True when every seat but ``seat`` has quit this round (D-8.5)."""
    return all(q for i, q in enumerate(quit_flags) if i != seat)
