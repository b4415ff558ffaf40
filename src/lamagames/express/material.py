"""The material of Lama Express as constants (docs/rules.md E-1, E-2) and the roles of a
board's spaces (E-3), with no imports: every module imports them from here, and
:mod:`lamagames.express.board` calls the rule primitives (:mod:`lamagames.express.primitives`),
which read them, without an import cycle."""

from __future__ import annotations

from typing import Final

#: Die colours in chance-outcome order (E-1): red, orange, yellow, green, blue, purple.
DIE_COLOURS: Final = "ROYGBP"
NUM_DIE_COLOURS: Final = len(DIE_COLOURS)
#: Passenger cars per train (E-1).
PASSENGER_CARS: Final = 5
#: Spaces a train covers: locomotive, coal car and five passenger cars (E-2).
TRAIN_SPACES: Final = 2 + PASSENGER_CARS
NUM_TRAINS: Final = 2

# Space roles (E-3: every special space has exactly one role).
ROLE_NONE: Final = 0
ROLE_BOARDING: Final = 1
ROLE_EXIT: Final = 2
ROLE_ARROW: Final = 3
ROLE_REBOARD: Final = 4
ROLE_NAMES: Final = ("none", "boarding", "exit", "arrow", "reboard")
