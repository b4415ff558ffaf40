"""The lamagames error hierarchy.

Every error that bad input can cause is a :class:`LamaError`, which is a :class:`ValueError`,
so callers that only care about "bad input" can catch ``ValueError``. Raising one of these
never leaves a state, board or record half-changed: engines validate before they mutate.
"""

from __future__ import annotations

from collections.abc import Iterable
from difflib import get_close_matches

#: Most characters of someone's input repeated in a message.
QUOTE_LIMIT = 60


def quoted(text: object, limit: int = QUOTE_LIMIT) -> str:
    """``repr`` of input for a message, at most ``limit`` characters of it.

    >>> quoted("roll")
    "'roll'"
    >>> quoted("x" * 100, 5)
    "'xxxxx'... (100 characters)"
    """
    if isinstance(text, str) and len(text) > limit:
        return f"{text[:limit]!r}... ({len(text)} characters)"
    return repr(text)


def plural(count: int, noun: str, nouns: str | None = None) -> str:
    """``"1 white arrow"``, ``"4 white arrows"``: a count with its noun in number.

    >>> plural(1, "space"), plural(0, "footprint"), plural(2, "car")
    ('1 space', '0 footprints', '2 cars')
    """
    return f"{count} {noun if count == 1 else (nouns or noun + 's')}"


def did_you_mean(word: str, known: Iterable[str]) -> str:
    """``"; did you mean 'exact'?"`` when one of ``known`` comes close to ``word``
    (:func:`difflib.get_close_matches`), else ``""``: the tail of an "unknown ..." message
    (unknown games, seat kinds; issue 19).

    >>> did_you_mean("exat", ["random", "exact"]), did_you_mean("zzz", ["exact"])
    ("; did you mean 'exact'?", '')
    """
    close = get_close_matches(str(word), list(known), n=1)
    return f"; did you mean {close[0]!r}?" if close else ""


class LamaError(ValueError):
    """Base class of every lamagames input error."""


class ParameterError(LamaError):
    """A game parameter is out of range or inconsistent (for example 7 players, bad dice)."""


class InvalidActionError(LamaError):
    """An action is malformed: not an integer of the action space, or unparsable notation."""


class IllegalActionError(LamaError):
    """An action is well formed but not legal in the current state (or not for that player)."""


class RecordError(LamaError):
    """A game record is malformed or does not replay.

    Attributes:
        index: index of the first bad entry in the record's ``actions`` list, or ``None``
            when the problem is in the record's header (format version, game id, parameters).
    """

    def __init__(self, message: str, index: int | None = None) -> None:
        super().__init__(message)
        self.index = index


class BoardError(LamaError):
    """A board file is malformed or breaks a board rule (docs/rules.md E-12)."""
