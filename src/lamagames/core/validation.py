"""Readable messages for pydantic validation errors of the JSON files (boards, records).

Pydantic's first error names the field by its location, but two of its details are
internals: a union adds the member it tried to the location (``track.str``) and a nested
model's type error names the Python class (``instance of StationSpec``). :func:`first_error`
drops the one and words the other for people writing JSON.
"""

from __future__ import annotations

import re
from typing import Final

from pydantic import ValidationError

#: Location parts pydantic adds for a union member (``str``, ``list[str]``,
#: ``function-after[...]``): never a field name of the file formats.
_UNION_TAG: Final = re.compile(r"^(str|int|float|bool|none|list|dict)$|[\[\]\-]")

_OBJECT_TYPES: Final = frozenset({"model_type", "model_attributes_type", "dict_type"})


def error_location(loc: tuple[int | str, ...]) -> tuple[int | str, ...]:
    """The location of an error in the file: field names and list indices only."""
    return tuple(part for part in loc if isinstance(part, int) or not _UNION_TAG.search(part))


def first_error(exc: ValidationError, root: str) -> tuple[tuple[int | str, ...], str]:
    """The first error of ``exc`` as ``(location, "where: reason")``.

    Args:
        exc: the validation error.
        root: the name for the whole document when the location is empty (``"board"``).
    """
    error = exc.errors()[0]
    loc = error_location(tuple(error["loc"]))
    reason = "Input should be a JSON object" if error["type"] in _OBJECT_TYPES else error["msg"]
    where = ".".join(str(part) for part in loc) or root
    return loc, f"{where}: {reason}"
