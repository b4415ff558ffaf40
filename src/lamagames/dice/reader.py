"""The read-only views of a LAMA Dice position: :class:`DiceStateReader`, the base class of
:class:`~lamagames.dice.state.DiceState` with every public accessor. Lists are returned as
copies: a state changes only through ``apply_action``. Pure."""

from __future__ import annotations

from typing import TYPE_CHECKING

from lamagames.dice import primitives
from lamagames.dice.actions import GIVE_BLACK, GIVE_WHITE
from lamagames.dice.primitives import is_last_standing, row_score
from lamagames.dice.rules import (
    Phase,
    RollResult,
    roll_result,
)

if TYPE_CHECKING:
    from lamagames.dice.game import DiceGame


class DiceStateReader:
    """Public accessors over the private fields of a LAMA Dice state (no mutation)."""

    __slots__ = ()

    game: DiceGame
    _phase: Phase
    _scores: list[int]
    _rows: list[list[int]]
    _quit: list[bool]
    _llama_row: list[int]
    _setaside: list[int]
    _discards: list[int]
    _player: int
    _starter: int
    _last_actor: int
    _deal_seat: int
    _dice: tuple[int, int, int] | None
    _round: int
    _round_points: list[list[int]]

    @property
    def phase(self) -> Phase:
        """What the next action is (:class:`~lamagames.dice.rules.Phase`, an int enum)."""
        return self._phase

    @property
    def scores(self) -> list[int]:
        """Points per seat (D-4, D-10), a new list."""
        return list(self._scores)

    @property
    def rows(self) -> list[list[int]]:
        """Each seat's row as a count vector over the 7 symbols (D-5), new lists."""
        return [list(r) for r in self._rows]

    @property
    def quit(self) -> list[bool]:
        """Per seat: has quit this round (D-7), a new list."""
        return list(self._quit)

    @property
    def llama_row(self) -> list[int]:
        """The llama row as 7 flags (D-3), a new list."""
        return list(self._llama_row)

    @property
    def setaside(self) -> list[int]:
        """Deck cards not dealt this round, count vector of 7 (D-5), a new list."""
        return list(self._setaside)

    @property
    def discards(self) -> list[int]:
        """Cards discarded this round, count vector of 7 (D-8.2), a new list."""
        return list(self._discards)

    def row(self, seat: int) -> tuple[int, ...]:
        """One seat's row, count vector of 7."""
        return tuple(self._rows[seat])

    def score(self, seat: int) -> int:
        """One seat's score in points."""
        return self._scores[seat]

    def has_quit(self, seat: int) -> bool:
        """True if ``seat`` has quit this round (D-7)."""
        return self._quit[seat]

    @property
    def round(self) -> int:
        """Round number, from 1."""
        return self._round

    @property
    def starter(self) -> int:
        """Seat that started the current round (D-5)."""
        return self._starter

    @property
    def deal_seat(self) -> int:
        """Seat dealt next in the deal phase (D-5); the number of seats once all are dealt."""
        return self._deal_seat

    @property
    def turn_seat(self) -> int:
        """Seat whose turn it is, also at the dice chance node of its roll (where
        :meth:`current_player` is the chance player); in the give-after-empty phase, the seat
        asked to give back a chip."""
        return self._player

    @property
    def dice(self) -> tuple[int, int, int] | None:
        """Symbols shown by dice A, B, C after the current roll, or ``None``."""
        return self._dice

    @property
    def round_points(self) -> list[list[int]]:
        """Minus points scored by each seat in each finished round, before give-backs (D-10)."""
        return [list(r) for r in self._round_points]

    def row_score(self, seat: int) -> int:
        """Minus points the seat's row would score now (D-10)."""
        return row_score(self._rows[seat])

    def chips(self, seat: int) -> tuple[int, int]:
        """``(black, white)`` chips of a seat (D-4): as many black chips as the score holds
        black-chip points (:func:`~lamagames.dice.primitives.chip_points`, 10), the rest in
        white ones (1 point each)."""
        black, rest = divmod(self._scores[seat], primitives.chip_points(GIVE_BLACK))
        return black, rest // primitives.chip_points(GIVE_WHITE)

    def winners(self) -> list[int]:
        """Seats with the lowest score once the game is over (D-11); ``[]`` before."""
        if self._phase != Phase.OVER:
            return []
        return [i for i in range(len(self._scores)) if primitives.wins(self._scores, i)]


    def roll_result(self, dice: tuple[int, int, int] | None = None) -> RollResult | None:
        """What a roll means for the seat whose turn it is (D-8, see
        :func:`lamagames.dice.rules.roll_result`).

        Args:
            dice: symbols of dice A, B, C; default the roll shown (:attr:`dice`).

        Returns:
            The result, or ``None`` when no dice are given and none are shown.
        """
        dice = self._dice if dice is None else dice
        if dice is None:
            return None
        seat = self._player
        return roll_result(
            self._rows[seat],
            self._llama_row,
            dice,
            last_standing=is_last_standing(self._quit, seat),
        )
