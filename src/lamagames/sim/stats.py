"""Batch statistics over many games, game-agnostic, with per-game extras from a hook.

The collector counts what every game has: games, decisions (actions chosen by seats; chance
outcomes are not decisions), wall-clock seconds and, per seat, wins from
:meth:`State.returns` (a tie gives each tied winner a win, so win shares can sum to more
than 1). A game adds its own figures through a :class:`StatsHook`: per-game metrics (LAMA
Dice: ``rounds_per_game``; Lama Express: ``turns_per_game``, ``truncated``), per-seat metrics
(LAMA Dice: ``mean_round_points``) and fixed per-seat labels (Lama Express: ``colour``).

Each metric is a :class:`Mean` (summed values over summed weights, so a per-round mean over
many games weighs every round equally) or a :class:`Total` (summed over games); these types
live in :mod:`lamagames.core.metrics` (so game packages need not import the simulation
layer) and are re-exported here. :func:`stats_hook` finds a game's hook through its
:class:`~lamagames.core.spec.GameSpec`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from lamagames.bots.base import make_bot
from lamagames.core.errors import LamaError
from lamagames.core.game import Game
from lamagames.core.metrics import Label, Mean, Metric, NoStats, StatsHook, Total
from lamagames.core.rng import game_seed
from lamagames.core.spec import get_spec
from lamagames.sim.runner import GameResult, play_game

__all__ = [
    "BatchSummary",
    "Label",
    "Mean",
    "Metric",
    "NoStats",
    "SeatSummary",
    "StatsCollector",
    "StatsHook",
    "Total",
    "play_batch",
    "stats_hook",
]


def stats_hook(game_id: str) -> StatsHook:
    """A fresh statistics hook of a game (its spec's ``stats``), or :class:`NoStats` if the
    game names none.

    Raises:
        ParameterError: unknown game id.
    """
    hook: StatsHook | None = get_spec(game_id).make_stats()
    return hook if hook is not None else NoStats()


@dataclass(slots=True)
class _Accumulator:
    mean: bool
    value: float = 0.0
    weight: float = 0.0

    def add(self, name: str, metric: Metric) -> None:
        """Add one game's ``metric``; a name reported as both Mean and Total is an error."""
        if isinstance(metric, Mean) != self.mean:
            raise LamaError(f"metric {name!r} is reported both as a Mean and as a Total")
        self.value += metric.value
        self.weight += metric.weight if isinstance(metric, Mean) else 1.0

    def result(self) -> float | None:
        """The weighted mean, or the total (a whole number when it is one); ``None`` for a
        mean of nothing."""
        if not self.mean:  # a count stays a whole number in JSON
            return int(self.value) if self.value.is_integer() else self.value
        return self.value / self.weight if self.weight else None


def _accumulate(into: dict[str, _Accumulator], metrics: Mapping[str, Metric]) -> None:
    for name, metric in metrics.items():
        acc = into.get(name)
        if acc is None:
            acc = into[name] = _Accumulator(mean=isinstance(metric, Mean))
        acc.add(name, metric)


@dataclass(frozen=True, slots=True)
class SeatSummary:
    """Results of one seat over a batch.

    Attributes:
        seat: seat index (0-based).
        kind: ``human`` or a bot kind.
        wins: games won, ties included (a tie counts as a win for every tied winner).
        win_share: ``wins / games``.
        extra: the hook's labels and metrics (a metric with no data is ``None``).
        shared_wins: how many of ``wins`` were ties (games with several winners).
    """

    seat: int
    kind: str
    wins: float
    win_share: float
    extra: dict[str, Label | None] = field(default_factory=dict)
    shared_wins: float = 0.0


@dataclass(frozen=True, slots=True)
class BatchSummary:
    """Results of a batch of games.

    Attributes:
        game: game id.
        params: game parameters.
        seed: root seed of the batch (game ``i`` used ``derive_seed(seed, "game", i)``).
        games: games played.
        decisions: actions chosen by seats over all games (chance outcomes not counted).
        seconds: wall-clock seconds spent playing.
        extra: the hook's per-game metrics (means or totals over the batch).
        seats: one summary per seat, in seat order.
        ties: games with several winners (each counts as a win for every one of them).
    """

    game: str
    params: dict[str, Any]
    seed: int | None
    games: int
    decisions: int
    seconds: float
    extra: dict[str, float | None]
    seats: list[SeatSummary]
    ties: int = 0

    def to_dict(self) -> dict[str, Any]:
        """JSON-compatible dict: the fields above, hook metrics flattened into their level,
        plus ``decisions_per_game``; seconds rounded to milliseconds. A seat's ``wins``
        include its ``shared_wins`` (ties); ``ties`` counts the games with several winners."""
        return {
            "game": self.game,
            "params": self.params,
            "seed": self.seed,
            "games": self.games,
            "decisions": self.decisions,
            "decisions_per_game": self.decisions / self.games if self.games else None,
            "seconds": round(self.seconds, 3),
            "ties": self.ties,
            **self.extra,
            "seats": [
                {
                    "seat": s.seat,
                    "kind": s.kind,
                    "wins": _number(s.wins),
                    "shared_wins": _number(s.shared_wins),
                    "win_share": s.win_share,
                    **s.extra,
                }
                for s in self.seats
            ],
        }


def _number(value: float) -> float:
    """A whole number as an ``int`` (so JSON shows ``3``, not ``3.0``)."""
    return int(value) if value.is_integer() else value


class StatsCollector:
    """Accumulates :class:`GameResult` objects into a :class:`BatchSummary`.

    Args:
        game: the game every result comes from.
        kinds: seat kinds, in seat order.
        hook: per-game extras; ``None`` adds nothing.

    Raises:
        LamaError: ``kinds`` does not have one entry per seat.
    """

    def __init__(self, game: Game, kinds: Sequence[str], hook: StatsHook | None = None) -> None:
        if len(kinds) != game.num_players:
            raise LamaError(f"{len(kinds)} seat kinds for a {game.num_players}-player game")
        self.game = game
        self.kinds = list(kinds)
        self.hook: StatsHook = hook if hook is not None else NoStats()
        self.games = 0
        self.decisions = 0
        self._wins = [0.0] * game.num_players
        self._shared_wins = [0.0] * game.num_players
        self.ties = 0
        self._game_metrics: dict[str, _Accumulator] = {}
        self._seat_metrics: list[dict[str, _Accumulator]] = [{} for _ in self.kinds]

    def add(self, result: GameResult) -> None:
        """Count one finished (or truncated) game.

        Everything is computed before anything is counted, so a ``KeyboardInterrupt``
        (Ctrl-C in a batch) rarely leaves a game half counted."""
        state = result.state
        returns = state.returns()
        game_metrics = self.hook.game_metrics(state)
        seat_metrics = [self.hook.seat_metrics(state, seat) for seat in range(len(self.kinds))]
        winners = [seat for seat, value in enumerate(returns) if value > 0]
        tie = len(winners) > 1
        self.games += 1
        self.decisions += result.decisions
        for seat, value in enumerate(returns):
            self._wins[seat] += value
            if tie and value > 0:
                self._shared_wins[seat] += value
        self.ties += tie
        _accumulate(self._game_metrics, game_metrics)
        for accs, metrics in zip(self._seat_metrics, seat_metrics, strict=True):
            _accumulate(accs, metrics)

    def summary(self, seconds: float, seed: int | None = None) -> BatchSummary:
        """The summary so far.

        Args:
            seconds: wall-clock time the games took.
            seed: the batch's root seed, recorded in the summary.
        """
        games = self.games
        seats = []
        for seat, kind in enumerate(self.kinds):
            extra: dict[str, Label | None] = dict(self.hook.seat_labels(self.game, seat))
            extra.update({k: acc.result() for k, acc in self._seat_metrics[seat].items()})
            wins = self._wins[seat]
            seats.append(
                SeatSummary(
                    seat=seat,
                    kind=kind,
                    wins=wins,
                    win_share=wins / games if games else 0.0,
                    extra=extra,
                    shared_wins=self._shared_wins[seat],
                )
            )
        return BatchSummary(
            game=self.game.game_id,
            params=self.game.params,
            seed=seed,
            games=games,
            decisions=self.decisions,
            seconds=seconds,
            extra={k: acc.result() for k, acc in self._game_metrics.items()},
            seats=seats,
            ties=self.ties,
        )


def play_batch(
    game: Game,
    kinds: Sequence[str],
    *,
    games: int,
    seed: int,
    collector: StatsCollector,
    on_game: Callable[[int, GameResult], None] | None = None,
) -> None:
    """Play ``games`` bot-only games and add each to ``collector``.

    Game ``i`` is played by :func:`~lamagames.sim.runner.play_game` with seed
    ``game_seed(seed, i)``, fresh bots ``make_bot(kinds[s], game, s, that seed)``.

    Args:
        game: the game to play.
        kinds: one bot kind per seat.
        games: number of games (>= 0).
        seed: root seed.
        collector: receives every result.
        on_game: called after each game with its index and result (progress, records).

    Raises:
        ParameterError: an unknown bot kind.
    """
    for index in range(games):
        seed_i = game_seed(seed, index)
        bots = [make_bot(kind, game, seat, seed_i) for seat, kind in enumerate(kinds)]
        result = play_game(game, bots, seed_i)
        collector.add(result)
        if on_game is not None:
            on_game(index, result)
