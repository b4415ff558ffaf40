"""Bot protocol and registry.

A bot plays one seat. It sees the game only through the public :class:`State` protocol (and
the public helpers of the game package, such as action decoders) and owns its own seeded
random stream, so a game with bots replays exactly from its seed.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Mapping
from typing import ClassVar

from lamagames.core.errors import ParameterError
from lamagames.core.game import Game, State
from lamagames.core.rng import make_rng
from lamagames.core.spec import get_spec, load_ref


class Bot(ABC):
    """A policy for one seat.

    Args:
        game: the game instance the bot plays.
        seat: the bot's seat (0-based).
        seed: root seed; the bot's stream is ``make_rng(seed, "bot", seat)``.
    """

    #: registry name of the bot kind, for example ``"random"``.
    kind: ClassVar[str]

    def __init__(self, game: Game, seat: int, seed: int = 0) -> None:
        if not 0 <= seat < game.num_players:
            raise ParameterError(f"seat {seat} out of range for {game.num_players} players")
        self.game = game
        self.seat = seat
        self.rng: random.Random = make_rng(seed, "bot", seat)

    @abstractmethod
    def step(self, state: State) -> int:
        """Choose an action for :attr:`seat`.

        Called only when ``state.legal_actions(self.seat)`` is non-empty.

        Returns:
            One of ``state.legal_actions(self.seat)``.
        """


class RandomBot(Bot):
    """Uniform over the legal actions (any game)."""

    kind = "random"

    def step(self, state: State) -> int:
        """Return a legal action drawn uniformly with the bot's own stream."""
        return self.rng.choice(state.legal_actions(self.seat))


# Game-specific bots are named in the game's spec (``GameSpec.bots``: kind -> "module:Class");
# ``random`` is generic. ``register_bot`` adds kinds at run time (tests, notebooks).
_GENERIC: dict[str, type[Bot]] = {"random": RandomBot}
_REGISTERED: dict[tuple[str, str], type[Bot]] = {}


def register_bot(game_id: str, cls: type[Bot]) -> None:
    """Register a bot class for a game under ``cls.kind`` (a built-in kind is usually
    named in the game's spec instead: ``GameSpec.bots``)."""
    _REGISTERED[(game_id, cls.kind)] = cls


def _spec_bots(game_id: str) -> Mapping[str, str]:
    """The game's own bot kinds from its spec (none for an unknown game)."""
    try:
        return get_spec(game_id).bots
    except ParameterError:
        return {}


def bot_kinds(game_id: str) -> list[str]:
    """Bot kinds available for a game, sorted."""
    kinds = set(_GENERIC) | set(_spec_bots(game_id))
    kinds |= {kind for (gid, kind) in _REGISTERED if gid == game_id}
    return sorted(kinds)


def bot_class(game_id: str, kind: str) -> type[Bot]:
    """Look up a bot class: registered, generic, then the game's spec.

    Raises:
        ParameterError: no bot of that kind for that game (the message lists the kinds).
        ImportError, AttributeError: the spec names a module or class that does not exist.
    """
    key = (game_id, kind)
    if key in _REGISTERED:
        return _REGISTERED[key]
    if kind in _GENERIC:
        return _GENERIC[kind]
    target = _spec_bots(game_id).get(kind)
    if target is None:
        kinds = ", ".join(bot_kinds(game_id))
        raise ParameterError(f"unknown bot kind {kind!r} for {game_id}; available: {kinds}")
    cls: type[Bot] = load_ref(target)
    return cls


def make_bot(kind: str, game: Game, seat: int, seed: int = 0) -> Bot:
    """Create a bot of ``kind`` for ``seat`` (see :func:`bot_class` for errors)."""
    return bot_class(game.game_id, kind)(game, seat, seed)
