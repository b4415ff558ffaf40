"""The game protocol every lamagames game implements.

The shape follows OpenSpiel: a :class:`Game` holds static metadata and parameters and makes
states; a :class:`State` is one position in the game tree. Chance is an explicit player
(:data:`CHANCE_PLAYER`) whose outcomes come with probabilities. Actions are integers of a
fixed, documented space per game (``0 <= a < info.num_distinct_actions`` for players,
``0 <= a < info.max_chance_outcomes`` at chance nodes); each has a short notation that
round-trips through :meth:`State.action_to_string` / :meth:`State.string_to_action`.

States are mutated in place by :meth:`State.apply_action` (use :meth:`State.child` or
:meth:`State.clone` to branch). An illegal or malformed action raises an
:class:`~lamagames.core.errors.IllegalActionError` or
:class:`~lamagames.core.errors.InvalidActionError` and leaves the state unchanged.

**The chance player.** :data:`CHANCE_PLAYER` is a player like the seats, and every method
that takes a ``player`` treats it the same way (OpenSpiel's rule): ``player=None`` means
the current player, so at a chance node it *is* the chance player. At a chance node
``legal_actions()`` and ``legal_actions(CHANCE_PLAYER)`` both return the chance outcomes'
ids (those of :meth:`State.chance_outcomes`), every seat gets ``[]``, and
``apply_action(a)`` and ``apply_action(a, CHANCE_PLAYER)`` both apply outcome ``a``. At any
other node the chance player has no legal action and ``apply_action(a, CHANCE_PLAYER)`` is
refused (:class:`~lamagames.core.errors.IllegalActionError`, or
:class:`~lamagames.core.errors.InvalidActionError` for an id outside the player action
space) without a change. ``action_to_string`` and
``string_to_action`` with ``CHANCE_PLAYER`` use the chance outcomes' notation at any node
(with ``None``, the notation of whoever acts now). :func:`lamagames.core.testing.check_state`
holds every game to this rule.

Games where several players may act at the same moment (Lama Express windows, E-9) keep a
canonical *current player* for turn-by-turn play and also answer :meth:`State.legal_actions`
and :meth:`State.apply_action` for any other seat; :meth:`State.acting_players` lists every
seat that may act now.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Final, Self

import numpy as np
import numpy.typing as npt

from lamagames.core.errors import IllegalActionError

#: ``current_player()`` at a chance node (OpenSpiel's ``kChancePlayerId``).
CHANCE_PLAYER: Final = -1
#: ``current_player()`` of a terminal state (OpenSpiel's ``kTerminalPlayerId``).
TERMINAL_PLAYER: Final = -4


class Termination(StrEnum):
    """How a game ended (python-chess's ``Termination``, in game-neutral words)."""

    #: A seat reached the game's goal and won at once (Lama Express: all llamas home, E-10).
    GOAL = "goal"
    #: A score reached the end score after a round; the lowest scores win (LAMA Dice, D-11).
    END_SCORE = "end_score"
    #: Truncated by a turn limit with no winner (Lama Express, E-11).
    TURN_LIMIT = "turn_limit"
    #: Any other end by the game's rules (the default of :meth:`State.outcome`).
    FINISHED = "finished"


@dataclass(frozen=True, slots=True)
class Outcome:
    """The result of a finished game (python-chess's ``Outcome``).

    Attributes:
        termination: how the game ended.
        winners: winning seats, ascending; empty when nobody won (a truncated game).
    """

    termination: Termination
    winners: tuple[int, ...]

    def to_json(self) -> dict[str, Any]:
        """``{"termination": "goal", "winners": [2]}``."""
        return {"termination": self.termination.value, "winners": list(self.winners)}


@dataclass(frozen=True, slots=True)
class GameInfo:
    """Static metadata of a game instance.

    Attributes:
        game_id: registry name, for example ``"dice"`` or ``"express"``.
        long_name: human-readable title.
        num_players: seats in this instance.
        min_players: smallest supported number of seats.
        max_players: largest supported number of seats.
        num_distinct_actions: size of the player action space.
        max_chance_outcomes: size of the chance outcome space.
        observation_shape: shape of :meth:`State.observation_tensor` (float32).
        utility: ``"general_sum"`` or ``"zero_sum"`` (OpenSpiel's terms).
        reward_model: ``"terminal"``: rewards only at the end, see :meth:`State.returns`.
    """

    game_id: str
    long_name: str
    num_players: int
    min_players: int
    max_players: int
    num_distinct_actions: int
    max_chance_outcomes: int
    observation_shape: tuple[int, ...]
    utility: str = "general_sum"
    reward_model: str = "terminal"


class Game(ABC):
    """A game with fixed parameters: the factory of its states.

    Subclasses set :attr:`info` in ``__init__`` after validating their parameters (raising
    :class:`~lamagames.core.errors.ParameterError` on bad ones).
    """

    info: GameInfo

    @property
    def game_id(self) -> str:
        """Registry name of the game."""
        return self.info.game_id

    @property
    def num_players(self) -> int:
        """Number of seats."""
        return self.info.num_players

    @property
    @abstractmethod
    def params(self) -> dict[str, Any]:
        """The parameters as JSON-compatible data; ``make(game_id, **params)`` rebuilds the game."""

    @abstractmethod
    def new_initial_state(self) -> State:
        """Return the state before the first action (usually a chance node: the deal)."""

    @abstractmethod
    def state_from_dict(self, data: dict[str, Any]) -> State:
        """Rebuild a state from :meth:`State.to_dict` output.

        Raises:
            RecordError: the data is malformed or inconsistent with this game.
        """

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.params!r})"


