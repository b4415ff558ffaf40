"""Game-agnostic core: protocol, chance, notation, records, errors, seeded randomness."""

from lamagames.core.errors import (
    BoardError,
    IllegalActionError,
    InvalidActionError,
    LamaError,
    ParameterError,
    RecordError,
)
from lamagames.core.events import Event
from lamagames.core.game import (
    CHANCE_PLAYER,
    TERMINAL_PLAYER,
    Game,
    GameInfo,
    Outcome,
    State,
    Termination,
)
from lamagames.core.records import (
    GameRecord,
    RecordedAction,
    SeatInfo,
    iter_replay,
    load_record,
    parse_record,
    record_from_state,
    replay,
    save_record,
)
from lamagames.core.registry import game_ids, make, register
from lamagames.core.rng import derive_seed, make_rng

__all__ = [
    "CHANCE_PLAYER",
    "TERMINAL_PLAYER",
    "BoardError",
    "Event",
    "Game",
    "GameInfo",
    "GameRecord",
    "IllegalActionError",
    "InvalidActionError",
    "LamaError",
    "Outcome",
    "ParameterError",
    "RecordError",
    "RecordedAction",
    "SeatInfo",
    "State",
    "Termination",
    "derive_seed",
    "game_ids",
    "iter_replay",
    "load_record",
    "make",
    "make_rng",
    "parse_record",
    "record_from_state",
    "register",
    "replay",
    "save_record",
]
