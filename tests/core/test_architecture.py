"""docs/ARCHITECTURE.md names, for every ruling D-1..D-11 and E-1..E-12, the one function
that implements it: each named function exists and cites its ruling in its docstring."""

from __future__ import annotations

import importlib
import re
from pathlib import Path
from typing import Any

import pytest

DOC = Path(__file__).resolve().parents[2] / "docs" / "ARCHITECTURE.md"
ROW = re.compile(r"^\| ([DE]-\d+) \| `([\w.]+)` \|$")
RULINGS = [f"D-{i}" for i in range(1, 12)] + [f"E-{i}" for i in range(1, 13)]


def _table() -> dict[str, str]:
    table: dict[str, str] = {}
    for line in DOC.read_text(encoding="utf-8").splitlines():
        match = ROW.match(line)
        if match:
            assert match.group(1) not in table, f"{match.group(1)} is listed twice"
            table[match.group(1)] = match.group(2)
    return table


def _resolve(reference: str) -> Any:
    """The object a dotted reference names: the longest importable module prefix, then
    attributes."""
    parts = reference.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            target: Any = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        for name in parts[cut:]:
            target = getattr(target, name)
        return target
    raise ImportError(reference)


def test_every_ruling_is_listed_once() -> None:
    assert sorted(_table(), key=RULINGS.index) == RULINGS


@pytest.mark.parametrize("ruling", RULINGS)
def test_listed_function_exists_and_cites_its_ruling(ruling: str) -> None:
    function = _resolve(_table()[ruling])
    assert callable(function)
    doc = function.__doc__ or ""
    assert re.search(re.escape(ruling) + r"(?!\d)", doc), f"{function!r} does not cite {ruling}"
