"""Display names of seats: one rule for records, the terminal and the web app.

A name is shown to other people (tables, logs, records that travel), so it may not carry
control characters (terminal escapes), line or paragraph separators, or invisible format
characters (bidi overrides, zero-width spaces) that make text lie about itself. Format
characters that belong to an emoji are kept: the zero-width joiner between two visible
characters (family emoji, other ZWJ sequences) and the tag characters of a subdivision flag
(black flag + tags, the flag of England).
"""

from __future__ import annotations

import unicodedata
from typing import Final

_ZWJ: Final = "\u200d"
_BLACK_FLAG: Final = "\U0001f3f4"
_REFUSED: Final = ("Cc", "Cf", "Zl", "Zp")


def joins_emoji(name: str, index: int) -> bool:
    """True if the format character ``name[index]`` is part of an emoji sequence: a
    zero-width joiner between two visible characters, or a tag character of a
    subdivision flag.

    >>> joins_emoji("\\U0001f468\\u200d\\U0001f469", 1)
    True
    >>> joins_emoji("a\\u200d", 1)
    False
    """
    char = name[index]
    if char == _ZWJ:
        return 0 < index < len(name) - 1 and all(
            unicodedata.category(c) not in ("Cc", "Cf", "Zs", "Zl", "Zp")
            for c in (name[index - 1], name[index + 1])
        )
    if "\U000e0020" <= char <= "\U000e007f":
        before = name[index - 1] if index else ""
        return before == _BLACK_FLAG or "\U000e0020" <= before <= "\U000e007f"
    return False


def refused_character(name: str) -> str | None:
    """The first character that may not stand in a display name, or ``None``.

    >>> refused_character("Ann")
    >>> refused_character("Ann\\u202e") == "\\u202e"
    True
    """
    for index, char in enumerate(name):
        category = unicodedata.category(char)
        if category in _REFUSED and not (category == "Cf" and joins_emoji(name, index)):
            return char
    return None
