"""The Lama Express table for people as text: the track with the trains, whose turn it is,
the open window with everyone's chances, the players' llamas, the footpaths, the viewer's
laps and a key. Pure functions, no printing.

Inside the ring when it fits the terminal width; a track wider than the terminal is drawn as
rows of cells. On a short terminal (``height`` given and the full table taller) a compact
layout is drawn: rows of cells, then the players, footpaths and laps in a few lines, and
whose turn it is last, nearest the prompt.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from rich.text import Text

from lamagames.core.i18n import ENGLISH, Translator
from lamagames.core.i18n import mark as _mark_constant
from lamagames.express.actions import TRAIN_NAMES, decode_free_action, is_free_action
from lamagames.express.drawing import (
    CELL_GAP,
    CELL_WIDTH,
    COAL_MARK,
    LAP_DONE_MARK,
    LOCOMOTIVE_MARK,
    NAME_WIDTH,
    PLAYER_STYLES,
    SEPARATOR,
    Line,
    compose,
    die_line,
    flow,
    joined,
    occupants,
    short,
    strip,
    to_plain,
    to_text,
    who_line,
)
from lamagames.express.material import NUM_TRAINS, PASSENGER_CARS
from lamagames.express.narration import LABELLED, chance_words
from lamagames.express.rules import Phase
from lamagames.express.state import ExpressState

#: Spaces per row of the compact layout (a quarter of the standard board).
COMPACT_ROW: Final = 12
#: Width assumed for the compact layout when none is given.
COMPACT_WIDTH: Final = 80
#: Head of the footpaths' line in the compact layout (the help says "front first").
COMPACT_FOOTPATHS: Final = _mark_constant("Footpaths: ")


# --------------------------------------------------------------------------- the table
def _status_lines(
    state: ExpressState,
    names: Sequence[str],
    width: int,
    *,
    compact: bool = False,
    tr: Translator = ENGLISH,
) -> list[Line]:
    """Whose turn it is, the roll count and the die, then the game's end, the open window
    (everyone's chances, who is asked, who passed) or what comes next. ``compact``: what
    comes next and who is asked go on the turn's line (wrapped if it is too long)."""
    _ = tr.gettext
    game = state.game
    active = state.active_player()
    limit = "" if game.turn_limit is None else f"/{game.turn_limit}"
    head: Line = [(_("Turn: "), "bold"), *who_line(state, names, active, tr)]
    roller = state.last_roller()
    items: list[Line]
    if state.phase() == Phase.ROLL and roller is not None:  # between turns: the last roll's die
        next_roll = _("next roll #{n}").format(n=f"{state.rolls() + 1}{limit}")
        last: Line = [(_("last roll "), ""), *die_line(state.die(), tr), (_(" by "), "")]
        last.append((short(names[roller], NAME_WIDTH), PLAYER_STYLES[game.colours[roller]]))
        items = [head, [(next_roll, "")], last]
    else:
        roll = _("roll #{n}").format(n=f"{state.rolls()}{limit}")
        die = _("die")
        # the roll and the die items of their own: on a narrow terminal they go on the
        # next line rather than off the edge (``roll #13/2000 · d`` at 40 columns)
        items = [head, [(roll, "")], [(f"{die} ", ""), *die_line(state.die(), tr)]]
    stage = state.window_stage()
    after: list[Line] = []
    if state.is_terminal():
        winner = state.winner()
        if winner is None:
            after.append([(_("Game over: the turn limit is reached, no winner."), "bold")])
        else:
            after.append(
                [
                    (_("Game over: "), "bold"),
                    *who_line(state, names, winner, tr),
                    (_(" wins!"), "bold"),
                ]
            )
    elif stage is not None:
        # The terminal says "chances" for what the rules call a window of free actions.
        when = _("After the roll: ") if stage == "after_roll" else _("After the move: ")
        status: Line = [(when, "bold"), (_("asking "), "")]
        if compact:
            status = [(_("asking "), "")]
        status += who_line(state, names, state.current_player(), tr)
        passed = state.passed_players()
        if passed:
            passers = joined([who_line(state, names, s, tr) for s in passed])
            status += [(_("; passed: "), ""), *passers]
        # One item per chance, so a long list wraps between chances; the separators go
        # inside the items (", " between one seat's chances, "; " between seats).
        colon = tr.gettext(LABELLED).format(label="", text="")
        chances: list[Line] = []
        acting = state.acting_players()
        for index, seat in enumerate(acting):
            free = [
                chance_words(state.action_to_string(a, seat), tr)
                for a in state.available_actions(seat)
            ]
            for k, words in enumerate(free):
                final = k == len(free) - 1
                tail = ("" if index == len(acting) - 1 else ";") if final else ","
                item: Line = [*who_line(state, names, seat, tr), (colon, "")] if k == 0 else []
                chances.append([*item, (words + tail, "")])
        if compact:
            items.append(status)
        else:
            after.append(status)
        return [
            *flow([], items, width, sep=SEPARATOR),
            *flow([(_("Chances: "), "bold")], chances, width, sep=" "),
            *[line for part in after for line in flow([], [part], width)],
        ]
    elif state.phase() == Phase.CHOOSE:
        after.append([*who_line(state, names, active, tr), (_(" chooses train A or B."), "")])
    else:
        after.append([*who_line(state, names, active, tr), (_(" rolls the die next."), "")])
    if compact:
        return flow([], items + after, width, sep=SEPARATOR)
    return flow([], items, width, sep=SEPARATOR) + after


#: Width of the columns Wait, Ride, Walk and Home of the players' list.
COUNT_COLUMNS: Final = " Wait Ride Walk Home"
YOU: Final = " (you)"


def _player_lines(
    state: ExpressState,
    names: Sequence[str],
    viewer: int | None,
    width: int,
    tr: Translator = ENGLISH,
) -> list[Line]:
    """One line per station: its player, boarding and exit spaces, and where the player's
    llamas are. The name column shrinks to fit ``width`` (down to 8 characters)."""
    _ = tr.gettext
    you = " " + _("(you)")
    counts = (_("Wait"), _("Ride"), _("Walk"), _("Home"))
    cw = max(4, *(len(word) for word in counts))  # English: COUNT_COLUMNS
    columns = "".join(f" {word:>{cw}}" for word in counts)
    game = state.game
    board = state.board
    exits = [" ".join(str(e) for e in s.exits) for s in board.stations]
    player, boarding, exits_word = _("Player"), _("Board"), _("Exits")
    # as wide as the header's words too (German "Einst.", French "Montée": the header
    # was wider than the terminal at 60 columns)
    exit_width = max(len(exits_word), 2 + max(len(e) for e in exits))
    board_width = max(len(boarding), 2 + max(len(str(s.boarding)) for s in board.stations))
    fixed = 3 + 1 + board_width + 1 + exit_width + len(columns)
    name_width = max(8, min(NAME_WIDTH + len(you), width - fixed))
    # three characters before the name, as the rows ("> y" mark, colour letter, blank)
    header = f"   {player:<{name_width}} {boarding:<{board_width}} {exits_word:<{exit_width}}"
    lines: list[Line] = [[(header + columns, "bold")]]
    active = state.active_player()
    for k, station in enumerate(board.stations):
        seat = game.station_seat[k]
        style = PLAYER_STYLES[station.colour]
        mark = ">" if seat == active and not state.is_terminal() else " "
        line: Line = [(mark, "bold"), (station.colour[0], style), (" ", "")]
        if seat < 0:
            name = _("(nobody)")
        elif seat == viewer:
            name = short(names[seat], name_width - len(you)) + you
        else:
            name = short(names[seat], name_width)
        line += [(f"{name:<{name_width}} ", style if seat >= 0 else "")]
        line += [(f"@{station.boarding:<{board_width - 1}} x {exits[k]:<{exit_width - 2}}", "")]
        if seat >= 0:
            where = state.llama_locations(seat)
            home = f"{where['house']:>2}/{game.llamas_to_win}"
            line.append(
                (
                    f" {where['station']:>{cw}} {len(where['cars']):>{cw}}"
                    f" {len(where['footpaths']):>{cw}} {home:>{cw}}",
                    "",
                )
            )
        lines.append(line)
    return lines


def _footpath_lines(
    state: ExpressState, width: int, *, compact: bool = False, tr: Translator = ENGLISH
) -> list[Line]:
    """The footpaths with the llamas on them, front first: ``^6 -> <3 [g . .]``;
    ``compact``: ``Footpaths: ^6<3[g..]`` (four footpaths on one line of 60 columns)."""
    colours = state.game.colours
    items: list[Line] = []
    for index, footpath in enumerate(state.board.footpaths):
        llamas = state.footpath_llamas(index)
        arrow, gap = ("", "") if compact else (" -> ", " ")
        item: Line = [(f"^{footpath.arrow}{arrow}<{footpath.reboard}{gap}[", "")]
        for place in range(footpath.length):
            if place and not compact:
                item.append((" ", ""))
            if place < len(llamas):
                colour = colours[llamas[place][0]]
                item.append((colour[0], PLAYER_STYLES[colour]))
            else:
                item.append((".", ""))
        items.append([*item, ("]", "")])
    if not items:
        return []
    head = tr.gettext(COMPACT_FOOTPATHS) if compact else tr.gettext("Footpaths, front first: ")
    return flow([(head, "")], items, width)


def _viewer_lines(
    state: ExpressState, viewer: int, width: int, tr: Translator = ENGLISH
) -> list[Line]:
    _ = tr.gettext
    colour = state.game.colours[viewer]
    style = PLAYER_STYLES[colour]

    def status(progress: int) -> str:
        to_go = state.spaces_to_go(viewer, progress)
        return _("lap done") if to_go == 0 else _("{n} to go").format(n=to_go)

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
                        (_("^{arrow} path").format(arrow=footpath.arrow), style),
                        (f" #{place + 1}, {status(progress)}", ""),
                    ]
                )
    if not items:
        return []
    return flow([(_("Your llamas: "), "bold")], items, width, sep="; ")


