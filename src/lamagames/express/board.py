"""Lama Express boards: the JSON file format, its validation (E-12 of docs/rules.md) and the runtime
board.

A board file is JSON of this shape (the standard board of E-3 ships as
``lamagames/express/boards/standard.json``)::

    {
      "name": "standard",                      # optional, 1..64 characters
      "description": "...",                    # optional
      "track": "ROYGBPGPRB...",                # or ["R", "O", ...]; letters R O Y G B P
      "stations": [                            # exactly four, one per player colour
        {"colour": "yellow", "boarding": 0, "exits": [45, 46, 47]},
        ...
      ],
      "arrows": [                              # white arrows, zero or more
        {"space": 6, "footpath": 3, "reboard": 3},
        ...
      ]
    }

Spaces are indexed ``0..N-1`` clockwise along the track (``N`` = number of track letters);
whitespace inside a string track is ignored, so the E-3 block layout can be written as is.
``footpath`` is the number of footprints of the arrow's footpath; ``reboard`` is the space
where its llamas get back on a train. Walking the footpath takes a llama back
``(space - reboard) mod N`` spaces (E-8).

Validation (E-12), each failure a :class:`~lamagames.core.errors.BoardError` whose message
starts with the field path (``stations.1.exits.2: ...``) and gives the reason:

* the shape: known fields only, integers where integers belong, four stations;
* every track letter is a die colour and every die colour occurs on the track;
* the track has ``MIN_TRACK_LENGTH = 2 * 7 + 2 = 16`` to ``MAX_TRACK_LENGTH`` spaces;
* the four stations have the four player colours, once each;
* every index is in range ``0..N-1``;
* role spaces (boarding, exit, arrow, re-boarding spaces) are pairwise distinct;
* every footpath has ``1..MAX_FOOTPATH`` footprints;
* every footpath leads back (E-3, E-7): the walk-back distance ``(space - reboard) mod N``
  is ``1..N // 2`` (a re-boarding space ahead of the arrow would mean walking almost a
  whole lap back);
* *the track holds both trains with room to move*: trains are set up with their tips at the
  boarding spaces of two diagonally opposite stations (E-5), so for both diagonal pairs the
  forward distance from one boarding space to the other, in each direction, must be at least
  ``TRAIN_SPACES + 1 = 8``: the trains (7 spaces each, E-2) then never overlap at setup and
  each has at least one free space ahead. (This implies ``N >= 16``.)

Stations are ordered clockwise by their boarding space in the runtime :class:`Board`; the
station diagonally opposite station ``k`` is ``(k + 2) % 4`` in that order. Arrows are ordered
by their arrow space ("track order"), and footpath ``i`` is the footpath of arrow ``i``.
Nothing half-validated is ever returned.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any, Final, Literal

from pydantic import BaseModel, ConfigDict, Field, JsonValue, StrictInt, StrictStr, ValidationError

from lamagames.core.errors import BoardError, plural
from lamagames.core.files import read_json_file
from lamagames.core.validation import first_error
from lamagames.express.material import (
    DIE_COLOURS,
    NUM_DIE_COLOURS,
    NUM_TRAINS,
    ROLE_ARROW,
    ROLE_BOARDING,
    ROLE_EXIT,
    ROLE_NONE,
    ROLE_REBOARD,
    TRAIN_SPACES,
)
from lamagames.express.primitives import lap_need

DIE_COLOUR_NAMES: Final = ("red", "orange", "yellow", "green", "blue", "purple")
#: Player colours (E-1); each has one station.
PLAYER_COLOURS: Final = ("yellow", "pink", "green", "blue")
NUM_STATIONS: Final = len(PLAYER_COLOURS)
#: Llamas per player (E-1).
LLAMAS_PER_PLAYER: Final = 4
#: Stations apart in clockwise order between diagonal opposites (E-5).
DIAGONAL_STEP: Final = NUM_STATIONS // 2
EXITS_PER_STATION: Final = 3
#: Smallest track: both trains plus two free spaces (E-12).
MIN_TRACK_LENGTH: Final = NUM_TRAINS * TRAIN_SPACES + 2
#: Largest track accepted (a sanity bound for memory and observation size).
MAX_TRACK_LENGTH: Final = 1000
#: Smallest forward distance between the boarding spaces of diagonal stations (E-5, E-12).
MIN_SETUP_GAP: Final = TRAIN_SPACES + 1
#: Largest footpath: there are only 16 llamas, so more footprints could never be used.
MAX_FOOTPATH: Final = 16
MAX_ARROWS: Final = MAX_TRACK_LENGTH

_PACKAGE: Final = "lamagames.express"
STANDARD_BOARD_NAME: Final = "standard"


# --------------------------------------------------------------------------- file models
class StationSpec(BaseModel):
    """One station in a board file: player colour, boarding space, three exit spaces."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    colour: Literal["yellow", "pink", "green", "blue"]
    boarding: StrictInt
    exits: list[StrictInt] = Field(min_length=EXITS_PER_STATION, max_length=EXITS_PER_STATION)


