"""LAMA Dice as Rich text: the table view, action labels and move narration.

Pure functions: they read a :class:`~lamagames.dice.game.DiceState` through its public views
and return Rich renderables or plain strings; nothing here prints or reads input. Seat
numbers shown to people are 1-based ("seat 1" is seat index 0).

Cards are drawn as their symbols (``1``..``6``, ``L`` for the llama, D-2), chips as ``●``
(black, 10 points) and ``○`` (white, 1 point) per D-4.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from rich.console import (
    Console,
    ConsoleOptions,
    Group,
    JustifyMethod,
    OverflowMethod,
    RenderableType,
    RenderResult,
)
from rich.table import Table
from rich.text import Text

from lamagames.core.events import Event
from lamagames.core.game import State
from lamagames.core.i18n import ENGLISH, Translator
from lamagames.dice.actions import (
    DISCARD_BASE,
    GIVE_BLACK,
    GIVE_NONE,
    GIVE_WHITE,
    LLAMA,
    NUM_SYMBOLS,
    QUIT,
    ROLL,
    SYMBOLS,
    TAKE_BASE,
    chance_to_string,
    counts_to_text,
)
from lamagames.dice.events import (
    Bust,
    Chip,
    ChipGiven,
    Discarded,
    GiveReason,
    Quit,
    Rolled,
    RoundEnded,
    RoundStarted,
    Took,
    events,
)
from lamagames.dice.game import as_dice_state
from lamagames.dice.primitives import is_empty, row_score, take
from lamagames.dice.rules import (
    RollResult,
    RoundEndReason,
    after_discard,
)
from lamagames.dice.state import DiceState

#: Style of a number card and of a llama card.
CARD_STYLE: Final = "bold black on grey93"
LLAMA_STYLE: Final = "bold black on yellow3"
#: Style of a card in a row that has quit (the row is face down, D-7).
QUIT_STYLE: Final = "grey50"
BLACK_CHIP: Final = "●"
#: Width of the table's row column: nine cards (a dealt row has six, D-5); a longer row
#: goes on on a second line, so the column's width never changes during a game.
ROW_WIDTH: Final = 17
WHITE_CHIP: Final = "○"


def card(symbol: int, *, dim: bool = False) -> Text:
    """One card as styled text: its symbol (``"1"``..``"6"`` or ``"L"``) on a card colour.

    Args:
        symbol: symbol index 0..6 (6 is the llama, D-2).
        dim: draw it as part of a row that has quit.
    """
    if dim:
        return Text(SYMBOLS[symbol], style=QUIT_STYLE)
    style = LLAMA_STYLE if symbol == LLAMA else CARD_STYLE
    return Text(SYMBOLS[symbol], style=style)


def cards(counts: Sequence[int], *, dim: bool = False, tr: Translator = ENGLISH) -> Text:
    """A row of cards (count vector over the 7 symbols, ascending) as styled text.

    An empty row is shown as ``(empty)`` (in the language of ``tr``).
    """
    out = Text()
    for s in range(NUM_SYMBOLS):
        for _ in range(counts[s]):
            if out:
                out.append(" ")
            out.append_text(card(s, dim=dim))
    return out if out else Text(tr.gettext("(empty)"), style="italic")


def llama_row(state: DiceState) -> Text:
    """The llama row (D-3, D-5) with a ``·`` where a card has been taken."""
    out = Text()
    for s in range(NUM_SYMBOLS):
        if out:
            out.append(" ")
        if state.llama_row[s]:
            out.append_text(card(s))
        else:
            out.append("·", style="grey50")
    return out


def dice_text(symbols: Sequence[int]) -> Text:
    """Rolled dice (symbol indices, dice A, B, C) as cards, e.g. ``3 5 L``."""
    out = Text()
    for s in symbols:
        if out:
            out.append(" ")
        out.append_text(card(s))
    return out


def chips_text(state: DiceState, seat: int) -> Text:
    """A seat's chips (D-4) drawn one glyph each: ``●`` black (10), ``○`` white (1)."""
    black, white = state.chips(seat)
    if not black and not white:
        return Text("-", style="grey50")
    return Text(BLACK_CHIP * black, style="bold") + Text(
        (" " if black and white else "") + WHITE_CHIP * white
    )


def points(n: int, tr: Translator = ENGLISH) -> str:
    """``"1 point"``, ``"5 points"`` (plural forms of the language of ``tr``)."""
    return tr.ngettext("{n} point", "{n} points", n).format(n=n)


