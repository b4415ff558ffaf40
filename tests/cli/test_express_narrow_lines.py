"""Lama Express at 40 and 60 columns in every language (issue 19): no line of the table is
wider than the terminal, where the terminal cut it off. The German players' line at 60
(``Lamas wartend/im Zug/zu Fuß/zu Hause (von 4): >y Bot 1 4/0/0``: a head too long for its
first player), the turn's line at 40 (``Turn: Bot 1 (yellow) · roll #13/2000 · d``: the
die off the edge) and the board's title inside the ring of ``lama board show`` at 80
(``Board 'standard': 48 spaces, clockwise from the top left corner``, left out)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from typer.testing import Result

from lamagames.cli.i18n import translator_now, use_language
from lamagames.cli.replay import load_replay
from lamagames.express.board import standard_board
from lamagames.express.game import as_express_state
from lamagames.express.render import board_drawing_lines
from lamagames.express.table import table_lines

Lama = Callable[..., Result]


@pytest.mark.parametrize("language", ["en", "de", "fr", "nl", "it"])
def test_table_lines_fit_narrow_terminals(lama: Lama, tmp_path: Path, language: str) -> None:
    path = tmp_path / "e.lamarec.json"
    result = lama(
        "play", "express", "--seats", "heuristic,heuristic,heuristic,heuristic", "--seed", "5",
        "--quiet", "--record", str(path),
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    replay = load_replay(path)
    names = [seat.name for seat in replay.record.seats]
    use_language(language)
    tr = translator_now()
    for index in range(0, min(replay.last, 120) + 1, 3):
        state = as_express_state(replay.states[index])
        for width in (40, 60):
            for height in (30, 24):  # the terminal always gives a height
                lines = table_lines(state, names, width=width, height=height, tr=tr)
                too_wide = [line for line in lines if len(line) > width]
                assert not too_wide, (index, width, height, too_wide)


def test_board_show_keeps_its_title_inside_the_ring() -> None:
    lines = board_drawing_lines(standard_board(), width=80)
    assert max(map(len, lines)) <= 80
    text = " ".join(" ".join(lines).split())
    assert "Board 'standard': 48 spaces, clockwise from the top left" in text, lines


@pytest.mark.parametrize("language", ["en", "de", "fr", "nl", "it"])
def test_players_header_stands_over_its_columns(lama: Lama, tmp_path: Path, language: str) -> None:
    """The players' header named its columns one character left of them, and in German,
    French, Dutch and Italian its wider words (``Einst. Ausst.``) pushed the rest further
    right than the rows and past 60 columns."""
    path = tmp_path / "e.lamarec.json"
    result = lama(
        "play", "express", "--seats", "heuristic,heuristic,heuristic", "--seed", "2",
        "--quiet", "--record", str(path),
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    replay = load_replay(path)
    names = [seat.name for seat in replay.record.seats]
    use_language(language)
    tr = translator_now()
    for width in (60, 80, 120):
        lines = table_lines(as_express_state(replay.states[0]), names, width=width, tr=tr)
        at = next(i for i, line in enumerate(lines) if tr.gettext("Exits") in line)
        header, row = lines[at], lines[at + 1]
        assert header.index(tr.gettext("Board")) == row.index("@"), (header, row)
        assert header.index(tr.gettext("Exits")) == row.index(" x ") + 1, (header, row)
        assert header.rstrip().endswith(tr.gettext("Home")), header