def _mark(message: str) -> str:
    """Mark ``message`` for extraction (``pybabel extract -k _mark``); translated where used."""
    return message


#: The key under the full table: (symbol, words); the words are translated where shown.
KEY_PARTS: Final = (
    ("@", _mark("boarding")),
    ("x", _mark("exit")),
    ("^", _mark("white arrow")),
    ("<", _mark("re-board")),
    (f"A:{LOCOMOTIVE_MARK}", _mark("engine")),
    (f"A:{COAL_MARK}", _mark("coal car")),
    ("A3:.", _mark("empty car 3")),
    ("A3:y", _mark("yellow llama")),
    (LAP_DONE_MARK, _mark("lap done")),
)
#: The key in English: ``"@ boarding"``, ``"x exit"``...
KEY_ITEMS: Final = tuple(f"{symbol} {words}" for symbol, words in KEY_PARTS)


def _table_info(
    state: ExpressState,
    names: Sequence[str],
    viewer: int | None,
    width: int,
    tr: Translator = ENGLISH,
) -> list[Line]:
    lines = _status_lines(state, names, width, tr=tr)
    lines.append([("", "")])
    lines += _player_lines(state, names, viewer, width, tr)
    paths = _footpath_lines(state, width, tr=tr)
    if paths:
        lines += [[("", "")], *paths]
    if viewer is not None:
        mine = _viewer_lines(state, viewer, width, tr)
        if mine:
            lines += [[("", "")], *mine]
    lines.append([("", "")])
    key = [[(f"{symbol} {tr.gettext(words)}", "grey50")] for symbol, words in KEY_PARTS]
    lines += flow([(tr.gettext("Key: "), "grey50")], key, width)
    return lines


