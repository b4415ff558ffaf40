"""Errors found by the option parser print one line, like the commands' own checks.

Runs the real entry point (``python -m lamagames``, i.e. :func:`lamagames.cli.main.run`),
since Typer's test runner formats errors itself.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[2] / "src"


def lama(*args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": f"{SRC}{os.pathsep}{os.environ.get('PYTHONPATH', '')}"}
    return subprocess.run(
        [sys.executable, "-m", "lamagames", *args],
        capture_output=True, text=True, env=env, timeout=120, check=False,
    )  # fmt: skip


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (("ladder", "dice", "--games", "0"), "Invalid value for '--games'"),
        (("hint", "x.json", "--at", "-1"), "Invalid value for '--at'"),
        (("rules", "chess"), "unknown game 'chess'"),
        (("play", "dise"), "unknown game 'dise'; known games: dice, express; did you mean 'dice'?"),
        (("play", "dice", "--nosuch"), "No such option: --nosuch"),
    ],
)
def test_parser_errors_are_one_line_with_exit_2(args: tuple[str, ...], words: str) -> None:
    result = lama(*args)
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("Error: ") and words in lines[0]
    assert f"(see 'lama {args[0]} -h')" in lines[0]
    assert "╭" not in result.stderr and "Traceback" not in result.stderr


def test_bare_command_still_shows_help_and_success_exits_0() -> None:
    bare = lama()
    assert bare.returncode == 2 and "Usage" in bare.stdout + bare.stderr
    assert lama("--version").returncode == 0
    done = lama("play", "dice", "--seats", "benchmark,benchmark", "--games", "1", "--seed", "1")
    assert done.returncode == 0, done.stderr
