"""Output to a terminal or pipe whose encoding is ASCII: stand-ins, never UnicodeEncodeError."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

SRC = str(Path(__file__).resolve().parents[2] / "src")


def _lama_ascii(*args: str, input: str | None = None) -> subprocess.CompletedProcess[bytes]:
    env = {**os.environ, "PYTHONIOENCODING": "ascii", "PYTHONPATH": SRC, "COLUMNS": "100"}
    return subprocess.run(
        [sys.executable, "-m", "lamagames", *args],
        input=None if input is None else input.encode(),
        capture_output=True,
        env=env,
        timeout=60,
        check=False,
    )


@pytest.mark.parametrize("game", ["dice", "express"])
def test_a_watched_game_prints_with_an_ascii_encoding(game: str, tmp_path: Path) -> None:
    result = _lama_ascii("play", game, "--seats", "benchmark,random", "--seed", "1")
    assert result.returncode == 0, result.stderr.decode(errors="replace")
    assert b"UnicodeEncodeError" not in result.stderr
    result.stdout.decode("ascii")  # only ASCII was written
    assert b"Winner" in result.stdout and b" - seed 1" in result.stdout  # "·" -> "-"


def test_ascii_stand_ins_for_the_symbols() -> None:
    from lamagames.cli.main import ASCII_STAND_INS

    assert "· ● ○".encode("ascii", errors="lamagames-ascii") == b"- * o"
    assert "é".encode("ascii", errors="lamagames-ascii") == b"?"
    assert all(value.isascii() for value in ASCII_STAND_INS.values())
