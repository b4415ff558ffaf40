"""Text rendering of a Lama Express position for terminals: pure functions, no printing.

The track is drawn as a ring of cells, clockwise from the top-left corner (space 0 of the
standard board, the yellow station, RULES E-3). Each space is a cell of two rows::

    R@  0      colour letter, role mark, space index
    A1:y       what stands there: train A car 1 with a yellow llama

Role marks: ``@`` boarding space, ``x`` exit space, ``^`` white arrow, ``<`` re-boarding
space. Occupants: ``A:>>`` locomotive of train A, ``A:##`` its coal car, ``A3:.`` empty car
3, ``A3:g`` car 3 with a green llama (llama letters are the first letter of the player
colour). The text reads without colour; :func:`board_text` adds colour with ``rich``.
Stations, houses, footpaths, the die and the chances (the open window of free actions, E-9)
are listed inside the ring (or below it when the board is too small).

Three drawings share that ring:

* :func:`board_lines` / :func:`board_text`: the compact engine view (seat numbers);
* :func:`table_lines` / :func:`table_text`: the table for people, with names, whose turn,
  the open window and everyone's chances, the players' llamas, the footpaths, the viewer's
  laps (``A3:y*``: the lap is done, E-8) and a key; a track wider than the terminal is
  drawn as rows of cells instead of a ring;
* :func:`board_drawing_lines` / :func:`board_drawing_text`: a bare board (E-3, E-12) with
  its stations, arrows and footpaths, and :func:`board_summary` in a few lines.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from typing import Final

from rich.text import Text

from lamagames.core.errors import plural
from lamagames.express.actions import TRAIN_NAMES, decode_free_action, is_free_action
from lamagames.express.board import (
    DIE_COLOUR_NAMES,
    DIE_COLOURS,
    NUM_TRAINS,
    PASSENGER_CARS,
    ROLE_ARROW,
    ROLE_BOARDING,
    ROLE_EXIT,
    ROLE_REBOARD,
    Board,
)
from lamagames.express.game import ExpressState
from lamagames.express.rules import lap_done as lap_done  # E-8, kept importable from here
from lamagames.express.rules import spaces_to_go as spaces_to_go

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
#: Marks a llama whose lap is done (E-8) in the table view.
LAP_DONE_MARK: Final = "*"
#: Width of a player name in the table's list of players.
NAME_WIDTH: Final = 16
SEPARATOR: Final = " · "

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


def _occupants(state: ExpressState, *, marks: bool = False) -> dict[int, Line]:
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
                if marks and lap_done(state, *llama):
                    out[spaces[car + 1]].append((LAP_DONE_MARK, PLAYER_STYLES[colour]))
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
    roller = state.last_roller()
    between = state.phase() == "roll" and roller is not None
    head: Line = [("Last roll: " if between else "Die: ", "")]
    if die is None:
        head.append(("-", ""))
    else:
        head += [(die, DIE_STYLES[die]), (f" {DIE_COLOUR_NAMES['ROYGBP'.index(die)]}", "")]
    if between:
        head.append((f" (seat {roller})", ""))
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


InfoBuilder = Callable[[int], list[Line]]


def _width(line: Line) -> int:
    return sum(len(text) for text, _ in line)


def _cell_top(board: Board, space: int) -> Line:
    letter = board.track[space]
    mark = ROLE_MARKS.get(board.role[space], " ")
    return [(letter, DIE_STYLES[letter]), (f"{mark}{space:>3}", "")]


def _compose(
    board: Board, bottoms: Mapping[int, Line], info: InfoBuilder, max_width: int | None = None
) -> list[Line]:
    """Lay the track out as a ring with ``info`` inside it (or below it when it does not
    fit); if the ring is wider than ``max_width``, as rows of cells read left to right."""
    positions = ring_positions(board.length)
    cols = 1 + max(c for _, c in positions)
    pitch = CELL_WIDTH + CELL_GAP
    if max_width is not None and cols * pitch - CELL_GAP > max_width:
        return _strip(board, bottoms, info(max_width), max(1, (max_width + CELL_GAP) // pitch))
    return _ring(board, positions, bottoms, info)


def _ring(
    board: Board,
    positions: list[tuple[int, int]],
    bottoms: Mapping[int, Line],
    info_for: InfoBuilder,
) -> list[Line]:
    rows = 1 + max(r for r, _ in positions)
    cols = 1 + max(c for _, c in positions)
    pitch = CELL_WIDTH + CELL_GAP
    grid: list[list[Line | None]] = [[None] * cols for _ in range(rows * ROWS_PER_CELL)]
    for space, (r, c) in enumerate(positions):
        grid[r * ROWS_PER_CELL][c] = _cell_top(board, space)
        grid[r * ROWS_PER_CELL + 1][c] = bottoms.get(space, [("", "")])
    inner_width = (cols - 2) * pitch - CELL_GAP
    inner_rows = (rows - 2) * ROWS_PER_CELL
    info = info_for(inner_width)
    fits = len(info) <= inner_rows and all(_width(line) <= inner_width for line in info)
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
        lines += info_for(max(inner_width, cols * pitch - CELL_GAP))
    return lines


def _strip(board: Board, bottoms: Mapping[int, Line], info: list[Line], per_row: int) -> list[Line]:
    """The track as rows of ``per_row`` cells (spaces in reading order), then ``info``."""
    lines: list[Line] = []
    for first in range(0, board.length, per_row):
        spaces = range(first, min(first + per_row, board.length))
        for part in (0, 1):
            line: Line = []
            for space in spaces:
                if line:
                    line.append((" " * CELL_GAP, ""))
                cell = _cell_top(board, space) if part == 0 else bottoms.get(space, [("", "")])
                line += _pad(cell, CELL_WIDTH)
            lines.append(line)
    lines.append([("", "")])
    return lines + info


def _layout(state: ExpressState) -> list[Line]:
    return _compose(state.board, _occupants(state), lambda _width: _info_lines(state))


def board_lines(state: ExpressState) -> list[str]:
    """The position as plain text lines (no colour codes, trailing blanks stripped)."""
    return _to_plain(_layout(state))


def board_text(state: ExpressState) -> Text:
    """The position as a ``rich`` :class:`~rich.text.Text` with die and player colours."""
    return _to_text(_layout(state))


def _to_plain(lines: Sequence[Line]) -> list[str]:
    return ["".join(text for text, _ in line).rstrip() for line in lines]


def _to_text(lines: Sequence[Line]) -> Text:
    rows = []
    for line in lines:
        row = Text()
        for part, style in line:
            row.append(part, style=style or None)
        row.rstrip()
        rows.append(row)
    return Text("\n").join(rows)


# --------------------------------------------------------------------------- text helpers
def _flow(
    head: Line, items: Sequence[Line], width: int, sep: str = "  ", indent: int = 2
) -> list[Line]:
    """``head`` followed by ``items`` separated by ``sep``, wrapped at ``width`` characters
    (an item is never split; continuation lines are indented by ``indent`` blanks)."""
    lines: list[Line] = []
    current: Line = list(head)
    used = _width(head)
    fresh = True  # nothing but the head or the indent on the current line
    for item in items:
        size = _width(item)
        if not fresh and used + len(sep) + size > width:
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


def _words(text: str, width: int, style: str = "") -> list[Line]:
    return _flow([], [[(word, style)] for word in text.split()], width, sep=" ", indent=0)


def _short(name: str, width: int) -> str:
    return name if len(name) <= width else name[: width - 1] + "~"


def _who(state: ExpressState, names: Sequence[str], seat: int) -> Line:
    """``Anna (yellow)``, the name in the player's colour."""
    colour = state.game.colours[seat]
    return [(_short(names[seat], NAME_WIDTH), PLAYER_STYLES[colour]), (f" ({colour})", "")]


