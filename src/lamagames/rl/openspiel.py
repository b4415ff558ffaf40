"""LAMA Dice and Lama Express as OpenSpiel (pyspiel) Python games.

Importing this module registers two games with pyspiel::

    import pyspiel
    import lamagames.rl.openspiel  # registers the games
    game = pyspiel.load_game("python_lama_dice(players=2)")
    game = pyspiel.load_game("python_lama_express(players=3,turn_limit=200)")

Both are sequential games with explicit chance (``EXPLICIT_STOCHASTIC``): the engine's chance
nodes (LAMA Dice deals and rolls, D-1/D-5; the Lama Express die, E-1) are OpenSpiel chance
nodes with the same outcome ids (``0 <= id < max_chance_outcomes``) and probabilities. Player
actions are the engines' action ids (``docs/dice.md``, ``docs/express.md``). Lama Express
windows (E-9) are played turn by turn: ``current_player()`` is the seat the engine asks.

Both games are of perfect information (every fact that matters is public), general-sum with
returns 1.0 per winner and 0.0 otherwise (LAMA Dice ties make several winners, D-11; a
truncated game has no winner). Observation tensors are the engines' ``observation_tensor``
(one piece named ``observation``); the information state string is the action history.

Truncation keeps ``max_game_length`` finite: Lama Express uses its ``turn_limit`` (E-11,
default :data:`~lamagames.rl.common.EXPRESS_TURN_LIMIT` rolls here); LAMA Dice ends the game
with no winner after ``max_game_length`` decisions (default
:data:`~lamagames.rl.common.DICE_MAX_GAME_LENGTH`, never reached in practice).
"""

from __future__ import annotations

import json
from typing import Any, Final

import numpy as np
import pyspiel

from lamagames.core.errors import LamaError
from lamagames.core.game import Game, State
from lamagames.core.registry import make
from lamagames.rl.common import (
    DICE_MAX_GAME_LENGTH,
    EXPRESS_TURN_LIMIT,
    chance_to_string,
    express_max_game_length,
    make_engine_game,
)

DICE_SHORT_NAME: Final = "python_lama_dice"
EXPRESS_SHORT_NAME: Final = "python_lama_express"

#: Separator of list-valued parameters (dice faces, colours) in OpenSpiel game strings,
#: whose own separator is the comma: ``python_lama_dice(dice=LL3456/12LL56/1234LL)``.
LIST_SEPARATOR: Final = "/"


def _split(text: str) -> list[str]:
    return [part.strip() for part in text.split(LIST_SEPARATOR) if part.strip()]


def _game_type(short_name: str, long_name: str, low: int, high: int, spec: dict[str, Any]) -> Any:
    return pyspiel.GameType(
        short_name=short_name,
        long_name=long_name,
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.PERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=high,
        min_num_players=low,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=spec,
    )


_DICE_DEFAULTS: Final = make("dice").params
DICE_GAME_TYPE: Final = _game_type(
    DICE_SHORT_NAME,
    "Python LAMA Dice",
    2,
    6,
    {
        "players": _DICE_DEFAULTS["num_players"],
        "dice": LIST_SEPARATOR.join(_DICE_DEFAULTS["dice"]),
        "end_score": _DICE_DEFAULTS["end_score"],
        "starting_seat": _DICE_DEFAULTS["starting_seat"],
        "max_game_length": DICE_MAX_GAME_LENGTH,
    },
)
EXPRESS_GAME_TYPE: Final = _game_type(
    EXPRESS_SHORT_NAME,
    "Python Lama Express",
    2,
    4,
    {
        "players": 2,
        "colours": "",
        "starting_seat": 0,
        "llamas_to_win": 4,
        "board": "standard",
        "turn_limit": EXPRESS_TURN_LIMIT,
    },
)


class _EngineState:
    """Holds an engine state for a pyspiel state's ``__dict__``.

    pyspiel clones a Python state by deep-copying its ``__dict__`` and serialises it by
    pickling; this box makes the copy an engine :meth:`~State.clone` and the pickle the
    game's parameters plus :meth:`~State.to_dict` (no engine internals).
    """

    __slots__ = ("state",)

    def __init__(self, state: State) -> None:
        self.state = state

    def __deepcopy__(self, memo: dict[int, Any]) -> _EngineState:
        return _EngineState(self.state.clone())

    def __reduce__(self) -> tuple[Any, tuple[str, dict[str, Any], dict[str, Any]]]:
        game = self.state.game
        return (_restore, (game.game_id, game.params, self.state.to_dict()))


