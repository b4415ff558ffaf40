"""The README's quick start installs what hints and reviews need (issue 18: "No hint: LAMA
Dice hints need numba" after the play command)."""

from __future__ import annotations

import re
from pathlib import Path

from lamagames.core.spec import get_spec

README = Path(__file__).resolve().parents[2] / "README.md"


def test_the_quick_start_play_command_installs_the_extras_of_hints_and_reviews() -> None:
    text = README.read_text(encoding="utf-8")
    found = re.search(r"pip install '\.\[([a-z,]+)\]' && lama play dice", text)
    assert found, "the quick start installs with an extra and plays LAMA Dice"
    extras = set(found.group(1).split(","))
    for game, name in (("dice", "hints"), ("dice", "review"), ("express", "review")):
        needs = get_spec(game).requires[name]
        assert needs.extra in extras, f"{game} {name} needs {needs.modules} from [{needs.extra}]"