def _die(letter: str | None) -> Line:
    if letter is None:
        return [("-", "")]
    return [(letter, DIE_STYLES[letter]), (f" {DIE_COLOUR_NAMES[DIE_COLOURS.index(letter)]}", "")]


def _joined(parts: Sequence[Line], sep: str = ", ") -> Line:
    out: Line = []
    for part in parts:
        if out:
            out.append((sep, ""))
        out += part
    return out


# --------------------------------------------------------------------------- the table
def _status_lines(state: ExpressState, names: Sequence[str], width: int) -> list[Line]:
    game = state.game
    active = state.active_player()
    limit = "" if game.turn_limit is None else f"/{game.turn_limit}"
    head: Line = [("Turn: ", "bold"), *_who(state, names, active)]
    roller = state.last_roller()
    if state.phase() == "roll" and roller is not None:  # between turns: the last roll's die
        head.append((f"{SEPARATOR}next roll #{state.rolls() + 1}{limit}", ""))
        last: Line = [("last roll ", ""), *_die(state.die()), (" by ", "")]
        last.append((_short(names[roller], NAME_WIDTH), PLAYER_STYLES[game.colours[roller]]))
        lines = _flow([], [head, last], width, sep=SEPARATOR)
    else:
        head += [(f"{SEPARATOR}roll #{state.rolls()}{limit}{SEPARATOR}die ", "")]
        lines = _flow([], [head + _die(state.die())], width)
    stage = state.window_stage()
    if state.is_terminal():
        winner = state.winner()
        if winner is None:
            lines.append([("Game over: the turn limit is reached, no winner.", "bold")])
        else:
            lines.append([("Game over: ", "bold"), *_who(state, names, winner), (" wins!", "bold")])
    elif stage is not None:
        # The terminal says "chances" for what the rules call a window of free actions.
        when = "roll" if stage == "after_roll" else "move"
        chances = []
        for seat in state.acting_players():
            free = state.available_actions(seat)
            notes = ", ".join(state.action_to_string(a, seat) for a in free)
            chances.append([*_who(state, names, seat), (f": {notes}", "")])
        lines += _flow([("Chances: ", "bold")], chances, width, sep="; ")
        status: Line = [(f"After the {when}: ", "bold"), ("asking ", "")]
        status += _who(state, names, state.current_player())
        passed = state.passed_players()
        if passed:
            status += [("; passed: ", ""), *_joined([_who(state, names, s) for s in passed])]
        lines += _flow([], [status], width)
    elif state.phase() == "choose":
        lines.append([*_who(state, names, active), (" chooses train A or B.", "")])
    else:
        lines.append([*_who(state, names, active), (" rolls the die next.", "")])
    return lines


