"""lamagames games as OpenSpiel (pyspiel) Python games.

Importing this module registers every known game with pyspiel under the name of its spec's
``"rl"`` extra (:class:`~lamagames.core.rlspec.RLSpec`); :func:`register` adds a game
registered later (a third-party or test game)::

    import pyspiel
    import lamagames.rl.openspiel  # registers the games
    game = pyspiel.load_game("python_lama_dice(players=2)")
    game = pyspiel.load_game("python_lama_express(players=3,turn_limit=200)")

The games are sequential with explicit chance (``EXPLICIT_STOCHASTIC``): the engine's chance
nodes (LAMA Dice deals and rolls, D-1/D-5; the Lama Express die, E-1) are OpenSpiel chance
nodes with the same outcome ids (``0 <= id < max_chance_outcomes``) and probabilities, except
where the game's spec splits a large chance node into a sequence of small ones
(:class:`~lamagames.core.rlspec.ChanceSplit`: LAMA Dice deals two cards at a time, three
nodes of at most 28 outcomes instead of one of up to 918). Player actions are the engines'
action ids (``docs/dice.md``, ``docs/express.md``). Lama Express windows (E-9) are played
turn by turn: ``current_player()`` is the seat the engine asks.

The games are of perfect information (every fact that matters is public), general-sum with
returns 1.0 per winner and 0.0 otherwise (LAMA Dice ties make several winners, D-11; a
truncated game has no winner). Observation tensors are the engines' ``observation_tensor``
(one piece named ``observation``); the information state string is the action history.

``max_game_length`` is the spec's proven bound on decisions (Lama Express: from its
``turn_limit``, E-11, see :func:`lamagames.express.rl.decision_bound`) or, for a game with
no bound (LAMA Dice, D-8.1), the parameter ``max_game_length``: the game ends with no winner
after that many decisions (default 1000, never reached in practice).
"""

from __future__ import annotations

import json
import warnings
from typing import Any, Final

import numpy as np
import pyspiel

from lamagames.core.errors import IllegalActionError, LamaError
from lamagames.core.game import Game, State
from lamagames.core.registry import make
from lamagames.core.rlspec import RLSpec
from lamagames.core.spec import spec_ids
from lamagames.rl.common import chance_to_string, make_engine_game, rl_spec

#: Name of the OpenSpiel parameter capping the decisions of a game with no bound.
CAP_PARAMETER: Final = "max_game_length"


