"""``lama play express`` on a 60x24 and an 80x24 terminal, in English and German: the
players' llamas (waiting, riding, walking, home) and the footpaths stay on every live
screen (a fresh user's trial: at 60x24 both lines were dropped while the board kept empty
lines under the rows without a train, so a llama that walked off was nowhere on screen)."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest
from rich.console import Console
from rich.text import Text

from lamagames.cli.express_view import ExpressView
from lamagames.cli.i18n import translator_now, use_language
from lamagames.cli.session import Terminal, run_table
from lamagames.cli.views import get_view
from lamagames.core.records import SeatInfo
from lamagames.core.registry import make
from lamagames.express.table import COMPACT_FOOTPATHS

ESCAPES = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
SEATS = [
    SeatInfo(name="Anna", kind="human"),
    SeatInfo(name="Bert", kind="heuristic"),
    SeatInfo(name="Cleo", kind="benchmark"),
]
#: Prompts answered with the first choice (pass, or the first train) before leaving.
ANSWERS = 20


def _heads() -> tuple[str, str]:
    """The start of the players' line and of the footpaths' line in the language now."""
    tr = translator_now()
    llamas = tr.gettext("Llamas wait/ride/walk/home (of {n}): ").split("(")[0].strip()
    return llamas, tr.gettext(COMPACT_FOOTPATHS).strip()


@pytest.mark.parametrize("language", ["en", "de"])
@pytest.mark.parametrize("cols", [60, 80])
def test_llamas_and_footpaths_stay_on_every_screen_of_24_rows(
    cols: int, language: str, tmp_path: Path
) -> None:
    use_language(language)
    answers = iter(["1"] * ANSWERS)

    def read_line(prompt: Text) -> str:
        try:
            return next(answers)
        except StopIteration:
            raise EOFError from None

    buffer = io.StringIO()
    console = Console(file=buffer, force_terminal=True, width=cols, height=24, color_system=None)
    title = Text("Lama Express: Anna (human), Bert (Clever), Cleo (Steady) · seed 2")
    outcome = run_table(
        get_view("express"),
        make("express", num_players=3),
        SEATS,
        seed=2,
        terminal=Terminal(console, read_line, live=True, title=title),
        record_path=tmp_path / "game.lamarec.json",
    )
    assert outcome.stopped is not None
    llamas, footpaths = _heads()
    screens = [ESCAPES.sub("", s) for s in buffer.getvalue().split("\x1b[2J")[1:]]
    assert len(screens) > ANSWERS
    for screen in screens:
        lines = screen.rstrip("\n").split("\n")
        assert len(lines) <= 23, screen  # and the prompt on the last line
        assert any(line.startswith(llamas) for line in lines), screen
        assert any(line.startswith(footpaths) for line in lines), screen
    # ``t`` at a prompt: the table alone, the same lines kept.
    table = console.render_lines(
        ExpressView().render(outcome.state, SEATS, viewer=0), console.options, pad=False
    )
    shown = ["".join(segment.text for segment in line) for line in table]
    assert len(shown) <= 24 - 7, shown
    assert any(line.startswith(llamas) for line in shown), shown
    assert any(line.startswith(footpaths) for line in shown), shown
