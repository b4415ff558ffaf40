"""Text rendering of a Lama Express position for terminals: pure functions, no printing.

The track is drawn as a ring of cells, clockwise from the top-left corner (space 0 of the
standard board, the yellow station, RULES E-3). Each space is a cell of two rows::

    R@  0      colour letter, role mark, space index
    A1:y       what stands there: train A car 1 with a yellow llama

Role marks: ``@`` boarding space, ``x`` exit space, ``^`` white arrow, ``<`` re-boarding
space. Occupants: ``A:>>`` locomotive of train A, ``A:##`` its coal car, ``A3:.`` empty car
3, ``A3:g`` car 3 with a green llama (llama letters are the first letter of the player
colour). The text reads without colour; :func:`board_text` adds colour with ``rich``.
Stations, houses, footpaths, the die and the window are listed inside the ring (or below it
when the board is too small).
"""

from __future__ import annotations

import math
from typing import Final

from rich.text import Text

from lamagames.express.actions import TRAIN_NAMES
from lamagames.express.board import (
    DIE_COLOUR_NAMES,
    NUM_TRAINS,
    PASSENGER_CARS,
    ROLE_ARROW,
    ROLE_BOARDING,
    ROLE_EXIT,
    ROLE_REBOARD,
)
from lamagames.express.game import ExpressState

#: Characters of one cell (without the separating blank).
CELL_WIDTH: Final = 5
CELL_GAP: Final = 1
ROWS_PER_CELL: Final = 2
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


def _occupants(state: ExpressState) -> dict[int, Line]:
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
    return out


def _pad(line: Line, width: int) -> Line:
    used = sum(len(text) for text, _ in line)
    return [*line, (" " * (width - used), "")] if used < width else line


def _info_lines(state: ExpressState) -> list[Line]:
    game = state.game
    board = state.board
    colours = game.colours
    lines: list[Line] = []
    die = state.die()
    head: Line = [("Die: ", "")]
    if die is None:
        head.append(("-", ""))
    else:
        head += [(die, DIE_STYLES[die]), (f" {DIE_COLOUR_NAMES['ROYGBP'.index(die)]}", "")]
    limit = "" if game.turn_limit is None else f"/{game.turn_limit}"
    active = state.active_player()
    head += [
        (f"  Rolls: {state.rolls()}{limit}  Turn: seat {active} ", ""),
        (colours[active], PLAYER_STYLES[colours[active]]),
    ]
    lines.append(head)
    if state.is_terminal():
        winner = state.winner()
        if winner is None:
            lines.append([("Game over: truncated by the turn limit, no winner", "")])
        else:
            lines.append(
                [
                    ("Game over: winner seat ", ""),
                    (f"{winner} {colours[winner]}", PLAYER_STYLES[colours[winner]]),
                ]
            )
    elif state.window_stage() is not None:
        passed = ", ".join(str(s) for s in state.passed_players()) or "-"
        lines.append(
            [
                (
                    f"Window {state.window_stage()}: asking seat {state.current_player()},"
                    f" passed: {passed}",
                    "",
                )
            ]
        )
    elif state.phase() == "choose":
        lines.append([(f"Seat {active} chooses a train: A or B", "")])
    else:
        lines.append([(f"Seat {active} rolls the die", "")])
    lines.append([("", "")])
    for station in board.stations:
        seat = game.station_seat[board.station_index(station.colour)]
        style = PLAYER_STYLES[station.colour]
        exits = " ".join(str(e) for e in station.exits)
        line: Line = [(f"@{station.boarding:<3} ", ""), (f"{station.colour:<6}", style)]
        if seat < 0:
            line.append((f" (no player)  x {exits}", ""))
        else:
            line.append(
                (
                    f" seat {seat} wait {state.waiting_llamas(seat)}"
                    f" home {state.house_llamas(seat)}  x {exits}",
                    "",
                )
            )
        lines.append(line)
    for index, footpath in enumerate(board.footpaths):
        llamas = state.footpath_llamas(index)
        line = [(f"^{footpath.arrow:<3}-> <{footpath.reboard:<3} [", "")]
        for place in range(footpath.length):
            if place:
                line.append((" ", ""))
            if place < len(llamas):
                colour = colours[llamas[place][0]]
                line.append((colour[0], PLAYER_STYLES[colour]))
            else:
                line.append((".", ""))
        line.append(("] front first", ""))
        lines.append(line)
    lines.append([("@ board  x exit  ^ arrow  < re-board", "")])
    return lines


def _layout(state: ExpressState) -> list[Line]:
    board = state.board
    positions = ring_positions(board.length)
    rows = 1 + max(r for r, _ in positions)
    cols = 1 + max(c for _, c in positions)
    pitch = CELL_WIDTH + CELL_GAP
    grid: list[list[Line | None]] = [[None] * cols for _ in range(rows * ROWS_PER_CELL)]
    occupants = _occupants(state)
    for space, (r, c) in enumerate(positions):
        letter = board.track[space]
        mark = ROLE_MARKS.get(board.role[space], " ")
        grid[r * ROWS_PER_CELL][c] = [(letter, DIE_STYLES[letter]), (f"{mark}{space:>3}", "")]
        grid[r * ROWS_PER_CELL + 1][c] = occupants.get(space, [("", "")])
    info = _info_lines(state)
    inner_width = (cols - 2) * pitch - CELL_GAP
    inner_rows = (rows - 2) * ROWS_PER_CELL
    fits = len(info) <= inner_rows and all(
        sum(len(t) for t, _ in line) <= inner_width for line in info
    )
    lines: list[Line] = []
    for index, row in enumerate(grid):
        line: Line = []
        inner = index - ROWS_PER_CELL
        for c, cell in enumerate(row):
            if c == 1 and fits and 0 <= inner < len(info):
                line += _pad(info[inner], inner_width + CELL_GAP)
                continue
            if fits and 0 <= inner < len(info) and 0 < c < cols - 1:
                continue
            line += _pad(cell or [("", "")], CELL_WIDTH)
            if c < cols - 1:
                line.append((" " * CELL_GAP, ""))
        lines.append(line)
    if not fits:
        lines.append([("", "")])
        lines += info
    return lines


def board_lines(state: ExpressState) -> list[str]:
    """The position as plain text lines (no colour codes, trailing blanks stripped)."""
    return ["".join(text for text, _ in line).rstrip() for line in _layout(state)]


def board_text(state: ExpressState) -> Text:
    """The position as a ``rich`` :class:`~rich.text.Text` with die and player colours."""
    rows = []
    for line in _layout(state):
        row = Text()
        for part, style in line:
            row.append(part, style=style or None)
        row.rstrip()
        rows.append(row)
    return Text("\n").join(rows)