class ArrowSpec(BaseModel):
    """One white arrow in a board file: arrow space, footprints, re-boarding space."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    space: StrictInt
    footpath: StrictInt
    reboard: StrictInt


class BoardSpec(BaseModel):
    """The raw shape of a board file (validated further by :func:`parse_board`)."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    name: StrictStr = Field(default="custom", min_length=1, max_length=64)
    description: StrictStr = Field(default="", max_length=2000)
    #: A string or a list of one-letter strings; checked by :func:`_track_letters` (a
    #: pydantic union would report its members, ``track.str: ...``).
    track: JsonValue
    stations: list[StationSpec] = Field(min_length=NUM_STATIONS, max_length=NUM_STATIONS)
    arrows: list[ArrowSpec] = Field(default_factory=list, max_length=MAX_ARROWS)


# --------------------------------------------------------------------------- runtime board
@dataclass(frozen=True, slots=True)
class Station:
    """A station (E-3): player colour, boarding space and three exit spaces (space indices)."""

    colour: str
    boarding: int
    exits: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Footpath:
    """A white arrow and its footpath (E-3, E-7).

    Attributes:
        arrow: the arrow space.
        length: number of footprints (capacity in llamas).
        reboard: the re-boarding space at the front end of the footpath.
        walk_back: spaces walked back, ``(arrow - reboard) mod N`` (E-8).
    """

    arrow: int
    length: int
    reboard: int
    walk_back: int


@dataclass(frozen=True, slots=True)
class Board:
    """A validated, immutable board with lookup tables for the engine.

    Build it with :func:`parse_board`, :func:`load_board` or :func:`standard_board`.

    Attributes:
        name: board name.
        description: free text.
        track: the track colour letters, one per space (length :attr:`length`).
        length: number of spaces ``N``.
        stations: the four stations in clockwise order of their boarding spaces.
        footpaths: the arrows/footpaths in track order of their arrow spaces.
        colour_of: die colour index (position in :data:`DIE_COLOURS`) of each space.
        role: role of each space (``ROLE_*``).
        role_index: station index (boarding/exit spaces) or footpath index (arrow and
            re-boarding spaces) of each space, ``-1`` for plain spaces.
        exit_need: for an exit space of station ``k``, the progress a llama needs to exit
            there: the forward distance from ``k``'s boarding space (E-8,
            :func:`~lamagames.express.primitives.lap_need`); 0 elsewhere.
        next_distance: ``next_distance[c][t]``: spaces from tip ``t`` to the next space of
            die colour ``c`` strictly ahead (E-6), ``1..N``.
    """

    name: str
    description: str
    track: str
    length: int
    stations: tuple[Station, ...]
    footpaths: tuple[Footpath, ...]
    colour_of: tuple[int, ...] = field(repr=False)
    role: tuple[int, ...] = field(repr=False)
    role_index: tuple[int, ...] = field(repr=False)
    exit_need: tuple[int, ...] = field(repr=False)
    next_distance: tuple[tuple[int, ...], ...] = field(repr=False)

    def station_index(self, colour: str) -> int:
        """Index (clockwise order) of the station of a player colour.

        Raises:
            BoardError: not a player colour.
        """
        for index, station in enumerate(self.stations):
            if station.colour == colour:
                return index
        raise BoardError(f"no station of colour {colour!r}")

    def opposite_station(self, index: int) -> int:
        """Station diagonally opposite station ``index`` (E-5)."""
        return (index + DIAGONAL_STEP) % NUM_STATIONS

    def distance(self, start: int, end: int) -> int:
        """Forward distance in spaces from ``start`` to ``end`` (``0..N-1``)."""
        return (end - start) % self.length

    def to_dict(self) -> dict[str, Any]:
        """The board in file form (canonical: stations clockwise, arrows in track order)."""
        return {
            "name": self.name,
            "description": self.description,
            "track": self.track,
            "stations": [
                {"colour": s.colour, "boarding": s.boarding, "exits": list(s.exits)}
                for s in self.stations
            ],
            "arrows": [
                {"space": f.arrow, "footpath": f.length, "reboard": f.reboard}
                for f in self.footpaths
            ],
        }


