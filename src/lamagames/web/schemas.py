"""Pydantic models of every HTTP body and WebSocket message (unknown fields are refused).

Times are in seconds. Tokens are ``secrets.token_urlsafe`` strings; a *seat token* lets its
holder act for that seat, the *host token* lets the creator start the table.
"""

from __future__ import annotations

import functools
import json
import unicodedata
from typing import Annotated, Any, Final, Literal, Self

from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    TypeAdapter,
    ValidationError,
    model_validator,
)

from lamagames.core.names import refused_character


def _clean_name(name: str) -> str:
    """A display name without surrounding spaces, not empty, without control or format
    characters (bidi overrides, zero-width spaces); format characters that join an emoji
    (the zero-width joiner of a family emoji, the tags of a flag) are kept."""
    name = name.strip()
    if not name:
        raise ValueError("a name needs more than spaces")
    if refused_character(name) is not None:  # the rule of records (emoji joiners kept)
        raise ValueError("a name may not contain control or text-direction characters")
    return name


def _check_token(token: str) -> str:
    """A token as :func:`secrets.token_urlsafe` makes them: ASCII letters, digits, ``-``
    and ``_`` only (anything else can be no token of ours, and would not compare in
    constant time)."""
    if not token.isascii() or not all(c.isalnum() or c in "-_" for c in token):
        raise ValueError("a token has only the characters A-Z, a-z, 0-9, '-' and '_'")
    return token


#: Planes that hold every control, format, separator and space character (0, 1 and 14).
_PLANES: Final = (range(0x0, 0x20000), range(0xE0000, 0xF0000))


def _class(codes: list[int]) -> str:
    """Code points as the inside of a regex character class: the characters themselves
    and ``a-b`` ranges (none of them is special inside a class)."""
    parts: list[str] = []
    index = 0
    while index < len(codes):
        end = index
        while end + 1 < len(codes) and codes[end + 1] == codes[end] + 1:
            end += 1
        first, last = chr(codes[index]), chr(codes[end])
        parts.append(first if end == index else f"{first}-{last}")
        index = end + 1
    return "".join(parts)


@functools.cache
def name_pattern() -> str:
    """The regular expression (for the OpenAPI schema) of exactly the names the server
    accepts: surrounding whitespace (stripped by the server), then at least one visible
    character, no control, format, line or paragraph separator characters
    (:func:`lamagames.core.names.refused_character`) except a zero-width joiner between two
    visible characters and the tag characters after a black flag (emoji sequences).

    Built on first use from :mod:`unicodedata` (a fifth of a second), so it agrees with
    the server's rule on this Python's Unicode version.
    """
    refused: list[int] = []
    separators: list[int] = []  # Zs: no neighbour of a joiner
    spaces: list[int] = []  # str.strip's whitespace
    for plane in _PLANES:
        for code in plane:
            char = chr(code)
            category = unicodedata.category(char)
            if category in ("Cc", "Cf", "Zl", "Zp"):
                refused.append(code)
            elif category == "Zs":
                separators.append(code)
            if char.isspace():
                spaces.append(code)
    bad, space = _class(refused), _class(spaces)
    visible = f"[^{bad}{_class(separators)}]"
    flag = "\U0001f3f4[\U000e0020-\U000e007f]+"  # a subdivision flag's tags (literal)
    # visible characters joined by zero-width joiners (core.names.joins_emoji); only the
    # last may be a flag with its tags (a joiner after a tag is refused)
    unit = f"(?:{visible}\u200d)*(?:{flag}|{visible})"
    # the first unit is visible; later ones may be spaces or any character that is kept
    return f"^[{space}]*{unit}(?:{unit}|[^{bad}])*[{space}]*$"


def _name_schema(schema: dict[str, Any]) -> None:
    schema["pattern"] = name_pattern()


#: A display name (the pattern is for the schema; the validator words the error).
Name = Annotated[
    str,
    Field(min_length=1, max_length=32, json_schema_extra=_name_schema),
    AfterValidator(_clean_name),
]
#: A host or seat token (the pattern is for the schema; the validator words the error).
Token = Annotated[
    str,
    Field(min_length=8, max_length=64, json_schema_extra={"pattern": "^[A-Za-z0-9_-]+$"}),
    AfterValidator(_check_token),
]


