"""Toy Race's statistics hook, web adapter and hint provider (named in the spec)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar

from lamagames.core.game import Game, State
from lamagames.core.metrics import Label, Mean, Metric
from lamagames.web.adapters import WebAdapter
from tests.toygame.game import ROLL, STEP, ToyState


class ToyStats:
    """``turns_per_game`` and, per seat, ``mean_final_score``."""

    def game_metrics(self, state: State) -> Mapping[str, Metric]:
        """Turns of the game."""
        assert isinstance(state, ToyState)
        return {"turns_per_game": Mean(state.turn)}

    def seat_metrics(self, state: State, seat: int) -> Mapping[str, Metric]:
        """Final score of ``seat``."""
        assert isinstance(state, ToyState)
        return {"mean_final_score": Mean(state.scores[seat])}

    def seat_labels(self, game: Game, seat: int) -> Mapping[str, Label]:
        """None."""
        return {}


class ToyWebAdapter(WebAdapter):
    """The default, protocol-only behaviour; the browser module is ``static/render.js`` of
    this package (the spec's ``web_static``), served at ``/static/games/toy/render.js``."""

    game_id: ClassVar[str] = "toy"
    renderer: ClassVar[str] = "games/toy/render.js"
    preferred_substitute: ClassVar[str] = "stepper"


def hint(state: State) -> int:
    """A hint for the seat to act: ``step`` unless one point short of the target."""
    assert isinstance(state, ToyState)
    behind = state.game.target - state.scores[state.player]
    return STEP if behind == 1 else ROLL
