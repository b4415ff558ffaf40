"""N-player matches: one bot kind against another kind in every other seat, pairwise scored.

The issue's measure, "beats ``heuristic`` with a 95% CI above 0.5", needs a definition with
more than two seats, since the fair share of wins there is ``1/N``, not 0.5. We use the
**pairwise share**: in each game the measured seat is compared with every opponent seat on
the game's *standing* (LAMA Dice: the final score, lower is better, D-11; a game without a
``standing`` extra: its returns), scoring 1 for each opponent it finishes ahead of, 1/2 for
each tie and 0 otherwise, divided by the number of opponents. 0.5 means exactly as good as
an opponent of the other kind (by symmetry the opponents' mean pairwise share against the
measured seat is then also 0.5); in two-player games it is the win share with ties as
halves. The share of one game is one observation: its pairs share the same dice, so the
interval is a normal-approximation 95% interval over games, ``mean +- 1.96 * sd / sqrt(g)``
(not a binomial interval over pairs, which would be too narrow).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from lamagames.bots.base import make_bot
from lamagames.core.game import Game, State
from lamagames.core.rng import derive_seed
from lamagames.core.spec import get_spec
from lamagames.sim.runner import play_game

#: Normal quantile of a two-sided 95% interval.
Z95 = 1.959964


@dataclass(frozen=True, slots=True)
class MatchResult:
    """Result of :func:`pairwise_match`.

    Attributes:
        kind: the measured bot kind; ``opponent``: the kind in every other seat.
        num_players: seats per game.
        games: games played; ``wins``: games the measured seat won (returns > 0, shared wins
            count); ``unfinished``: games stopped without a winner.
        shares: the pairwise share of each game (0..1), in game order.
        mean: mean pairwise share; ``ci_low``, ``ci_high``: its 95% interval over games.
        seconds_per_decision: mean CPU seconds (``time.process_time``) per decision of the
            measured seat; CPU time, so a loaded machine does not inflate it.
    """

    kind: str
    opponent: str
    num_players: int
    games: int
    wins: int
    unfinished: int
    shares: list[float] = field(repr=False)
    mean: float
    ci_low: float
    ci_high: float
    seconds_per_decision: float

    def to_dict(self) -> dict[str, Any]:
        """JSON-compatible dict of every field except the per-game shares."""
        return {
            "kind": self.kind,
            "opponent": self.opponent,
            "num_players": self.num_players,
            "games": self.games,
            "wins": self.wins,
            "unfinished": self.unfinished,
            "pairwise_share": self.mean,
            "ci95": [self.ci_low, self.ci_high],
            "seconds_per_decision": self.seconds_per_decision,
        }


def standings(state: State, game_id: str) -> list[float]:
    """Per-seat standing at the end of a game, higher is better: the game's ``standing``
    extra if its spec names one, else :meth:`State.returns`."""
    spec = get_spec(game_id)
    if "standing" in spec.extras:
        function: Callable[[State], list[float]] = spec.load_extra("standing")
        return list(function(state))
    return list(state.returns())


def pairwise_share(standing: list[float], seat: int) -> float:
    """Share of the other seats ``seat`` is ahead of (ties count 1/2).

    >>> pairwise_share([-10.0, -30.0, -10.0], 0)
    0.75
    """
    mine = standing[seat]
    others = [s for i, s in enumerate(standing) if i != seat]
    return sum(1.0 if mine > s else 0.5 if mine == s else 0.0 for s in others) / len(others)


def mean_interval(values: list[float], z: float = Z95) -> tuple[float, float, float]:
    """Mean and normal-approximation interval ``mean +- z * sd / sqrt(n)``, clipped to [0, 1]
    (the values are shares). One value gives a zero-width interval.

    Raises:
        ValueError: ``values`` is empty.
    """
    if not values:
        raise ValueError("need at least one value")
    n = len(values)
    mean = sum(values) / n
    if n == 1:
        return mean, mean, mean
    sd = math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1))
    half = z * sd / math.sqrt(n)
    return mean, max(0.0, mean - half), min(1.0, mean + half)


def pairwise_match(
    game: Game,
    kind: str,
    opponent: str,
    games: int,
    seed: int,
    *,
    on_game: Callable[[int, float], None] | None = None,
) -> MatchResult:
    """Play ``games`` games of one ``kind`` seat against ``opponent`` in every other seat.

    Game ``i`` uses seed ``derive_seed(seed, "match", i)`` for the chance stream and the
    bots, and the measured bot sits in seat ``i % num_players`` (rotating, so every seat
    and starting position is used equally when ``games`` is a multiple of the seats).

    Args:
        game: the game (any number of seats).
        kind, opponent: bot kinds of the game.
        games: number of games (> 0).
        seed: root seed.
        on_game: called after each game with its index and pairwise share (progress).

    Raises:
        ParameterError: unknown bot kind.
        ValueError: ``games`` is not positive.
    """
    import time

    if games <= 0:
        raise ValueError("games must be positive")
    n = game.num_players
    shares: list[float] = []
    wins = unfinished = decisions = 0
    seconds = 0.0
    for i in range(games):
        game_seed = derive_seed(seed, "match", i)
        seat = i % n
        kinds = [kind if s == seat else opponent for s in range(n)]
        bots = [make_bot(k, game, s, game_seed) for s, k in enumerate(kinds)]
        measured = bots[seat]
        original = measured.step

        def timed(state: State, original: Callable[[State], int] = original) -> int:
            nonlocal seconds, decisions
            start = time.process_time()
            action = original(state)
            seconds += time.process_time() - start
            decisions += 1
            return action

        measured.step = timed  # type: ignore[method-assign]
        state = play_game(game, bots, game_seed).state
        returns = state.returns()
        if returns[seat] > 0:
            wins += 1
        elif not any(r > 0 for r in returns):
            unfinished += 1
        share = pairwise_share(standings(state, game.game_id), seat)
        shares.append(share)
        if on_game is not None:
            on_game(i, share)
    mean, low, high = mean_interval(shares)
    per_decision = seconds / decisions if decisions else 0.0
    return MatchResult(
        kind, opponent, n, games, wins, unfinished, shares, mean, low, high, per_decision
    )


__all__ = ["MatchResult", "mean_interval", "pairwise_match", "pairwise_share", "standings"]
