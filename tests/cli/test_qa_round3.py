"""QA round 3: replay on short terminals, partial batch summaries, options with people,
option names in messages, game name case."""

from __future__ import annotations

import io
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console
from rich.text import Text
from typer.testing import Result

from lamagames.cli.replay import browse, load_replay
from lamagames.sim.runner import play_game

Lama = Callable[..., Result]


@pytest.fixture
def express_record(lama: Lama, tmp_path: Path) -> Path:
    path = tmp_path / "p.lamarec.json"
    result = lama(
        "play", "express", "--seats", "benchmark,benchmark", "--seed", "1", "--quiet",
        "--record", str(path),
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    return path


def _browse(path: Path, keys: list[str], height: int, terminal: bool = True) -> str:
    out = io.StringIO()
    console = Console(file=out, width=80, height=height, force_terminal=terminal, color_system=None)
    answers = iter(keys)

    def read_line(prompt: Text) -> str:
        console.print(prompt, end="")
        try:
            return next(answers)
        except StopIteration:
            raise EOFError from None

    browse(load_replay(path), console, read_line)
    return out.getvalue()


def test_replay_on_a_short_terminal_prints_the_step_line_last(express_record: Path) -> None:
    # At 80x24 the compact board (issue 8) fits with the step line; 16 lines are too few.
    text = _browse(express_record, ["j 50", "n"], height=16)
    screen = text.split("replay>")[1]  # after j 50: what stands above the next prompt
    assert "Step 50/" in screen
    before_step = screen[: screen.index("Step 50/")]
    assert "Footpaths" in before_step  # the board came first
    # the step line, its narration and the prompt fit on the last lines of the screen
    assert len(screen[screen.index("Step 50/") :].splitlines()) <= 5
    last = text.split("replay>")[2]
    assert last.index("Footpaths") < last.index("Step 51/")


def test_replay_on_a_tall_terminal_or_a_pipe_keeps_the_step_line_on_top(
    express_record: Path,
) -> None:
    for text in (
        _browse(express_record, ["j 50"], height=60),
        _browse(express_record, ["j 50"], height=24, terminal=False),
    ):
        screen = text.split("replay>")[1]
        assert screen.index("Step 50/") < screen.index("Footpaths")


def _read_json(path: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


def test_summary_json_of_an_interrupted_batch_says_so(
    lama: Lama, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    played: list[int] = []

    def interrupted_after_two(*args: Any, **kwargs: Any) -> Any:
        if len(played) == 2:
            raise KeyboardInterrupt
        played.append(1)
        return play_game(*args, **kwargs)

    monkeypatch.setattr("lamagames.sim.stats.play_game", interrupted_after_two)
    summary = tmp_path / "s.json"
    result = lama(
        "play", "dice", "--seats", "random,random", "--games", "50", "--seed", "1",
        "--summary-json", str(summary),
    )  # fmt: skip
    assert result.exit_code == 130, result.output
    data = _read_json(summary)
    assert (data["games"], data["games_requested"], data["interrupted"]) == (2, 50, True)
    assert list(data)[3:6] == ["games", "games_requested", "interrupted"]


def test_summary_json_of_a_complete_batch_says_it_is_complete(lama: Lama, tmp_path: Path) -> None:
    summary = tmp_path / "s.json"
    result = lama(
        "play", "dice", "--seats", "random,random", "--games", "4", "--seed", "1",
        "--summary-json", str(summary),
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    data = _read_json(summary)
    assert (data["games"], data["games_requested"], data["interrupted"]) == (4, 4, False)


def test_quiet_with_a_human_seat_is_refused(lama: Lama) -> None:
    result = lama("play", "dice", "--seats", "human,random", "-q", input="q\n")
    assert result.exit_code == 2
    assert "--quiet" in result.output and "tables of bots only" in result.output
    assert result.stdout == ""


def test_summary_json_with_a_human_seat_sums_up_the_one_game(lama: Lama, tmp_path: Path) -> None:
    summary, rec = tmp_path / "s.json", tmp_path / "g.lamarec.json"
    left = lama(
        "play", "dice", "--seats", "human,random", "--seed", "1", "--record", str(rec),
        "--summary-json", str(summary), input="q\n",
    )  # fmt: skip
    assert left.exit_code == 0, left.output
    assert f"Summary written to {summary}" in " ".join(left.stdout.split())
    data = _read_json(summary)
    assert (data["games"], data["games_requested"], data["interrupted"]) == (0, 1, True)
    finished = lama(
        "play", "dice", "--seats", "human,random", "--seed", "1", "--record", str(rec),
        "--summary-json", str(summary), "--delay", "0", input="1\n" * 3000,
    )  # fmt: skip
    assert finished.exit_code == 0, finished.output
    data = _read_json(summary)
    assert (data["games"], data["games_requested"], data["interrupted"]) == (1, 1, False)
    assert sum(seat["wins"] for seat in data["seats"]) >= 1


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


def test_replay_of_an_empty_file_or_name(lama: Lama, tmp_path: Path) -> None:
    empty = tmp_path / "empty.json"
    empty.write_text("\n", encoding="utf-8")
    result = lama("replay", str(empty))
    assert result.exit_code == 2 and "the file is empty" in result.output
    result = lama("replay", "")
    assert result.exit_code == 2 and "no file name given" in result.output


def test_record_errors_count_seats_from_one(lama: Lama, express_record: Path) -> None:
    data = _read_json(express_record)
    index = next(i for i, entry in enumerate(data["actions"]) if entry["player"] == 1)
    data["actions"][index]["action"] = "fly away"
    express_record.write_text(json.dumps(data), encoding="utf-8")
    result = lama("replay", str(express_record))
    assert result.exit_code == 2
    assert f"actions[{index}] ('fly away' by seat 2 (player 1 in the file))" in result.output


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
