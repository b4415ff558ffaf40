"""docs/ARCHITECTURE.md names, for every ruling D-1..D-11 (with D-8.1..D-8.5) and E-1..E-12,
the functions that implement it: each named function exists and cites its ruling in its
docstring, and every function the code marks as a ruling's implementation (``core.jit.rule``)
is named in that ruling's row."""

from __future__ import annotations

import importlib
import pkgutil
import re
from pathlib import Path
from typing import Any

import pytest

from lamagames.core.jit import RULING_ATTRIBUTE

DOC = Path(__file__).resolve().parents[2] / "docs" / "ARCHITECTURE.md"
ROW = re.compile(r"^\| ([DE]-\d+(?:\.\d+)?) \| (`[\w.]+`(?:, `[\w.]+`)*) \|$")
RULINGS = (
    [f"D-{i}" for i in range(1, 9)]
    + [f"D-8.{i}" for i in range(1, 6)]
    + ["D-9", "D-10", "D-11"]
    + [f"E-{i}" for i in range(1, 13)]
)


def _table() -> dict[str, list[str]]:
    table: dict[str, list[str]] = {}
    for line in DOC.read_text(encoding="utf-8").splitlines():
        match = ROW.match(line)
        if match:
            assert match.group(1) not in table, f"{match.group(1)} is listed twice"
            table[match.group(1)] = re.findall(r"`([\w.]+)`", match.group(2))
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
def test_listed_functions_exist_and_cite_their_ruling(ruling: str) -> None:
    for reference in _table()[ruling]:
        function = _resolve(reference)
        assert callable(function)
        doc = function.__doc__ or ""
        assert re.search(re.escape(ruling) + r"(?!\d)", doc), f"{reference} does not cite {ruling}"


def test_every_function_marked_as_a_ruling_is_listed_under_it() -> None:
    """A second implementation of a ruling, marked as one, would show up here."""
    import lamagames

    listed = {(ruling, ref) for ruling, refs in _table().items() for ref in refs}
    marked = set()
    for info in pkgutil.walk_packages(lamagames.__path__, "lamagames."):
        if ".migrations" in info.name:
            continue
        module = importlib.import_module(info.name)
        for name, value in vars(module).items():
            function = getattr(value, "py_func", value)
            ruling = getattr(function, RULING_ATTRIBUTE, None)
            if ruling is not None and getattr(function, "__module__", None) == info.name:
                marked.add((ruling, f"{info.name}.{name}"))
    assert len(marked) > 25
    assert marked <= listed, sorted(marked - listed)
