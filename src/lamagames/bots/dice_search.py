"""LAMA Dice search bot ``search``: rollouts to the end of the round over the heuristic.

See :mod:`lamagames.bots.search` for the algorithm. The heuristic minimises its own round
points one roll ahead; the rollouts add what it ignores: what the other seats will do on
their turns (modelled by the heuristic), the chance that the round ends before the bot's
next turn (a row emptied, the llama row emptied, everyone else quit: D-9), the
last-player-standing rule (D-8.5) and the points of the others, since only the game counts
(D-11: the lowest score wins).
"""

from __future__ import annotations

from typing import Any, Final

from lamagames.bots.base import Bot
from lamagames.bots.dice import DiceHeuristicBot
from lamagames.bots.search import RolloutSearchBot
from lamagames.core.errors import IllegalActionError
from lamagames.core.game import Game, State
from lamagames.dice.actions import GIVE_BLACK, GIVE_NONE, GIVE_WHITE
from lamagames.dice.game import DiceGame, as_dice_state

#: Weight of the game result when a simulated round ends the game (D-11), in points per
#: opponent beaten (above 0.5 of them) on top of the point difference.
GAME_END_WEIGHT: Final = 20.0


def pairwise_share(scores: list[int], seat: int) -> float:
    """Share of the other seats that ``seat`` beats on score (lower wins, D-11); a tie counts
    one half. ``scores`` in points, one per seat (at least two seats)."""
    mine = scores[seat]
    others = [s for i, s in enumerate(scores) if i != seat]
    return sum(1.0 if mine < s else 0.5 if mine == s else 0.0 for s in others) / len(others)


class DiceSearchBot(RolloutSearchBot):
    """Rollout search for LAMA Dice (any number of seats, written for 3-6).

    At each roll/quit, discard and take decision with several legal actions it simulates
    every candidate to the end of the round (D-9, including the give-backs of D-10) with
    every seat played by the ``heuristic`` bot, ``rollouts`` times with common dice. A
    simulated round is worth, in points, the mean of the other seats' score changes minus
    its own (chips given back lower a score, D-8.1, D-10); if the round ends the game (D-11)
    :data:`GAME_END_WEIGHT` times (share of opponents beaten - 0.5) is added. It leaves the
    heuristic's action only for a candidate better by ``z`` standard errors. Chip choices
    (give) follow the heuristic.

    Args: see :class:`~lamagames.bots.search.RolloutSearchBot` (default 16 rollouts, z 1).

    Raises:
        IllegalActionError: the game is not LAMA Dice.
    """

    kind = "search"

    def __init__(self, game: Game, seat: int, seed: int = 0, **kwargs: Any) -> None:
        if not isinstance(game, DiceGame):
            raise IllegalActionError("the dice search bot plays LAMA Dice only")
        super().__init__(game, seat, seed, **kwargs)

    def base_policy(self, seat: int) -> Bot:
        """The ``heuristic`` bot of that seat (deterministic)."""
        return DiceHeuristicBot(self.game, seat, 0)

    def candidates(self, state: State, legal: list[int], base: int) -> list[int]:
        """Every legal action, except at chip give-backs (none: the heuristic's choice)."""
        if legal[0] in (GIVE_BLACK, GIVE_WHITE, GIVE_NONE):
            return []
        return legal

    def root_info(self, state: State) -> tuple[int, list[int]]:
        """The round number and the scores at the root."""
        dice = as_dice_state(state)
        return dice.round, list(dice.scores)

    def stop(self, state: State, root: Any) -> bool:
        """The simulated round is over (the next one has begun)."""
        start_round: int = root[0]
        return as_dice_state(state).round != start_round

    def evaluate(self, state: State, root: Any) -> float:
        """Mean score change of the others minus own, plus the game result if it ended."""
        dice = as_dice_state(state)
        start: list[int] = root[1]
        n = len(start)
        change = [dice.scores[i] - start[i] for i in range(n)]
        mine = change[self.seat]
        value = sum(c for i, c in enumerate(change) if i != self.seat) / (n - 1) - mine
        if dice.is_terminal():
            value += GAME_END_WEIGHT * (pairwise_share(dice.scores, self.seat) - 0.5)
        return value
