"""Golden playthrough of one seeded game (E-1 .. E-11 together): regenerate and diff."""

from __future__ import annotations

import difflib
import importlib.util
from pathlib import Path
from types import ModuleType

from lamagames.bots.base import make_bot
from lamagames.core import make
from lamagames.sim.runner import play_game

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "scripts" / "regen_golden_express.py"
GOLDEN = ROOT / "tests" / "golden" / "express_playthrough.txt"


def load_script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("regen_golden_express", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_e1_e11_golden_playthrough_matches() -> None:
    script = load_script()
    expected = GOLDEN.read_text(encoding="utf-8").splitlines()
    actual = script.playthrough_lines()
    diff = list(difflib.unified_diff(expected, actual, "golden", "now", lineterm="", n=2))
    assert not diff, (
        "golden playthrough changed; if intended run scripts/regen_golden_express.py\n"
        + ("\n".join(diff[:60]))
    )


def test_e1_e11_golden_game_is_the_runner_game() -> None:
    script = load_script()
    game = make("express", **script.PARAMS)
    bots = [make_bot(script.BOT_KIND, game, s, script.SEED) for s in range(game.num_players)]
    final = play_game(game, bots, script.SEED).state
    assert script.playthrough_lines()[-2].startswith(f"step {len(final.history())}: {final}")
