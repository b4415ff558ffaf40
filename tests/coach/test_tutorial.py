"""``lama tutorial dice|express`` (issue 18): a scripted first game that explains each kind
of decision with its ruling ids and plays to its end when Enter takes every suggestion."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner, Result

from lamagames.cli.main import app
from lamagames.core.records import load_record
from lamagames.dice.tutorial import lesson_text as dice_lesson
from lamagames.express.tutorial import kind_of
from lamagames.express.tutorial import lesson_text as express_lesson


@pytest.fixture(autouse=True)
def english_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    """The walkthrough follows the locale (issue 19): these tests read English."""
    for variable in ("LC_ALL", "LC_MESSAGES", "LANGUAGE"):
        monkeypatch.delenv(variable, raising=False)
    monkeypatch.setenv("LANG", "C")


def tutorial(*args: str, enters: int = 600) -> Result:
    return CliRunner().invoke(app, ["tutorial", *args], input="\n" * enters)


def test_e6_e10_express_walkthrough_plays_to_its_end(tmp_path: Path) -> None:
    record = tmp_path / "t.json"
    result = tutorial("express", "--record", str(record))
    assert result.exit_code == 0, result.output
    flat = " ".join(result.output.split())
    for kind in ("start", "move", "board", "pass"):
        assert " ".join(express_lesson(kind).split()) in flat
    assert re.search(r"\[E-6\]", flat) and re.search(r"\[E-9\]", flat)
    assert "Suggested: move " in flat and "Winner:" in flat
    result_of = load_record(record).result
    assert result_of is not None and result_of.terminal
    again = tutorial("express")  # scripted: the same game every time
    assert again.output.count("Suggested:") == result.output.count("Suggested:")


@pytest.mark.slow
def test_d6_d8_dice_walkthrough_plays_to_its_end(tmp_path: Path) -> None:
    record = tmp_path / "t.json"
    result = tutorial("dice", "--record", str(record))
    assert result.exit_code == 0, result.output
    flat = " ".join(result.output.split())
    for kind in ("start", "turn", "discard"):
        assert " ".join(dice_lesson(kind).split()) in flat
    assert "Winner:" in flat and load_record(record).result is not None


def test_dice_walkthrough_explains_the_turn_and_suggests_with_plain_words() -> None:
    result = CliRunner().invoke(app, ["tutorial", "dice"], input="q\n")
    assert result.exit_code == 0, result.output
    flat = " ".join(result.output.split())
    assert " ".join(dice_lesson("turn").split()) in flat and "[D-6, D-7, D-10, D-8]" in flat
    assert "Suggested: " in flat and "points expected this round" in flat
    assert "You left the walkthrough." in flat


#: Third-person narration with a seat named "You" ("You starts", "You rolls", "You's turn").
YOU_AS_THIRD_PERSON = re.compile(
    r"\bYou(?: \([a-z]+\))? (?:starts|rolls|quits|takes|discards|moves|chooses|boards|passes)\b"
    r"|\bYou's\b"
)


@pytest.mark.parametrize(
    ("game", "answers"), [("dice", "\n\n\n\nq\n"), ("express", "\n" * 12 + "q\n")]
)
def test_the_walkthrough_tells_the_persons_moves_in_good_grammar(game: str, answers: str) -> None:
    # The moves are told in the third person ("{name} starts"): the person's seat is named
    # "Player", not "You" ("You starts" was printed), and marked "(you)" on the table.
    result = CliRunner().invoke(app, ["tutorial", game], input=answers)
    assert result.exit_code == 0, result.output
    assert YOU_AS_THIRD_PERSON.search(result.output) is None, result.output
    assert "Player" in result.output
    if game == "dice":
        assert "six cards each are dealt; Player starts." in " ".join(result.output.split())


def test_a_typed_move_overrides_the_suggestion(tmp_path: Path) -> None:
    record = tmp_path / "t.json"
    result = CliRunner().invoke(
        app, ["tutorial", "express", "--record", str(record)], input="2\nq\n"
    )
    assert result.exit_code == 0, result.output
    actions = json.loads(record.read_text())["actions"]
    mine = [a["action"] for a in actions if a["player"] == 0]
    assert mine[0] == "move B"  # menu choice 2, not the suggested move A


def test_unknown_game_is_one_line() -> None:
    result = tutorial("chess")
    assert result.exit_code == 2 and "chess" in result.output
    assert len(result.output.strip().splitlines()) == 1


def test_express_action_kinds() -> None:
    assert [kind_of(a) for a in (0, 1, 2, 3, 13, 23, 33)] == [
        "pass", "move", "move", "board", "exit", "detour", "reboard",
    ]  # fmt: skip
