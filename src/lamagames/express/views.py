"""Views of a Lama Express state: the JSON observation, the observation tensor, a text line.

Pure functions over the public accessors of :class:`~lamagames.express.game.ExpressState`
(the state's ``observation``, ``observation_tensor`` and ``__str__`` delegate here).

Observation tensor (float32, shape ``(2N + 50 + 5S + 32,)`` for a board of ``N`` spaces and
``S`` footprints in all, see :func:`observation_size`; seats are *relative* to the observing
seat ``p``: slot ``r`` is seat ``(p + r) % n``, slots ``>= n`` stay zero):

=====================  ======  ==========================================================
block                  size    content
=====================  ======  ==========================================================
tips                   2N      one-hot tip space of train A, then train B (E-2)
cars                   50      10 cars (A1..A5, B1..B5) x [owner one-hot (4), progress/N]
footprints             5S      every footprint, footpaths in track order, front first, x
                               [owner one-hot (4), progress/N]
waiting                4       llamas at each seat's station / 4
houses                 4       llamas in each seat's house / llamas_to_win
die                    6       one-hot last roll (R O Y G B P), zeros before the first
phase                  5       roll, window after roll, window after move, choose, over
active                 4       one-hot active seat
asked                  4       one-hot seat asked in the window (zeros outside windows)
passed                 4       seats that passed since the last action in the window
rolls                  1       rolls / turn_limit (0 without a limit)
=====================  ======  ==========================================================

Progress (E-8) is divided by ``N`` and may exceed 1 or be negative.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

import numpy as np
import numpy.typing as npt

from lamagames.express.actions import NUM_CAR_SLOTS, TRAIN_NAMES
from lamagames.express.board import LLAMAS_PER_PLAYER
from lamagames.express.material import DIE_COLOURS, NUM_DIE_COLOURS, NUM_TRAINS, PASSENGER_CARS
from lamagames.express.rules import Phase

if TYPE_CHECKING:
    from lamagames.express.state import ExpressState

#: Seat slots of the tensor (the most players of E-4).
OWNER_SLOTS: Final = 4
LLAMA_FEATURES: Final = OWNER_SLOTS + 1
NUM_OBS_PHASES: Final = 5
#: Phase slots of the tensor.
OBS_ROLL: Final = 0
OBS_WINDOW_AFTER_ROLL: Final = 1
OBS_WINDOW_AFTER_MOVE: Final = 2
OBS_CHOOSE: Final = 3
OBS_OVER: Final = 4


def observation_size(length: int, footprints: int) -> int:
    """Length of the observation tensor for ``length`` spaces and ``footprints`` footprints."""
    return (
        NUM_TRAINS * length
        + NUM_CAR_SLOTS * LLAMA_FEATURES
        + footprints * LLAMA_FEATURES
        + 2 * OWNER_SLOTS
        + NUM_DIE_COLOURS
        + NUM_OBS_PHASES
        + 3 * OWNER_SLOTS
        + 1
    )


def _llama_json(state: ExpressState, who: int, progress: int) -> dict[str, Any]:
    return {"owner": who, "colour": state.game.colours[who], "progress": progress}


def observation(state: ExpressState, seat: int) -> dict[str, Any]:
    """The full (public) position as JSON data, from ``seat``'s point of view.

    Keys: ``player``, ``num_players``, ``colours``, ``phase``, ``active_player``,
    ``current_player``, ``die``, ``rolls``, ``turn_limit``, ``llamas_to_win``, ``trains``
    (name, tip, locomotive and coal spaces, cars with space and llama), ``stations`` (the
    four stations: colour, seat or ``None``, boarding and exit spaces, llamas waiting),
    ``houses`` and ``waiting`` per seat, ``footpaths`` (arrow, re-boarding space,
    footprints, llamas front first), ``window`` (stage, asked seat, passed and acting
    seats) or ``None``, ``legal_actions`` of ``seat`` in notation, ``winner``,
    ``truncated``. A llama is ``{"owner", "colour", "progress"}``.
    """
    board = state.board
    game = state.game
    trains = []
    for t in range(NUM_TRAINS):
        spaces = state.train_spaces(t)
        cars = []
        for car in range(1, PASSENGER_CARS + 1):
            llama = state.car_llama(t, car)
            cars.append(
                {
                    "car": car,
                    "space": state.car_space(t, car),
                    "llama": None if llama is None else _llama_json(state, *llama),
                }
            )
        trains.append(
            {
                "name": TRAIN_NAMES[t],
                "tip": state.train_tip(t),
                "locomotive": spaces[0],
                "coal": spaces[1],
                "cars": cars,
            }
        )
    stations = []
    for k, station in enumerate(board.stations):
        s = game.station_seat[k]
        stations.append(
            {
                "colour": station.colour,
                "seat": None if s < 0 else s,
                "boarding": station.boarding,
                "exits": list(station.exits),
                "waiting": 0 if s < 0 else state.waiting_llamas(s),
            }
        )
    window = None
    stage = state.window_stage()
    if stage is not None:
        window = {
            "stage": stage.value,
            "asked": state.current_player(),
            "passed": state.passed_players(),
            "acting": state.acting_players(),
        }
    n = game.num_players
    return {
        "player": seat,
        "num_players": n,
        "colours": list(game.colours),
        "phase": state.phase().label,
        "active_player": state.active_player(),
        "current_player": state.current_player(),
        "die": state.die(),
        "rolls": state.rolls(),
        "turn_limit": game.turn_limit,
        "llamas_to_win": game.llamas_to_win,
        "trains": trains,
        "stations": stations,
        "houses": [state.house_llamas(s) for s in range(n)],
        "waiting": [state.waiting_llamas(s) for s in range(n)],
        "footpaths": [
            {
                "arrow": f.arrow,
                "reboard": f.reboard,
                "length": f.length,
                "llamas": [_llama_json(state, w, p) for w, p in state.footpath_llamas(i)],
            }
            for i, f in enumerate(board.footpaths)
        ],
        "window": window,
        "legal_actions": [state.action_to_string(a, seat) for a in state.legal_actions(seat)],
        "winner": state.winner(),
        "truncated": state.is_truncated(),
    }


def observation_tensor(state: ExpressState, seat: int) -> npt.NDArray[np.float32]:
    """Flat float32 features for ``seat`` (layout in the module docstring)."""
    game = state.game
    board = state.board
    n = game.num_players
    length = board.length
    out = np.zeros(game.info.observation_shape, dtype=np.float32)
    offset = 0
    for t in range(NUM_TRAINS):
        out[offset + state.train_tip(t)] = 1.0
        offset += length

    def llama(at: int, who: int, progress: int) -> None:
        out[at + (who - seat) % n] = 1.0
        out[at + OWNER_SLOTS] = progress / length

    for t in range(NUM_TRAINS):
        for car in range(1, PASSENGER_CARS + 1):
            found = state.car_llama(t, car)
            if found is not None:
                llama(offset, *found)
            offset += LLAMA_FEATURES
    for i, footpath in enumerate(board.footpaths):
        llamas = state.footpath_llamas(i)
        for j in range(footpath.length):
            if j < len(llamas):
                llama(offset, *llamas[j])
            offset += LLAMA_FEATURES
    for r in range(n):
        s = (seat + r) % n
        out[offset + r] = state.waiting_llamas(s) / LLAMAS_PER_PLAYER
        out[offset + OWNER_SLOTS + r] = state.house_llamas(s) / game.llamas_to_win
    offset += 2 * OWNER_SLOTS
    die = state.die()
    if die is not None:
        out[offset + DIE_COLOURS.index(die)] = 1.0
    offset += NUM_DIE_COLOURS
    stage = state.window_stage()
    phase = state.phase()
    if phase == Phase.OVER:
        slot = OBS_OVER
    elif phase == Phase.CHOOSE:
        slot = OBS_CHOOSE
    elif stage is not None:
        slot = OBS_WINDOW_AFTER_ROLL if stage == "after_roll" else OBS_WINDOW_AFTER_MOVE
    else:
        slot = OBS_ROLL
    out[offset + slot] = 1.0
    offset += NUM_OBS_PHASES
    out[offset + (state.active_player() - seat) % n] = 1.0
    offset += OWNER_SLOTS
    if stage is not None:
        out[offset + (state.current_player() - seat) % n] = 1.0
        for s in state.passed_players():
            out[offset + OWNER_SLOTS + (s - seat) % n] = 1.0
    offset += 2 * OWNER_SLOTS
    if game.turn_limit is not None:
        out[offset] = state.rolls() / game.turn_limit
    return out


def state_line(state: ExpressState) -> str:
    """One compact line: phase (window details or winner), active seat, rolls, die, trains
    with their cars (llama colour initials, ``.`` empty), stations, houses, footpaths."""
    colours = state.game.colours
    n = state.game.num_players

    def mark(train: int, car: int) -> str:
        llama = state.car_llama(train, car)
        return "." if llama is None else colours[llama[0]][0]

    trains = " ".join(
        f"{TRAIN_NAMES[t]}@{state.train_tip(t)}["
        + "".join(mark(t, c) for c in range(1, PASSENGER_CARS + 1))
        + "]"
        for t in range(NUM_TRAINS)
    )
    paths = ",".join(
        "".join(colours[w][0] for w, _ in state.footpath_llamas(i)) or "-"
        for i in range(len(state.board.footpaths))
    )
    head: str = state.phase().label
    stage = state.window_stage()
    if stage is not None:
        passed = state.passed_players()
        head += f"({stage} asked={state.current_player()} passed={passed})"
    if state.is_terminal():
        head += f"(winner={state.winner()})"
    station = [state.waiting_llamas(s) for s in range(n)]
    house = [state.house_llamas(s) for s in range(n)]
    return (
        f"{head} active={state.active_player()} rolls={state.rolls()} die={state.die() or '-'} "
        f"{trains} station={station} house={house} paths={paths}"
    )