def _game_type(rl: RLSpec, low: int, high: int) -> Any:
    spec = dict(rl.openspiel_parameters)
    if rl.decision_cap is not None:
        spec[CAP_PARAMETER] = rl.decision_cap
    return pyspiel.GameType(
        short_name=rl.openspiel_name,
        long_name=rl.openspiel_long_name,
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
    """A lamagames game as a pyspiel game; :func:`register` makes one subclass per game.

    Attributes:
        lama_game: the engine game (:class:`lamagames.core.game.Game`).
        rl: the game's :class:`~lamagames.core.rlspec.RLSpec`.
        decision_cap: decisions after which the game ends with no winner (the
            ``max_game_length`` parameter of a game with no bound), else ``None``.
    """

    game_type: Any
    game_id: str
    rl: RLSpec

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        chosen = {**self.game_type.parameter_specification, **(params or {})}
        name = self.game_type.short_name
        cap: int | None = None
        if self.rl.decision_cap is not None:
            cap = chosen[CAP_PARAMETER]
            if type(cap) is not int or cap < 1:
                raise ValueError(f"{name}: {CAP_PARAMETER} must be a positive integer, got {cap!r}")
        try:
            self.lama_game: Game = make_engine_game(self.game_id, self.rl.engine_params(chosen))
        except LamaError as exc:
            raise ValueError(f"{name}: {exc}") from None
        bound = self.rl.bound(self.lama_game)
        if bound is None and cap is None:
            raise ValueError(f"{name}: these parameters allow endless games; bound them")
        self.decision_cap = cap if bound is None or (cap is not None and cap < bound) else None
        info = self.lama_game.info
        game_info = pyspiel.GameInfo(
            num_distinct_actions=info.num_distinct_actions,
            max_chance_outcomes=info.max_chance_outcomes,
            num_players=info.num_players,
            min_utility=0.0,
            max_utility=1.0,
            utility_sum=None,
            max_game_length=min(x for x in (cap, bound) if x is not None),
        )
        super().__init__(self.game_type, game_info, chosen)

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


class LamaState(pyspiel.State):  # type: ignore[misc]
    """A pyspiel state wrapping an engine state (mutated in place, cloned by pyspiel).

    Attributes:
        lama: the engine state (:class:`lamagames.core.game.State`); read it, do not mutate.
    """

    def __init__(self, game: LamaGame) -> None:
        super().__init__(game)
        self._engine = _EngineState(game.lama_game.new_initial_state())
        self._limit: int | None = game.decision_cap
        self._split = game.rl.chance_split
        self._prefix: list[int] = []  # steps of a split chance node drawn so far
        self._decisions = 0
        self._truncated = False

    @property
    def lama(self) -> State:
        """The engine state."""
        return self._engine.state

    def is_truncated(self) -> bool:
        """True if the game ended without a winner: the engine's own truncation (Lama
        Express ``turn_limit``, E-11) or the ``max_game_length`` cap."""
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

    def _split_here(self, state: State) -> bool:
        split = self._split
        return split is not None and state.is_chance_node() and split.applies(state)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """``(outcome id, probability)`` pairs of the engine's chance node, or of the next
        step of a split one (:class:`~lamagames.core.rlspec.ChanceSplit`)."""
        state = self._engine.state
        if self._split is not None and self._split_here(state):
            return self._split.step_outcomes(state, self._prefix)
        return state.chance_outcomes()

    def _apply_action(self, action: int) -> None:
        state = self._engine.state
        if not state.is_chance_node():
            state.apply_action(int(action))
            self._decisions += 1
            if (
                self._limit is not None
                and self._decisions >= self._limit
                and not state.is_terminal()
            ):
                self._truncated = True
            return
        split = self._split
        if split is None or not split.applies(state):
            state.apply_action(int(action))
            return
        step = int(action)
        if not any(a == step for a, _ in split.step_outcomes(state, self._prefix)):
            raise IllegalActionError(f"chance step {step} is not possible here")
        prefix = [*self._prefix, step]
        outcome = split.outcome(state, prefix)
        if outcome is None:
            self._prefix = prefix
        else:
            state.apply_action(outcome)
            self._prefix = []

    def _action_to_string(self, player: int, action: int) -> str:
        state = self._engine.state
        if player == pyspiel.PlayerId.CHANCE:
            if self._split is not None and self._split_here(state):
                return self._split.step_to_string(int(action))
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
        the history itself), plus the truncation flag and the steps of a split chance node
        drawn so far."""
        data = self._engine.state.to_dict()
        data.pop("history", None)
        data["truncated_by_max_game_length"] = self._truncated
        if self._prefix:
            data["chance_steps"] = list(self._prefix)
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
        if self.perfect_recall:
            return " ".join([str(action) for action in state.history()])
        return json.dumps(state.lama.observation(player), sort_keys=True, separators=(",", ":"))


def register(game_id: str) -> str:
    """Register a game with pyspiel (once; again is a no-op) and return its short name.

    The short name, parameters, bound and chance split come from the game's
    :class:`~lamagames.core.rlspec.RLSpec`; players range over the game's
    ``min_players .. max_players``.

    Raises:
        ParameterError: unknown game, or a bad ``"rl"`` extra.
    """
    rl = rl_spec(game_id)
    name = rl.openspiel_name
    if name in pyspiel.registered_names():
        return name
    info = make(game_id).info
    game_type = _game_type(rl, info.min_players, info.max_players)
    attrs = {
        "game_type": game_type,
        "game_id": game_id,
        "rl": rl,
        "__doc__": rl.openspiel_long_name,
    }
    cls = type(f"OpenSpiel_{game_id}", (LamaGame,), attrs)
    pyspiel.register_game(game_type, cls)
    return name


def _register_known() -> None:
    for game_id in spec_ids():
        try:
            register(game_id)
        except (LamaError, ImportError) as exc:  # a broken installed game stops no other
            warnings.warn(f"{game_id} not registered with OpenSpiel: {exc}", stacklevel=2)


_register_known()
