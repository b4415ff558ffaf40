"""Game registry: ``make(game_id, **params)`` without ``if game == ...`` chains."""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

from lamagames.core.errors import ParameterError
from lamagames.core.game import Game

GameFactory = Callable[..., Game]

# Built-in games are registered by dotted path so importing the core imports no game.
_BUILTIN: dict[str, str] = {
    "dice": "lamagames.dice.game:DiceGame",
    "express": "lamagames.express.game:ExpressGame",
}
_FACTORIES: dict[str, GameFactory] = {}


def register(game_id: str, factory: GameFactory) -> None:
    """Register (or replace) a game factory under ``game_id``."""
    _FACTORIES[game_id] = factory


def game_ids() -> list[str]:
    """All registered game ids, sorted."""
    return sorted(set(_BUILTIN) | set(_FACTORIES))


def make(game_id: str, **params: Any) -> Game:
    """Create a game by id with keyword parameters.

    Raises:
        ParameterError: unknown game id or bad parameters.
    """
    factory = _FACTORIES.get(game_id)
    if factory is None:
        target = _BUILTIN.get(game_id)
        if target is None:
            known = ", ".join(game_ids())
            raise ParameterError(f"unknown game {game_id!r}; known games: {known}")
        module_name, _, attr = target.partition(":")
        factory = getattr(importlib.import_module(module_name), attr)
        _FACTORIES[game_id] = factory
    try:
        return factory(**params)
    except TypeError as exc:  # unknown keyword
        raise ParameterError(f"bad parameters for {game_id!r}: {exc}") from None
