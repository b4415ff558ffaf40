"""No function in ``src`` has a cyclomatic complexity above 30 (``radon cc -n E src`` prints
nothing)."""

from __future__ import annotations

from pathlib import Path

import pytest

radon_complexity = pytest.importorskip("radon.complexity")

SRC = Path(__file__).resolve().parents[2] / "src"
LIMIT = 30


def _complex_functions() -> list[str]:
    found = []
    for path in sorted(SRC.rglob("*.py")):
        blocks = radon_complexity.cc_visit(path.read_text(encoding="utf-8"))
        for block in blocks:
            for item in [block, *getattr(block, "methods", [])]:
                if item.complexity > LIMIT:
                    found.append(f"{path.relative_to(SRC).as_posix()}:{item.name}")
    return found


def test_no_function_is_above_complexity_30() -> None:
    assert _complex_functions() == []
