"""Toy Race rules: two seats race to ``target`` points.

On a turn the current seat either ``step``s (one point) or ``roll``s: a chance node then
adds ``+0``, ``+1`` or ``+2`` points (probabilities 1/4, 1/2, 1/4). The first seat to reach
``target`` wins; after ``max_turns`` turns without a winner the game ends with none.

Actions: 0 ``step``, 1 ``roll``; chance outcomes 0..2 are ``+0``..``+2``.
"""

from __future__ import annotations

from typing import Any, Final, Self

import numpy as np
import numpy.typing as npt

from lamagames.core.errors import (
    IllegalActionError,
    InvalidActionError,
    ParameterError,
    RecordError,
)
from lamagames.core.game import CHANCE_PLAYER, TERMINAL_PLAYER, Game, GameInfo, State

STEP: Final = 0
ROLL: Final = 1
ACTION_NAMES: Final = ("step", "roll")
CHANCE_PROBABILITIES: Final = (0.25, 0.5, 0.25)


class ToyGame(Game):
    """Toy Race with ``target`` points to win (>= 1) and at most ``max_turns`` turns.

    Raises:
        ParameterError: ``num_players`` is not 2, or ``target`` / ``max_turns`` < 1.
    """

    def __init__(self, num_players: int = 2, target: int = 5, max_turns: int = 30) -> None:
        if num_players != 2:
            raise ParameterError(f"num_players must be 2, got {num_players}")
        if not isinstance(target, int) or target < 1:
            raise ParameterError(f"target must be a whole number >= 1, got {target!r}")
        if not isinstance(max_turns, int) or max_turns < 1:
            raise ParameterError(f"max_turns must be a whole number >= 1, got {max_turns!r}")
        self.target = target
        self.max_turns = max_turns
        self.info = GameInfo(
            game_id="toy",
            long_name="Toy Race",
            num_players=2,
            min_players=2,
            max_players=2,
            num_distinct_actions=2,
            max_chance_outcomes=3,
            observation_shape=(5,),
        )

    @property
    def params(self) -> dict[str, Any]:
        """``num_players``, ``target`` and ``max_turns``."""
        return {"num_players": 2, "target": self.target, "max_turns": self.max_turns}

    def new_initial_state(self) -> ToyState:
        """Both seats at 0 points, seat 0 to act."""
        return ToyState(self)

    def state_from_dict(self, data: dict[str, Any]) -> ToyState:
        """Rebuild a state from :meth:`ToyState.to_dict`.

        Raises:
            RecordError: missing or malformed fields.
        """
        state = ToyState(self)
        try:
            scores = [int(x) for x in data["scores"]]
            history = [(int(p), int(a)) for p, a in data["history"]]
            turn, player, rolling = int(data["turn"]), int(data["player"]), bool(data["rolling"])
        except (KeyError, TypeError, ValueError) as exc:
            raise RecordError(f"bad toy state: {exc}") from None
        if len(scores) != 2 or player not in (0, 1):
            raise RecordError("bad toy state: two scores and a player 0 or 1 expected")
        state.scores, state.turn, state.player, state.rolling = scores, turn, player, rolling
        state._history = history
        return state


