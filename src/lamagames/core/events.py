"""What happened in one step of a game: the event model shared by every game.

Each game package has an ``events`` module with a pure function

``events(before, action, player, after) -> list[Event]``

that tells, in order, everything one applied action (or chance outcome) led to: the action
itself and what the rules then did by themselves (a forced move, a bust, a round end, the
end of the game...). Front ends (terminal narration, the web log) render these events and
never compare states themselves, so each fact is derived once, in the game package.

An event is a frozen dataclass. Its :attr:`Event.kind` is a class constant from the game's
own :class:`~enum.StrEnum` of kinds; its fields are plain data (ints, strings, tuples,
string enums), so :meth:`Event.to_json` gives JSON for the web without further help.
Seats are 0-based seat indices, as everywhere in the engines.
"""

from __future__ import annotations

from dataclasses import dataclass, fields, is_dataclass
from enum import Enum, StrEnum
from typing import TYPE_CHECKING, Any, ClassVar, Protocol

if TYPE_CHECKING:
    from lamagames.core.game import State


#: Types whose values are JSON data as they are (the common case: checked first).
_PLAIN: frozenset[type] = frozenset({int, str, float, bool, type(None)})
#: Field names of each dataclass seen (``dataclasses.fields`` is slow to call per value).
_FIELD_NAMES: dict[type, tuple[str, ...]] = {}


def _field_names(cls: type) -> tuple[str, ...]:
    names = _FIELD_NAMES.get(cls)
    if names is None:
        names = _FIELD_NAMES[cls] = tuple(f.name for f in fields(cls))
    return names


def _json(value: object) -> Any:
    """Plain JSON data of an event field: enums as their value, tuples as lists, nested
    dataclasses as objects."""
    kind = type(value)
    if kind in _PLAIN:
        return value
    if kind is tuple or kind is list:
        return [_json(v) for v in value]  # type: ignore[attr-defined]
    if is_dataclass(value) and not isinstance(value, type):
        return {name: _json(getattr(value, name)) for name in _field_names(kind)}
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, tuple | list):
        return [_json(v) for v in value]
    if isinstance(value, dict):
        return {str(k): _json(v) for k, v in value.items()}
    return value


@dataclass(frozen=True, slots=True)
class Event:
    """Base class of every game event.

    Subclasses are frozen dataclasses that set the class constant :attr:`kind` (a member of
    their game's ``StrEnum`` of event kinds) and add their fields.
    """

    #: What kind of event this is; a class constant of each subclass.
    kind: ClassVar[StrEnum]

    def to_json(self) -> dict[str, Any]:
        """The event as JSON data: ``{"kind": <kind value>, <field>: <value>, ...}``.

        Field values are converted recursively: enum members become their value (a string),
        tuples become lists, nested dataclasses objects. Field order is the dataclass order,
        ``kind`` first.
        """
        out: dict[str, Any] = {"kind": self.kind.value}
        for name in _field_names(type(self)):
            out[name] = _json(getattr(self, name))
        return out


class EventsFunction(Protocol):
    """The signature of a game's ``events`` function (see the module docstring)."""

    def __call__(self, before: State, action: int, player: int | None, after: State) -> list[Event]:
        """Events of applying ``action`` (by ``player``; ``None`` or -1 for chance) to
        ``before``, which gave ``after``."""
        ...
