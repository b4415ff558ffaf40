"""Talk at the table (issue 19): quick reactions and the optional short chat.

Reactions are a fixed set of ids (:data:`REACTIONS`): an emoji or a short phrase that
every client shows in its own language (the ``react.<id>`` keys of the web catalogs).
Chat lines are free text, only at tables whose host turned chat on (``chat`` of
``POST /api/tables``, off by default), at most :data:`MAX_CHAT_CHARS` characters, without
control characters. Both are ephemeral: relayed to every connection of the table (across
the processes of a cluster, see :mod:`lamagames.web.cluster`), never stored in the game
record, and limited per seat by a token bucket (:class:`TalkLimiter`).
"""

from __future__ import annotations

import time
import unicodedata
from typing import Final

__all__ = [
    "MAX_CHAT_CHARS",
    "REACTIONS",
    "TalkLimiter",
    "TalkRefused",
    "check_chat_text",
    "check_reaction",
]

#: Reaction ids and the emoji a client shows for them (``None``: a phrase, shown through
#: the client's catalog key ``react.<id>``). The order is the order of the buttons.
REACTIONS: Final[dict[str, str | None]] = {
    "thumbs_up": "\U0001f44d",
    "laugh": "\U0001f602",
    "wow": "\U0001f62e",
    "sad": "\U0001f622",
    "clap": "\U0001f44f",
    "llama": "\U0001f999",
    "good_game": None,
    "well_played": None,
    "nice_try": None,
    "oops": None,
    "thanks": None,
    "your_turn": None,
}

#: Longest chat line, characters (after trimming the spaces at both ends).
MAX_CHAT_CHARS: Final = 120

#: Format characters that reorder or hide text (bidirectional overrides and isolates);
#: the zero-width joiner of emoji sequences stays allowed.
_HIDDEN: Final = frozenset(
    "\u200b\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\ufeff"
)


class TalkRefused(ValueError):
    """A reaction or chat line that is refused; nothing is relayed.

    Attributes:
        code: the ``error`` message's machine code.
        message: one line saying what was wrong.
    """

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def check_reaction(reaction: str) -> str:
    """The reaction id if it is one of :data:`REACTIONS`.

    Raises:
        TalkRefused: ``unknown_reaction``.
    """
    if reaction not in REACTIONS:
        shown = reaction[:32].encode("ascii", "backslashreplace").decode()
        raise TalkRefused("unknown_reaction", f"unknown reaction {shown!r}")
    return reaction


def check_chat_text(text: str) -> str:
    """The chat line to relay: ``text`` trimmed of spaces at both ends.

    Raises:
        TalkRefused: ``empty`` (nothing left), ``too_long`` (over :data:`MAX_CHAT_CHARS`
            characters), ``control_chars`` (a control character such as a line break or
            tab, a line or paragraph separator, or a character that reorders or hides text).
    """
    line = text.strip()
    if not line:
        raise TalkRefused("empty", "empty chat line")
    if len(line) > MAX_CHAT_CHARS:
        raise TalkRefused(
            "too_long", f"chat line of {len(line)} characters; at most {MAX_CHAT_CHARS}"
        )
    for char in line:
        if unicodedata.category(char) in ("Cc", "Cs", "Zl", "Zp") or char in _HIDDEN:
            raise TalkRefused(
                "control_chars", f"chat line contains control character U+{ord(char):04X}"
            )
    return line


class TalkLimiter:
    """A token bucket per seat: ``burst`` messages at once, then ``per_minute``.

    Args:
        per_minute: sustained reactions and chat lines per seat per minute (``0``: no limit).
        burst: how many a seat may send at once.
    """

    def __init__(self, per_minute: float, burst: int) -> None:
        self.rate = per_minute / 60.0
        self.burst = float(max(1, burst))
        self._buckets: dict[int, tuple[float, float]] = {}

    def allow(self, seat: int, now: float | None = None) -> bool:
        """Take one message from ``seat``'s budget; False when it is used up (then nothing
        is taken). ``now``: monotonic seconds (default: the clock)."""
        if self.rate <= 0:
            return True
        now = time.monotonic() if now is None else now
        tokens, last = self._buckets.get(seat, (self.burst, now))
        tokens = min(self.burst, tokens + (now - last) * self.rate)
        if tokens < 1.0:
            self._buckets[seat] = (tokens, now)
            return False
        self._buckets[seat] = (tokens - 1.0, now)
        return True

    def retry_after(self, seat: int) -> float:
        """Seconds until ``seat`` may send again (0 if it may now)."""
        if self.rate <= 0 or seat not in self._buckets:
            return 0.0
        tokens, last = self._buckets[seat]
        tokens = min(self.burst, tokens + (time.monotonic() - last) * self.rate)
        return max(0.0, (1.0 - tokens) / self.rate)
