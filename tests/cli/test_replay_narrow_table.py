"""The LAMA Dice table at 40, 60 and 80 columns in every language (issue 19): a seat's
label is shortened only when the width is not there (``1 Bot 1 [Exac…`` beside ten blank
columns at 60), no header or status word is cut in two (Italian ``Getton`` / ``i``,
``vincitor`` / ``e``, German ``ausgestie`` / ``gen`` at 40), nothing is wider than the
terminal, and a status left out at the narrowest is said below the table."""

from __future__ import annotations

import io
import json
import re
from collections.abc import Callable
from pathlib import Path

import pytest
from rich.console import Console
from typer.testing import Result

from lamagames.cli.i18n import _, use_language
from lamagames.cli.replay import LoadedReplay, load_replay, render_position

Lama = Callable[..., Result]
LANGUAGES = ("en", "de", "fr", "nl", "it")
KINDS = ("exact", "heuristic", "search", "random", "benchmark", "heuristic")


def _record(lama: Lama, tmp_path: Path, seats: int) -> LoadedReplay:
    """A finished LAMA Dice record of ``seats`` seats whose labels read ``[Exact
    (solver)]``, ``[Clever]``, ``[Search (plays ahead)]``... (the kinds only label the
    seats in a replay)."""
    path = tmp_path / f"d{seats}.lamarec.json"
    result = lama(
        "play", "dice", "--seats", ",".join(["benchmark"] * seats), "--seed", "4", "--quiet",
        "--record", str(path),
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    record = json.loads(path.read_text("utf-8"))
    for seat, kind in zip(record["seats"], KINDS, strict=False):
        seat["kind"] = kind
    path.write_text(json.dumps(record), "utf-8")
    return load_replay(path)


def _lines(replay: LoadedReplay, index: int, width: int) -> list[str]:
    out = io.StringIO()
    console = Console(file=out, width=width, color_system=None, legacy_windows=False)
    console.print(render_position(replay, index))
    return out.getvalue().splitlines()  # a table's lines keep their blanks on the right


def _table(lines: list[str]) -> list[str]:
    """The table's lines: from the line after the round's header to the llama row."""
    start = next(i for i, line in enumerate(lines) if line.startswith(_("Round {n}")[:4]))
    end = next(i for i, line in enumerate(lines) if line.startswith(_("Llama row")))
    return lines[start + 1 : end]


@pytest.mark.parametrize("seats", [2, 6])
@pytest.mark.parametrize("width", [40, 60, 80])
@pytest.mark.parametrize("language", LANGUAGES)
def test_labels_use_the_width_and_no_word_is_cut(
    lama: Lama, tmp_path: Path, language: str, width: int, seats: int
) -> None:
    replay = _record(lama, tmp_path, seats)
    use_language(language)
    whole = {
        word
        for text in (
            _("Seat"),
            _("Row"),
            _("Row pts"),
            _("Score"),
            _("winner"),
            _("quit"),
            _("to play"),
        )
        for word in text.split()
    }
    middle = next(i for i in range(replay.last) if not replay.states[i].is_chance_node())
    for index in (0, middle, replay.last):
        lines = _lines(replay, index, width)
        table = _table(lines)
        shown = "\n".join(lines)
        assert max(map(len, lines)) <= width, shown
        if any("…" in line for line in table):  # shortened: only for want of width
            assert max(map(len, table)) == width, shown
        words = set(" ".join(table).replace(":", " ").split())
        # a word of a header or a status word is never cut in two: each piece of one
        # that shows is the whole word
        for piece in words:
            fragments = [
                w for w in whole if piece != w and (w.startswith(piece) or w.endswith(piece))
            ]
            assert not fragments or piece in whole or not piece.isalpha(), (piece, shown)
        if index:  # the status is shown, in the table or below it
            status = _("winner") if index == replay.last else _("to play")
            assert re.search(rf"(^|\s){re.escape(status)}($|\s)", shown), (status, shown)