#: Width of the columns Wait, Ride, Walk and Home of the players' list.
COUNT_COLUMNS: Final = " Wait Ride Walk Home"
YOU: Final = " (you)"


def _player_lines(
    state: ExpressState, names: Sequence[str], viewer: int | None, width: int
) -> list[Line]:
    """One line per station: its player, boarding and exit spaces, and where the player's
    llamas are. The name column shrinks to fit ``width`` (down to 8 characters)."""
    game = state.game
    board = state.board
    exits = [" ".join(str(e) for e in s.exits) for s in board.stations]
    exit_width = 2 + max(len(e) for e in exits)
    board_width = 2 + max(len(str(s.boarding)) for s in board.stations)
    fixed = 3 + 1 + board_width + 1 + exit_width + len(COUNT_COLUMNS)
    name_width = max(8, min(NAME_WIDTH + len(YOU), width - fixed))
    header = f"  {'Player':<{name_width}} {'Board':<{board_width}} {'Exits':<{exit_width}}"
    lines: list[Line] = [[(header + COUNT_COLUMNS, "bold")]]
    active = state.active_player()
    for k, station in enumerate(board.stations):
        seat = game.station_seat[k]
        style = PLAYER_STYLES[station.colour]
        mark = ">" if seat == active and not state.is_terminal() else " "
        line: Line = [(mark, "bold"), (station.colour[0], style), (" ", "")]
        if seat < 0:
            name = "(nobody)"
        elif seat == viewer:
            name = _short(names[seat], name_width - len(YOU)) + YOU
        else:
            name = _short(names[seat], name_width)
        line += [(f"{name:<{name_width}} ", style if seat >= 0 else "")]
        line += [(f"@{station.boarding:<{board_width - 1}} x {exits[k]:<{exit_width - 2}}", "")]
        if seat >= 0:
            where = state.llama_locations(seat)
            line.append(
                (
                    f" {where['station']:>4} {len(where['cars']):>4} {len(where['footpaths']):>4}"
                    f" {where['house']:>2}/{game.llamas_to_win}",
                    "",
                )
            )
        lines.append(line)
    return lines


