"""``lama play express`` in a real terminal (a pty read by the pyte emulator), issue 19:
the whole board, every car and the prompt on an 80x24 screen, the title first, and keys
typed while bots play neither echoed nor read."""

from __future__ import annotations

import os
import re
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pexpect
import pyte
import pytest

PROMPT = r"q leave\) "
CARS = ["A:>>", "A:##", "B:>>", "B:##"] + [f"{t}{c}:" for t in "AB" for c in range(1, 6)]
#: The top line of a cell: colour letter, role mark, space number (express/drawing.py).
#: A cell's top: the colour's letter in any language (French ``Ve``, ``Vi``; Dutch ``Ge``,
#: ``Gr``: the web app's ``express.letter.*``), the role mark and the space's number.
CELL_TOP = re.compile(r"(?:^|\s)(?:Ge|Gr|Ve|Vi|[ROYGBPJAL])[@x^< ]\s*(\d+)(?=\s|$)")


class Terminal:
    """``lama`` on a pty of ``cols`` x ``rows``, its output fed to a pyte screen."""

    def __init__(self, args: list[str], cols: int, rows: int, tmp_path: Path, **extra: str) -> None:
        env = {k: v for k, v in os.environ.items() if k not in {"COLUMNS", "LINES"}}
        env["TERM"] = "xterm-256color"
        env.update(extra)
        self.screen = pyte.Screen(cols, rows)
        self.stream = pyte.Stream(self.screen)
        self.output = ""
        self.child = pexpect.spawn(
            sys.executable,
            ["-m", "lamagames.cli", *args],
            dimensions=(rows, cols),
            env=env,
            cwd=str(tmp_path),
            encoding="utf-8",
            timeout=900,
        )

    def expect(self, pattern: object) -> None:
        """Wait for ``pattern`` (or ``pexpect.EOF``) in the output; feed what came to the
        screen."""
        self.child.expect(pattern)
        after = self.child.after
        text = self.child.before + (after if isinstance(after, str) else "")
        self.output += text
        self.stream.feed(text)

    def send(self, text: str) -> None:
        self.child.send(text)

    def plain(self) -> str:
        """Everything printed so far, without escape sequences."""
        return re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", self.output)

    def lines(self) -> list[str]:
        return [line.rstrip() for line in self.screen.display]

    def close(self) -> None:
        self.child.close(force=True)


@pytest.fixture
def terminals(tmp_path: Path) -> Iterator[list[Terminal]]:
    made: list[Terminal] = []
    yield made
    for terminal in made:
        terminal.close()


def _play_args(tmp_path: Path, delay: str) -> list[str]:
    record = str(tmp_path / "game.lamarec.json")
    return [
        "play",
        "express",
        "--seats",
        "human,benchmark,benchmark",
        "--names",
        "Ann",
        "--seed",
        "2",
        "--delay",
        delay,
        "--record",
        record,
    ]


def _board_on_screen(lines: list[str]) -> None:
    text = "\n".join(lines)
    spaces = {int(n) for line in lines for n in CELL_TOP.findall(line)}
    assert spaces == set(range(48)), (sorted(set(range(48)) - spaces), text)
    for car in CARS:
        assert car in text, (car, text)


@pytest.mark.parametrize(("cols", "rows"), [(80, 24), (100, 40)])
def test_issue19_board_cars_title_and_prompt_fit_the_screen(
    cols: int, rows: int, tmp_path: Path, terminals: list[Terminal]
) -> None:
    """At every prompt of the first turns the screen holds the title on its top line, every
    space and car of the board, the menu and the prompt (issue 19: at 30 rows or fewer,
    spaces 0-11 and their cars scrolled away; the title was printed under the board)."""
    terminal = Terminal(_play_args(tmp_path, "0"), cols, rows, tmp_path)
    terminals.append(terminal)
    for _ in range(4):
        terminal.expect(PROMPT)
        lines = terminal.lines()
        _board_on_screen(lines)
        prompt = [i for i, line in enumerate(lines) if line.startswith("Ann > ")]
        assert prompt, "\n".join(lines)
        assert lines[prompt[-1] - 1].startswith(("1  ", "2  ", "3  ")), "\n".join(lines)
        assert lines[0].startswith("Lama Express: Ann (human), Bot 2 (Steady)"), lines
        terminal.send("1\r")


