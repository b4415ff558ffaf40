"""Lama Express rule vocabulary shared by the engine, bots, front ends and events: phases
and window stages (E-6, E-9). Pure."""

from __future__ import annotations

from enum import IntEnum, StrEnum
from typing import Final

from lamagames.express.material import NUM_DIE_COLOURS


class Phase(IntEnum):
    """What the next action of a Lama Express state is (E-6, E-9); the engines store the
    value (the batch engine in an int32 array), records and observations the
    :attr:`label`."""

    #: chance: the active player's colour die
    ROLL = 0
    #: a free-action window is open (E-9)
    WINDOW = 1
    #: the active player chooses a train (E-6)
    CHOOSE = 2
    #: won (E-10) or truncated by the turn limit (E-11)
    OVER = 3

    @property
    def label(self) -> str:
        """Name in records and observations: ``roll``, ``window``, ``choose`` or ``over``."""
        return self.name.lower()


class WindowStage(StrEnum):
    """When a free-action window opens (E-9)."""

    #: after the die roll, before the train moves
    AFTER_ROLL = "after_roll"
    #: after the train moved
    AFTER_MOVE = "after_move"


#: Probability of each colour of the die (E-1).
CHANCE_PROBABILITY: Final = 1.0 / NUM_DIE_COLOURS
#: :attr:`Phase.label` of each phase, by value.
PHASE_NAMES: Final = tuple(p.label for p in Phase)
# Window stages (E-9), in the order of :class:`WindowStage`.
STAGE_AFTER_ROLL: Final = 0
STAGE_AFTER_MOVE: Final = 1
STAGES: Final = tuple(WindowStage)
STAGE_NAMES: Final = tuple(s.value for s in WindowStage)
#: No seat (no winner, nobody asked); an empty car.
NO_SEAT: Final = -1
EMPTY: Final = -1


def exact_int(value: object) -> bool:
    """True for a plain ``int`` (not ``bool``, not a float)."""
    return type(value) is int
