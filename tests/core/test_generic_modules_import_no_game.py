"""Generic modules (core, sim, the generic parts of cli and web) import no game package:
every per-game piece is found through the game's spec (issue 7)."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[2] / "src" / "lamagames"
#: Modules that belong to one game: the game packages and their per-game front-end pieces.
PER_GAME = (
    "lamagames.dice",
    "lamagames.express",
    "lamagames.bots.dice",
    "lamagames.bots.dice_exact",
    "lamagames.bots.express",
    "lamagames.bots.dice_search",
    "lamagames.bots.express_search",
    "lamagames.cli.dice_view",
    "lamagames.cli.express_view",
    "lamagames.cli.express_board",
    "lamagames.web.dice",
    "lamagames.web.express",
)


def _module_name(path: Path) -> str:
    parts = path.relative_to(SRC.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _is_per_game(name: str) -> bool:
    return any(name == p or name.startswith(p + ".") for p in PER_GAME)


GENERIC = sorted(
    path
    for folder in ("core", "sim", "cli", "web", "bots", "coach")
    for path in (SRC / folder).rglob("*.py")
    if not _is_per_game(_module_name(path))
)


def _imports(path: Path) -> list[str]:
    names: list[str] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.append(node.module)
            names += [f"{node.module}.{alias.name}" for alias in node.names]
    return names


@pytest.mark.parametrize("path", GENERIC, ids=lambda p: _module_name(p))
def test_a_generic_module_imports_no_game(path: Path) -> None:
    found = [name for name in _imports(path) if _is_per_game(name)]
    assert not found, f"{_module_name(path)} imports {found}"


def test_the_generic_modules_are_checked() -> None:
    names = {_module_name(p) for p in GENERIC}
    assert {"lamagames.cli.main", "lamagames.web.app", "lamagames.web.live"} <= names
    assert {"lamagames.sim.stats", "lamagames.core.spec", "lamagames.coach.review"} <= names


def test_importing_the_web_app_and_sim_loads_no_game() -> None:
    """At run time too: the web app and the simulation import a game only when it is used."""
    code = (
        "import sys\n"
        "import lamagames.core, lamagames.core.spec, lamagames.web.app, lamagames.web.live\n"
        "import lamagames.sim.stats, lamagames.sim.headtohead, lamagames.cli.views\n"
        "print(sorted(m for m in sys.modules if m.startswith(('lamagames.dice', "
        "'lamagames.express'))))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout
    assert out.strip() == "[]"
