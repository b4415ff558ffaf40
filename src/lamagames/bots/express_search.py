"""Lama Express search bot ``search``: rollouts over a horizon of die rolls.

See :mod:`lamagames.bots.search` for the algorithm. The heuristic looks one move ahead and
never passes in a window (E-9); the rollouts look several turns ahead through the colour
die (chance, E-6) and the windows of every seat, so the bot also weighs passing, the
order of its free actions, and train moves whose value only shows a few turns later.
"""

from __future__ import annotations

from typing import Any, Final

from lamagames.bots.base import Bot
from lamagames.bots.express import ExpressHeuristicBot, position_value
from lamagames.bots.search import RolloutSearchBot, check_count
from lamagames.core.errors import IllegalActionError
from lamagames.core.game import Game, State
from lamagames.express.game import ExpressGame, as_express_state

#: Value of a win (E-10) in spaces of progress; a loss is minus this.
WIN_VALUE: Final = 300.0


class ExpressSearchBot(RolloutSearchBot):
    """Rollout search for Lama Express.

    At each decision with several legal actions (the train choice of E-6, every window
    action of E-7/E-9 including ``pass``) it simulates every candidate until ``horizon``
    further die rolls have been made and their turns played out (or the game ends), every
    seat played by the ``heuristic`` bot, ``rollouts`` times with common die rolls. The end
    of a simulation is worth :data:`WIN_VALUE` for a win, minus it for a loss, else the
    heuristic's :func:`~lamagames.bots.express.position_value` of the bot minus the best
    opponent's (spaces of progress, E-8). It leaves the heuristic's action only for a
    candidate better by ``z`` standard errors.

    Args:
        horizon: die rolls simulated after the root (>= 1); ``None``: :attr:`HORIZON`.
        others: see :class:`~lamagames.bots.search.RolloutSearchBot` (default rollouts:
            :attr:`ROLLOUTS`, 16, at 2-3 seats and :attr:`ROLLOUTS_FOUR_SEATS`, 64, at 4
            seats; z 1).

    Raises:
        IllegalActionError: the game is not Lama Express.
        ParameterError: ``horizon`` not an integer >= 1, naming it (and the base class's
            checks).
    """

    kind = "search"
    ROLLOUTS = 16
    #: Default rollouts per candidate at four seats, where one game has one winner among
    #: four and 16 rollouts rarely let a better action pass the paired test:
    #: ``headtohead_search.py express --players 4 --games 200 --seed 1`` gave 0.523
    #: (0.482 .. 0.565) with 16 and 0.627 (0.581 .. 0.673) with 64 (docs/bots.md).
    ROLLOUTS_FOUR_SEATS: int = 64
    #: Default horizon in die rolls.
    HORIZON: int = 12

    def __init__(
        self, game: Game, seat: int, seed: int = 0, *, horizon: int | None = None, **kwargs: Any
    ) -> None:
        if not isinstance(game, ExpressGame):
            raise IllegalActionError("the Express search bot plays Lama Express only")
        self.horizon = check_count("horizon", self.HORIZON if horizon is None else horizon)
        super().__init__(game, seat, seed, **kwargs)

    def default_rollouts(self, game: Game) -> int:
        """:attr:`ROLLOUTS_FOUR_SEATS` at four seats, else :attr:`ROLLOUTS` (both measured,
        docs/bots.md)."""
        return self.ROLLOUTS_FOUR_SEATS if game.num_players >= 4 else self.ROLLOUTS

    def base_policy(self, seat: int) -> Bot:
        """The ``heuristic`` bot of that seat (deterministic)."""
        return ExpressHeuristicBot(self.game, seat, 0)

    def root_info(self, state: State) -> int:
        """The number of die rolls made at the root."""
        return as_express_state(state).rolls()

    def stop(self, state: State, root: Any) -> bool:
        """``horizon`` rolls were made since the root and the last turn is over."""
        express = as_express_state(state)
        return express.is_chance_node() and express.rolls() - root >= self.horizon

    def evaluate(self, state: State, root: Any) -> float:
        """A win or loss (E-10), else own position value minus the best opponent's."""
        express = as_express_state(state)
        winner = express.winner()
        if winner is not None:
            return WIN_VALUE if winner == self.seat else -WIN_VALUE
        mine = position_value(express, self.seat)
        n = express.game.num_players
        return mine - max(position_value(express, s) for s in range(n) if s != self.seat)
