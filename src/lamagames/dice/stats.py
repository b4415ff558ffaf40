"""LAMA Dice statistics for ``lama play`` batches (:mod:`lamagames.sim.stats`), named in
the game's spec: rounds per game, points per round."""

from __future__ import annotations

from collections.abc import Mapping

from lamagames.core.game import Game, State
from lamagames.core.metrics import Label, Mean, Metric
from lamagames.dice.game import as_dice_state


class DiceStats:
    """Statistics hook for LAMA Dice.

    Per game: ``rounds_per_game`` (finished rounds, mean over games). Per seat:
    ``mean_round_points`` (minus points scored per round before chip give-backs, D-10, from
    :attr:`DiceState.round_points`; mean over all rounds of all games) and
    ``mean_final_score`` (points at the end of the game, after give-backs).
    """

    def game_metrics(self, state: State) -> Mapping[str, Metric]:
        """``rounds_per_game``."""
        return {"rounds_per_game": Mean(len(as_dice_state(state).round_points))}

    def seat_metrics(self, state: State, seat: int) -> Mapping[str, Metric]:
        """``mean_round_points`` and ``mean_final_score`` of ``seat``."""
        dice = as_dice_state(state)
        rounds = dice.round_points
        return {
            "mean_round_points": Mean(sum(r[seat] for r in rounds), weight=len(rounds)),
            "mean_final_score": Mean(dice.scores[seat]),
        }

    def seat_labels(self, game: Game, seat: int) -> Mapping[str, Label]:
        """None for LAMA Dice (seats differ only by kind)."""
        return {}


def standing(state: State) -> list[float]:
    """Per-seat standing of a LAMA Dice position for comparisons (higher is better): minus
    the score in points (D-11: the lowest score wins). Used by :mod:`lamagames.sim.match`
    through the spec's ``standing`` extra."""
    return [-float(s) for s in as_dice_state(state).scores]
