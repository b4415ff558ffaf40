"""Golden protocol playthroughs of every game (one generator, OpenSpiel style): regenerate
in memory and diff against ``tests/golden/<game>_protocol.txt``."""

from __future__ import annotations

import difflib
import importlib.util
from pathlib import Path
from types import ModuleType

import pytest

from lamagames.core.spec import unregister_spec

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "scripts" / "regen_golden.py"


def _script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("regen_golden", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


SCRIPT_MODULE = _script()


@pytest.mark.parametrize("game_id", list(SCRIPT_MODULE.GOLDEN))
def test_golden_playthrough_matches(game_id: str) -> None:
    SCRIPT_MODULE.register_toy()
    try:
        actual: str = SCRIPT_MODULE.golden_text(game_id)
    finally:
        unregister_spec("toy")
    path: Path = SCRIPT_MODULE.golden_path(game_id)
    expected = path.read_text(encoding="utf-8")
    if actual != expected:
        diff = difflib.unified_diff(
            expected.splitlines(), actual.splitlines(), str(path.name), "regenerated",
            lineterm="", n=1,
        )  # fmt: skip
        shown = "\n".join(line[:300] for line in list(diff)[:40])
        raise AssertionError(
            f"The golden playthrough of {game_id} changed (behaviour, notation, chance model "
            "or observation). If intended, run PYTHONPATH=src python scripts/regen_golden.py "
            f"and review the diff.\n{shown}"
        )


@pytest.mark.parametrize("game_id", list(SCRIPT_MODULE.GOLDEN))
def test_golden_playthrough_is_a_whole_game(game_id: str) -> None:
    text = SCRIPT_MODULE.golden_path(game_id).read_text(encoding="utf-8")
    assert "terminal True" in text and "  returns: [" in text
    assert text.count("chance outcomes:") >= 2 and "  legal: " in text
