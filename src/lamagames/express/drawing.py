"""Drawing primitives of the Lama Express text views: cells, the ring, rows of cells, styled
segments and word flow. Pure functions, no printing; used by :mod:`lamagames.express.render`
(the engine view and bare boards) and :mod:`lamagames.express.table` (the table for people).

The track is drawn as a ring of cells, clockwise from the top-left corner (space 0 of the
standard board, docs/rules.md E-3); each space is a cell of two rows (colour letter, role mark and
index; below, what stands there). A line is a list of ``(text, rich style)`` segments.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Mapping, Sequence
from typing import Final

from rich.text import Text

from lamagames.core.i18n import ENGLISH, Translator, language_of, web_text
from lamagames.express.actions import TRAIN_NAMES
from lamagames.express.board import DIE_COLOUR_NAMES, Board
from lamagames.express.material import (
    DIE_COLOURS,
    NUM_TRAINS,
    PASSENGER_CARS,
    ROLE_ARROW,
    ROLE_BOARDING,
    ROLE_EXIT,
    ROLE_REBOARD,
)
from lamagames.express.state import ExpressState

#: Characters of one cell (without the separating blank).
CELL_WIDTH: Final = 5
CELL_GAP: Final = 1
ROWS_PER_CELL: Final = 2
#: Blanks between the ring's side columns and the text inside the ring (besides the gap).
INFO_MARGIN: Final = 2
ROLE_MARKS: Final = {ROLE_BOARDING: "@", ROLE_EXIT: "x", ROLE_ARROW: "^", ROLE_REBOARD: "<"}
#: rich styles of the die colours and the player colours.
DIE_STYLES: Final = {
    "R": "bold white on red",
    "O": "bold black on dark_orange",
    "Y": "bold black on yellow",
    "G": "bold white on green",
    "B": "bold white on blue",
    "P": "bold white on purple",
}
PLAYER_STYLES: Final = {
    "yellow": "bold yellow",
    "pink": "bold hot_pink",
    "green": "bold green",
    "blue": "bold dodger_blue1",
}
TRAIN_STYLE: Final = "bold"
LOCOMOTIVE_MARK: Final = ">>"
COAL_MARK: Final = "##"
#: Marks a llama whose lap is done (E-8) in the table view.
LAP_DONE_MARK: Final = "*"
#: Width of a player name in the table's list of players.
NAME_WIDTH: Final = 16
SEPARATOR: Final = " · "
#: The browser's catalogs of Lama Express: their ``express.letter.<X>`` messages are the die
#: colours' letters people read in each language (French ``J`` jaune, ``Ve`` vert, ``Vi``
#: violet; one source for the browser's board and the terminal's, :func:`die_letter`).
WEB_WORDS: Final = "lamagames.express:static"

Segment = tuple[str, str]  # (text, rich style; "" for none)
Line = list[Segment]


def ring_positions(length: int) -> list[tuple[int, int]]:
    """Grid cells ``(row, column)`` of the spaces ``0..length-1``, clockwise around a
    rectangle starting at the top-left corner (space 0)."""
    width = math.ceil(length / 4) + 1
    rest = length - 2 * width
    right = math.ceil(rest / 2)
    left = rest - right
    height = right + 2
    cells = [(0, c) for c in range(width)]
    cells += [(r, width - 1) for r in range(1, right + 1)]
    cells += [(height - 1, c) for c in range(width - 1, -1, -1)]
    cells += [(r, 0) for r in range(height - 2, height - 2 - left, -1)]
    return cells[:length]


def occupants(state: ExpressState, *, marks: bool = False) -> dict[int, Line]:
    """Second row of the cells a train covers. With ``marks``, a llama whose lap is done
    (E-8) gets a ``*``."""
    colours = state.game.colours
    out: dict[int, Line] = {}
    for train in range(NUM_TRAINS):
        name = TRAIN_NAMES[train]
        spaces = state.train_spaces(train)
        out[spaces[0]] = [(f"{name}:{LOCOMOTIVE_MARK}", TRAIN_STYLE)]
        out[spaces[1]] = [(f"{name}:{COAL_MARK}", TRAIN_STYLE)]
        for car in range(1, PASSENGER_CARS + 1):
            llama = state.car_llama(train, car)
            if llama is None:
                out[spaces[car + 1]] = [(f"{name}{car}:.", "")]
            else:
                colour = colours[llama[0]]
                out[spaces[car + 1]] = [
                    (f"{name}{car}:", ""),
                    (colour[0], PLAYER_STYLES[colour]),
                ]
                if marks and state.lap_done(*llama):
                    out[spaces[car + 1]].append((LAP_DONE_MARK, PLAYER_STYLES[colour]))
    return out


def pad(line: Line, width: int) -> Line:
    """``line`` filled with spaces to ``width`` characters (unchanged if already wider)."""
    used = line_width(line)
    return [*line, (" " * (width - used), "")] if used < width else line


InfoBuilder = Callable[[int], list[Line]]


def line_width(line: Line) -> int:
    """Characters in ``line`` (the sum of its styled pieces)."""
    return sum(len(text) for text, _ in line)


def die_letter(letter: str, tr: Translator = ENGLISH) -> str:
    """A die colour's letter (``"G"``, E-1) as people read it in the language of ``tr``:
    the browser's (:data:`WEB_WORDS`, ``express.letter.G``: French ``Ve``, Dutch ``Gr``);
    the letter itself in English or when the catalog cannot be read."""
    try:
        return web_text(WEB_WORDS, f"express.letter.{letter}", language_of(tr))
    except (KeyError, OSError, ValueError):
        return letter


def cell_top(board: Board, space: int, tr: Translator = ENGLISH) -> Line:
    """Top line of the cell of track ``space``: its die letter in the language of ``tr``
    (:func:`die_letter`), role mark and number (E-3), :data:`CELL_WIDTH` characters. A
    two-letter colour (French ``Ve``) leaves two digits to the number; on a board with
    spaces numbered from 100 every cell shows the English letters (the help lists them)."""
    letter = board.track[space]
    mark = ROLE_MARKS.get(board.role[space], " ")
    shown = letter if board.length > 100 else die_letter(letter, tr)
    digits = CELL_WIDTH - 1 - len(shown)
    return [(shown, DIE_STYLES[letter]), (f"{mark}{space:>{digits}}", "")]


def compose(
    board: Board,
    bottoms: Mapping[int, Line],
    info: InfoBuilder,
    max_width: int | None = None,
    tr: Translator = ENGLISH,
) -> list[Line]:
    """Lay the track out as a ring with ``info`` inside it (or below it when it does not
    fit); if the ring is wider than ``max_width``, as rows of cells read left to right
    (``tr``: the language of the colour letters, :func:`cell_top`)."""
    positions = ring_positions(board.length)
    cols = 1 + max(c for _, c in positions)
    pitch = CELL_WIDTH + CELL_GAP
    if max_width is not None and cols * pitch - CELL_GAP > max_width:
        per_row = max(1, (max_width + CELL_GAP) // pitch)
        return strip(board, bottoms, info(max_width), per_row, tr=tr)
    return ring(board, positions, bottoms, info, tr)


def ring(
    board: Board,
    positions: list[tuple[int, int]],
    bottoms: Mapping[int, Line],
    info_for: InfoBuilder,
    tr: Translator = ENGLISH,
) -> list[Line]:
    """Cells of the track at their ``(row, column)`` ``positions`` (one per space, E-3),
    each cell's bottom line from ``bottoms``, with ``info_for(inner width)`` inside the
    ring (``tr``: the language of the colour letters)."""
    rows = 1 + max(r for r, _ in positions)
    cols = 1 + max(c for _, c in positions)
    pitch = CELL_WIDTH + CELL_GAP
    grid: list[list[Line | None]] = [[None] * cols for _ in range(rows * ROWS_PER_CELL)]
    for space, (r, c) in enumerate(positions):
        grid[r * ROWS_PER_CELL][c] = cell_top(board, space, tr)
        grid[r * ROWS_PER_CELL + 1][c] = bottoms.get(space, [("", "")])
    inner_width = (cols - 2) * pitch - CELL_GAP
    inner_rows = (rows - 2) * ROWS_PER_CELL
    # A margin keeps the cars of the left and right columns apart from the text inside.
    info_width = inner_width - 2 * INFO_MARGIN
    info = info_for(info_width)
    fits = len(info) <= inner_rows and all(line_width(line) <= info_width for line in info)
    lines: list[Line] = []
    for index, row in enumerate(grid):
        line: Line = []
        inner = index - ROWS_PER_CELL
        for c, cell in enumerate(row):
            if c == 1 and fits and 0 <= inner < len(info):
                line.append((" " * INFO_MARGIN, ""))
                line += pad(info[inner], inner_width - INFO_MARGIN + CELL_GAP)
                continue
            if fits and 0 <= inner < len(info) and 0 < c < cols - 1:
                continue
            line += pad(cell or [("", "")], CELL_WIDTH)
            if c < cols - 1:
                line.append((" " * CELL_GAP, ""))
        lines.append(line)
    if not fits:
        lines.append([("", "")])
        lines += info_for(max(inner_width, cols * pitch - CELL_GAP))
    return lines


def strip(
    board: Board,
    bottoms: Mapping[int, Line],
    info: list[Line],
    per_row: int,
    *,
    gap: bool = True,
    tight: bool = False,
    tr: Translator = ENGLISH,
) -> list[Line]:
    """The track as rows of ``per_row`` cells (spaces in reading order), then ``info``
    (after a blank line if ``gap``; ``tr``: the language of the colour letters). ``tight``:
    a row with no car on it has no line under it (the cells' tops only)."""
    lines: list[Line] = []
    for first in range(0, board.length, per_row):
        spaces = range(first, min(first + per_row, board.length))
        empty = not any(line_width(bottoms.get(space, [])) for space in spaces)
        for part in (0,) if tight and empty else (0, 1):
            line: Line = []
            for space in spaces:
                if line:
                    line.append((" " * CELL_GAP, ""))
                cell = cell_top(board, space, tr) if part == 0 else bottoms.get(space, [("", "")])
                line += pad(cell, CELL_WIDTH)
            lines.append(line)
    if gap:
        lines.append([("", "")])
    return lines + info


def to_plain(lines: Sequence[Line]) -> list[str]:
    """``lines`` as plain strings without styles or trailing spaces."""
    return ["".join(text for text, _ in line).rstrip() for line in lines]


def to_text(lines: Sequence[Line]) -> Text:
    """``lines`` as one Rich :class:`Text` with their styles, one row per line."""
    rows = []
    for line in lines:
        row = Text()
        for part, style in line:
            row.append(part, style=style or None)
        row.rstrip()
        rows.append(row)
    return Text("\n").join(rows)


# --------------------------------------------------------------------------- text helpers
def flow(
    head: Line, items: Sequence[Line], width: int, sep: str = "  ", indent: int = 2
) -> list[Line]:
    """``head`` followed by ``items`` separated by ``sep``, wrapped at ``width`` characters
    (an item is never split; continuation lines are indented by ``indent`` blanks). An item
    that does not fit beside a long head starts the next line (German ``Lamas wartend/im
    Zug/zu Fuß/zu Hause (von 4): `` at 60 columns: its first player was cut off)."""
    lines: list[Line] = []
    current: Line = list(head)
    used = line_width(head)
    if used > width:  # a head wider than the terminal wraps between its words
        lines = flow([], _words_of(head), width, sep=" ", indent=indent)
        current = [*lines.pop(), (" ", "")]
        used = line_width(current)
    fresh = True  # nothing but the head or the indent on the current line
    for index, item in enumerate(items):
        size = line_width(item)
        beside_head = index == 0 and used > 0 and used + size > width and indent + size <= width
        if beside_head or (not fresh and used + len(sep) + size > width):
            lines.append(current)
            current, used, fresh = [(" " * indent, "")], indent, True
        if not fresh:
            current.append((sep, ""))
            used += len(sep)
        current += item
        used += size
        fresh = False
    lines.append(current)
    return lines


def _words_of(line: Line) -> list[Line]:
    """``line`` cut into its words, each a line of its own pieces (styles kept), without the
    blanks between words (a no-break space, French ``(sur 4)\u00a0:``, joins)."""
    out: list[Line] = []
    word: Line = []
    for text, style in line:
        for piece in re.findall(r"[^ ]+| +", text):
            if piece.isspace():
                if word:
                    out.append(word)
                word = []
            else:
                word.append((piece, style))
    if word:
        out.append(word)
    return out


def words(text: str, width: int, style: str = "") -> list[Line]:
    """``text`` wrapped at ``width`` characters on spaces, every word in ``style``."""
    return flow([], [[(word, style)] for word in text.split()], width, sep=" ", indent=0)


def short(name: str, width: int) -> str:
    """``name`` cut to ``width`` characters, ending in ``~`` when it was cut."""
    return name if len(name) <= width else name[: width - 1] + "~"


def who_line(
    state: ExpressState, names: Sequence[str], seat: int, tr: Translator = ENGLISH
) -> Line:
    """``Anna (yellow)``, the name in the player's colour (the colour's word in the language
    of ``tr``)."""
    colour = state.game.colours[seat]
    word = tr.gettext(colour)
    return [(short(names[seat], NAME_WIDTH), PLAYER_STYLES[colour]), (f" ({word})", "")]


def die_line(letter: str | None, tr: Translator = ENGLISH) -> Line:
    """The colour die's face (``G green``; French ``Ve vert``, :func:`die_letter`), or ``-``
    before the first roll (E-6)."""
    if letter is None:
        return [("-", "")]
    word = tr.gettext(DIE_COLOUR_NAMES[DIE_COLOURS.index(letter)])
    return [(die_letter(letter, tr), DIE_STYLES[letter]), (f" {word}", "")]


def joined(parts: Sequence[Line], sep: str = ", ") -> Line:
    """``parts`` in one line, separated by ``sep``."""
    out: Line = []
    for part in parts:
        if out:
            out.append((sep, ""))
        out += part
    return out
