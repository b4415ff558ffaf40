"""Pieces shared by the OpenSpiel, PettingZoo and Gymnasium adapters.

Everything here goes through the game protocol (:mod:`lamagames.core.game`) and the registry;
every per-game detail (default parameters, names, bounds, text for ``render``, chance
notation outside a chance node) comes from the game's spec (:func:`rl_spec`, the ``"text"``
and ``"chance_notation"`` extras), so no game is named here.
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Mapping
from typing import Any

import numpy as np
import numpy.typing as npt

from lamagames.core.errors import IllegalActionError, InvalidActionError, ParameterError
from lamagames.core.game import CHANCE_PLAYER, Game, State
from lamagames.core.registry import make
from lamagames.core.rlspec import RLSpec, default_rl_spec
from lamagames.core.spec import get_spec


def rl_spec(game_id: str) -> RLSpec:
    """The adapters' view of a game: the ``"rl"`` extra of its spec, or
    :func:`~lamagames.core.rlspec.default_rl_spec` if it has none.

    Raises:
        ParameterError: unknown game, or the extra is not an :class:`RLSpec`.
    """
    spec = get_spec(game_id)
    if "rl" not in spec.extras:
        num_players = make(game_id).num_players
        return default_rl_spec(game_id, spec.title, num_players)
    found = spec.load_extra("rl")
    if not isinstance(found, RLSpec):
        raise ParameterError(f"{spec.title}: the 'rl' extra is not an RLSpec")
    return found


def make_engine_game(game_id: str, params: Mapping[str, Any]) -> Game:
    """Create the engine game for an adapter: ``make(game_id, **params)``, with the game's
    :attr:`RLSpec.default_params <lamagames.core.rlspec.RLSpec.default_params>` added unless
    ``params`` names them (Lama Express: ``turn_limit=1000``; pass ``turn_limit=None``
    explicitly for endless games).

    Raises:
        ParameterError: unknown game or bad parameters (the engine's message).
    """
    chosen = {**rl_spec(game_id).default_params, **params}
    return make(game_id, **chosen)


def agent_names(num_players: int) -> list[str]:
    """PettingZoo agent names of the seats: ``player_0`` .. ``player_{n-1}``."""
    return [f"player_{seat}" for seat in range(num_players)]


def as_action_id(action: object, size: int) -> int:
    """Convert ``action`` (a Python or NumPy integer) to an ``int`` id of a space of ``size``.

    Raises:
        InvalidActionError: not an integer (``bool``, float, ``None``...) or outside
            ``0 <= action < size``.
    """
    if isinstance(action, bool | np.bool_):
        raise InvalidActionError(f"{action!r} is not an action id")
    try:
        value = operator.index(action)  # type: ignore[arg-type]
    except TypeError:
        raise InvalidActionError(f"{action!r} is not an action id") from None
    if not 0 <= value < size:
        raise InvalidActionError(f"action {value} is outside the action space 0..{size - 1}")
    return value


def check_legal(state: State, action: object, seat: int) -> int:
    """Validate a seat's action before it is applied; nothing is changed.

    Returns:
        The action id as ``int``.

    Raises:
        InvalidActionError: not an id of the action space.
        IllegalActionError: not legal for ``seat`` now; the message lists the legal actions
            in the game's notation.
    """
    value = as_action_id(action, state.game.info.num_distinct_actions)
    legal = state.legal_actions(seat)
    if value not in legal:
        names = ", ".join(f"{a} ({state.action_to_string(a, seat)})" for a in legal)
        raise IllegalActionError(
            f"action {value} ({state.action_to_string(value, seat)}) is not legal for seat "
            f"{seat} now; legal: {names or 'none'}"
        )
    return value


def action_mask(state: State, seat: int | None) -> npt.NDArray[np.int8]:
    """0/1 mask over the player action space of the actions ``seat`` may take now.

    Returns:
        Array of shape ``(num_distinct_actions,)``, dtype ``int8``; all zeros for ``None``
        (nobody acts) or a seat that may not act.
    """
    mask = np.zeros(state.game.info.num_distinct_actions, dtype=np.int8)
    if seat is not None and seat >= 0 and not state.is_terminal():
        mask[state.legal_actions(seat)] = 1
    return mask


def _spec_extra(game_id: str, name: str) -> Callable[..., Any] | None:
    """The extra ``name`` of the game's spec (``"text"``, ``"chance_notation"``), if any."""
    spec = get_spec(game_id)
    if name not in spec.extras:
        return None
    found: Callable[..., Any] = spec.load_extra(name)
    return found


def chance_to_string(state: State, action: int) -> str:
    """Notation of chance outcome ``action`` whether or not ``state`` is a chance node."""
    if state.is_chance_node():
        return state.action_to_string(action)
    notation = _spec_extra(state.game.game_id, "chance_notation")
    if notation is not None:
        return str(notation(action))
    return state.action_to_string(action, CHANCE_PLAYER)


def render_text(state: State) -> str:
    """The position as plain text (the game's own drawing), for ``render_mode="ansi"``."""
    draw = _spec_extra(state.game.game_id, "text")
    if draw is None:
        return f"{state.game.info.long_name}: {state.observation(0)}\n"
    return str(draw(state, agent_names(state.game.num_players)))


def check_seat(seat: object, num_players: int) -> int:
    """Validate a seat number.

    Raises:
        ParameterError: not an integer seat ``0 <= seat < num_players``.
    """
    if isinstance(seat, bool) or not isinstance(seat, int | np.integer):
        raise ParameterError(f"seat must be an integer, got {seat!r}")
    if not 0 <= int(seat) < num_players:
        raise ParameterError(f"seat must be 0..{num_players - 1}, got {seat}")
    return int(seat)