def plain_symbols(counts: Sequence[int]) -> str:
    """Symbols of a count vector separated by spaces, e.g. ``"3 3 L"``."""
    return counts_to_text(list(counts), " ")


#: A column of the seats' table: header, justification, no wrapping, overflow.
ColumnSpec = tuple[str, JustifyMethod, bool, OverflowMethod]
#: Narrowest the seats' column gets on a narrow terminal (their labels end in "…").
MIN_SEAT_WIDTH: Final = 9
#: Narrowest the row column gets: a dealt row of six cards (D-5).
MIN_ROW_WIDTH: Final = 11


@dataclass(frozen=True, slots=True)
class SeatTable:
    """The table's seats, one line each, at column widths that stay the same through a
    game: ``widths`` come from the seats' labels, the headers and the status words, never
    from the position, so a replay keeps its layout from one step to the next (issue 19
    trial). On a terminal too narrow for them the columns give way in the order of
    ``give_way`` (see :func:`render_table`), each only as far as the width needs: a row
    of more cards than its column holds goes on on a second line, a header takes two
    lines, a column whose narrowest width is 0 is left out (the chips, whose points the
    Score column shows, D-4; at the narrowest the status words, then said below the
    table), and the seats' labels end in ``…`` rather than wrap (no ``[Exact`` /
    ``(solver)]`` on two lines). Width left over goes back to the labels first, so a
    label is shortened only when the width is not there (issue 19: ``[Exac…`` beside ten
    blank columns at 60). When even the narrowest widths do not fit, one blank instead of
    two separates the columns."""

    columns: tuple[ColumnSpec, ...]
    widths: tuple[int, ...]
    rows: tuple[tuple[RenderableType, ...], ...]
    #: ``(column, narrowest width)`` in the order the columns give way on a narrow
    #: terminal; a narrowest width of 0 leaves the column out.
    give_way: tuple[tuple[int, int], ...]
    #: The status column (its words are said below the table when it is left out).
    status_column: int = -1
    #: Per row: ``"4 Bot 4: quit"`` where the row has a status word, else ``None``.
    status_notes: tuple[Text | None, ...] = ()

    def fitted_widths(self, max_width: int) -> tuple[list[int], int]:
        """The columns' widths (in cells; 0 for a column left out) and the blank cells
        between two columns (2, or 1 when the columns at their narrowest need it), within
        ``max_width`` cells; wider only when even that does not fit."""
        widths = list(self.widths)
        excess = sum(widths) + 2 * (len(widths) - 1) - max_width
        for column, least in self.give_way:
            if excess <= 0:
                break
            if least == 0:  # left out, with the gap before it
                excess -= widths[column] + 2
                widths[column] = 0
            else:
                cut = min(excess, max(0, widths[column] - least))
                widths[column] -= cut
                excess -= cut
        gap = 2
        if excess > 0:  # one blank between columns
            gap = 1
            excess -= sum(1 for width in widths if width) - 1
        for column, least in reversed(self.give_way):  # what is left, back to the labels
            if least and excess < 0:
                back = min(-excess, self.widths[column] - widths[column])
                widths[column] += back
                excess += back
        return widths, gap

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        """The :class:`rich.table.Table` at widths fitted to ``options.max_width``, and
        the status words in a line below it when their column is left out."""
        widths, gap = self.fitted_widths(options.max_width)
        shown = [column for column, width in enumerate(widths) if width]
        table = Table(
            box=None,
            pad_edge=False,
            show_edge=False,
            header_style="bold",
            padding=(0, 1) if gap == 2 else (0, 1, 0, 0),
        )
        for column in shown:
            header, justify, no_wrap, overflow = self.columns[column]
            table.add_column(
                header, justify=justify, no_wrap=no_wrap, overflow=overflow, width=widths[column]
            )
        for row in self.rows:
            table.add_row(*(row[column] for column in shown))
        yield table
        if 0 <= self.status_column < len(widths) and not widths[self.status_column]:
            line, used = Text(), 0
            for note in (note for note in self.status_notes if note is not None):
                if used and used + 3 + note.cell_len > options.max_width:
                    yield line  # the notes wrap between seats, never inside one
                    line, used = Text(), 0
                elif used:
                    line.append(" · ")
                    used += 3
                line.append_text(note)
                used += note.cell_len
            if used:
                yield line


