"""Reading the project's JSON files (boards, records) with the same messages for all.

A file that cannot be read gives ``cannot read the file: <reason>`` (``No such file or
directory``, ``it is a folder``, ``it is not UTF-8 text``), an empty file ``the file is
empty``, bad JSON ``not JSON: <where>`` (also JSON nested too deeply for the parser).
A UTF-8 byte-order mark at the start is accepted (some editors write one).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from lamagames.core.errors import LamaError

#: The byte-order mark some editors put before UTF-8 text.
BOM = "\ufeff"


def read_text_file(path: str | Path, error: type[LamaError]) -> str:
    """The text of a UTF-8 file, without a leading byte-order mark.

    Raises:
        error: ``cannot read the file: <reason>`` (missing, a folder, no permission, not
            UTF-8); the message does not name the file (callers add it).
    """
    target = Path(path)
    try:
        if target.is_dir():
            raise error("cannot read the file: it is a folder")
        data = target.read_bytes()
    except OSError as exc:
        raise error(f"cannot read the file: {exc.strerror or exc}") from None
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise error("cannot read the file: it is not UTF-8 text") from None


def parse_json(text: str, error: type[LamaError]) -> Any:
    """Parse JSON text (a leading byte-order mark is ignored).

    Raises:
        error: ``not JSON: <what and where>``, or ``not JSON: nested too deeply`` (arrays
            or objects nested past Python's recursion limit, which :func:`json.loads`
            reports with a :class:`RecursionError`).
    """
    try:
        return json.loads(text.removeprefix(BOM))
    except json.JSONDecodeError as exc:
        raise error(f"not JSON: {exc}") from None
    except RecursionError:
        raise error("not JSON: nested too deeply") from None


def read_json_file(path: str | Path, error: type[LamaError]) -> Any:
    """Read and parse a UTF-8 JSON file (see :func:`read_text_file`, :func:`parse_json`).

    Raises:
        error: also ``the file is empty`` (nothing but white space).
    """
    text = read_text_file(path, error)
    if not text.removeprefix(BOM).strip():
        raise error("the file is empty")
    return parse_json(text, error)
