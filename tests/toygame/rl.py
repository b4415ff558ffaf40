"""Toy Race in the research adapters: the ``"rl"`` extra of its spec."""

from __future__ import annotations

from lamagames.core.game import Game
from lamagames.core.rlspec import RLSpec
from tests.toygame.game import ToyGame


def max_game_length(game: Game) -> int:
    """One decision per turn (``step`` or ``roll``) and at most ``max_turns`` turns."""
    assert isinstance(game, ToyGame)
    return game.max_turns


RL = RLSpec(
    openspiel_name="python_toy_race",
    openspiel_long_name="Python Toy Race",
    openspiel_parameters={"players": 2, "target": 5, "max_turns": 30},
    pettingzoo_name="toy_race_v0",
    gymnasium_id="lamagames-test/ToyRace-v0",
    max_game_length=max_game_length,
)