def render_table(
    state: DiceState,
    names: Sequence[str],
    *,
    kinds: Sequence[str] | None = None,
    viewer: int | None = None,
    tr: Translator = ENGLISH,
) -> RenderableType:
    """The whole table: one line per seat, the llama row, the dice and whose turn it is.

    Args:
        state: the position to draw.
        names: display name per seat.
        kinds: seat kinds as shown beside bot names (``human`` for a person, not shown;
            the terminal gives the bot kinds' display names); optional.
        viewer: the seat looking at the table (marked "you"), or ``None`` for a spectator.
        tr: the language of the labels (default English).

    Returns:
        A Rich renderable (no output happens here).
    """
    n = state.game.num_players
    to_act = state.current_player()
    winners = set(state.winners())
    over = state.is_terminal()
    _ = tr.gettext
    seat_labels = []
    for seat in range(n):
        label = Text(f"{seat + 1} {names[seat]}", style="bold" if seat == to_act else "")
        if viewer == seat:
            label.append(" " + _("(you)"), style="cyan")
        elif kinds is not None and kinds[seat] != "human":
            label.append(f" [{kinds[seat]}]", style="grey50")
        seat_labels.append(label)
    headers = (_("Seat"), _("Row"), _("Row pts"), _("Score"))
    chips = _("Chips {black}10 {white}1").format(black=BLACK_CHIP, white=WHITE_CHIP)
    columns: tuple[ColumnSpec, ...] = (
        ("", "left", False, "fold"),
        (headers[0], "left", True, "ellipsis"),
        (headers[1], "left", False, "fold"),
        (headers[2], "right", False, "fold"),
        (chips, "left", False, "fold"),
        (headers[3], "right", False, "fold"),
        ("", "left", False, "fold"),
    )
    widths = [
        1,
        max(len(headers[0]), *(label.cell_len for label in seat_labels)),
        max(len(headers[1]), ROW_WIDTH),
        max(len(headers[2]), 2),
        len(chips),
        max(len(headers[3]), 3),
        max(len(_("winner")), len(_("quit")), len(_("to play"))),
    ]
    rows: list[tuple[RenderableType, ...]] = []
    notes: list[Text | None] = []  # said below the table when the status column gives way
    for seat in range(n):
        if over:
            status = Text(_("winner"), style="bold green") if seat in winners else Text("")
        elif state.quit[seat]:
            status = Text(_("quit"), style="magenta")
        elif seat == to_act:
            status = Text(_("to play"), style="bold cyan")
        else:
            status = Text("")
        note = _("{label}: {text}").format(label=f"{seat + 1} {names[seat]}", text="")
        notes.append(Text(note) + status if status else None)
        rows.append(
            (
                "▶" if seat == to_act else "",
                seat_labels[seat],
                cards(state.rows[seat], dim=state.quit[seat], tr=tr),
                str(state.row_score(seat)),
                chips_text(state, seat),
                Text(str(state.scores[seat]), style="bold"),
                status,
            )
        )

    def longest_word(text: str) -> int:
        return max(len(word) for word in text.split())

    give_way = (
        (2, max(len(headers[1]), 13)),  # seven cards
        (3, max(2, longest_word(headers[2]))),
        (4, 0),  # the chips: the Score column shows their points (D-4)
        (1, max(len(headers[0]), 16)),
        (6, longest_word(" ".join((_("winner"), _("quit"), _("to play"))))),
        (5, max(3, longest_word(headers[3]))),
        (2, max(len(headers[1]), MIN_ROW_WIDTH)),
        (1, max(len(headers[0]), MIN_SEAT_WIDTH)),
        (6, 0),  # the status words go below the table (the ▶ marks the seat to play)
    )
    table = SeatTable(columns, tuple(widths), tuple(rows), give_way, 6, tuple(notes))
    header = Text(_("Round {n}").format(n=state.round), style="bold")
    header.append(" · " + _("started by {name}").format(name=names[state.starter]), style="")
    if over:
        header.append(" · " + _("game over"), style="bold green")
    labels = _labels(tr)
    lines: list[RenderableType] = [header, table, Text(labels[1]) + llama_row(state)]
    if state.dice is not None:
        lines.append(Text(labels[0]) + dice_text(state.dice))
    return Group(*lines)


def position_text(state: State, names: Sequence[str] | None = None, *, width: int = 100) -> str:
    """The position as plain text (the terminal table without colour), for text renderers
    such as the RL adapters' ``render_mode="ansi"``.

    Args:
        state: a LAMA Dice state.
        names: one name per seat (default ``Seat 1`` ..).
        width: characters per line.

    Raises:
        IllegalActionError: ``state`` is not a LAMA Dice state.
    """
    from rich.console import Console  # only text renderers need a console

    dice_state = as_dice_state(state)
    seat_names = (
        list(names)
        if names is not None
        else [f"Seat {seat + 1}" for seat in range(dice_state.game.num_players)]
    )
    console = Console(file=io.StringIO(), width=width, color_system=None, record=True)
    console.print(render_table(dice_state, seat_names))
    return console.export_text()


