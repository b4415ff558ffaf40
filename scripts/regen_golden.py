"""Write the golden protocol playthroughs of every game, ``tests/golden/<game>_protocol.txt``.

One generator for all games (:func:`lamagames.core.testing.playthrough`, in the style of
OpenSpiel's playthroughs): one seeded game with uniformly random choices, told through the
protocol only (observation, legal actions in notation, chance outcomes, returns).
``tests/golden/test_golden_playthroughs.py`` regenerates each text in memory and diffs it
against its file. A new game gets a golden file by adding a line to :data:`GOLDEN`.

Usage (from the repository root)::

    PYTHONPATH=src python scripts/regen_golden.py          # rewrite the files
    PYTHONPATH=src python scripts/regen_golden.py --check  # exit 1 if one differs
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
FOLDER = ROOT / "tests" / "golden"

#: game id -> (parameters, seed) of its golden game (Lama Express: a turn limit keeps it short).
GOLDEN: dict[str, tuple[dict[str, Any], int]] = {
    "dice": ({"num_players": 3}, 20240601),
    "express": ({"num_players": 3, "turn_limit": 12}, 7),
    "toy": ({"target": 4}, 3),
}


def register_toy() -> None:
    """Make the toy game of ``tests/toygame`` known (run from the repository root)."""
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    from tests.toygame.spec import SPEC

    from lamagames.core.spec import register_spec

    register_spec(SPEC)


def golden_path(game_id: str) -> Path:
    """Where the golden playthrough of ``game_id`` is stored."""
    return FOLDER / f"{game_id}_protocol.txt"


def golden_text(game_id: str) -> str:
    """The golden playthrough of ``game_id``, generated now."""
    from lamagames.core import make
    from lamagames.core.testing import playthrough

    params, seed = GOLDEN[game_id]
    header = (
        "# Golden protocol playthrough: regenerate with "
        "`PYTHONPATH=src python scripts/regen_golden.py`\n"
    )
    return header + playthrough(make(game_id, **params), seed)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only compare, exit 1 on a diff")
    args = parser.parse_args(argv)
    register_toy()
    status = 0
    for game_id in GOLDEN:
        path, text = golden_path(game_id), golden_text(game_id)
        if args.check:
            same = path.exists() and path.read_text(encoding="utf-8") == text
            print(f"{path}: {'up to date' if same else 'DIFFERS'}")
            status |= 0 if same else 1
        else:
            path.write_text(text, encoding="utf-8")
            print(f"wrote {path} ({text.count(chr(10))} lines)")
    return status


if __name__ == "__main__":
    sys.exit(main())
