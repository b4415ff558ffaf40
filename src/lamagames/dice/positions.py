"""A position builder for LAMA Dice: :func:`build_state` (``DiceGame.build_state``). Pure.

Meant for tests, puzzles and analysis, like Lama Express's ``build_state``: write the rows
and the llama row as symbol text (``"3 3 L"`` or ``"33L"``; ``1``..``6`` and ``L``, blanks
ignored), give scores, quit seats, the seat to act and the phase, and get a validated
:class:`~lamagames.dice.state.DiceState` mid-round (all seats dealt). Cards in no row and not
in the llama row go to the set-aside deck, up to its size per symbol (D-3), the rest to the
discard pile, so the 43 cards are conserved.

Example (three seats, seat 1 to roll, seat 2 has quit, the llama row lacks its 3 and 5)::

    state = DiceGame(num_players=3).build_state(
        rows=["1 1 4", "2 6 L", "3 3"],
        llama_row="1 2 4 6 L",
        scores=[12, 0, 31],
        quit_seats=[2],
        current=1,
    )
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from lamagames.core.errors import ParameterError
from lamagames.dice.actions import NUM_SYMBOLS, SYMBOLS
from lamagames.dice.rules import DECK_CARDS, LLAMA_ROW_CARDS, Phase

if TYPE_CHECKING:
    from lamagames.dice.game import DiceGame
    from lamagames.dice.state import DiceState

#: Copies of each symbol among the 43 cards (D-3).
TOTAL_COPIES = tuple(a + b for a, b in zip(LLAMA_ROW_CARDS, DECK_CARDS, strict=True))


def symbol_counts(text: str, what: str) -> list[int]:
    """Count vector of symbol text such as ``"3 3 L"``.

    Raises:
        ParameterError: a character is not a symbol; names ``what``.
    """
    if not isinstance(text, str):
        raise ParameterError(f"{what}: symbol text like '3 3 L' is needed, got {text!r}")
    out = [0] * NUM_SYMBOLS
    for char in text.replace(" ", "").upper():
        index = SYMBOLS.find(char)
        if index < 0:
            raise ParameterError(f"{what}: {char!r} is not a card; cards are 1-6 and L")
        out[index] += 1
    return out


def _seat(value: object, n: int, what: str) -> int:
    if type(value) is not int or not 0 <= value < n:
        raise ParameterError(f"{what}: {value!r} is not a seat 0..{n - 1}")
    return value


def build_state(
    game: DiceGame,
    *,
    rows: Sequence[str],
    llama_row: str = "123456L",
    scores: Sequence[int] | None = None,
    quit_seats: Sequence[int] = (),
    current: int | None = None,
    phase: Phase = Phase.TURN,
    dice: str | None = None,
    starter: int | None = None,
    round_number: int = 1,
) -> DiceState:
    """Build a LAMA Dice position mid-round (see the module docstring for an example).

    Args:
        game: the game (number of seats, dice, end score).
        rows: one symbol text per seat, e.g. ``"1 1 4"``; ``""`` for an empty row.
        llama_row: symbols still in the llama row, each at most once (D-3).
        scores: points per seat before this round (chips follow from them, D-4); default 0.
        quit_seats: seats that have quit this round (D-7).
        current: the seat to act (or whose roll ``dice`` shows); default the game's
            starting seat.
        phase: :attr:`Phase.TURN` (roll or quit, the default), :attr:`Phase.DICE` (the
            roll is next) or, with ``dice``, the phase that roll leads to (D-8):
            :attr:`Phase.DISCARD`, :attr:`Phase.TAKE` or :attr:`Phase.GIVE_LLAMAS`.
        dice: the roll shown, symbols of dice A, B, C such as ``"3 3 L"``; only with those
            three phases.
        starter: the seat that started the round (D-5); default ``current``.
        round_number: the round, from 1.

    Returns:
        A validated state with an empty history.

    Raises:
        ParameterError: an argument is malformed: not one row per seat, a character that is
            no card, a llama-row symbol twice, a seat out of range, a negative score, or
            more copies of a symbol than the 43 cards hold (cards not conserved, D-3).
        RecordError: the position breaks the rules in another way: a seat to act that has
            quit, or a phase that does not follow from the dice (D-8).
    """
    n = game.num_players
    if isinstance(rows, str) or len(rows) != n:
        raise ParameterError(f"rows: need one row per seat ({n}), got {rows!r}")
    row_counts = [symbol_counts(r, f"rows[{i}]") for i, r in enumerate(rows)]
    middle = symbol_counts(llama_row, "llama_row")
    if any(c > 1 for c in middle):
        raise ParameterError(f"llama_row: each symbol is there at most once, got {llama_row!r}")
    setaside: list[int] = []
    discards: list[int] = []
    for s in range(NUM_SYMBOLS):
        rest = TOTAL_COPIES[s] - middle[s] - sum(r[s] for r in row_counts)
        if rest < 0:
            used = TOTAL_COPIES[s] - rest
            raise ParameterError(
                f"cards not conserved: {used} cards {SYMBOLS[s]} in the rows and the llama row, "
                f"but the game has {TOTAL_COPIES[s]} (D-3)"
            )
        setaside.append(min(rest, DECK_CARDS[s]))
        discards.append(rest - setaside[-1])
    if scores is None:
        scores = [0] * n
    if isinstance(scores, str) or len(scores) != n:
        raise ParameterError(f"scores: need one score per seat ({n}), got {scores!r}")
    for i, score in enumerate(scores):
        if type(score) is not int or score < 0:
            raise ParameterError(f"scores[{i}]: {score!r} is not a score (0 or more points)")
    quit_flags = [False] * n
    for seat in quit_seats:
        quit_flags[_seat(seat, n, "quit_seats")] = True
    player = _seat(game.starting_seat if current is None else current, n, "current")
    first = _seat(player if starter is None else starter, n, "starter")
    try:
        phase = Phase(phase)
    except ValueError:
        raise ParameterError(f"phase: {phase!r} is not a phase") from None
    roll = None
    if dice is not None:
        shown = symbol_counts(dice, "dice")
        roll = [SYMBOLS.index(c) for c in dice.replace(" ", "").upper()]
        if sum(shown) != 3:
            raise ParameterError(f"dice: three dice, got {dice!r}")
    data: dict[str, Any] = {
        "phase": int(phase),
        "player": player,
        "starter": first,
        "last_actor": player,
        "deal_seat": n,
        "round": round_number,
        "dice": roll,
        "scores": list(scores),
        "rows": row_counts,
        "quit": quit_flags,
        "llama_row": middle,
        "setaside": setaside,
        "discards": discards,
        "give_queue": [],
        "round_points": [],
        "history": [],
    }
    return game.state_from_dict(data)
