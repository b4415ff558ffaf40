"""Lines that wrapped inside a unit at 60 columns (issue 19): the ``lama play`` header split
a seat from its kind (``Bot 3`` / ``(Caso)``; ``lama replay`` already wrapped between
seats) and the replay's keys (``?``) split a key from its words (``j N: zu Schritt N`` /
``springen``)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from typer.testing import Result

Lama = Callable[..., Result]


def test_play_header_wraps_between_seats(
    lama: Lama, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COLUMNS", "60")
    result = lama(
        "play", "dice", "--seats", "human,heuristic,random", "--seed", "3", "--delay", "0",
        "--lang", "it", "--record", str(tmp_path / "p.lamarec.json"), input="q\n",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0] == "LAMA Dice: Giocatore 1 (persona), Bot 2 (Furbo),", lines[:3]
    assert lines[1] == "Bot 3 (Caso) · seme 3", lines[:3]


def test_replay_keys_wrap_between_keys(
    lama: Lama, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "d.lamarec.json"
    made = lama(
        "play", "dice", "--seats", "benchmark,benchmark", "--seed", "3", "--quiet",
        "--record", str(path),
    )  # fmt: skip
    assert made.exit_code == 0, made.output
    monkeypatch.setenv("COLUMNS", "60")
    result = lama("replay", str(path), "--lang", "de", input="?\nq\n")
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    # off a terminal the answer is not echoed: the keys follow the prompt on its line
    at = next(i for i, line in enumerate(lines) if "n oder Enter" in line)
    assert lines[at].endswith("n oder Enter: weiter · p: zurück"), lines[at : at + 3]
    assert lines[at + 1 : at + 3] == [
        "j N: zu Schritt N springen (hinter dem Ende: das Ende)",
        "s: Anfang · e: Ende · q: beenden",
    ], lines[at : at + 3]
