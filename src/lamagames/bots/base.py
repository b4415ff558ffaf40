"""Bot protocol and registry.

A bot plays one seat. It sees the game only through the public :class:`State` protocol (and
the public helpers of the game package, such as action decoders) and owns its own seeded
random stream, so a game with bots replays exactly from its seed.
"""

from __future__ import annotations

import importlib
import random
from abc import ABC, abstractmethod
from typing import ClassVar

from lamagames.core.errors import ParameterError
from lamagames.core.game import Game, State
from lamagames.core.rng import make_rng


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


# (game_id, kind) -> "module:Class"; game-specific bots live in their game's bot module.
_BUILTIN: dict[tuple[str, str], str] = {
    ("dice", "benchmark"): "lamagames.bots.dice:DiceBenchmarkBot",
    ("dice", "heuristic"): "lamagames.bots.dice:DiceHeuristicBot",
    ("dice", "exact"): "lamagames.bots.dice_exact:DiceExactBot",
    ("express", "benchmark"): "lamagames.bots.express:ExpressBenchmarkBot",
    ("express", "heuristic"): "lamagames.bots.express:ExpressHeuristicBot",
}
_GENERIC: dict[str, type[Bot]] = {"random": RandomBot}
_REGISTERED: dict[tuple[str, str], type[Bot]] = {}


def register_bot(game_id: str, cls: type[Bot]) -> None:
    """Register a bot class for a game under ``cls.kind``."""
    _REGISTERED[(game_id, cls.kind)] = cls


def bot_kinds(game_id: str) -> list[str]:
    """Bot kinds available for a game, sorted."""
    kinds = set(_GENERIC)
    kinds |= {kind for (gid, kind) in _BUILTIN if gid == game_id}
    kinds |= {kind for (gid, kind) in _REGISTERED if gid == game_id}
    return sorted(kinds)


def bot_class(game_id: str, kind: str) -> type[Bot]:
    """Look up a bot class.

    Raises:
        ParameterError: no bot of that kind for that game (the message lists the kinds).
    """
    key = (game_id, kind)
    if key in _REGISTERED:
        return _REGISTERED[key]
    if kind in _GENERIC:
        return _GENERIC[kind]
    target = _BUILTIN.get(key)
    if target is None:
        kinds = ", ".join(bot_kinds(game_id))
        raise ParameterError(f"unknown bot kind {kind!r} for {game_id}; available: {kinds}")
    module_name, _, attr = target.partition(":")
    cls: type[Bot] = getattr(importlib.import_module(module_name), attr)
    _REGISTERED[key] = cls
    return cls


def make_bot(kind: str, game: Game, seat: int, seed: int = 0) -> Bot:
    """Create a bot of ``kind`` for ``seat`` (see :func:`bot_class` for errors)."""
    return bot_class(game.game_id, kind)(game, seat, seed)
