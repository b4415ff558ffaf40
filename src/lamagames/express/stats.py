"""Lama Express statistics for ``lama play`` batches (:mod:`lamagames.sim.stats`), named
in the game's spec: game length, truncation, colours."""

from __future__ import annotations

from collections.abc import Mapping

from lamagames.core.game import Game, State
from lamagames.core.metrics import Label, Mean, Metric, Total
from lamagames.express.game import as_express_game, as_express_state


class ExpressStats:
    """Statistics hook for Lama Express.

    Per game: ``turns_per_game``, the mean number of die rolls (one per turn, E-6) of the
    games that ended with a winner (E-10), and ``truncated``, the number of games stopped by
    the turn limit (E-11). Per seat: the label ``colour`` and ``mean_llamas_home``, llamas
    in the house at the end of the game (all games).
    """

    def game_metrics(self, state: State) -> Mapping[str, Metric]:
        """``turns_per_game`` (won games only) and ``truncated``."""
        express = as_express_state(state)
        won = express.winner() is not None
        return {
            "turns_per_game": Mean(express.rolls() if won else 0, weight=1.0 if won else 0.0),
            "truncated": Total(1 if express.is_truncated() else 0),
        }

    def seat_metrics(self, state: State, seat: int) -> Mapping[str, Metric]:
        """``mean_llamas_home`` of ``seat``."""
        return {"mean_llamas_home": Mean(as_express_state(state).house_llamas(seat))}

    def seat_labels(self, game: Game, seat: int) -> Mapping[str, Label]:
        """``colour``: the seat's player colour (E-4)."""
        return {"colour": as_express_game(game).colours[seat]}
