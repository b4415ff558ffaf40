"""Exact solver of LAMA Dice: the last player standing (D-8.5) and two-player round values.

See ``docs/solver.md`` for the objective, state space, algorithm and cache.
"""

from lamagames.dice.solver.last_standing import (
    SOLVER_VERSION,
    LastStandingSolver,
    LastStandingTable,
    NotTractableError,
    bust_chance,
    get_solver,
)
from lamagames.dice.solver.space import PositionError

__all__ = [
    "SOLVER_VERSION",
    "LastStandingSolver",
    "LastStandingTable",
    "NotTractableError",
    "PositionError",
    "bust_chance",
    "get_solver",
]
