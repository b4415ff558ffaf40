"""The JSON form of a Lama Express state (``ExpressState.to_dict``) and its validation.

Shape (all indices 0-based; spaces are track indices; seats are 0..n-1)::

    {
      "phase": "roll" | "window" | "choose" | "over",
      "active": 0,                     # the active player (E-6)
      "rolls": 12,                     # die rolls so far (E-11)
      "die": "G" | null,               # the last roll (null before the first)
      "trains": {"A": 14, "B": 38},    # tip spaces (E-2)
      "cars": {"A": [null, {"owner": 1, "progress": 9}, null, null, null], "B": [...]},
      "stations": [3, 4],              # llamas waiting at each seat's station
      "houses": [1, 0],                # llamas home, per seat
      "footpaths": [[{"owner": 0, "progress": 3}], [], [], []],   # front (re-boarding end) first
      "window": null | {"stage": "after_roll" | "after_move", "asked": 1, "passed": [0]},
      "winner": null | 0,
      "history": [[-1, 3], [0, 13], ...]   # (player, action id); -1 = chance
    }

A llama's ``progress`` is its E-8 progress in spaces. :func:`parse_state_data` checks the
shape with pydantic; :mod:`lamagames.express.game` checks consistency with the game (llama
counts, congruence of progress with position, window and phase rules).
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictInt, ValidationError

from lamagames.core.errors import RecordError
from lamagames.core.validation import first_error
from lamagames.express.board import PASSENGER_CARS


class LlamaData(BaseModel):
    """A travelling llama: its owner seat and its progress in spaces (E-8)."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    owner: StrictInt = Field(ge=0)
    progress: StrictInt


class TrainsData(BaseModel):
    """Tip spaces of trains A and B (E-2)."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    A: StrictInt = Field(ge=0)
    B: StrictInt = Field(ge=0)


class CarsData(BaseModel):
    """Passenger cars 1..5 of each train: a llama or ``null``."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    A: list[LlamaData | None] = Field(min_length=PASSENGER_CARS, max_length=PASSENGER_CARS)
    B: list[LlamaData | None] = Field(min_length=PASSENGER_CARS, max_length=PASSENGER_CARS)


class WindowData(BaseModel):
    """An open window (E-9): stage, the seat being asked, seats that passed since the last
    action."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    stage: Literal["after_roll", "after_move"]
    asked: StrictInt = Field(ge=0)
    passed: list[StrictInt]


class StateData(BaseModel):
    """The whole state dict (shape only)."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    phase: Literal["roll", "window", "choose", "over"]
    active: StrictInt = Field(ge=0)
    rolls: StrictInt = Field(ge=0)
    die: Literal["R", "O", "Y", "G", "B", "P"] | None
    trains: TrainsData
    cars: CarsData
    stations: list[StrictInt]
    houses: list[StrictInt]
    footpaths: list[list[LlamaData]]
    window: WindowData | None
    winner: StrictInt | None
    history: list[tuple[StrictInt, StrictInt]] = Field(default_factory=list)


def parse_state_data(data: Any) -> StateData:
    """Validate the shape of a state dict.

    Raises:
        RecordError: naming the first bad field.
    """
    if not isinstance(data, dict):
        raise RecordError(f"state: expected a JSON object, got {type(data).__name__}")
    try:
        return StateData.model_validate(data)
    except ValidationError as exc:
        raise RecordError(f"state.{first_error(exc, 'state')[1]}") from None
