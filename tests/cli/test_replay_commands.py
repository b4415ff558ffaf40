"""``lama replay`` takes the README's full words (next, previous, jump N) as well as the
one-letter keys."""

from __future__ import annotations

import io
from collections.abc import Callable
from pathlib import Path

from rich.console import Console
from rich.text import Text
from typer.testing import Result

from lamagames.cli.replay import browse, load_replay

Lama = Callable[..., Result]


def _browse(path: Path, keys: list[str]) -> str:
    out = io.StringIO()
    console = Console(file=out, width=100, height=200, color_system=None)
    answers = iter(keys)

    def read_line(prompt: Text) -> str:
        console.print(prompt, end="")
        try:
            return next(answers)
        except StopIteration:
            raise EOFError from None

    browse(load_replay(path), console, read_line)
    return out.getvalue()


def test_full_words_move_like_the_keys(lama: Lama, tmp_path: Path) -> None:
    path = tmp_path / "d.lamarec.json"
    result = lama(
        "play", "dice", "--seats", "benchmark,benchmark", "--seed", "1", "--quiet",
        "--record", str(path),
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    text = _browse(path, ["jump 5", "next", "previous", "Jump 7"])
    assert "Unknown command" not in text and "Jump to a step" not in text
    steps = [line.split("/")[0] for line in text.splitlines() if line.startswith("Step ")]
    assert steps == ["Step 0", "Step 5", "Step 6", "Step 5", "Step 7"]