class State(ABC):
    """One position of a game; mutable, cloneable, serialisable."""

    game: Game

    # ----------------------------------------------------------------- who acts
    @abstractmethod
    def current_player(self) -> int:
        """Seat to act (0-based), :data:`CHANCE_PLAYER` or :data:`TERMINAL_PLAYER`."""

    def is_chance_node(self) -> bool:
        """True when the next action is a chance outcome."""
        return self.current_player() == CHANCE_PLAYER

    def is_terminal(self) -> bool:
        """True when the game is over (won, or truncated by a turn limit)."""
        return self.current_player() == TERMINAL_PLAYER

    def acting_players(self) -> list[int]:
        """Every seat that may act now, in turn order from the current player.

        Turn-based games return ``[current_player()]`` (or ``[]`` at chance and terminal
        nodes); games with simultaneous free actions (Lama Express, E-9) override this.
        """
        player = self.current_player()
        return [player] if player >= 0 else []

    # ----------------------------------------------------------------- actions
    @abstractmethod
    def legal_actions(self, player: int | None = None) -> list[int]:
        """Legal actions, ascending.

        Args:
            player: the seat asking, :data:`CHANCE_PLAYER`, or ``None`` for the current
                player. At a chance node ``None`` and :data:`CHANCE_PLAYER` give the ids of
                the chance outcomes; elsewhere :data:`CHANCE_PLAYER` gets ``[]``.

        Returns:
            A new list of action ids; empty for a seat (or chance) that may not act now.
        """

    def legal_actions_mask(self, player: int | None = None) -> npt.NDArray[np.bool_]:
        """Boolean mask over the action space of ``player`` (the chance outcome space for
        the chance player, as :meth:`legal_actions` names it).

        Returns:
            Array of shape ``(num_distinct_actions,)``, or ``(max_chance_outcomes,)`` for
            :data:`CHANCE_PLAYER` (or ``None`` at a chance node), dtype ``bool``.
        """
        info = self.game.info
        chance = player == CHANCE_PLAYER or (player is None and self.is_chance_node())
        size = info.max_chance_outcomes if chance else info.num_distinct_actions
        mask = np.zeros(size, dtype=np.bool_)
        mask[self.legal_actions(player)] = True
        return mask

    @abstractmethod
    def chance_outcomes(self) -> list[tuple[int, float]]:
        """At a chance node, the ``(outcome, probability)`` pairs; probabilities sum to 1.

        Raises:
            IllegalActionError: the state is not a chance node.
        """

    def sample_chance_outcome(self, rng: random.Random) -> int:
        """Draw a chance outcome with the probabilities of :meth:`chance_outcomes`.

        Games override this with a faster sampler of the same distribution.

        Raises:
            IllegalActionError: the state is not a chance node.
        """
        outcomes = self.chance_outcomes()
        x = rng.random()
        total = 0.0
        for action, probability in outcomes:
            total += probability
            if x < total:
                return action
        return outcomes[-1][0]

    @abstractmethod
    def apply_action(self, action: int, player: int | None = None) -> None:
        """Apply an action (a chance outcome at a chance node) in place.

        Args:
            action: an action id.
            player: the seat acting, :data:`CHANCE_PLAYER` (only at a chance node), or
                ``None`` for the current player. Other seats may act only in games with
                simultaneous free actions.

        Raises:
            InvalidActionError: ``action`` is not an id of the action space.
            IllegalActionError: the action is not legal now for that player. The state is
                unchanged in both cases.
        """

    def child(self, action: int, player: int | None = None) -> Self:
        """Return a copy of this state with ``action`` applied; this state is unchanged."""
        state = self.clone()
        state.apply_action(action, player)
        return state

    @abstractmethod
    def clone(self) -> Self:
        """Return an independent deep copy."""

    @abstractmethod
    def history(self) -> list[tuple[int, int]]:
        """Every ``(player, action)`` applied so far; chance outcomes have player -1."""

    # ----------------------------------------------------------------- results
    @abstractmethod
    def returns(self) -> list[float]:
        """Per-seat returns: 1.0 for each winner and 0.0 otherwise once terminal, else 0.0."""

    def outcome(self) -> Outcome | None:
        """How the game ended, or ``None`` while it is not terminal.

        The default names :attr:`Termination.FINISHED` and the seats with a positive return;
        games override it with their own termination.
        """
        if not self.is_terminal():
            return None
        winners = tuple(seat for seat, r in enumerate(self.returns()) if r > 0)
        return Outcome(Termination.FINISHED, winners)

    # ----------------------------------------------------------------- views
    @abstractmethod
    def observation(self, player: int) -> dict[str, Any]:
        """What ``player`` sees, as JSON-compatible data (documented per game)."""

    @abstractmethod
    def observation_tensor(self, player: int) -> npt.NDArray[np.float32]:
        """What ``player`` sees as a flat float32 array of shape ``info.observation_shape``."""

    @abstractmethod
    def action_to_string(self, action: int, player: int | None = None) -> str:
        """Short notation of an action: a chance outcome's for ``player=CHANCE_PLAYER`` (or
        ``None`` at a chance node), else a player action's.

        Raises:
            InvalidActionError: ``action`` is not an id of the relevant action space.
        """

    @abstractmethod
    def string_to_action(self, text: str, player: int | None = None) -> int:
        """Parse notation (as produced by :meth:`action_to_string`) to an action id.

        Raises:
            InvalidActionError: the text is not valid notation here.
        """

    # ----------------------------------------------------------------- data
    @abstractmethod
    def to_dict(self) -> dict[str, Any]:
        """The full state as JSON-compatible data; ``game.state_from_dict`` inverts it."""

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, State):
            return NotImplemented
        return self.game.params == other.game.params and self.to_dict() == other.to_dict()

    def __hash__(self) -> int:  # states are mutable
        raise TypeError(f"unhashable type: '{type(self).__name__}'")

    def _require_chance(self) -> None:
        """Raise :class:`IllegalActionError` unless this is a chance node."""
        if not self.is_chance_node():
            raise IllegalActionError("not a chance node")