def _restore(game_id: str, params: dict[str, Any], data: dict[str, Any]) -> _EngineState:
    """Unpickle an :class:`_EngineState` (see ``__reduce__``)."""
    return _EngineState(make(game_id, **params).state_from_dict(data))


class LamaGame(pyspiel.Game):  # type: ignore[misc]
    """A lamagames game as a pyspiel game; subclasses name the game and parse parameters.

    Attributes:
        lama_game: the engine game (:class:`lamagames.core.game.Game`).
    """

    game_type: Any

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        chosen = {**self.game_type.parameter_specification, **(params or {})}
        try:
            self.lama_game: Game = self._engine_game(chosen)
        except LamaError as exc:
            raise ValueError(f"{self.game_type.short_name}: {exc}") from None
        info = self.lama_game.info
        game_info = pyspiel.GameInfo(
            num_distinct_actions=info.num_distinct_actions,
            max_chance_outcomes=info.max_chance_outcomes,
            num_players=info.num_players,
            min_utility=0.0,
            max_utility=1.0,
            utility_sum=None,
            max_game_length=self._max_game_length(chosen),
        )
        super().__init__(self.game_type, game_info, chosen)

    def _engine_game(self, params: dict[str, Any]) -> Game:
        raise NotImplementedError

    def _max_game_length(self, params: dict[str, Any]) -> int:
        raise NotImplementedError

    def new_initial_state(self) -> LamaState:
        """The engine's initial state (a chance node: the first deal or roll)."""
        return LamaState(self)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> LamaObserver:
        """An observer: the observation (tensor and string) unless ``iig_obs_type`` asks for
        perfect recall, then the information state (a string: the action history)."""
        perfect_recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        return LamaObserver(self.lama_game, perfect_recall, params)


class DiceOpenSpielGame(LamaGame):
    """``python_lama_dice``: parameters ``players`` (2..6), ``dice`` (faces of dice A, B, C
    separated by ``/``), ``end_score`` (points, D-11), ``starting_seat`` (D-5) and
    ``max_game_length`` (decisions after which the game ends with no winner)."""

    game_type = DICE_GAME_TYPE

    def _engine_game(self, params: dict[str, Any]) -> Game:
        limit = params["max_game_length"]
        if type(limit) is not int or limit < 1:
            raise ValueError(f"max_game_length must be a positive integer, got {limit!r}")
        return make_engine_game(
            "dice",
            {
                "num_players": params["players"],
                "dice": _split(str(params["dice"])),
                "end_score": params["end_score"],
                "starting_seat": params["starting_seat"],
            },
        )

    def _max_game_length(self, params: dict[str, Any]) -> int:
        return int(params["max_game_length"])


class ExpressOpenSpielGame(LamaGame):
    """``python_lama_express``: parameters ``players`` (2..4), ``colours`` (``/``-separated,
    empty for the E-4 defaults), ``starting_seat`` (E-5), ``llamas_to_win`` (4 or 3, E-10),
    ``board`` (``standard`` or the path of a board file, E-12) and ``turn_limit`` (die rolls,
    E-11)."""

    game_type = EXPRESS_GAME_TYPE

    def _engine_game(self, params: dict[str, Any]) -> Game:
        board: Any = params["board"]
        if board != "standard":
            from lamagames.express import load_board

            board = load_board(str(board))
        colours = _split(str(params["colours"]))
        return make_engine_game(
            "express",
            {
                "num_players": params["players"],
                "colours": colours or None,
                "starting_seat": params["starting_seat"],
                "llamas_to_win": params["llamas_to_win"],
                "board": board,
                "turn_limit": params["turn_limit"],
            },
        )

    def _max_game_length(self, params: dict[str, Any]) -> int:
        return express_max_game_length(params["players"], params["turn_limit"])


