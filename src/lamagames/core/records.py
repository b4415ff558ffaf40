"""Game records: JSON files that replay a game bit for bit.

A record holds the format version, the game id and parameters, the seed (if the game was
played with one: the seed people saw, and ``game_index`` if the game was game ``i`` of that
seed, see :attr:`GameRecord.play_seed`), the seats (name and kind) and every action
including chance outcomes, in notation with the seat that took it. Loading validates the
JSON shape with pydantic and then replays every action through the engine; the first entry
that fails is named in the error.

Example record::

    {"format": "lamagames-record", "format_version": 1, "game": "dice",
     "params": {"num_players": 2, ...}, "seed": 7, "game_index": 0,
     "seats": [{"name": "Ada", "kind": "human"}, {"name": "Bot", "kind": "heuristic"}],
     "actions": [{"player": -1, "action": "deal 11235L"}, ...],
     "result": {"terminal": true, "returns": [1.0, 0.0]}}
"""

from __future__ import annotations

import json
from collections import deque
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Final, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from lamagames.core.errors import LamaError, RecordError, quoted
from lamagames.core.files import parse_json, read_json_file
from lamagames.core.game import CHANCE_PLAYER, State
from lamagames.core.names import refused_character
from lamagames.core.registry import make
from lamagames.core.rng import game_seed
from lamagames.core.validation import first_error

FORMAT_NAME: Final = "lamagames-record"
FORMAT_VERSION: Final = 1


class SeatInfo(BaseModel):
    """One seat of a recorded game: display name and kind (``human`` or a bot kind)."""

    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)
    name: str = Field(min_length=1, max_length=64)
    kind: str = Field(min_length=1, max_length=32, pattern=r"^[a-z][a-z0-9_-]*$")

    @field_validator("name")
    @classmethod
    def _printable_name(cls, name: str) -> str:
        """Refuse names with control or format characters (terminal escapes, bidi marks)
        and names of only spaces: records may come from other people."""
        if not name.strip():
            raise ValueError("a name needs at least one visible character")
        char = refused_character(name)  # emoji joiners are kept
        if char is not None:
            raise ValueError(f"a name may not contain the control character {ord(char):#x}")
        return name


class RecordedAction(BaseModel):
    """One applied action: the seat that took it (-1 for chance) and its notation."""

    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)
    player: int = Field(ge=-1)
    action: str = Field(min_length=1, max_length=200)


class RecordResult(BaseModel):
    """Outcome stored with a record; checked against the replay."""

    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)
    terminal: bool
    returns: list[float]


class GameRecord(BaseModel):
    """A complete, validated game record (format version 1).

    All record models are strict, as board files are: ``"player": true`` or ``"seed": "7"``
    are refused rather than read as ``1`` and ``7``.
    """

    model_config = ConfigDict(extra="forbid", strict=True)
    format: Literal["lamagames-record"] = FORMAT_NAME  # required in files (validate_record)
    format_version: Literal[1] = FORMAT_VERSION
    game: str
    params: dict[str, Any]
    seed: int | None = None
    game_index: int | None = Field(default=None, ge=0)
    seats: list[SeatInfo]
    actions: list[RecordedAction]
    result: RecordResult | None = None
    created: str | None = None

    @property
    def play_seed(self) -> int | None:
        """The seed the game was played with (``play_game(game, bots, play_seed)``).

        ``seed`` is the seed people saw (``lama play --seed``); with a ``game_index`` the
        game was game ``game_index`` of that seed, played with
        ``derive_seed(seed, "game", game_index)``; without one, ``seed`` itself.
        """
        if self.seed is None or self.game_index is None:
            return self.seed
        return game_seed(self.seed, self.game_index)

    def to_json(self, *, indent: int | None = 1) -> str:
        """Serialise to JSON text."""
        return json.dumps(self.model_dump(mode="json"), indent=indent)


def record_from_state(
    state: State,
    seats: list[SeatInfo] | list[tuple[str, str]],
    *,
    seed: int | None = None,
    game_index: int | None = None,
) -> GameRecord:
    """Build a record of everything applied to ``state`` since its initial state.

    Args:
        state: a state reached from ``game.new_initial_state()`` by ``apply_action``.
        seats: one entry per seat, ``SeatInfo`` or ``(name, kind)``.
        seed: the seed the game was played with, if any; with ``game_index``, the root
            seed shown to people (the game used ``derive_seed(seed, "game", game_index)``).
        game_index: the game's index under ``seed`` (``lama play``: 0), or ``None``.

    Raises:
        RecordError: the number of seats does not match the game.
    """
    game = state.game
    infos = [s if isinstance(s, SeatInfo) else SeatInfo(name=s[0], kind=s[1]) for s in seats]
    if len(infos) != game.num_players:
        count = f"{len(infos)} seat{'' if len(infos) == 1 else 's'}"
        raise RecordError(f"{count} given for a {game.num_players}-player game")
    replay = game.new_initial_state()
    actions: list[RecordedAction] = []
    for player, action in state.history():
        actor = None if player == CHANCE_PLAYER else player
        actions.append(RecordedAction(player=player, action=replay.action_to_string(action, actor)))
        replay.apply_action(action, actor)
    return GameRecord(
        game=game.game_id,
        params=game.params,
        seed=seed,
        game_index=game_index,
        seats=infos,
        actions=actions,
        result=RecordResult(terminal=state.is_terminal(), returns=state.returns()),
        created=datetime.now(UTC).isoformat(timespec="seconds"),
    )