def _footpath_lines(state: ExpressState, width: int) -> list[Line]:
    colours = state.game.colours
    items: list[Line] = []
    for index, footpath in enumerate(state.board.footpaths):
        llamas = state.footpath_llamas(index)
        item: Line = [(f"^{footpath.arrow} -> <{footpath.reboard} [", "")]
        for place in range(footpath.length):
            if place:
                item.append((" ", ""))
            if place < len(llamas):
                colour = colours[llamas[place][0]]
                item.append((colour[0], PLAYER_STYLES[colour]))
            else:
                item.append((".", ""))
        items.append([*item, ("]", "")])
    if not items:
        return []
    return _flow([("Footpaths, front first: ", "")], items, width)


def _viewer_lines(state: ExpressState, viewer: int, width: int) -> list[Line]:
    colour = state.game.colours[viewer]
    style = PLAYER_STYLES[colour]

    def status(progress: int) -> str:
        to_go = spaces_to_go(state, viewer, progress)
        return "lap done" if to_go == 0 else f"{to_go} to go"

    items: list[Line] = []
    for train in range(NUM_TRAINS):
        for car in range(1, PASSENGER_CARS + 1):
            llama = state.car_llama(train, car)
            if llama is not None and llama[0] == viewer:
                items.append([(f"{TRAIN_NAMES[train]}{car}", style), (f" {status(llama[1])}", "")])
    for index, footpath in enumerate(state.board.footpaths):
        for place, (who, progress) in enumerate(state.footpath_llamas(index)):
            if who == viewer:
                items.append(
                    [
                        (f"^{footpath.arrow} path", style),
                        (f" #{place + 1}, {status(progress)}", ""),
                    ]
                )
    if not items:
        return []
    return _flow([("Your llamas: ", "bold")], items, width, sep="; ")


KEY_ITEMS: Final = (
    "@ boarding",
    "x exit",
    "^ white arrow",
    "< re-board",
    f"A:{LOCOMOTIVE_MARK} engine",
    f"A:{COAL_MARK} coal car",
    "A3:. empty car 3",
    "A3:y yellow llama",
    f"{LAP_DONE_MARK} lap done",
)


def _table_info(
    state: ExpressState, names: Sequence[str], viewer: int | None, width: int
) -> list[Line]:
    lines = _status_lines(state, names, width)
    lines.append([("", "")])
    lines += _player_lines(state, names, viewer, width)
    paths = _footpath_lines(state, width)
    if paths:
        lines += [[("", "")], *paths]
    if viewer is not None:
        mine = _viewer_lines(state, viewer, width)
        if mine:
            lines += [[("", "")], *mine]
    lines.append([("", "")])
    lines += _flow([("Key: ", "grey50")], [[(k, "grey50")] for k in KEY_ITEMS], width)
    return lines


def _table_cells(state: ExpressState, viewer: int | None) -> dict[int, Line]:
    """Train cells, with the cars where ``viewer`` may act now shown in reverse video."""
    cells = _occupants(state, marks=True)
    if viewer is None or state.is_terminal():
        return cells
    for action in state.legal_actions(viewer):
        if is_free_action(action):
            _kind, train, car = decode_free_action(action)
            space = state.car_space(train, car)
            cells[space] = [(t, f"{s} reverse".strip()) for t, s in cells[space]]
    return cells


def _table_layout(
    state: ExpressState, names: Sequence[str], viewer: int | None, width: int | None
) -> list[Line]:
    if len(names) != state.game.num_players:
        raise ValueError(f"{len(names)} names for {state.game.num_players} seats")
    return _compose(
        state.board,
        _table_cells(state, viewer),
        lambda inner: _table_info(state, names, viewer, inner),
        width,
    )


def table_lines(
    state: ExpressState,
    names: Sequence[str],
    *,
    viewer: int | None = None,
    width: int | None = None,
) -> list[str]:
    """The table for people as plain text lines: the track with the trains, and inside the
    ring whose turn it is, the die, the open window with everyone's chances, the players
    (llamas waiting, riding, walking, home), the footpaths and a key.

    Args:
        state: the position.
        names: display name of each seat.
        viewer: the seat looking at the table (its llamas are listed with the spaces they
            still have to ride, its possible cars are highlighted); ``None``: a spectator.
        width: the terminal width; a track too wide for it is drawn as rows of spaces.

    Raises:
        ValueError: ``names`` does not have one name per seat.
    """
    return _to_plain(_table_layout(state, names, viewer, width))