def _table_cells(state: ExpressState, viewer: int | None) -> dict[int, Line]:
    """Train cells, with the cars where ``viewer`` may act now shown in reverse video."""
    cells = occupants(state, marks=True)
    if viewer is None or state.is_terminal():
        return cells
    for action in state.legal_actions(viewer):
        if is_free_action(action):
            _kind, train, car = decode_free_action(action)
            space = state.car_space(train, car)
            cells[space] = [(t, f"{s} reverse".strip()) for t, s in cells[space]]
    return cells


def _compact_players(
    state: ExpressState,
    names: Sequence[str],
    viewer: int | None,
    width: int,
    tr: Translator = ENGLISH,
) -> list[Line]:
    """The players in a few lines: ``>y Ann (you) 3/1/0/0`` (wait/ride/walk/home)."""
    game = state.game
    active = state.active_player()
    items: list[Line] = []
    for seat in range(game.num_players):
        colour = game.colours[seat]
        style = PLAYER_STYLES[colour]
        where = state.llama_locations(seat)
        mark = ">" if seat == active and not state.is_terminal() else ""
        you = " " + tr.gettext("(you)") if seat == viewer else ""
        name = short(names[seat], NAME_WIDTH) + you
        counts = (
            f" {where['station']}/{len(where['cars'])}/{len(where['footpaths'])}/{where['house']}"
        )
        items.append([(f"{mark}{colour[0]} ", "bold"), (name, style), (counts, "")])
    words = tr.gettext("Llamas wait/ride/walk/home (of {n}): ").format(n=game.llamas_to_win)
    head: Line = [(words, "bold")]
    return flow(head, items, width, sep="  ")


