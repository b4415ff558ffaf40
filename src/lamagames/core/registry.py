"""Game registry: ``make(game_id, **params)`` without ``if game == ...`` chains.

Games are found through their :class:`~lamagames.core.spec.GameSpec`
(:func:`lamagames.core.spec.get_spec`), so importing the core imports no game.

Parameter names are checked against the factory's signature before it is called, so a
misspelt or foreign parameter is reported by name with the parameters the game knows
(``unknown parameter 'foo' for LAMA Dice; known: num_players, dice, end_score,
starting_seat``) instead of as Python's ``TypeError``.
"""

from __future__ import annotations

import inspect
from typing import Any

from lamagames.core.errors import ParameterError, quoted
from lamagames.core.game import Game
from lamagames.core.spec import GameFactory, GameSpec, get_spec, register_spec, spec_ids, with_game

__all__ = ["GameFactory", "game_ids", "game_title", "make", "parameter_names", "register"]


def register(game_id: str, factory: GameFactory, title: str | None = None) -> None:
    """Register (or replace) a game factory under ``game_id``.

    A game with a spec keeps its other pieces (bots, views...) and gets the new factory;
    otherwise a spec with only the factory is registered
    (:func:`lamagames.core.spec.register_spec`).

    Args:
        game_id: the registry name.
        factory: a callable taking the game's parameters as keywords (a ``Game`` class).
        title: the game's name for people, used in error messages (default: the spec's
            title, else ``game_id``).
    """
    try:
        spec = with_game(get_spec(game_id), factory, title)
    except ParameterError:
        spec = GameSpec(game_id=game_id, title=title or game_id, game=factory)
    register_spec(spec)


def game_ids() -> list[str]:
    """All registered game ids, sorted."""
    return spec_ids()


def game_title(game_id: str) -> str:
    """The game's name for people (``"LAMA Dice"``), or ``game_id`` if it has none."""
    try:
        return get_spec(game_id).title
    except ParameterError:
        return game_id


def _factory(game_id: str) -> GameFactory:
    """The game factory of ``game_id``, through its spec.

    Raises:
        ParameterError: unknown game id.
    """
    return get_spec(game_id).game_factory()


def _signature_names(factory: GameFactory) -> tuple[tuple[str, ...], tuple[str, ...]] | None:
    """``(names, required)`` of the factory's keyword parameters, or ``None`` when they
    cannot be known (no signature, or ``**kwargs``)."""
    try:
        signature = inspect.signature(factory)
    except (TypeError, ValueError):
        return None
    names: list[str] = []
    required: list[str] = []
    for parameter in signature.parameters.values():
        if parameter.kind is inspect.Parameter.VAR_KEYWORD:
            return None
        if parameter.kind in (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.VAR_POSITIONAL):
            continue
        names.append(parameter.name)
        if parameter.default is inspect.Parameter.empty:
            required.append(parameter.name)
    return tuple(names), tuple(required)


def parameter_names(game_id: str) -> tuple[str, ...] | None:
    """The parameters ``make(game_id, ...)`` accepts, in the factory's order, or ``None``
    when the factory takes any keyword (``**kwargs``).

    Raises:
        ParameterError: unknown game id.
    """
    found = _signature_names(_factory(game_id))
    return None if found is None else found[0]


def make(game_id: str, /, **params: Any) -> Game:
    """Create a game by id with keyword parameters.

    Every keyword is checked against the factory's parameters first; a game's own checks
    (ranges, types) then raise :class:`ParameterError` themselves.

    Raises:
        ParameterError: unknown game id, an unknown or missing parameter (named, with the
            parameters the game knows), or a bad parameter value.
    """
    factory = _factory(game_id)
    found = _signature_names(factory)
    if found is None:  # the factory takes **kwargs: it checks names itself
        try:
            return factory(**params)
        except TypeError as exc:
            raise ParameterError(f"bad parameters for {game_title(game_id)}: {exc}") from None
    names, required = found
    for key in params:
        if key not in names:
            raise ParameterError(
                f"unknown parameter {quoted(key)} for {game_title(game_id)}; "
                f"known: {', '.join(names)}"
            )
    for key in required:
        if key not in params:
            raise ParameterError(f"missing parameter {key!r} for {game_title(game_id)}")
    return factory(**params)
