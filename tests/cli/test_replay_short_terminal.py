"""``lama replay`` on a terminal too short for a position: the board first, the step line,
narration and prompt last; tall terminals and pipes keep the step line on top."""

from __future__ import annotations

import io
from collections.abc import Callable
from pathlib import Path

import pytest
from rich.console import Console
from rich.text import Text
from typer.testing import Result

from lamagames.cli.replay import browse, load_replay

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
    # At 80x24 the compact board (issue 8) fits with the step line, at 16 lines its rows of
    # cells (issue 19) do; 9 lines are too few (10 hold step 51: its rows without a train
    # have no line of cars under them).
    text = _browse(express_record, ["j 50", "n"], height=9)
    screen = text.split("replay>")[1]  # after j 50: what stands above the next prompt
    assert "Step 50/" in screen
    before_step = screen[: screen.index("Step 50/")]
    assert "R@  0" in before_step and "Y@ 36" in before_step  # the board came first
    # the step line, its narration and the prompt fit on the last lines of the screen
    assert len(screen[screen.index("Step 50/") :].splitlines()) <= 5
    last = text.split("replay>")[2]
    assert last.index("Y@ 36") < last.index("Step 51/")


def test_replay_on_a_tall_terminal_or_a_pipe_keeps_the_step_line_on_top(
    express_record: Path,
) -> None:
    for text in (
        _browse(express_record, ["j 50"], height=60),
        _browse(express_record, ["j 50"], height=24, terminal=False),
    ):
        screen = text.split("replay>")[1]
        assert screen.index("Step 50/") < screen.index("Footpaths")