def _compact_info(
    state: ExpressState,
    names: Sequence[str],
    viewer: int | None,
    width: int,
    level: int,
    tr: Translator = ENGLISH,
) -> list[Line]:
    """What the compact layouts show under the rows of cells: at ``level`` 0 the players,
    footpaths, the viewer's laps and the status (whose turn it is and the chances, last,
    nearest the prompt); at level 1 the same without the viewer's laps; at level 2 only
    the status; at level 3 nothing."""
    if level >= 3:
        return []
    info: list[Line] = []
    if level <= 1:
        info += _compact_players(state, names, viewer, width, tr)
        info += _footpath_lines(state, width, compact=True, tr=tr)
        if viewer is not None and level == 0:
            info += _viewer_lines(state, viewer, width, tr)
    return info + _status_lines(state, names, width, compact=True, tr=tr)


def _compact_layout(
    state: ExpressState,
    names: Sequence[str],
    viewer: int | None,
    width: int,
    level: int = 0,
    tr: Translator = ENGLISH,
) -> list[Line]:
    """Rows of cells (no blank line under them), then :func:`_compact_info`; no key and no
    blank lines inside the text. ``level`` (see :data:`COMPACT_LEVELS`): at 0 every row has
    its line of cars, from 1 on a row without a train has none."""
    per_row = max(1, min(COMPACT_ROW, (width + CELL_GAP) // (CELL_WIDTH + CELL_GAP)))
    info = _compact_info(state, names, viewer, width, max(0, level - 1), tr)
    cells = _table_cells(state, viewer)
    return strip(state.board, cells, info, per_row, gap=False, tight=level > 0, tr=tr)


#: Compact layouts from the fullest (0) to the bare rows of cells (4). What goes first on
#: a short terminal: the empty lines under rows without a train (1), the viewer's laps (2),
#: the players and footpaths (3: 60x24 and 80x24 keep them), whose turn it is (4).
COMPACT_LEVELS: Final = 5


def _table_layout(
    state: ExpressState,
    names: Sequence[str],
    viewer: int | None,
    width: int | None,
    height: int | None = None,
    tr: Translator = ENGLISH,
) -> list[Line]:
    if len(names) != state.game.num_players:
        raise ValueError(f"{len(names)} names for {state.game.num_players} seats")
    full = compose(
        state.board,
        _table_cells(state, viewer),
        lambda inner: _table_info(state, names, viewer, inner, tr),
        width,
        tr,
    )
    if height is None or len(full) <= height:
        return full
    # The fullest compact layout that fits; the bare rows of cells when none does (every
    # space and car is drawn whatever the height: the board comes before the words).
    compact_width = COMPACT_WIDTH if width is None else width
    for level in range(COMPACT_LEVELS):
        compact = _compact_layout(state, names, viewer, compact_width, level, tr)
        if len(compact) <= height:
            return compact
    return compact


def table_lines(
    state: ExpressState,
    names: Sequence[str],
    *,
    viewer: int | None = None,
    width: int | None = None,
    height: int | None = None,
    tr: Translator = ENGLISH,
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
        height: the most lines the table may take; when the full table is taller, the
            fullest compact layout that fits is drawn: rows of at most
            :data:`COMPACT_ROW` spaces, then the players, footpaths and laps in a few
            lines and whose turn it is last (no key); on less room the rows without a
            train lose their empty line, then the laps go, then the players and
            footpaths, then whose turn it is (:data:`COMPACT_LEVELS`; every space and car
            is always drawn).
            ``None``: no limit.
        tr: the language of the words (default English).

    Raises:
        ValueError: ``names`` does not have one name per seat.
    """
    return to_plain(_table_layout(state, names, viewer, width, height, tr))


def table_text(
    state: ExpressState,
    names: Sequence[str],
    *,
    viewer: int | None = None,
    width: int | None = None,
    height: int | None = None,
    tr: Translator = ENGLISH,
) -> Text:
    """:func:`table_lines` with colours, as a ``rich`` :class:`~rich.text.Text`
    (``tr``: the language of the words, default English)."""
    return to_text(_table_layout(state, names, viewer, width, height, tr))
