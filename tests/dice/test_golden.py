"""The golden LAMA Dice playthrough: regenerate it in memory and diff it against the file."""

from __future__ import annotations

import difflib
import importlib.util
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "scripts" / "regen_golden_dice.py"
GOLDEN = ROOT / "tests" / "golden" / "dice_playthrough.txt"
REGENERATE = "PYTHONPATH=src python scripts/regen_golden_dice.py"


def load_script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("regen_golden_dice", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_golden_playthrough_matches() -> None:
    script = load_script()
    assert script.GOLDEN == GOLDEN
    expected = GOLDEN.read_text(encoding="utf-8")
    actual: str = script.playthrough()
    if actual != expected:
        diff = difflib.unified_diff(
            expected.splitlines(),
            actual.splitlines(),
            fromfile=str(GOLDEN.relative_to(ROOT)),
            tofile="regenerated",
            lineterm="",
            n=2,
        )
        shown = "\n".join(list(diff)[:60])
        raise AssertionError(
            "The LAMA Dice golden playthrough changed (engine behaviour, notation, chance "
            "model, bots or the runner). If the change is intended, regenerate with\n"
            f"    {REGENERATE}\nand review the diff in git before committing it.\n"
            f"First differences:\n{shown}"
        )


def test_golden_playthrough_is_a_whole_game() -> None:
    text = GOLDEN.read_text(encoding="utf-8")
    final = [line for line in text.splitlines() if line.startswith("final ")]
    assert len(final) == 1 and "phase over" in final[0]
    assert text.count("-> chance: dice") > 10
    assert "-> seat 2:" in text