def _labels(tr: Translator) -> tuple[str, str, str]:
    """The labels in front of the dice, the llama row and the own row, padded to one width."""
    words = (tr.gettext("Dice"), tr.gettext("Llama row"), tr.gettext("Your row"))
    width = max(len(w) for w in words) + 2
    return (words[0].ljust(width), words[1].ljust(width), words[2].ljust(width))


def render_focus(state: DiceState, seat: int, tr: Translator = ENGLISH) -> RenderableType:
    """What a seat needs for its choice after rolling: the dice, its row with the row score
    and its chips, and the llama row.

    Args:
        state: a state after ``seat``'s roll.
        seat: the seat choosing.
        tr: the language of the labels (default English).
    """
    lines: list[RenderableType] = []
    labels = _labels(tr)
    if state.dice is not None:
        lines.append(Text(labels[0]) + dice_text(state.dice))
    row = Text(labels[2]) + cards(state.rows[seat], tr=tr)
    row.append(f"  ({points(state.row_score(seat), tr)})  " + tr.gettext("chips") + " ")
    row.append_text(chips_text(state, seat))
    lines.append(row)
    lines.append(Text(labels[1]) + llama_row(state))
    return Group(*lines)


def action_label(state: DiceState, action: int, tr: Translator = ENGLISH) -> str:
    """A plain-words description of a legal player action for the current seat.

    Shows what the action does to the row score (D-10) where that helps the choice, e.g.
    ``"row becomes 5 L, 15 points"`` for ``discard 3 3``.

    Args:
        state: a state where the current seat chooses.
        action: one of ``state.legal_actions()``.
        tr: the language of the label (default English).
    """
    _ = tr.gettext
    seat = state.current_player()
    row = state.rows[seat] if seat >= 0 else [0] * NUM_SYMBOLS
    if action == ROLL:
        return _("roll the three dice")
    if action == QUIT:
        return _("sit out this round; your row scores {n}").format(n=row_score(row))
    if action == GIVE_BLACK:
        return _("give back a black chip (-10 points)")
    if action == GIVE_WHITE:
        return _("give back a white chip (-1 point)")
    if action == GIVE_NONE:
        return _("keep your chips")
    if TAKE_BASE <= action < GIVE_BLACK:
        after, _llama = take(row, state.llama_row, action - TAKE_BASE)  # D-8.3
        return _("take it: row becomes {row}, {points}").format(
            row=plain_symbols(after), points=points(row_score(after), tr)
        )
    if action >= DISCARD_BASE:
        left = after_discard(row, action)  # D-8.2
        if is_empty(left):  # D-9
            return _("row becomes empty: 0 points and the round ends")
        return _("row becomes {row}, {points}").format(
            row=plain_symbols(left), points=points(row_score(left), tr)
        )
    return ""


def _mark(message: str) -> str:
    """Mark ``message`` for extraction (``pybabel extract -k _mark``); translated where used."""
    return message


_REASONS: Final = {
    RoundEndReason.BUST: _mark("{actor} went bust"),
    RoundEndReason.EMPTIED: _mark("{actor} emptied the row"),
    RoundEndReason.LLAMA_ROW: _mark("the llama row is empty"),
    RoundEndReason.ALL_QUIT: _mark("everyone has quit"),
}


def outcome_words(
    before: DiceState, outcome: int, names: Sequence[str], tr: Translator = ENGLISH
) -> str:
    """A chance outcome in words, for the replay's step line (in the language of ``tr``):
    a deal ``"Bot 1 is dealt 1 1 3 4 L L"`` (the seat dealt next, D-5), a roll ``"the dice
    show 3 5 L"`` (D-6); ``before``: the position the outcome applies to.

    Raises:
        InvalidActionError: ``outcome`` is not a chance outcome id.
    """
    kind, _sep, rest = chance_to_string(outcome).partition(" ")
    if kind == "deal":
        return tr.gettext("{name} is dealt {cards}").format(
            name=names[before.deal_seat], cards=" ".join(rest)
        )
    return tr.gettext("the dice show {dice}").format(dice=rest)


def _scores_line(scores: Sequence[int], names: Sequence[str], tr: Translator) -> str:
    listed = ", ".join(f"{names[i]} {s}" for i, s in enumerate(scores))
    return tr.gettext("Scores: {list}.").format(list=listed)