# --------------------------------------------------------------------------- parsing
def _fail(path: str, reason: str) -> BoardError:
    return BoardError(f"{path}: {reason}")


def _check_space(path: str, value: int, length: int) -> None:
    if not 0 <= value < length:
        raise _fail(path, f"space {value} out of range 0..{length - 1}")


#: What a track must be, for messages.
TRACK_SHAPE: Final = f"must be a string or a list of letters {' '.join(DIE_COLOURS)}"


def _track_letters(track: JsonValue) -> list[str]:
    if isinstance(track, str):
        letters = [ch for ch in track if not ch.isspace()]
        for index, letter in enumerate(letters):
            if letter not in DIE_COLOURS:
                raise _fail(
                    "track",
                    f"letter {index} is {letter!r}, not a die colour ({' '.join(DIE_COLOURS)})",
                )
        return letters
    if not isinstance(track, list) or not all(isinstance(item, str) for item in track):
        raise _fail("track", TRACK_SHAPE)
    letters = [str(item) for item in track]
    for index, letter in enumerate(letters):
        if len(letter) != 1 or letter not in DIE_COLOURS:
            raise _fail(
                f"track.{index}", f"{letter!r} is not a die colour ({' '.join(DIE_COLOURS)})"
            )
    return letters


def _validate(spec: BoardSpec) -> Board:
    letters = _track_letters(spec.track)
    length = len(letters)
    if not MIN_TRACK_LENGTH <= length <= MAX_TRACK_LENGTH:
        raise _fail(
            "track",
            f"{plural(length, 'space')}; a track needs "
            f"{MIN_TRACK_LENGTH}..{MAX_TRACK_LENGTH} spaces "
            f"(two trains of {TRAIN_SPACES} spaces and room to move)",
        )
    for letter, name in zip(DIE_COLOURS, DIE_COLOUR_NAMES, strict=True):
        if letter not in letters:
            raise _fail("track", f"die colour {letter} ({name}) never occurs")

    seen_colours: dict[str, int] = {}
    for k, station in enumerate(spec.stations):
        if station.colour in seen_colours:
            raise _fail(
                f"stations.{k}.colour",
                f"{station.colour!r} already used by stations.{seen_colours[station.colour]}",
            )
        seen_colours[station.colour] = k

    owner: dict[int, str] = {}  # space -> field path that claimed it

    def claim(path: str, space: int) -> None:
        _check_space(path, space, length)
        if space in owner:
            raise _fail(
                path,
                f"space {space} already has a role ({owner[space]}); role spaces must be distinct",
            )
        owner[space] = path

    for k, station in enumerate(spec.stations):
        claim(f"stations.{k}.boarding", station.boarding)
        for j, exit_space in enumerate(station.exits):
            claim(f"stations.{k}.exits.{j}", exit_space)
    for i, arrow in enumerate(spec.arrows):
        claim(f"arrows.{i}.space", arrow.space)
        claim(f"arrows.{i}.reboard", arrow.reboard)
        if not 1 <= arrow.footpath <= MAX_FOOTPATH:
            raise _fail(
                f"arrows.{i}.footpath",
                f"{plural(arrow.footpath, 'footprint')}; a footpath needs 1..{MAX_FOOTPATH}",
            )
        # A footpath leads back (E-3, E-7, E-8): its re-boarding space lies behind the
        # arrow, at most half the track back (further would be a walk forward).
        walk_back = (arrow.space - arrow.reboard) % length
        if walk_back > length // 2:
            ahead = length - walk_back
            raise _fail(
                f"arrows.{i}.reboard",
                f"space {arrow.reboard} is {ahead} space{'' if ahead == 1 else 's'} ahead "
                f"of the arrow "
                f"(space {arrow.space}); a footpath leads back: the re-boarding space must "
                f"be 1..{length // 2} spaces behind the arrow (half the track)",
            )

    stations = tuple(
        sorted(
            (Station(s.colour, s.boarding, tuple(s.exits)) for s in spec.stations),
            key=lambda s: s.boarding,
        )
    )
    for k in range(DIAGONAL_STEP):
        first, second = stations[k], stations[k + DIAGONAL_STEP]
        gap = (second.boarding - first.boarding) % length
        for a, b, d in ((first, second, gap), (second, first, length - gap)):
            if d < MIN_SETUP_GAP:
                raise _fail(
                    "stations",
                    f"the boarding space of {b.colour} ({b.boarding}) is only "
                    f"{plural(d, 'space')} after that of the opposite station "
                    f"{a.colour} ({a.boarding}); trains set up there need "
                    f"{MIN_SETUP_GAP} to hold a train of {TRAIN_SPACES} spaces with room to move",
                )

    footpaths = tuple(
        sorted(
            (
                Footpath(a.space, a.footpath, a.reboard, (a.space - a.reboard) % length)
                for a in spec.arrows
            ),
            key=lambda f: f.arrow,
        )
    )

    role = [ROLE_NONE] * length
    role_index = [-1] * length
    exit_need = [0] * length
    for k, placed in enumerate(stations):
        role[placed.boarding] = ROLE_BOARDING
        role_index[placed.boarding] = k
        for exit_space in placed.exits:
            role[exit_space] = ROLE_EXIT
            role_index[exit_space] = k
            exit_need[exit_space] = lap_need(placed.boarding, exit_space, length)
    for i, footpath in enumerate(footpaths):
        role[footpath.arrow] = ROLE_ARROW
        role_index[footpath.arrow] = i
        role[footpath.reboard] = ROLE_REBOARD
        role_index[footpath.reboard] = i

    colour_of = tuple(DIE_COLOURS.index(letter) for letter in letters)
    next_distance = []
    for colour_index in range(NUM_DIE_COLOURS):
        row = []
        for tip in range(length):
            d = 1
            while colour_of[(tip + d) % length] != colour_index:
                d += 1
            row.append(d)
        next_distance.append(tuple(row))

    return Board(
        name=spec.name,
        description=spec.description,
        track="".join(letters),
        length=length,
        stations=stations,
        footpaths=footpaths,
        colour_of=colour_of,
        role=tuple(role),
        role_index=tuple(role_index),
        exit_need=tuple(exit_need),
        next_distance=tuple(next_distance),
    )


