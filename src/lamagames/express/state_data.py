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
shape with pydantic; :func:`check_state_data` checks consistency with the game (llama
counts, congruence of progress with position, trains, winner, window and phase); the state
then checks what needs the rules (movable trains, available actions).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictInt, ValidationError

from lamagames.core.errors import RecordError
from lamagames.core.validation import first_error
from lamagames.express.actions import NUM_DISTINCT_ACTIONS, TRAIN_NAMES
from lamagames.express.board import LLAMAS_PER_PLAYER
from lamagames.express.material import NUM_TRAINS, PASSENGER_CARS, TRAIN_SPACES
from lamagames.express.primitives import (
    car_space,
    free_gap,
    has_won,
    lap_need,
    turn_limit_reached,
)

if TYPE_CHECKING:
    from lamagames.express.game import ExpressGame


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


def check_state_data(game: ExpressGame, data: StateData) -> None:
    """Check shape-valid data against the game: seats in range, tips on the track and
    trains apart (E-2, E-6), each llama's progress congruent with its place (E-8), four
    llamas per player (E-1), the turn limit (E-11), the winner (E-10), the history, and a
    window exactly in the window phase.

    Raises:
        RecordError: ``state.<field>: <reason>``.
    """
    board = game.board
    n = game.num_players
    length = board.length
    fail = _fail

    def seat_ok(where: str, seat: int) -> None:
        _seat_ok(n, where, seat)

    seat_ok("active", data.active)
    tips = [data.trains.A, data.trains.B]
    for t, tip in enumerate(tips):
        if tip >= length:
            raise fail(f"trains.{TRAIN_NAMES[t]}", f"space {tip} out of range 0..{length - 1}")
    gaps = free_gap(tips[0], tips[1], length) + free_gap(tips[1], tips[0], length)
    if gaps != length - NUM_TRAINS * TRAIN_SPACES:  # E-6: the gaps of trains apart
        raise fail("trains", f"trains at tips {tips} overlap")
    count = [0] * n

    def llama(where: str, item: LlamaData, space: int) -> None:
        seat_ok(f"{where}.owner", item.owner)
        home = game.home_boarding[item.owner]
        if (item.progress - lap_need(home, space, length)) % length:  # E-8
            raise fail(
                f"{where}.progress",
                f"{item.progress} does not match the llama's place: progress must equal "
                f"(space {space} - home boarding space {home}) modulo {length}",
            )
        count[item.owner] += 1

    for t, row in enumerate((data.cars.A, data.cars.B)):
        for c, item in enumerate(row):
            if item is not None:
                space = car_space(tips[t], c, length)
                llama(f"cars.{TRAIN_NAMES[t]}.{c}", item, space)
    if len(data.footpaths) != len(board.footpaths):
        raise fail("footpaths", f"the board has {len(board.footpaths)} footpaths")
    for i, path in enumerate(data.footpaths):
        footpath = board.footpaths[i]
        if len(path) > footpath.length:
            raise fail(f"footpaths.{i}", f"{len(path)} llamas on {footpath.length} footprints")
        for j, item in enumerate(path):
            llama(f"footpaths.{i}.{j}", item, footpath.reboard)
    for name, values in (("stations", data.stations), ("houses", data.houses)):
        if len(values) != n:
            raise fail(name, f"need {n} counts, got {len(values)}")
        for s, v in enumerate(values):
            if v < 0:
                raise fail(f"{name}.{s}", f"negative count {v}")
    for s in range(n):
        total = count[s] + data.stations[s] + data.houses[s]
        if total != LLAMAS_PER_PLAYER:
            raise fail(
                "stations",
                f"seat {s} has {total} llamas in all; every player has {LLAMAS_PER_PLAYER}",
            )
    _check_play(game, data)


def _fail(where: str, reason: str) -> RecordError:
    return RecordError(f"state.{where}: {reason}")


def _seat_ok(n: int, where: str, seat: int) -> None:
    if not 0 <= seat < n:
        raise _fail(where, f"no seat {seat} in a {n}-player game")


def _check_play(game: ExpressGame, data: StateData) -> None:
    """The part of :func:`check_state_data` about play so far: the turn limit (E-11), the
    winner (E-10), the history, the phase and its window (E-9).

    Raises:
        RecordError: ``state.<field>: <reason>``.
    """
    n = game.num_players
    fail = _fail

    def seat_ok(where: str, seat: int) -> None:
        _seat_ok(n, where, seat)

    limit = game.turn_limit
    if limit is not None and data.rolls > limit:
        raise fail("rolls", f"{data.rolls} rolls exceed the turn limit {limit}")
    winners = [s for s in range(n) if has_won(data.houses[s], game.llamas_to_win)]  # E-10
    if data.winner is None:
        if winners:
            raise fail("winner", f"seat {winners[0]} has all llamas home but is no winner")
    else:
        seat_ok("winner", data.winner)
        if winners != [data.winner]:
            raise fail("winner", "the winner must be the one seat with all llamas home")
    for i, (p, a) in enumerate(data.history):
        if not (-1 <= p < n and 0 <= a < NUM_DISTINCT_ACTIONS):
            raise fail(f"history.{i}", f"bad entry ({p}, {a})")
    if data.phase != "window" and data.window is not None:
        raise fail("window", f"a window is only open in phase 'window', not {data.phase!r}")
    if data.phase == "over":
        if data.winner is None and (limit is None or not turn_limit_reached(data.rolls, limit)):
            raise fail("phase", "'over' needs a winner or the turn limit reached")
        return
    if data.winner is not None:
        raise fail("winner", "a game with a winner is over")
    if data.phase == "roll":
        if limit is not None and turn_limit_reached(data.rolls, limit):  # E-11
            raise fail("phase", "the turn limit is reached: the game is over")
        return
    if data.die is None or data.rolls == 0:
        raise fail("die", f"phase {data.phase!r} needs a rolled die")
    if data.phase == "window":
        if data.window is None:
            raise fail("window", "phase 'window' needs a window")
        for s in data.window.passed:
            seat_ok("window.passed", s)
        seat_ok("window.asked", data.window.asked)