def test_issue19_each_move_is_shown_once_on_a_short_terminal(
    tmp_path: Path, terminals: list[Terminal]
) -> None:
    """Below the live screen's height the moves are printed as they come, not again under
    the table before the prompt."""
    terminal = Terminal(_play_args(tmp_path, "0"), 80, 16, tmp_path)
    terminals.append(terminal)
    terminal.expect(PROMPT)
    assert terminal.plain().lstrip().startswith("Lama Express: Ann (human)")
    terminal.send("2\r")
    terminal.expect(PROMPT)
    plain = terminal.plain()
    for line in ("Bot 2 (pink) rolls red (R).", "Bot 3 (green) rolls purple (P)."):
        assert plain.count(line) == 1, plain


def test_issue19_keys_typed_while_bots_play_are_not_echoed_nor_read(
    tmp_path: Path, terminals: list[Terminal]
) -> None:
    """Keys typed during the bots' turns do not show and do not answer the next prompt."""
    terminal = Terminal(_play_args(tmp_path, "0.4"), 80, 24, tmp_path)
    terminals.append(terminal)
    terminal.expect(PROMPT)
    terminal.send("2\r")
    terminal.expect("Bot 2 \\(pink\\) rolls")  # the bots are playing (0.4 s a move)
    terminal.send("zzz\r")
    time.sleep(0.3)
    terminal.send("qqq")
    terminal.expect(PROMPT)
    after = terminal.output.split("Bot 2 (pink) rolls", 1)[1]
    assert "zzz" not in after and "qqq" not in after
    assert "not possible" not in after and "Type a number" not in after
    terminal.send("1\r")
    terminal.expect(PROMPT)
    assert "zzz" not in terminal.output and "qqq" not in terminal.output


@pytest.mark.slow
def test_issue19_a_first_simulation_says_that_it_compiles(
    tmp_path: Path, terminals: list[Terminal]
) -> None:
    """With an empty Numba cache, ``lama simulate`` says so with a spinner before its
    progress bar (it sat silently at 0/N while compiling)."""
    cache = tmp_path / "numba-cache"
    cache.mkdir()
    args = ["simulate", "dice", "--players", "2", "--games", "20", "--seed", "1"]
    terminal = Terminal(args, 100, 30, tmp_path, NUMBA_CACHE_DIR=str(cache))
    terminals.append(terminal)
    notice = "Preparing the fast engine, first run only"
    assert terminal.child.expect([notice, "Simulating", "dice: seed 1"]) == 0
    terminal.child.expect(pexpect.EOF)
    assert "dice: seed 1" in terminal.child.before


@pytest.mark.parametrize("signal_name", ["SIGHUP", "SIGTERM"])
def test_issue19_closing_the_terminal_window_keeps_the_record(
    terminals: list[Terminal], tmp_path: Path, signal_name: str
) -> None:
    """Closing the window (SIGHUP; or a SIGTERM) mid-game saves the record as Ctrl-C does,
    so the game can be replayed and reviewed (a trial lost it: only ``q`` and Ctrl-C
    saved)."""
    import json
    import signal

    record = tmp_path / "hup.lamarec.json"
    args = ["play", "dice", "--seats", "human,random", "--seed", "9", "--delay", "0"]
    terminal = Terminal([*args, "--record", str(record)], 80, 24, tmp_path)
    terminals.append(terminal)
    for _ in range(2):  # two moves of the person
        terminal.expect(PROMPT)
        terminal.send("1\r")
    terminal.expect(PROMPT)
    terminal.child.kill(getattr(signal, signal_name))
    terminal.expect(pexpect.EOF)
    terminal.child.wait()
    assert record.exists(), terminal.plain()
    actions = json.loads(record.read_text())["actions"]
    assert sum(1 for a in actions if a["player"] == 0) >= 2
