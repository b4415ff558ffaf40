"""LAMA Dice (Reiner Knizia, AMIGO 2021): the game with its parameters, rulings D-1 .. D-11.

The engine is pure: no I/O, no global randomness. This module holds :class:`DiceGame` (the
factory of states), :func:`as_dice_state` and :func:`round_end_reason`. The parts live in
their own modules: :class:`~lamagames.dice.state.DiceState` (positions and play),
:mod:`lamagames.dice.rules` (constants, phases, roll results, scoring),
:mod:`lamagames.dice.state_data` (the saved form) and :mod:`lamagames.dice.positions`
(:meth:`DiceGame.build_state`).
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import product
from typing import Any

from lamagames.core.errors import IllegalActionError, ParameterError
from lamagames.core.game import Game, GameInfo, State
from lamagames.dice.actions import (
    DISCARD_BASE,
    MAX_CHANCE_OUTCOMES,
    NUM_DISTINCT_ACTIONS,
    NUM_SYMBOLS,
    QUIT,
    roll_id,
)
from lamagames.dice.positions import build_state
from lamagames.dice.rules import (
    DEFAULT_END_SCORE,
    MAX_PLAYERS,
    MIN_PLAYERS,
    STANDARD_DICE,
    Phase,
    RoundEndReason,
    validate_dice,
)
from lamagames.dice.state import DiceState
from lamagames.dice.views import observation_size


class DiceGame(Game):
    """LAMA Dice with fixed parameters.

    Args:
        num_players: 2..6 seats.
        dice: three face strings (D-1); default :data:`STANDARD_DICE`.
        end_score: the game ends after a round in which a score reaches this (D-11), points.
        starting_seat: seat that starts the first round (D-5).

    Raises:
        ParameterError: a parameter is out of range or the dice break D-1.
    """

    def __init__(
        self,
        num_players: int = 3,
        dice: list[str] | tuple[str, ...] = STANDARD_DICE,
        end_score: int = DEFAULT_END_SCORE,
        starting_seat: int = 0,
    ) -> None:
        if type(num_players) is not int or not MIN_PLAYERS <= num_players <= MAX_PLAYERS:
            raise ParameterError(f"num_players must be 2..6, got {num_players!r}")
        if type(end_score) is not int or not 1 <= end_score <= 10_000:
            raise ParameterError(f"end_score must be an integer 1..10000, got {end_score!r}")
        if type(starting_seat) is not int or not 0 <= starting_seat < num_players:
            raise ParameterError(
                f"starting_seat must be 0..{num_players - 1}, got {starting_seat!r}"
            )
        self.dice_faces = validate_dice(dice)
        self.dice = tuple(die.upper() for die in dice)
        self.end_score = end_score
        self.starting_seat = starting_seat
        self.info = GameInfo(
            game_id="dice",
            long_name="LAMA Dice",
            num_players=num_players,
            min_players=MIN_PLAYERS,
            max_players=MAX_PLAYERS,
            num_distinct_actions=NUM_DISTINCT_ACTIONS,
            max_chance_outcomes=MAX_CHANCE_OUTCOMES,
            observation_shape=(observation_size(num_players),),
        )
        # Chance tables: per-die symbol probabilities and the roll distribution.
        per_die = [[f.count(s) / 6 for s in range(NUM_SYMBOLS)] for f in self.dice_faces]
        outcomes: list[tuple[int, float]] = []
        for a, b, c in product(range(NUM_SYMBOLS), repeat=3):
            p = per_die[0][a] * per_die[1][b] * per_die[2][c]
            if p > 0:
                outcomes.append((roll_id(a, b, c), p))
        #: Every possible roll ``(outcome id, probability)`` of these dice (D-1).
        self.roll_outcomes: tuple[tuple[int, float], ...] = tuple(outcomes)
        self._roll_ids: frozenset[int] = frozenset(a for a, _ in outcomes)

    @property
    def params(self) -> dict[str, Any]:
        """JSON parameters: ``num_players``, ``dice``, ``end_score``, ``starting_seat``."""
        return {
            "num_players": self.num_players,
            "dice": list(self.dice),
            "end_score": self.end_score,
            "starting_seat": self.starting_seat,
        }

    def new_initial_state(self) -> DiceState:
        """The state before the first deal (a chance node)."""
        return DiceState(self)

    def state_from_dict(self, data: dict[str, Any]) -> DiceState:
        """Rebuild a state from :meth:`DiceState.to_dict` output (validated).

        Raises:
            RecordError: malformed data or cards not conserved.
        """
        return DiceState.from_dict(self, data)

    def build_state(
        self,
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
        """Build a position mid-round from rows written as symbol text; see
        :func:`lamagames.dice.positions.build_state` for the arguments and an example.

        Raises:
            ParameterError: a malformed argument (rows, cards not conserved, bad seat...).
            RecordError: a position the rules cannot reach (phase and dice disagree...).
        """
        return build_state(
            self,
            rows=rows,
            llama_row=llama_row,
            scores=scores,
            quit_seats=quit_seats,
            current=current,
            phase=phase,
            dice=dice,
            starter=starter,
            round_number=round_number,
        )


def as_dice_state(state: State) -> DiceState:
    """Return ``state`` typed as a :class:`DiceState`.

    Raises:
        IllegalActionError: ``state`` is not a LAMA Dice state.
    """
    if not isinstance(state, DiceState):
        raise IllegalActionError(f"a LAMA Dice state is needed, got {type(state).__name__}")
    return state


def round_end_reason(
    before: DiceState, player: int | None, action: int, after: DiceState
) -> RoundEndReason | None:
    """Why the round ended with this action, or ``None`` if it did not end.

    Args:
        before: the state before the action; ``after``: the state after it.
        player: the seat that acted, or ``None`` / -1 for a chance outcome.
        action: the action (or chance outcome) id.

    Returns:
        ``"bust"`` (a roll that took the whole llama row, D-8.4 / D-8.5; the only way a
        chance outcome ends a round), ``"emptied"`` (a discard emptied the row, D-9),
        ``"llama_row"`` (a take emptied the llama row, D-9), ``"all_quit"`` (the last seat
        quit, D-9), or ``None``; a :class:`~lamagames.dice.rules.RoundEndReason` (a string).
    """
    if len(after.round_points) <= len(before.round_points):
        return None
    if player is None or player < 0:
        return RoundEndReason.BUST
    if action == QUIT:
        return RoundEndReason.ALL_QUIT
    if action >= DISCARD_BASE:
        return RoundEndReason.EMPTIED
    return RoundEndReason.LLAMA_ROW
