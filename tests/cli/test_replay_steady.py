"""``lama replay`` keeps its layout from step to step (issue 19 trial, at ``COLUMNS=60``): the
LAMA Dice table's columns do not move, long seat labels end in ``…`` instead of wrapping
inside their brackets, and chance steps (deals, dice, the Lama Express die) are told in
words of the language instead of their notation (``deal 1134LL``)."""

from __future__ import annotations

import io
import json
import re
from collections.abc import Callable
from pathlib import Path

import pytest
from rich.console import Console
from typer.testing import Result

from lamagames.cli.i18n import use_language
from lamagames.cli.replay import LoadedReplay, load_replay, render_position

Lama = Callable[..., Result]


@pytest.fixture
def dice_record(lama: Lama, tmp_path: Path) -> Path:
    """A two-player LAMA Dice record whose seats are shown as ``Bot 1 [Exact (solver)]``
    and ``Bot 2 [Clever]`` (the kinds only label the seats in a replay)."""
    path = tmp_path / "d.lamarec.json"
    result = lama(
        "play", "dice", "--seats", "benchmark,benchmark", "--seed", "3", "--quiet",
        "--record", str(path),
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    record = json.loads(path.read_text("utf-8"))
    record["seats"][0]["kind"], record["seats"][1]["kind"] = "exact", "heuristic"
    path.write_text(json.dumps(record), "utf-8")
    return path


def _step(replay: LoadedReplay, index: int, width: int) -> list[str]:
    out = io.StringIO()
    console = Console(file=out, width=width, color_system=None, legacy_windows=False)
    console.print(render_position(replay, index))
    return out.getvalue().splitlines()


def _columns(header: str) -> list[int]:
    """Where each word of the table's header line starts."""
    return [m.start() for m in re.finditer(r"\S+", header)]


@pytest.mark.parametrize("width", [60, 80])
def test_dice_table_keeps_its_columns_and_shortens_long_labels(
    dice_record: Path, width: int
) -> None:
    replay = load_replay(dice_record)
    headers = set()
    for index in range(replay.last + 1):
        lines = _step(replay, index, width)
        assert max(len(line) for line in lines) <= width
        seat_lines = [line for line in lines if re.match(r"^[ ▶]  \d ", line)]
        assert len(seat_lines) == 2, "\n".join(lines)  # one line per seat: nothing wrapped
        assert not any(line.lstrip().startswith(("(solver)", "[")) for line in lines)
        header = next(line for line in lines if line.lstrip().startswith("Seat"))
        headers.add(tuple(_columns(header)))
    assert len(headers) == 1  # the same columns at every step
    first = _step(replay, 0, width)
    label = "1 Bot 1 [Exact (solver)]" if width == 80 else "1 Bot 1 [Exact (solv…"
    assert any(label in line for line in first), "\n".join(first)


def test_chance_steps_are_told_in_words(dice_record: Path) -> None:
    replay = load_replay(dice_record)
    steps = [_step(replay, index, 80)[0] for index in range(1, replay.last + 1)]
    chance = [line for line in steps if " · chance: " in line]
    assert chance and not [line for line in chance if re.search(r"chance: (deal|dice) ", line)]
    assert steps[0].endswith("chance: Bot 1 is dealt 2 3 5 5 6 6"), steps[0]
    assert any(re.search(r"chance: the dice show [1-6L] [1-6L] [1-6L]$", s) for s in chance)
    assert any(line.endswith(": roll") for line in steps)  # a move keeps its notation
    use_language("fr")
    french = _step(replay, 1, 80)[0]
    assert french.endswith("hasard\u00a0: Bot 1 reçoit 2 3 5 5 6 6"), french


def test_express_die_steps_are_told_in_words(lama: Lama, tmp_path: Path) -> None:
    path = tmp_path / "e.lamarec.json"
    result = lama(
        "play", "express", "--seats", "benchmark,benchmark", "--seed", "1", "--quiet",
        "--record", str(path),
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    replay = load_replay(path)
    steps = [_step(replay, index, 80)[0] for index in range(1, min(replay.last, 40) + 1)]
    rolls = [line for line in steps if " · chance: " in line]
    assert rolls and all(
        re.search(r"chance: the die shows (red|orange|yellow|green|blue|purple) \([ROYGBP]\)$", s)
        for s in rolls
    ), rolls
    use_language("nl")
    dutch = [_step(replay, index, 80)[0] for index in range(1, 4)]
    assert any(re.search(r"toeval: de dobbelsteen toont \w+ \((R|O|Ge|Gr|B|P)\)$", s)
               for s in dutch), dutch  # fmt: skip


def test_header_wraps_between_seats(
    lama: Lama, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``LAMA Dice: Bot 1 (Exact (solver)), ..., Bot 3`` / ``(Steady), ...`` at 60 columns
    broke a seat in two; now the header wraps between seats."""
    path = tmp_path / "d4.lamarec.json"
    result = lama(
        "play", "dice", "--seats", "benchmark,benchmark,benchmark,benchmark", "--seed", "3",
        "--quiet", "--record", str(path),
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    record = json.loads(path.read_text("utf-8"))
    kinds = ["exact", "heuristic", "benchmark", "search"]
    for seat, kind in zip(record["seats"], kinds, strict=True):
        seat["kind"] = kind
    path.write_text(json.dumps(record), "utf-8")
    monkeypatch.setenv("COLUMNS", "60")
    shown = lama("replay", str(path), "--to", "0")
    assert shown.exit_code == 0, shown.output
    lines = shown.stdout.splitlines()
    assert lines[0] == "LAMA Dice: Bot 1 (Exact (solver)), Bot 2 (Clever),", lines
    assert lines[1] == "Bot 3 (Steady), Bot 4 (Search (plays ahead))", lines