class ToyState(State):
    """A Toy Race position."""

    def __init__(self, game: ToyGame) -> None:
        self.game: ToyGame = game
        self.scores = [0, 0]
        self.turn = 0
        self.player = 0
        self.rolling = False
        self._history: list[tuple[int, int]] = []

    def _winner(self) -> int | None:
        for seat, score in enumerate(self.scores):
            if score >= self.game.target:
                return seat
        return None

    def current_player(self) -> int:
        """Seat to act, -1 while a roll is pending, -4 when over."""
        if self._winner() is not None or self.turn >= self.game.max_turns:
            return TERMINAL_PLAYER
        return CHANCE_PLAYER if self.rolling else self.player

    def legal_actions(self, player: int | None = None) -> list[int]:
        """``[0, 1, 2]`` at a chance node (for ``None`` or the chance player), ``[step, roll]``
        for the seat to act, else ``[]``."""
        current = self.current_player()
        if current == TERMINAL_PLAYER or (player is not None and player != current):
            return []
        return [0, 1, 2] if current == CHANCE_PLAYER else [STEP, ROLL]

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """``(+0, 1/4), (+1, 1/2), (+2, 1/4)``.

        Raises:
            IllegalActionError: not a chance node.
        """
        self._require_chance()
        return list(enumerate(CHANCE_PROBABILITIES))

    def apply_action(self, action: int, player: int | None = None) -> None:
        """Apply ``action`` (checked first: a refused action changes nothing).

        Raises:
            InvalidActionError: not an id of the action (or chance) space.
            IllegalActionError: not legal now for ``player``.
        """
        current = self.current_player()
        size = 3 if current == CHANCE_PLAYER else 2
        if not isinstance(action, int) or not 0 <= action < size:
            raise InvalidActionError(f"action {action!r} is not in 0..{size - 1}")
        if action not in self.legal_actions(player):
            raise IllegalActionError(f"action {action} is not legal now")
        self._history.append((current, action))
        if current == CHANCE_PLAYER:
            self.scores[self.player] += action
            self.rolling = False
            self._end_turn()
        elif action == STEP:
            self.scores[self.player] += 1
            self._end_turn()
        else:
            self.rolling = True

    def _end_turn(self) -> None:
        self.turn += 1
        if self._winner() is None:
            self.player = 1 - self.player

    def clone(self) -> Self:
        """An independent copy."""
        copy = type(self)(self.game)
        copy.scores, copy.turn = list(self.scores), self.turn
        copy.player, copy.rolling = self.player, self.rolling
        copy._history = list(self._history)
        return copy

    def history(self) -> list[tuple[int, int]]:
        """Every ``(player, action)`` so far."""
        return list(self._history)

    def returns(self) -> list[float]:
        """1.0 for the winner once terminal, else 0.0."""
        winner = self._winner()
        return [1.0 if seat == winner else 0.0 for seat in range(2)]

    def observation(self, player: int) -> dict[str, Any]:
        """Everything is public: scores, target, turn, seat to act, a roll pending."""
        return {
            "scores": list(self.scores),
            "target": self.game.target,
            "turn": self.turn,
            "current": self.current_player(),
            "rolling": self.rolling,
            "legal_actions": self.legal_actions(player),
        }

    def observation_tensor(self, player: int) -> npt.NDArray[np.float32]:
        """``[own score, other score, target, turn, rolling]`` as float32, shape ``(5,)``."""
        own, other = self.scores[player], self.scores[1 - player]
        values = [own, other, self.game.target, self.turn, float(self.rolling)]
        return np.array(values, dtype=np.float32)

    def action_to_string(self, action: int, player: int | None = None) -> str:
        """``+0``..``+2`` for the chance player (or ``None`` at a chance node), else
        ``step``/``roll``.

        Raises:
            InvalidActionError: not an id of the relevant space.
        """
        if self._chance_context(player):
            if action not in (0, 1, 2):
                raise InvalidActionError(f"chance outcome {action!r} is not in 0..2")
            return f"+{action}"
        if action not in (STEP, ROLL):
            raise InvalidActionError(f"action {action!r} is not in 0..1")
        return ACTION_NAMES[action]

    def string_to_action(self, text: str, player: int | None = None) -> int:
        """Parse ``step``, ``roll`` or (for the chance player) ``+0``..``+2``.

        Raises:
            InvalidActionError: anything else.
        """
        word = text.strip().lower()
        if self._chance_context(player):
            if word in ("+0", "+1", "+2"):
                return int(word[1])
        elif word in ACTION_NAMES:
            return ACTION_NAMES.index(word)
        raise InvalidActionError(f"{text!r} is not a Toy Race action here")

    def _chance_context(self, player: int | None) -> bool:
        """``player`` names chance: the chance player, or ``None`` at a chance node."""
        return player == CHANCE_PLAYER or (player is None and self.is_chance_node())

    def to_dict(self) -> dict[str, Any]:
        """The whole state as JSON data."""
        return {
            "scores": list(self.scores),
            "turn": self.turn,
            "player": self.player,
            "rolling": self.rolling,
            "history": [list(entry) for entry in self._history],
        }

    def __str__(self) -> str:
        return f"scores {self.scores[0]}:{self.scores[1]} turn {self.turn}"
