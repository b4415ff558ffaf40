"""Text rendering of a Lama Express position for terminals: pure functions, no printing.

The track is drawn as a ring of cells, clockwise from the top-left corner (space 0 of the
standard board, the yellow station, docs/rules.md E-3). Each space is a cell of two rows::

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
* :func:`~lamagames.express.table.table_lines` / :func:`~lamagames.express.table.table_text`
  (in :mod:`lamagames.express.table`): the table for people, with names, whose turn,
  the open window and everyone's chances, the players' llamas, the footpaths, the viewer's
  laps (``A3:y*``: the lap is done, E-8) and a key; a track wider than the terminal is
  drawn as rows of cells instead of a ring;
* :func:`board_drawing_lines` / :func:`board_drawing_text`: a bare board (E-3, E-12) with
  its stations, arrows and footpaths, and :func:`board_summary` in a few lines.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text

from lamagames.core.errors import plural
from lamagames.core.game import State
from lamagames.express.board import DIE_COLOUR_NAMES, Board
from lamagames.express.drawing import (
    DIE_STYLES,
    PLAYER_STYLES,
    Line,
    compose,
    flow,
    occupants,
    to_plain,
    to_text,
    words,
)
from lamagames.express.game import as_express_state
from lamagames.express.material import DIE_COLOURS
from lamagames.express.rules import Phase
from lamagames.express.state import ExpressState


def _info_lines(state: ExpressState) -> list[Line]:
    game = state.game
    board = state.board
    colours = game.colours
    lines: list[Line] = []
    die = state.die()
    roller = state.last_roller()
    between = state.phase() == Phase.ROLL and roller is not None
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
    elif state.phase() == Phase.CHOOSE:
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
    return compose(state.board, occupants(state), lambda width: _info_lines(state))


def board_lines(state: ExpressState) -> list[str]:
    """The position as plain text lines (no colour codes, trailing blanks stripped)."""
    return to_plain(_layout(state))


def position_text(state: State, names: Sequence[str] | None = None) -> str:
    """The position as plain text (the board drawing with its info panel), for text
    renderers such as the RL adapters' ``render_mode="ansi"``.

    ``names`` is accepted for the common signature of a game's ``text`` extra and not
    used: the drawing names seats by their colours.

    Raises:
        IllegalActionError: ``state`` is not a Lama Express state.
    """
    return "\n".join(board_lines(as_express_state(state))) + "\n"


def board_text(state: ExpressState) -> Text:
    """The position as a ``rich`` :class:`~rich.text.Text` with die and player colours."""
    return to_text(_layout(state))


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
    lines = flow(
        [(f"Board {board.name!r}: ", "bold")],
        [
            [(word, "")]
            for word in f"{board.length} spaces, clockwise from the top left corner".split()
        ],
        width,
        sep=" ",
    )
    if board.description:
        lines += words(board.description, width, "grey50")
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
    lines += flow([("Spaces per colour: ", "")], counts, width)
    key = [
        "@ boarding",
        "x exit",
        "^ white arrow",
        "< re-boarding space;",
        "lower line: yel/pin/gre/blu station,",
        "->3 arrow to the footpath ending at 3,",
        "<-6 re-boarding space of arrow 6",
    ]
    lines += flow([("Key: ", "grey50")], [[(k, "grey50")] for k in key], width)
    return lines


def board_drawing_lines(board: Board, *, width: int | None = None) -> list[str]:
    """A board without trains as plain text: the ring of spaces (colour letter, role mark,
    index; below, the station colour or the footpath connection) with the stations, arrows,
    footpaths and colour counts listed inside (E-3, E-12).

    Args:
        board: the board.
        width: the terminal width; a track too wide for it is drawn as rows of spaces.
    """
    return to_plain(compose(board, _board_cells(board), lambda w: _board_info(board, w), width))


def board_drawing_text(board: Board, *, width: int | None = None) -> Text:
    """:func:`board_drawing_lines` with colours, as a ``rich`` :class:`~rich.text.Text`."""
    return to_text(compose(board, _board_cells(board), lambda w: _board_info(board, w), width))


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
