"""Head-to-head matches between two bot kinds, with a confidence interval."""

from __future__ import annotations

import math
from dataclasses import dataclass

from lamagames.bots.base import make_bot
from lamagames.core.game import Game
from lamagames.core.rng import derive_seed
from lamagames.sim.runner import play_game


@dataclass(frozen=True, slots=True)
class HeadToHead:
    """Result of :func:`head_to_head`.

    Attributes:
        kind: the bot kind measured; ``opponent``: the other kind.
        games: games played; ``wins``: games the measured bot won (a shared win counts).
        unfinished: games stopped without a winner (for example by a turn limit).
        win_share: ``wins / games``.
        ci_low, ci_high: 95% Wilson score interval of the win share.
    """

    kind: str
    opponent: str
    games: int
    wins: int
    unfinished: int
    win_share: float
    ci_low: float
    ci_high: float


def wilson_interval(successes: int, trials: int, z: float = 1.959964) -> tuple[float, float]:
    """Wilson score interval for a binomial proportion (95% for the default ``z``).

    Raises:
        ValueError: ``trials`` is not positive or ``successes`` is out of range.
    """
    if trials <= 0 or not 0 <= successes <= trials:
        raise ValueError(f"need 0 <= successes <= trials and trials > 0, got {successes}/{trials}")
    p = successes / trials
    denom = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denom
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def head_to_head(game: Game, kind: str, opponent: str, games: int, seed: int) -> HeadToHead:
    """Play ``games`` 2-player games of ``kind`` against ``opponent``, alternating seats.

    Game ``i`` uses seed ``derive_seed(seed, "h2h", i)``; the measured bot sits in seat
    ``i % 2``. A game counts as a win when the measured bot's return is positive (ties where
    both win count for it).

    Raises:
        ParameterError: the game is not a 2-player game or a kind is unknown.
        ValueError: ``games`` is not positive.
    """
    from lamagames.core.errors import ParameterError

    if game.num_players != 2:
        raise ParameterError("head_to_head needs a 2-player game")
    if games <= 0:
        raise ValueError("games must be positive")
    wins = unfinished = 0
    for i in range(games):
        game_seed = derive_seed(seed, "h2h", i)
        seat = i % 2
        kinds = [kind, opponent] if seat == 0 else [opponent, kind]
        bots = [make_bot(k, game, s, game_seed) for s, k in enumerate(kinds)]
        returns = play_game(game, bots, game_seed).state.returns()
        if returns[seat] > 0:
            wins += 1
        elif not any(r > 0 for r in returns):
            unfinished += 1
    low, high = wilson_interval(wins, games)
    return HeadToHead(kind, opponent, games, wins, unfinished, wins / games, low, high)