class LamaState(pyspiel.State):  # type: ignore[misc]
    """A pyspiel state wrapping an engine state (mutated in place, cloned by pyspiel).

    Attributes:
        lama: the engine state (:class:`lamagames.core.game.State`); read it, do not mutate.
    """

    def __init__(self, game: LamaGame) -> None:
        super().__init__(game)
        self._engine = _EngineState(game.lama_game.new_initial_state())
        self._limit: int = game.max_game_length()
        self._decisions = 0
        self._truncated = False

    @property
    def lama(self) -> State:
        """The engine state."""
        return self._engine.state

    def is_truncated(self) -> bool:
        """True if the game ended without a winner: Lama Express ``turn_limit`` (E-11) or the
        LAMA Dice ``max_game_length`` cap."""
        if self._truncated:
            return True
        state = self._engine.state
        return state.is_terminal() and not any(state.returns())

    def current_player(self) -> int:
        """The engine's current player (``-1`` chance, ``-4`` terminal, as in pyspiel)."""
        if self._truncated:
            return int(pyspiel.PlayerId.TERMINAL)
        return self._engine.state.current_player()

    def _legal_actions(self, player: int) -> list[int]:
        return self._engine.state.legal_actions(player)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """``(outcome id, probability)`` pairs of the engine's chance node."""
        return self._engine.state.chance_outcomes()

    def _apply_action(self, action: int) -> None:
        state = self._engine.state
        chance = state.is_chance_node()
        state.apply_action(int(action))
        if not chance:
            self._decisions += 1
            if self._decisions >= self._limit and not state.is_terminal():
                self._truncated = True

    def _action_to_string(self, player: int, action: int) -> str:
        state = self._engine.state
        if player == pyspiel.PlayerId.CHANCE:
            return chance_to_string(state, int(action))
        return state.action_to_string(int(action), player)

    def is_terminal(self) -> bool:
        """True when the engine game is over or the ``max_game_length`` cap was reached."""
        return self._truncated or self._engine.state.is_terminal()

    def returns(self) -> list[float]:
        """1.0 per winner, 0.0 otherwise; all 0.0 before the end and when truncated."""
        if self._truncated:
            return [0.0] * self._engine.state.game.num_players
        return self._engine.state.returns()

    def information_state_tensor(self, player: int | None = None) -> list[float]:
        """Not provided (the game type says ``provides_information_state_tensor=False``):
        in these perfect-information games the history is the information state; use
        :meth:`information_state_string` or :meth:`observation_tensor`.

        Raises:
            pyspiel.SpielError: always (pyspiel would otherwise return an empty list).
        """
        raise pyspiel.SpielError(
            f"{self.get_game().get_type().short_name} provides no information state tensor "
            "(provides_information_state_tensor=False); use observation_tensor(player) or "
            "information_state_string(player)"
        )

    def __str__(self) -> str:
        """The engine's :meth:`~State.to_dict` as JSON without the history (pyspiel keeps
        the history itself), plus the truncation flag."""
        data = self._engine.state.to_dict()
        data.pop("history", None)
        data["truncated_by_max_game_length"] = self._truncated
        return json.dumps(data, sort_keys=True, separators=(",", ":"))


class LamaObserver:
    """A pyspiel Python observer (see ``open_spiel/python/observation.py``).

    The observation: ``tensor`` is the engine's ``observation_tensor(player)`` (float32, shape
    ``observation_shape``; ``dict`` has it as ``"observation"``) and the string is the
    engine's JSON ``observation(player)``. With perfect recall (the information state) there
    is no tensor and the string is the history of action ids (chance outcomes included).

    Raises:
        ValueError: observer parameters were given (none are supported).
    """

    def __init__(self, game: Game, perfect_recall: bool, params: dict[str, Any] | None) -> None:
        if params:
            raise ValueError(f"observation parameters not supported; passed {params}")
        self.perfect_recall = perfect_recall
        self.tensor: np.ndarray[Any, np.dtype[np.float32]] | None = None
        self.dict: dict[str, np.ndarray[Any, np.dtype[np.float32]]] = {}
        if not perfect_recall:
            self.tensor = np.zeros(game.info.observation_shape, np.float32)
            self.dict["observation"] = self.tensor

    def set_from(self, state: LamaState, player: int) -> None:
        """Fill :attr:`tensor` with ``state`` as ``player`` sees it."""
        if self.tensor is not None:
            self.tensor[:] = state.lama.observation_tensor(player)

    def string_from(self, state: LamaState, player: int) -> str:
        """The observation (JSON) or the information state (history) of ``player``."""
        lama = state.lama
        if self.perfect_recall:
            return " ".join([str(action) for _, action in lama.history()])
        return json.dumps(lama.observation(player), sort_keys=True, separators=(",", ":"))


def _register(game_type: Any, cls: type[LamaGame]) -> None:
    if game_type.short_name not in pyspiel.registered_names():
        pyspiel.register_game(game_type, cls)


_register(DICE_GAME_TYPE, DiceOpenSpielGame)
_register(EXPRESS_GAME_TYPE, ExpressOpenSpielGame)
