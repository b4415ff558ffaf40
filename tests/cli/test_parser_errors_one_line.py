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
        (("ladder", "dice", "--games", "0"), "--games: expected a whole number >= 1, got '0'"),
        (("hint", "x.json", "--at", "-1"), "--at: expected a whole number >= 0, got '-1'"),
        (("rules", "chess"), "unknown game 'chess'"),
        (("play", "dise"), "unknown game 'dise'; known games: dice, express; did you mean 'dice'?"),
        (("play", "dice", "--nosuch"), "No such option: --nosuch"),
        (("simulate", "dice", "--games", "0"), "--games: expected a whole number >= 1, got '0'"),
        (("simulate", "dice", "--players", "x"), "--players: expected a count (4)"),
        (("play", "dice", "--seats", "human,exat"),
         "unknown seat kind 'exat'; seats are: human, benchmark, exact, heuristic, random, "
         "search; did you mean 'exact'?"),
    ],
)  # fmt: skip
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


@pytest.mark.parametrize(
    ("args", "line"),
    [
        (("ladder", "dice", "-g", "0"), "--games: expected a whole number >= 1, got '0'"),
        (("ladder", "dice", "--players", "1"), "--players: expected a whole number >= 2, got '1'"),
        (("ladder", "dice", "--games", "abc"), "--games: expected a whole number >= 1, got 'abc'"),
        (("play", "dice", "--seats", "random,random", "--games", "0"),
         "--games: expected a whole number >= 1, got '0'"),
        (("play", "dice", "--seats", "random,random", "--delay", "-1"),
         "--delay: expected a number >= 0, got '-1'"),
        (("play", "express", "--seats", "random,random", "--turn-limit", "0"),
         "--turn-limit: expected a whole number >= 1, got '0'"),
        (("review", "x.json", "--rollouts", "0"),
         "--rollouts: expected a whole number 1..100000, got '0'"),
        (("review", "x.json", "--seed", "abc"), "--seed: expected a whole number, got 'abc'"),
        (("replay", "x.json", "--to", "-2"), "--to: expected a whole number >= 0, got '-2'"),
        (("serve", "--port", "70000"), "--port: expected a whole number 1..65535, got '70000'"),
        (("serve", "--bot-delay", "11"), "--bot-delay: expected a number 0..10, got '11'"),
        (("simulate", "dice", "--games", "0"), "--games: expected a whole number >= 1, got '0'"),
        (("simulate", "dice", "--workers", "x"),
         "--workers: expected a whole number >= 1, got 'x'"),
    ],
)  # fmt: skip
def test_bad_numbers_name_the_option_and_its_range(args: tuple[str, ...], line: str) -> None:
    """Issue 19: a number option out of range (or not a number) was answered in pydantic's
    words (``Invalid value for '--games' / '-g': Input should be greater than or equal to
    1``); now one line naming the option, the allowed range and what was given, exit 2."""
    result = lama(*args)
    assert result.returncode == 2
    assert result.stderr.strip() == f"Error: {line} (see 'lama {args[0]} -h')"
    assert "Input should" not in result.stderr and "Traceback" not in result.stderr