def parse_board(data: Mapping[str, Any]) -> Board:
    """Validate board data (the parsed JSON of a board file) and build a :class:`Board`.

    Args:
        data: a mapping in the board file format (see the module docstring).

    Returns:
        The validated board.

    Raises:
        BoardError: the message names the field path (``arrows.2.footpath``) and the reason
            (E-12).
    """
    if not isinstance(data, Mapping):
        raise BoardError(f"board: expected a JSON object, got {type(data).__name__}")
    if "track" in data:  # the first field: its type is checked before the later fields
        _track_letters(data["track"])
    try:
        spec = BoardSpec.model_validate(dict(data))
    except ValidationError as exc:
        raise BoardError(first_error(exc, "board")[1]) from None
    return _validate(spec)


def load_board(path: str | Path) -> Board:
    """Read and validate a board file (JSON, UTF-8; a byte-order mark is accepted).

    Raises:
        BoardError: ``FILE: <reason>``: the file cannot be read (missing, a folder, not
            UTF-8), is not JSON, or breaks a board rule (``FILE: <field>: <reason>``, E-12).
    """
    try:
        return parse_board(read_json_file(path, BoardError))
    except BoardError as exc:
        raise BoardError(f"{path}: {exc}") from None


@lru_cache(maxsize=1)
def standard_board() -> Board:
    """The standard board of E-3 (package data ``boards/standard.json``)."""
    text = resources.files(_PACKAGE).joinpath("boards", "standard.json").read_text("utf-8")
    return parse_board(json.loads(text))