def iter_replay(record: GameRecord) -> Iterator[State]:
    """Yield the initial state and then the state after each recorded action (copies).

    Raises:
        RecordError: naming the index of the first entry that is malformed, illegal, or
            recorded for the wrong seat; or the header (game, parameters) is bad.
    """
    try:
        game = make(record.game, **record.params)
    except LamaError as exc:
        raise RecordError(f"record header: {exc}") from None
    if len(record.seats) != game.num_players:
        count = f"{len(record.seats)} seat{'' if len(record.seats) == 1 else 's'}"
        raise RecordError(f"record header: {count} for a {game.num_players}-player game")
    state = game.new_initial_state()
    yield state.clone()
    for index, entry in enumerate(record.actions):
        who = (
            "chance"
            if entry.player == CHANCE_PLAYER
            else f'seat {entry.player + 1}, "player": {entry.player}'  # the file counts from 0
        )
        where = f"actions[{index}] ({quoted(entry.action)} by {who})"
        if state.is_terminal():
            raise RecordError(f"{where}: the game was already over", index)
        if entry.player == CHANCE_PLAYER:
            if not state.is_chance_node():
                raise RecordError(f"{where}: expected a move by a seat, not chance", index)
            actor: int | None = None
        else:
            if state.is_chance_node():
                raise RecordError(f"{where}: expected a chance outcome here", index)
            if entry.player >= game.num_players:
                raise RecordError(f"{where}: no such seat", index)
            actor = entry.player
        try:
            action = state.string_to_action(entry.action, actor)
            state.apply_action(action, actor)
        except LamaError as exc:
            raise RecordError(f"{where}: {exc}", index) from None
        yield state.clone()
    if record.result is not None:
        if record.result.terminal != state.is_terminal():
            raise RecordError("record result: 'terminal' does not match the replay")
        if record.result.returns != state.returns():
            raise RecordError(
                f"record result: returns {record.result.returns} do not match the replay "
                f"{state.returns()}"
            )


def replay(record: GameRecord) -> State:
    """Replay a record and return its final state (see :func:`iter_replay` for errors)."""
    return deque(iter_replay(record), maxlen=1)[0]


def parse_record(text: str) -> GameRecord:
    """Parse and validate record JSON text (shape only; use :func:`replay` to check play).

    A leading UTF-8 byte-order mark is ignored.

    Raises:
        RecordError: invalid JSON or a field of the wrong shape (named in the message).
    """
    return validate_record(parse_json(text, RecordError))


def validate_record(data: Any) -> GameRecord:
    """Validate parsed record JSON (shape only; use :func:`replay` to check play).

    The ``format`` field is checked first, so other JSON (a ``--summary-json`` file, a
    board) is called what it is rather than reported by its first unexpected field.

    Raises:
        RecordError: not a record (``format`` missing or wrong), an unsupported
            ``format_version``, or a field of the wrong shape (named in the message, with
            the index of the entry of ``actions`` if it is in one).
    """
    what = "not a lamagames game record"
    if not isinstance(data, dict):
        raise RecordError(f"{what}: expected a JSON object, got {_json_type(data)}")
    if "format" not in data:
        raise RecordError(f'{what}: it has no "format" field (expected "{FORMAT_NAME}")')
    if data["format"] != FORMAT_NAME:
        shown = json.dumps(data["format"])
        shown = shown if len(shown) <= 40 else shown[:39] + "…"
        raise RecordError(f'{what}: "format" is {shown}, expected "{FORMAT_NAME}"')
    version = data.get("format_version", FORMAT_VERSION)
    if version != FORMAT_VERSION or type(version) is not int:
        raise RecordError(
            f"format_version: {json.dumps(version)[:40]} is not supported "
            f"(this version of lamagames reads {FORMAT_VERSION})"
        )
    try:
        return GameRecord.model_validate(data)
    except ValidationError as exc:
        loc, message = first_error(exc, "record")
        in_actions = len(loc) >= 2 and loc[0] == "actions" and isinstance(loc[1], int)
        index = int(loc[1]) if in_actions else None
        raise RecordError(message, index) from None


def _json_type(value: Any) -> str:
    """The JSON name of a parsed value's type (``array``, ``string``...)."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true or false"
    names = {list: "an array", str: "a string", int: "a number", float: "a number"}
    return names.get(type(value), type(value).__name__)


def load_record(path: str | Path) -> GameRecord:
    """Read, validate and replay-check a record file (UTF-8; a byte-order mark is accepted).

    Raises:
        RecordError: ``FILE: <reason>``: unreadable file (missing, a folder, not UTF-8),
            malformed JSON or record, or a replay failure (``index`` kept).
    """
    try:
        record = validate_record(read_json_file(path, RecordError))
        replay(record)
    except RecordError as exc:
        raise RecordError(f"{path}: {exc}", exc.index) from None
    return record


def save_record(record: GameRecord, path: str | Path) -> None:
    """Write a record as JSON (UTF-8), atomically replacing ``path``."""
    target = Path(path)
    tmp = target.with_name(target.name + ".tmp")
    tmp.write_text(record.to_json() + "\n", encoding="utf-8")
    tmp.replace(target)