def _integral(value: Any) -> Any:
    """A float with no fractional part as the integer it is (JSON Schema calls ``0.0`` an
    integer); anything else as it came (strict validation judges it)."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


#: A table seed: an integer in ``[0, 2**63)`` that, as JSON Schema says, may also be written
#: ``7.0`` (not ``7.5``, not ``"7"``).
Seed = Annotated[int, Field(ge=0, lt=2**63), BeforeValidator(_integral)]
Status = Literal["waiting", "playing", "finished"]
#: How long bots pause before each decision: ``slow`` (2x the server's pause), ``normal``,
#: ``fast`` (half of it).
BotPace = Literal["slow", "normal", "fast"]


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid")


class _Request(BaseModel):
    """What clients send: unknown fields refused, strict types (``"60"`` is no number,
    ``"yes"`` no boolean)."""

    model_config = ConfigDict(extra="forbid", strict=True)


# ---------------------------------------------------------------------------- HTTP bodies
class SeatSpec(_Request):
    """One seat of a new table: a human (joins by invite link) or a bot of some kind.

    A bot seat needs its ``bot_kind``; a human seat has none (the schema says so with
    ``if``/``then``/``else``).
    """

    model_config = ConfigDict(
        extra="forbid",
        strict=True,
        json_schema_extra={
            "if": {"properties": {"kind": {"const": "bot"}}},
            "then": {
                "required": ["kind", "bot_kind"],
                "properties": {"bot_kind": {"type": "string"}},
            },
            "else": {"properties": {"bot_kind": {"type": "null"}}},
        },
    )

    kind: Literal["human", "bot"]
    name: Name | None = None
    bot_kind: str | None = Field(
        default=None,
        max_length=32,
        description="required for a bot seat: one of the game's bot_kinds (GET /api/games); "
        "a human seat has none",
    )

    @model_validator(mode="after")
    def _bot_kind_for_bots_only(self) -> Self:
        if self.kind == "bot" and self.bot_kind is None:
            raise ValueError("a bot seat needs a bot_kind (see GET /api/games)")
        if self.kind == "human" and self.bot_kind is not None:
            raise ValueError("a human seat has no bot_kind")
        return self


def _games_schema(schema: dict[str, Any]) -> None:
    """What ``POST /api/tables`` accepts per game, from the registered web adapters when
    the schema is made: ``game`` one of them, and for each (``if``/``then``) its seat
    count, its parameter names, the bot kinds this server can run and, for a game without
    free-action windows, no ``alertness``."""
    from lamagames.web.adapters import adapter_ids, get_adapter

    games = [get_adapter(game).describe() for game in adapter_ids()]
    schema["properties"]["game"]["enum"] = [game["id"] for game in games]
    schema["allOf"] = [
        {
            "if": {"properties": {"game": {"const": game["id"]}}, "required": ["game"]},
            "then": {
                "properties": {
                    "seats": {
                        "minItems": game["min_players"],
                        "maxItems": game["max_players"],
                        "items": {"properties": {"bot_kind": {"enum": [*game["bot_kinds"], None]}}},
                    },
                    "params": {"propertyNames": {"enum": sorted(game["default_params"])}},
                    # the alertness timer only for games with free-action windows
                    **({} if game["windows"] else {"alertness": {"type": "null"}}),
                }
            },
        }
        for game in games
    ]


class CreateTableRequest(_Request):
    """``POST /api/tables``.

    The schema names the games and, per game, the seat count, the parameter names and the
    bot kinds (``allOf`` of ``if``/``then``); parameter values are checked by the game
    (400 ``invalid`` with its message).

    Attributes:
        game: game id, see ``GET /api/games``.
        params: game parameters except ``num_players`` (taken from ``seats``).
        seats: the seats in seat order.
        turn_clock: seconds a human has for a decision before a bot plays it; off if null.
        away_timeout: seconds a disconnected human is waited for before a bot stands in.
        alertness: seconds a free-action window stays open for humans (Lama Express).
        public: listed in the lobby, free human seats claimable there.
        seed: root seed of the chance outcomes; random if null.
        bot_pace: how long bots pause before each decision, so people can follow:
            ``slow``, ``normal`` or ``fast`` (stored with the table, kept for a rematch).
        hints: seated players may ask for hints (games with hints, see ``GET /api/games``);
            false for a game where nobody gets help (stored, kept for a rematch).
        chat: seated players may send short chat lines (``say``); off by default, quick
            reactions work either way (stored, kept for a rematch).
    """

    model_config = ConfigDict(extra="forbid", strict=True, json_schema_extra=_games_schema)

    game: str = Field(min_length=1, max_length=32)
    params: dict[str, Any] = Field(default_factory=dict)
    seats: list[SeatSpec] = Field(min_length=1, max_length=8)
    turn_clock: float | None = Field(default=None, ge=5, le=3600)
    away_timeout: float = Field(default=60.0, ge=0, le=3600)
    alertness: float | None = Field(default=None, ge=1, le=600)
    public: bool = True
    seed: Seed | None = None
    bot_pace: BotPace = "normal"
    hints: bool = True
    chat: bool = False


class SeatOut(_Model):
    """A seat as everybody sees it; ``name`` is empty when none was chosen (clients show
    "Seat N" or the bot kind in their own language)."""

    seat: int
    kind: Literal["human", "bot"]
    name: str
    bot_kind: str | None = None
    joined: bool = False
    connected: bool = False
    replaced: bool = False


class SeatInvite(_Model):
    """A seat with its secret token and invite path (only in the creator's answer)."""

    seat: int
    kind: Literal["human", "bot"]
    name: str
    token: str | None = None
    invite: str | None = None


class CreateTableResponse(_Model):
    """Answer of ``POST /api/tables``; keep ``host_token`` and the invites private."""

    code: str
    host_token: str
    seats: list[SeatInvite]


class TableInfo(_Model):
    """Public description of a table (lobby, ``GET /api/tables/{code}``)."""

    code: str
    game: str
    game_name: str
    params: dict[str, Any]
    status: Status
    version: int
    seats: list[SeatOut]
    free_seats: int
    public: bool
    turn_clock: float | None
    away_timeout: float
    alertness: float | None
    created: str
    rematch: str | None = None
    renderer: str
    bot_pace: BotPace = "normal"
    #: hints can be asked for at this table (the game has them and the table allows them).
    hints: bool = False
    #: the host turned chat on: seated players may ``say`` short lines.
    chat: bool = False


class JoinRequest(_Request):
    """``POST /api/tables/{code}/join``: take the seat of an invite token."""

    token: Token
    name: Name | None = None


class ClaimRequest(_Request):
    """``POST /api/tables/{code}/claim``: take any free human seat of a public table."""

    name: Name


class JoinResponse(_Model):
    """The seat now held; keep the token private (it is the only key to the seat)."""

    code: str
    seat: int
    token: str


class StartRequest(_Request):
    """``POST /api/tables/{code}/start``."""

    host_token: Token


class RematchRequest(_Request):
    """``POST /api/tables/{code}/rematch`` by the host or any seated human."""

    token: Token


class ChatSwitchRequest(_Request):
    """``POST /api/tables/{code}/chat`` by the host: turn the table's chat on or off."""

    host_token: Token
    chat: bool


class RematchResponse(_Model):
    """The new table; ``token`` is the caller's seat token there (or the host token)."""

    code: str
    token: str
    seat: int | None


class GameOut(_Model):
    """A game playable in the browser."""

    id: str
    name: str
    min_players: int
    max_players: int
    bot_kinds: list[str]
    renderer: str
    default_params: dict[str, Any]
    windows: bool = False
    hints: bool = False
    extras: dict[str, Any] = Field(default_factory=dict)


class ErrorOut(_Model):
    """Every HTTP error: a machine code and a human message."""

    error: str
    message: str


# ---------------------------------------------------------------------------- WS: client
class HelloMsg(_Request):
    """First message of a connection: a seat token, or none to spectate."""

    type: Literal["hello"]
    token: Token | None = None


class ActionMsg(_Request):
    """Act for the connection's seat: notation plus the version it was chosen at.

    ``ref`` is the client's idempotency key: an action whose ``ref`` was already applied for
    this seat is acknowledged again (``duplicate``) and never applied twice.
    """

    type: Literal["action"]
    version: int = Field(ge=0)
    action: str = Field(min_length=1, max_length=200)
    ref: str | None = Field(default=None, max_length=32)


class LeaveMsg(_Request):
    """Leave the table for now: a bot plays the seat until the player comes back."""

    type: Literal["leave"]


class BackMsg(_Request):
    """Come back after ``leave`` (any action or a new connection does the same)."""

    type: Literal["back"]


class PingMsg(_Request):
    """Keep-alive; answered with ``pong``."""

    type: Literal["ping"]


class HintMsg(_Request):
    """Ask for hints for the connection's seat (games whose spec has a ``hints`` extra).

    Answered with ``hints`` (or ``error``), both echoing ``ref``.
    """

    type: Literal["hint"]
    ref: str | None = Field(default=None, max_length=32)


class ReactMsg(_Request):
    """A quick reaction of the connection's seat: one id of
    :data:`lamagames.web.talk.REACTIONS` (an emoji or a short phrase every client shows
    in its own language). Relayed to every connection of the table as ``reaction``;
    refused with ``error`` (``unknown_reaction``, ``talk_rate``, ``spectator``)."""

    type: Literal["react"]
    reaction: str = Field(min_length=1, max_length=32)


class SayMsg(_Request):
    """A short chat line of the connection's seat (tables whose host turned chat on).

    Relayed to every connection of the table as ``chat``; refused with ``error``
    (``chat_off``, ``too_long``, ``control_chars``, ``empty``, ``talk_rate``,
    ``spectator``). The length limit is :data:`lamagames.web.talk.MAX_CHAT_CHARS`
    characters (checked by the server, so the error can say so)."""

    type: Literal["say"]
    text: str = Field(max_length=2000)


AnyClientMsg = HelloMsg | ActionMsg | LeaveMsg | BackMsg | PingMsg | HintMsg | ReactMsg | SayMsg
ClientMsg = Annotated[AnyClientMsg, Field(discriminator="type")]
CLIENT_MSG: TypeAdapter[AnyClientMsg] = TypeAdapter(ClientMsg)

#: Deepest JSON nesting of arrays and objects a client message may have (real ones: 1).
MAX_NESTING: Final = 16


class MessageRefused(ValueError):
    """A client message that is no valid :data:`ClientMsg`.

    Attributes:
        message: what was wrong (``where: why``).
        ref: the message's ``ref`` when it has a readable one (so the client can match the
            refusal to the action it sent), else ``None``.
    """

    def __init__(self, message: str, ref: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.ref = ref


def nesting_depth(text: str, limit: int = MAX_NESTING) -> int:
    """How deeply the JSON arrays and objects in ``text`` nest, counted up to ``limit + 1``
    (brackets inside strings do not count). Works on any text, valid JSON or not."""
    depth = deepest = 0
    in_string = escaped = False
    for char in text:
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            if depth > deepest:
                deepest = depth
                if deepest > limit:
                    return deepest
        elif char in "]}":
            depth -= 1
    return deepest


#: Longest echo of user input (a room code, a bot kind...) in an error message, characters.
MAX_ECHO: Final = 40

#: Longest ``ref`` a client may send and the server echoes, characters.
MAX_REF: Final = 32


def echo(value: str, limit: int = MAX_ECHO) -> str:
    """``repr`` of user input for an error message, cut to ``limit`` characters of
    ``value`` (the last replaced by ``…``) so a huge input never fills the answer."""
    if len(value) > limit:
        value = value[: limit - 1] + "…"
    return repr(value)


def error_text(msg: str) -> str:
    """A pydantic error message without its ``"Value error, "`` / ``"Assertion failed, "``
    prefix, as users read it (``"a name may not contain ..."``)."""
    for prefix in ("Value error, ", "Assertion failed, "):
        if msg.startswith(prefix):
            return msg[len(prefix) :]
    return msg


def _readable_ref(raw: object) -> str | None:
    """The ``ref`` string of a message object, cut to :data:`MAX_REF` characters (a longer
    one is refused but still echoed, so the client can match the refusal), else ``None``."""
    ref = raw.get("ref") if isinstance(raw, dict) else None
    return ref[:MAX_REF] if isinstance(ref, str) and ref else None


def message_ref(text: str) -> str | None:
    """The ``ref`` of a client message that is a JSON object with a string ``ref`` (cut to
    :data:`MAX_REF` characters), else
    ``None`` (never raises; for echoing ``ref`` in refusals such as ``rate_limited``)."""
    if nesting_depth(text) > MAX_NESTING:
        return None
    try:
        return _readable_ref(json.loads(text))
    except (ValueError, RecursionError):
        return None


def parse_client_message(text: str) -> AnyClientMsg:
    """Parse and validate one client message (JSON text).

    Raises:
        MessageRefused: not JSON, nested deeper than :data:`MAX_NESTING`, or not a valid
            message (naming the first wrong field).
    """
    if nesting_depth(text) > MAX_NESTING:
        raise MessageRefused(f"message nested more than {MAX_NESTING} levels deep")
    try:
        raw = json.loads(text)
    except json.JSONDecodeError as exc:
        raise MessageRefused(f"not JSON: {exc.msg}") from None
    except RecursionError:  # pragma: no cover - the nesting check comes first
        raise MessageRefused("message nested too deeply") from None
    try:
        return CLIENT_MSG.validate_python(raw)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"]) or "message"
        raise MessageRefused(f"{where}: {error_text(first['msg'])}", _readable_ref(raw)) from None


# ---------------------------------------------------------------------------- WS: server
class LegalAction(_Model):
    """A legal action of the receiving seat: notation to send back and an English label."""

    action: str
    label: str


class EventOut(_Model):
    """One applied action of the log: its index (version before it), actor and notation.

    ``by`` is ``human``, ``bot`` (a bot seat), ``stand-in`` (a bot for an away human),
    ``clock`` (a bot after the turn clock ran out), ``timer`` (alertness pass) or ``chance``.
    ``events``: what the action led to, in order: the game's events as JSON
    (``{"kind": ..., <fields>}``, see :mod:`lamagames.core.events` and the game's
    ``events`` module, e.g. LAMA Dice ``roll`` with the roller and the dice, Lama Express
    ``move`` with ``chosen`` false for a train that moved by itself); the game's browser
    module words them.
    """

    index: int
    player: int
    action: str
    by: str
    events: list[dict[str, Any]] = Field(default_factory=list)


class ClockOut(_Model):
    """A running timer: the seats it applies to and the seconds left."""

    kind: Literal["turn", "alertness"]
    seats: list[int]
    remaining: float


class StateMsg(_Model):
    """The table as the receiving client sees it; sent on connect and after every change."""

    type: Literal["state"] = "state"
    code: str
    game: str
    status: Status
    version: int
    seat: int | None
    seats: list[SeatOut]
    acting: list[int]
    view: dict[str, Any] | None
    legal: list[LegalAction]
    events: list[EventOut]
    clock: ClockOut | None = None
    rematch: str | None = None
    #: the host turned chat on (``say`` is accepted from seated players).
    chat: bool = False
    #: a bot of the table may wait for its compiled code, which the server still prepares
    #: (the first run after an install, issue 19); the browser says so while a bot thinks.
    preparing: bool = False


class ErrorMsg(_Model):
    """A refused message: nothing changed. ``ref`` echoes the action's ``ref``."""

    type: Literal["error"] = "error"
    code: str
    message: str
    version: int | None = None
    ref: str | None = None


class AckMsg(_Model):
    """An action of this client was applied; ``version`` is the version after it.

    ``duplicate``: the ``ref`` had been applied before; nothing was applied this time.
    """

    type: Literal["ack"] = "ack"
    version: int
    ref: str | None = None
    duplicate: bool = False


class PongMsg(_Model):
    """Answer to ``ping``."""

    type: Literal["pong"] = "pong"


class HintOut(_Model):
    """One legal action of the asking seat and what it is worth (the game's hint provider).

    ``action``: the notation to send back; ``expected_points``: the seat's expected further
    points of the round after it (lower is better; ``None``: unknown); ``margin``: expected
    opponent minus own points (two players, exact values; else ``None``); ``bust_chance``:
    probability 0..1 that the next roll busts (``roll`` only); ``exact``: solved values,
    not estimates; ``basis``: where the value comes from (English); ``best``: the solver's
    choice.
    """

    action: str
    expected_points: float | None = None
    margin: float | None = None
    bust_chance: float | None = None
    exact: bool
    basis: str
    best: bool = False


class HintsMsg(_Model):
    """Answer to ``hint``: the hints for the position at ``version`` (stale once the state
    moved on)."""

    type: Literal["hints"] = "hints"
    version: int
    ref: str | None = None
    hints: list[HintOut]


class RematchMsg(_Model):
    """A rematch table exists; ``token`` is the receiver's new seat token (if seated)."""

    type: Literal["rematch"] = "rematch"
    code: str
    token: str | None = None


class ReactionMsg(_Model):
    """A quick reaction of a seat (ephemeral: shown for a few seconds, not recorded)."""

    type: Literal["reaction"] = "reaction"
    seat: int
    reaction: str


class ChatMsg(_Model):
    """A chat line of a seat (ephemeral: not recorded)."""

    type: Literal["chat"] = "chat"
    seat: int
    text: str
