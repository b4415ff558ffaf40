"""The live Lama Express screen in each language on an 80x24 pty (issue 19: the whole
board, every car, the title first and the prompt, whatever the language's longer words)."""

from __future__ import annotations

from pathlib import Path

import pytest
from tests.cli.test_terminal_pty import Terminal, _board_on_screen, _play_args

#: A word of the headline or the table in each language, to see that it is that language.
WORDS = {"de": "An der Reihe", "fr": "Tour\u00a0:", "nl": "Beurt:", "it": "Turno:"}
#: The end of the prompt in each language (``(? help, q leave)``).
#: ``human`` in the title, in each language (issue 19: it said ``(human)`` in every one).
HUMAN = {"de": "Mensch", "fr": "humain", "nl": "persoon", "it": "persona"}
#: The web app's name of the ``benchmark`` bot (issue 19: the title showed the kind as typed).
STEADY = {"de": "Beständig", "fr": "Régulier", "nl": "Standvastig", "it": "Costante"}
PROMPTS = {
    "de": r"q verlassen\) ",
    "fr": r"q partir\) ",
    "nl": r"q verlaten\) ",
    "it": r"q esci\) ",
}


@pytest.mark.parametrize("lang", sorted(WORDS))
def test_live_screen_fits_80x24_in_every_language(lang: str, tmp_path: Path) -> None:
    terminal = Terminal([*_play_args(tmp_path, "0"), "--lang", lang], 80, 24, tmp_path)
    terminal.child.timeout = 120
    try:
        for _ in range(3):
            terminal.expect(PROMPTS[lang])
            lines = terminal.lines()
            _board_on_screen(lines)
            text = "\n".join(lines)
            assert WORDS[lang] in text, text
            colon = "\u00a0: " if lang == "fr" else ": "  # French typography
            title = f"Lama Express{colon}Ann ({HUMAN[lang]}), Bot 2 ({STEADY[lang]})"
            assert lines[0].startswith(title), lines
            prompt = [i for i, line in enumerate(lines) if line.startswith("Ann > ")]
            assert prompt, text
            above = prompt[-1] - 1
            while lines[above].startswith(" " * 8):  # a long label wraps under its column
                above -= 1
            assert lines[above].startswith(("1  ", "2  ", "3  ")), text
            terminal.send("1\r")
    finally:
        terminal.close()
