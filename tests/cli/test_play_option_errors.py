"""``lama play`` option errors name the option; -q with people, negative seeds, game names
in any case."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from typer.testing import Result

Lama = Callable[..., Result]


def _read_json(path: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


def test_quiet_with_a_human_seat_is_refused(lama: Lama) -> None:
    result = lama("play", "dice", "--seats", "human,random", "-q", input="q\n")
    assert result.exit_code == 2
    assert "--quiet" in result.output and "tables of bots only" in result.output
    assert result.stdout == ""


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (["dice", "--seats", "random,random", "--end-score", "0"], "--end-score must be"),
        (["express", "--seats", "random,random", "--colours", "red,red"], "--colours: 'red'"),
        (["express", "--seats", "random,random", "--colours", "pink,pink"], "--colours: each"),
        (["dice", "--seats", "random,random", "--seed", "abc"], "a seed is a whole number"),
        (["dice", "--seats", "random,random", "--record", ""], "no file name given"),
        (["dice", "--seats", "random,random", "--summary-json", " "], "no file name given"),
        (["dice", "--seats", "random,random", "--record", "."], "is a folder"),
    ],
)
def test_errors_name_the_option(lama: Lama, args: list[str], expected: str) -> None:
    result = lama("play", *args, "-q")
    assert result.exit_code == 2
    text = " ".join(result.output.split())
    assert expected in text and "Traceback" not in text
    assert "end_score" not in text and "bad game parameters" not in text
    assert "Input should be" not in text


def test_a_negative_seed_is_still_a_seed(lama: Lama) -> None:
    result = lama("play", "dice", "--seats", "random,random", "-q", "--seed", "-3")
    assert result.exit_code == 0, result.output
    assert "seed -3" in result.stdout


@pytest.mark.parametrize("name", ["DICE", "Dice", "Express", "EXPRESS"])
def test_game_names_in_any_case(lama: Lama, name: str, tmp_path: Path) -> None:
    rec = tmp_path / "g.lamarec.json"
    result = lama(
        "play", name, "--seats", "Random,RANDOM", "--seed", "2", "-q", "--record", str(rec)
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert _read_json(rec)["game"] == name.lower()
    rules = lama("rules", name)
    assert rules.exit_code == 0, rules.output


def _words(result: Result) -> str:
    """The output as one line of words, without the borders of Typer's error box."""
    return " ".join(result.output.replace("│", " ").split())


@pytest.mark.parametrize(
    "args",
    [["dise"], ["dise", "--names", "Ann"], ["--names", "Ann", "dise"], ["DISE", "-q"]],
)
def test_an_unknown_game_comes_before_the_missing_seats(lama: Lama, args: list[str]) -> None:
    """``lama play dise`` names the unknown game and suggests ``dice`` rather than asking
    for ``--seats`` first (issue 19, the family table's trial)."""
    result = lama("play", *args)
    assert result.exit_code == 2
    text = _words(result)
    assert "unknown game 'dise'" in text and "did you mean 'dice'?" in text, text
    assert "--seats" not in text


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (["play", "expres", "--seats", "random,random"], "did you mean 'express'?"),
        (["rules", "dise"], "did you mean 'dice'?"),
        (["tutorial", "expess"], "did you mean 'express'?"),
        (["ladder", "dicee"], "did you mean 'dice'?"),
    ],
)
def test_an_unknown_game_suggests_a_close_one(lama: Lama, args: list[str], expected: str) -> None:
    result = lama(*args)
    assert result.exit_code == 2
    assert expected in _words(result)


def test_no_suggestion_without_a_close_game(lama: Lama) -> None:
    result = lama("play", "chess")
    assert result.exit_code == 2
    text = _words(result)
    assert "unknown game 'chess'; known games: dice, express" in text
    assert "did you mean" not in text and "--seats" not in text
