"""Pieces shared by the OpenSpiel, PettingZoo and Gymnasium adapters.

Everything here goes through the game protocol (:mod:`lamagames.core.game`) and the registry;
the few per-game details (default truncation, text for ``render``, chance notation outside a
chance node) sit in one lazy lookup each.
"""

from __future__ import annotations

import importlib
import io
import operator
from collections.abc import Callable, Mapping
from typing import Any, Final

import numpy as np
import numpy.typing as npt

from lamagames.core.errors import IllegalActionError, InvalidActionError, ParameterError
from lamagames.core.game import CHANCE_PLAYER, Game, State
from lamagames.core.registry import make

#: Default ``turn_limit`` (die rolls, E-11) of Lama Express in the adapters. The engine's own
#: default is ``None`` (no limit): the rules allow endless games (a seat may never board), but
#: OpenSpiel needs a finite ``max_game_length`` and RL episodes must end. Random play ends
#: within about 300 rolls, so 1000 rarely truncates a game.
EXPRESS_TURN_LIMIT: Final = 1000

#: Default cap on decisions (all seats) of a LAMA Dice game in the OpenSpiel adapter. D-8.1
#: lets a round go on forever in principle (three llamas without chips change nothing), so
#: OpenSpiel's ``max_game_length`` needs a cap; random games average 13 (2 players) to 36
#: (6 players) decisions.
DICE_MAX_GAME_LENGTH: Final = 1000

# Lama Express (E-1, E-2): two trains of five passenger cars; each car slot can be the
# target of at most one free action per window (the trains stand still in a window, E-9,
# and every role space has one role, E-3), so a window holds at most 10 free actions.
_EXPRESS_CAR_SLOTS: Final = 10


def express_max_game_length(num_players: int, turn_limit: int) -> int:
    """Upper bound on the decisions of a Lama Express game truncated after ``turn_limit`` rolls.

    Per turn (E-6, E-9): at most one train choice and two windows; a window holds at most 10
    free actions (one per car slot) and, between two actions or after the last, each seat
    passes at most once: ``10 + 11 * num_players`` decisions.

    Returns:
        ``turn_limit * (1 + 2 * (10 + 11 * num_players))``.
    """
    per_window = _EXPRESS_CAR_SLOTS + (_EXPRESS_CAR_SLOTS + 1) * num_players
    return turn_limit * (1 + 2 * per_window)


def make_engine_game(game_id: str, params: Mapping[str, Any]) -> Game:
    """Create the engine game for an adapter: ``make(game_id, **params)``, with Lama Express
    given ``turn_limit=EXPRESS_TURN_LIMIT`` unless ``params`` names a ``turn_limit`` (pass
    ``turn_limit=None`` explicitly for endless games).

    Raises:
        ParameterError: unknown game or bad parameters (the engine's message).
    """
    chosen = dict(params)
    if game_id == "express" and "turn_limit" not in chosen:
        chosen["turn_limit"] = EXPRESS_TURN_LIMIT
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


# per-game lookup; joins GameSpec when issue 7 lands
_CHANCE_NOTATION: dict[str, str] = {"express": "lamagames.express.actions:chance_to_string"}
_RENDER: dict[str, str] = {
    "dice": "lamagames.rl.common:_dice_text",
    "express": "lamagames.rl.common:_express_text",
}


def _lookup(table: Mapping[str, str], game_id: str) -> Callable[..., Any] | None:
    target = table.get(game_id)
    if target is None:
        return None
    module_name, _, attr = target.partition(":")
    found: Callable[..., Any] = getattr(importlib.import_module(module_name), attr)
    return found


def chance_to_string(state: State, action: int) -> str:
    """Notation of chance outcome ``action`` whether or not ``state`` is a chance node."""
    if state.is_chance_node():
        return state.action_to_string(action)
    notation = _lookup(_CHANCE_NOTATION, state.game.game_id)
    if notation is not None:
        return str(notation(action))
    return state.action_to_string(action, CHANCE_PLAYER)


def _dice_text(state: State) -> str:
    from rich.console import Console

    from lamagames.dice import as_dice_state
    from lamagames.dice.render import render_table

    buffer = io.StringIO()
    console = Console(file=buffer, width=100, color_system=None, record=True)
    names = agent_names(state.game.num_players)
    console.print(render_table(as_dice_state(state), names))
    return console.export_text()


def _express_text(state: State) -> str:
    from lamagames.express.game import as_express_state
    from lamagames.express.render import board_lines

    return "\n".join(board_lines(as_express_state(state))) + "\n"


def render_text(state: State) -> str:
    """The position as plain text (the game's own drawing), for ``render_mode="ansi"``."""
    draw = _lookup(_RENDER, state.game.game_id)
    if draw is None:
        return f"{state.game.info.long_name}: {state.observation(0)}\n"
    return str(draw(state))


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
