"""``lama replay``, ``lama rules``, ``--version``/``--help`` and clean errors."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from typer.testing import Result

from lamagames import __version__

Lama = Callable[..., Result]


@pytest.fixture
def record_file(lama: Lama, tmp_path: Path) -> Path:
    """A finished bot game's record."""
    path = tmp_path / "game.lamarec.json"
    result = lama(
        "play", "dice", "--seats", "benchmark,random", "--seed", "11", "--quiet",
        "--record", str(path),
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    return path


def test_replay_final_and_to(lama: Lama, record_file: Path) -> None:
    result = lama("replay", str(record_file), "--final")
    assert result.exit_code == 0, result.output
    assert "game over" in result.stdout and "Winner" in result.stdout
    result = lama("replay", str(record_file), "--to", "0")
    assert result.exit_code == 0, result.output
    assert "Step 0/" in result.stdout and "start of the game" in result.stdout
    result = lama("replay", str(record_file), "--to", "2")  # two seats: two deals
    assert "Step 2/" in result.stdout and "chance: Bot 2 is dealt " in result.stdout
    assert "Bot 1 starts" in result.stdout


def test_replay_to_beyond_the_end_is_a_clean_error(lama: Lama, record_file: Path) -> None:
    result = lama("replay", str(record_file), "--to", "100000")
    assert result.exit_code == 2
    assert "Traceback" not in result.output and "choose 0 to" in result.output
    assert result.stdout == ""  # checked before the header is printed


def test_replay_to_and_final_together_are_refused(lama: Lama, record_file: Path) -> None:
    result = lama("replay", str(record_file), "--to", "3", "--final")
    assert result.exit_code == 2
    assert "give --to N or --final, not both" in result.output and result.stdout == ""


def test_replay_steps_interactively(lama: Lama, record_file: Path) -> None:
    total = len(json.loads(record_file.read_text())["actions"])
    result = lama("replay", str(record_file), input="n\n\np\nj 5\nj x\nzz\n?\ne\nn\nq\n")
    assert result.exit_code == 0, result.output
    out = result.stdout
    for step in (0, 1, 2, 5, total):
        assert f"Step {step}/{total}" in out
    assert "Jump to a step" in out and "Unknown command 'zz'" in out
    assert "That was the last step" in out


def test_replay_jump_beyond_the_end_goes_to_the_end(lama: Lama, record_file: Path) -> None:
    total = len(json.loads(record_file.read_text())["actions"])
    result = lama("replay", str(record_file), input="j 999\nj 99999999999999999999\nq\n")
    assert result.exit_code == 0, result.output
    assert result.stdout.count(f"Step {total}/{total}") == 2
    assert "Jump to a step" not in result.stdout


def test_replay_stops_at_end_of_input(lama: Lama, record_file: Path) -> None:
    result = lama("replay", str(record_file), input="n\n")
    assert result.exit_code == 0, result.output


def test_tampered_record_names_the_entry(lama: Lama, record_file: Path) -> None:
    data = json.loads(record_file.read_text())
    # make the first discard of a seat illegal: 'quit' is never legal after a matching roll
    index = next(i for i, a in enumerate(data["actions"]) if a["action"].startswith("discard"))
    data["actions"][index]["action"] = "quit"
    record_file.write_text(json.dumps(data))
    result = lama("replay", str(record_file))
    assert result.exit_code == 2
    assert f"actions[{index}]" in result.output
    assert "Traceback" not in result.output


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("{not json", "not JSON"),
        ('{"format": "lamagames-record"}', "game"),
        (
            '{"format": "lamagames-record", "game": "dice", "params": {"num_players": 2}, '
            '"seats": '
            '[{"name": "a", "kind": "x"}, {"name": "b", "kind": "x"}], '
            '"actions": [{"player": -1, "action": "dice 1 1 1"}]}',
            "actions[0]",
        ),
    ],
)
def test_broken_record_files(lama: Lama, tmp_path: Path, text: str, expected: str) -> None:
    path = tmp_path / "bad.json"
    path.write_text(text)
    result = lama("replay", str(path))
    assert result.exit_code == 2
    assert expected in result.output and "Traceback" not in result.output


def test_replay_of_a_summary_json_says_it_is_not_a_record(lama: Lama, tmp_path: Path) -> None:
    summary = tmp_path / "s.json"
    result = lama(
        "play", "dice", "--seats", "random,random", "--games", "2", "--seed", "1",
        "--summary-json", str(summary),
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    result = lama("replay", str(summary))
    assert result.exit_code == 2
    assert f"Error: {summary}: not a lamagames game record" in " ".join(result.output.split())
    assert "seats.0" not in result.output


def test_missing_record_file(lama: Lama, tmp_path: Path) -> None:
    result = lama("replay", str(tmp_path / "nope.json"))
    assert result.exit_code == 2 and "cannot read" in result.output


def test_rules(lama: Lama) -> None:
    result = lama("rules", "dice")
    assert result.exit_code == 0
    for words in ("LAMA Dice", "llama row", "Three llamas", "Bust", "40"):
        assert words in result.stdout
    result = lama("rules", "chess")
    assert result.exit_code == 2 and "dice" in result.output


def test_version_and_help(lama: Lama) -> None:
    result = lama("--version")
    assert result.exit_code == 0 and __version__ in result.stdout
    for args in ([], ["--help"], ["play", "--help"], ["replay", "--help"], ["rules", "-h"]):
        result = lama(*args)
        assert result.exit_code in (0, 2), args  # no arguments: help, usage exit code
        assert "Usage" in result.output, args


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (["play", "dice", "--seats", "human,wizard"], "unknown seat kind 'wizard'"),
        (["play", "dice", "--seats", "human,,random"], "empty seat"),
        (["play", "dice", "--seats", "random"], "2 to 6 seats"),
        (["play", "dice", "--seats", ",".join(["random"] * 7)], "2 to 6 seats"),
        (["play", "chess", "--seats", "random,random"], "unknown game 'chess'; known games"),
        (["play", "dice", "--seats", "random,random", "--games", "0"], "--games"),
        (["play", "dice", "--seats", "human,random", "--games", "3"], "bots only"),
        (
            ["play", "dice", "--seats", "random,random", "--games", "3", "--record", "x.json"],
            "one game",
        ),
        (["play", "dice", "--seats", "random,random", "--names", "A"], "give 2 names"),
        (["play", "dice", "--seats", "random,random", "--names", "A,A"], "names must differ"),
        (["play", "dice", "--seats", "random,random", "--starting-seat", "3"], "2 seats"),
        (["play", "dice", "--seats", "random,random", "--end-score", "0"], "--end-score must"),
        (["play", "dice", "--seats", "random,random", "--param", "oops"], "KEY=VALUE"),
        (["play", "dice", "--seats", "random,random", "--param", "colour=1"], "colour"),
        (["play", "dice", "--seats", "random,random", "--seed", "x"], "--seed"),
        (["play", "dice"], "--seats"),
    ],
)
def test_bad_arguments_give_clean_errors(lama: Lama, args: list[str], expected: str) -> None:
    result = lama(*args)
    assert result.exit_code == 2, result.output
    assert expected in result.output
    assert "Traceback" not in result.output


def test_unknown_seat_lists_the_kinds(lama: Lama) -> None:
    result = lama("play", "dice", "--seats", "human,wizard")
    for kind in ("human", "benchmark", "random"):
        assert kind in result.output