def table_text(
    state: ExpressState,
    names: Sequence[str],
    *,
    viewer: int | None = None,
    width: int | None = None,
) -> Text:
    """:func:`table_lines` with colours, as a ``rich`` :class:`~rich.text.Text`."""
    return _to_text(_table_layout(state, names, viewer, width))


# --------------------------------------------------------------------------- a bare board
def _board_cells(board: Board) -> dict[int, Line]:
    cells: dict[int, Line] = {}
    for station in board.stations:
        style = PLAYER_STYLES[station.colour]
        for space in (station.boarding, *station.exits):
            cells[space] = [(station.colour[:3], style)]
    for footpath in board.footpaths:
        cells[footpath.arrow] = [(f"->{footpath.reboard}", "bold")]
        cells[footpath.reboard] = [(f"<-{footpath.arrow}", "bold")]
    return cells


def _board_info(board: Board, width: int) -> list[Line]:
    lines = _flow(
        [(f"Board {board.name!r}: ", "bold")],
        [[(f"{board.length} spaces, clockwise from the top left corner", "")]],
        width,
    )
    if board.description:
        lines += _words(board.description, width, "grey50")
    lines.append([("", "")])
    exit_width = max(len(" ".join(str(e) for e in s.exits)) for s in board.stations) + 2
    lines.append([(f"Station  Boarding  {'Exits':<{exit_width}}", "bold")])
    for station in board.stations:
        exits = " ".join(str(e) for e in station.exits)
        lines.append(
            [
                (f"{station.colour:<8}", PLAYER_STYLES[station.colour]),
                (f" @{station.boarding:<8} x {exits}", ""),
            ]
        )
    lines.append([("", "")])
    if board.footpaths:
        lines.append([("Arrow  Footpath        Re-board", "bold")])
        for f in board.footpaths:
            prints = "footprint" if f.length == 1 else "footprints"
            row = f"^{f.arrow:<5} {f.length:>2} {prints:<11}  <{f.reboard} ({f.walk_back} back)"
            lines.append([(row, "")])
    else:
        lines.append([("No white arrows.", "")])
    lines.append([("", "")])
    counts = [
        [(letter, DIE_STYLES[letter]), (f" {board.track.count(letter)}", "")]
        for letter in DIE_COLOURS
    ]
    lines += _flow([("Spaces per colour: ", "")], counts, width)
    key = [
        "@ boarding",
        "x exit",
        "^ white arrow",
        "< re-boarding space;",
        "lower line: yel/pin/gre/blu station,",
        "->3 arrow to the footpath ending at 3,",
        "<-6 re-boarding space of arrow 6",
    ]
    lines += _flow([("Key: ", "grey50")], [[(k, "grey50")] for k in key], width)
    return lines


def board_drawing_lines(board: Board, *, width: int | None = None) -> list[str]:
    """A board without trains as plain text: the ring of spaces (colour letter, role mark,
    index; below, the station colour or the footpath connection) with the stations, arrows,
    footpaths and colour counts listed inside (E-3, E-12).

    Args:
        board: the board.
        width: the terminal width; a track too wide for it is drawn as rows of spaces.
    """
    return _to_plain(_compose(board, _board_cells(board), lambda w: _board_info(board, w), width))


def board_drawing_text(board: Board, *, width: int | None = None) -> Text:
    """:func:`board_drawing_lines` with colours, as a ``rich`` :class:`~rich.text.Text`."""
    return _to_text(_compose(board, _board_cells(board), lambda w: _board_info(board, w), width))


def board_summary(board: Board) -> list[str]:
    """A few plain lines describing a valid board (for ``lama board validate``)."""
    stations = ", ".join(
        f"{s.colour} @{s.boarding} x {' '.join(str(e) for e in s.exits)}" for s in board.stations
    )
    arrows = ", ".join(
        f"^{f.arrow} -> <{f.reboard} ({plural(f.length, 'footprint')})" for f in board.footpaths
    )
    return [
        f"Board {board.name!r}: {plural(board.length, 'space')}, "
        f"{plural(len(board.stations), 'station')}, "
        f"{plural(len(board.footpaths), 'white arrow')}.",
        f"Stations: {stations}.",
        f"Arrows: {arrows or 'none'}.",
    ]
