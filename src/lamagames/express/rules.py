"""Lama Express rule vocabulary and lap arithmetic shared by the engine, bots, front ends and
events: phases, window stages and how far a llama still has to ride (E-8). Pure."""

from __future__ import annotations

from enum import StrEnum
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from lamagames.express.game import ExpressState


class Phase(StrEnum):
    """What the next action of a Lama Express state is (E-6, E-9)."""

    #: chance: the active player's colour die
    ROLL = "roll"
    #: a free-action window is open (E-9)
    WINDOW = "window"
    #: the active player chooses a train (E-6)
    CHOOSE = "choose"
    #: won (E-10) or truncated by the turn limit (E-11)
    OVER = "over"


class WindowStage(StrEnum):
    """When a free-action window opens (E-9)."""

    #: after the die roll, before the train moves
    AFTER_ROLL = "after_roll"
    #: after the train moved
    AFTER_MOVE = "after_move"


def spaces_to_go(state: ExpressState, seat: int, progress: int) -> int:
    """Spaces a llama of ``seat`` with this progress still has to ride before it may get off
    at the first exit space of its station (E-8); 0 once its lap is done.

    Args:
        state: any state of the game (only the board and the seats' stations are read).
        seat: the llama's owner.
        progress: its progress in spaces (E-8).
    """
    station = state.board.stations[state.game.seat_station[seat]]
    need = min(state.lap_need(seat, space) for space in station.exits)
    return max(0, need - progress)


def lap_done(state: ExpressState, seat: int, progress: int) -> bool:
    """True when a llama of ``seat`` with this progress has done its lap, at least as far as
    the first exit space of its station (E-8)."""
    return spaces_to_go(state, seat, progress) == 0
