"""Figures a game adds to batch statistics: the :class:`StatsHook` protocol and its metrics.

These types live in the core so that a game package can provide its statistics hook
(named in its :class:`~lamagames.core.spec.GameSpec`) without importing the simulation
layer; :mod:`lamagames.sim.stats` collects them.

Each metric is a :class:`Mean` (summed values over summed weights, so a per-round mean over
many games weighs every round equally) or a :class:`Total` (summed over games).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Protocol

from lamagames.core.game import Game, State


@dataclass(frozen=True, slots=True)
class Mean:
    """A figure averaged over games: the sum of ``value`` divided by the sum of ``weight``.

    ``Mean(rounds)`` per game gives a per-game mean; ``Mean(points, weight=rounds)`` gives a
    per-round mean:

    >>> games = [Mean(30, weight=2), Mean(10, weight=1)]  # points of 2 rounds, then of 1
    >>> sum(m.value for m in games) / sum(m.weight for m in games)  # points per round
    13.333333333333334
    """

    value: float
    weight: float = 1.0


@dataclass(frozen=True, slots=True)
class Total:
    """A figure summed over games, for example ``Total(1)`` for each truncated game."""

    value: float


Metric = Mean | Total
Label = str | int | float


class StatsHook(Protocol):
    """Per-game extra statistics. Implementations read states through public views only."""

    def game_metrics(self, state: State) -> Mapping[str, Metric]:
        """Figures of one finished game (keys become top-level summary fields)."""

    def seat_metrics(self, state: State, seat: int) -> Mapping[str, Metric]:
        """Figures of one seat in one finished game (keys become fields of the seat)."""

    def seat_labels(self, game: Game, seat: int) -> Mapping[str, Label]:
        """Fixed descriptions of a seat that do not vary by game (e.g. a colour)."""


class NoStats:
    """A hook that adds nothing (games without extra statistics)."""

    def game_metrics(self, state: State) -> Mapping[str, Metric]:
        """No per-game figures."""
        return {}

    def seat_metrics(self, state: State, seat: int) -> Mapping[str, Metric]:
        """No per-seat figures."""
        return {}

    def seat_labels(self, game: Game, seat: int) -> Mapping[str, Label]:
        """No labels."""
        return {}
