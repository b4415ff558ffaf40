"""``lama play`` and ``lama ladder`` without the optional extras: a one-line error naming the
package and the extra, exit code 2, before anything is played; the ladder leaves out the
bot kinds this installation cannot use and says why.

numba and openskill are installed here, so their absence is simulated: ``find_spec``
answers ``None`` for them (in this process), or ``sys.modules[name] = None`` before the real
entry point runs (in a fresh interpreter).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, ClassVar

import pytest
from tests.missing_packages import hide
from typer.testing import Result

import lamagames.sim.ladder as ladder_module
from lamagames.bots import base as bots_base
from lamagames.bots.base import RandomBot
from lamagames.core.errors import ParameterError
from lamagames.core.game import Game
from lamagames.sim.ladder import run_ladder

Lama = Callable[..., Result]

SRC = Path(__file__).resolve().parents[2] / "src"


def base_install_lama(missing: str, *args: str) -> subprocess.CompletedProcess[str]:
    """``lama ARGS`` through the real entry point with the ``missing`` modules (comma
    separated) unimportable, as in ``pip install .`` without extras."""
    code = (
        "import sys\n"
        f"for name in {missing!r}.split(','):\n"
        "    sys.modules[name] = None\n"
        "from lamagames.cli.main import run\n"
        f"sys.argv = ['lama', *{list(args)!r}]\n"
        "run()\n"
    )
    env = {**os.environ, "PYTHONPATH": f"{SRC}{os.pathsep}{os.environ.get('PYTHONPATH', '')}"}
    return subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True, text=True, env=env, timeout=120, check=False, stdin=subprocess.DEVNULL,
    )  # fmt: skip


def one_line_error(result: subprocess.CompletedProcess[str]) -> str:
    assert result.returncode == 2, result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("Error: ")
    assert "Traceback" not in result.stderr and "╭" not in result.stderr
    return lines[0]


# ---------------------------------------------------------------------- lama play
@pytest.mark.parametrize(("kind", "extra"), [("search", "sim"), ("exact", "solver")])
def test_play_refuses_a_dice_bot_that_needs_numba(
    lama: Lama, monkeypatch: pytest.MonkeyPatch, kind: str, extra: str
) -> None:
    hide(monkeypatch, "numba")
    result = lama("play", "dice", "--seats", f"human,{kind}", "--seed", "3", input="q\n")
    assert result.exit_code == 2, result.output
    words = " ".join(result.output.replace("│", " ").split())
    assert f"the '{kind}' bot is not available in this installation" in words
    assert f"needs numba: pip install 'lamagames[{extra}]'" in words
    assert result.exception is None or isinstance(result.exception, SystemExit)


def test_play_search_in_the_base_install_is_one_line() -> None:
    line = one_line_error(
        base_install_lama("numba", "play", "dice", "--seats", "human,search", "--seed", "3")
    )
    assert "'search' bot" in line and "needs numba: pip install 'lamagames[sim]'" in line


class _Picky(RandomBot):
    """A bot kind that refuses to be built (as the search bot does when numba's import
    fails although the package is there)."""

    kind: ClassVar[str] = "picky"

    def __init__(self, game: Game, seat: int, seed: int = 0) -> None:
        raise ParameterError("picky refuses this table")


def test_play_turns_any_bot_construction_error_into_a_clean_error(
    lama: Lama, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(bots_base._REGISTERED, ("dice", "picky"), _Picky)
    for seats in ("human,picky", "random,picky"):
        result = lama("play", "dice", "--seats", seats, "--seed", "3", input="q\n")
        assert result.exit_code == 2, result.output
        words = " ".join(result.output.replace("│", " ").split())
        assert "seat 2 (picky): picky refuses this table" in words
        assert result.exception is None or isinstance(result.exception, SystemExit)
    batch = lama("play", "dice", "--seats", "random,picky", "--games", "3", "-q")
    assert batch.exit_code == 2 and "picky refuses" in batch.output


# ---------------------------------------------------------------------- lama ladder
def test_ladder_without_openskill_is_one_line() -> None:
    line = one_line_error(
        base_install_lama("openskill", "ladder", "express", "--players", "2", "--games", "1")
    )
    assert line == "Error: lama ladder needs openskill: pip install 'lamagames[ladder]'"


def test_ladder_without_openskill_plays_no_game(
    lama: Lama, monkeypatch: pytest.MonkeyPatch
) -> None:
    hide(monkeypatch, "openskill")

    def no_game(*_args: Any) -> Any:
        raise AssertionError("a game was played")

    monkeypatch.setattr(ladder_module, "play_ladder_game", no_game)
    result = lama("ladder", "dice", "--games", "1", "--kinds", "random,benchmark")
    assert result.exit_code == 2
    assert "lama ladder needs openskill: pip install 'lamagames[ladder]'" in result.output
    with pytest.raises(ParameterError, match="openskill"):
        run_ladder("dice", [2], games=1, seed=1, kinds=["random", "benchmark"])


def test_ladder_plot_without_matplotlib_is_refused_before_playing(
    lama: Lama, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    hide(monkeypatch, "matplotlib")
    monkeypatch.setattr(ladder_module, "play_ladder_game", lambda *_a: [][0])
    plot = str(tmp_path / "l.png")
    result = lama("ladder", "dice", "--games", "1", "--kinds", "random,benchmark", "--plot", plot)
    assert result.exit_code == 2
    assert "--plot needs matplotlib: pip install 'lamagames[ladder]'" in result.output


def test_ladder_leaves_out_kinds_that_need_numba_and_says_why(
    lama: Lama, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    hide(monkeypatch, "numba")
    out = tmp_path / "ladder.json"
    result = lama(
        "ladder", "dice", "--players", "2", "--games", "1", "--seed", "1",
        "--param", "end_score=10", "--json", str(out),
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    words = " ".join(result.output.split())
    assert "left out at 2 players: exact (needs numba: pip install 'lamagames[solver]'), " in words
    assert "search (needs numba: pip install 'lamagames[sim]')" in words
    data = json.loads(out.read_text())["players"]["2"]
    assert {r["kind"] for r in data["ratings"]} == {"benchmark", "heuristic", "random"}
    assert data["skipped"] == ["exact", "search"]
    assert data["skipped_why"]["search"] == "needs numba: pip install 'lamagames[sim]'"


def test_ladder_of_unavailable_kinds_says_why_it_cannot_start(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    hide(monkeypatch, "numba")
    with pytest.raises(ParameterError, match=r"only random can play \(search: needs numba"):
        run_ladder("dice", [2], games=1, seed=1, kinds=["random", "search"])
    with pytest.raises(ParameterError, match=r"at 2 players no kind can play \(search: needs"):
        run_ladder("dice", [2], games=1, seed=1, kinds=["search", "exact"])