def describe_events(
    found: Sequence[Event], names: Sequence[str], tr: Translator = ENGLISH
) -> list[str]:
    """Plain lines for the events of one step (:func:`lamagames.dice.events.events`).

    A roll whose roller then chooses is silent: it is told with that choice ("Bot 2 rolls
    3 5 L and discards 3"). Round ends (D-9) add the points of the round and the scores; a
    chip given back for an emptied row (D-10) reprints the scores.

    Args:
        found: the events, in order.
        names: display name per seat.
        tr: the language of the lines (default English).
    """
    _ = tr.gettext
    lines: list[str] = []
    roll: Rolled | None = None
    for event in found:
        if isinstance(event, RoundStarted):
            lines.append(
                _("Round {n}: six cards each are dealt; {name} starts.").format(
                    n=event.round, name=names[event.starter]
                )
            )
        elif isinstance(event, Rolled):
            roll = event
            if event.result == RollResult.THREE_LLAMAS and not event.choice_follows:
                lines.append(
                    _("{name} rolls {dice}: three llamas, but no chips to give back.").format(
                        name=names[event.seat], dice=" ".join(event.dice)
                    )
                )
        elif isinstance(event, Bust):
            name = names[event.seat]
            shown = " ".join(roll.dice) if roll is not None else _("the dice")
            if event.last_standing:
                bust = _(
                    "{name} rolls {dice}: no match and the last player in a round may not "
                    "take a single card, so {name} takes the whole llama row (bust)!"
                )
            else:
                bust = _(
                    "{name} rolls {dice}: no match and none of these is in the llama row, "
                    "so {name} takes the whole llama row (bust)!"
                )
            lines.append(bust.format(name=name, dice=shown))
        elif isinstance(event, Quit):
            lines.append(
                tr.ngettext(
                    "{name} quits with {n} point in the row.",
                    "{name} quits with {n} points in the row.",
                    event.row_points,
                ).format(name=names[event.seat], n=event.row_points)
            )
        elif isinstance(event, Discarded | Took):
            fields = {"name": names[event.seat], "dice": " ".join(event.dice)}
            if isinstance(event, Discarded):
                line = _("{name} rolls {dice} and discards {cards}.")
                lines.append(line.format(cards=" ".join(event.cards), **fields))
            else:
                line = _("{name} rolls {dice} and takes the {card} from the llama row (no match).")
                lines.append(line.format(card=event.card, **fields))
        elif isinstance(event, ChipGiven):
            name = names[event.seat]
            three = event.reason == GiveReason.THREE_LLAMAS
            if event.chip == Chip.BLACK:
                line = (
                    _("{name} rolls L L L, three llamas, and gives back a black chip (-10).")
                    if three
                    else _("{name} gives back a black chip (-10) for emptying the row.")
                )
            elif event.chip == Chip.WHITE:
                line = (
                    _("{name} rolls L L L, three llamas, and gives back a white chip (-1).")
                    if three
                    else _("{name} gives back a white chip (-1) for emptying the row.")
                )
            else:
                line = (
                    _("{name} rolls L L L, three llamas, and keeps their chips.")
                    if three
                    else _("{name} keeps their chips for emptying the row.")
                )
            lines.append(line.format(name=name))
            if not three and event.points:
                lines.append(_scores_line(event.scores, names, tr))
        elif isinstance(event, RoundEnded):
            reason = _(_REASONS[event.reason]).format(actor=names[event.seat])
            scored = ", ".join(f"{names[i]} {p}" for i, p in enumerate(event.points))
            lines.append(
                _("Round {n} ends ({reason}). Points: {list}.").format(
                    n=event.round, reason=reason, list=scored
                )
            )
            lines.append(_scores_line(event.scores, names, tr))
    return lines


def narrate(
    before: DiceState,
    player: int,
    action: int,
    after: DiceState,
    names: Sequence[str],
    tr: Translator = ENGLISH,
) -> list[str]:
    """Describe one applied action in a sentence or two, for a move log: the lines of
    :func:`describe_events` for :func:`lamagames.dice.events.events`.

    Args:
        before: the state before the action.
        player: the seat that acted, or -1 for a chance outcome.
        action: the action id (or chance outcome id).
        after: the state after the action.
        names: display name per seat.
        tr: the language of the lines (default English).

    Returns:
        Zero or more plain lines, in order.
    """
    return describe_events(events(before, action, player, after), names, tr)
