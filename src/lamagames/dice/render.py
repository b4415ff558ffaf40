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
from typing import Final

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from lamagames.core.events import Event
from lamagames.core.game import State
from lamagames.dice.actions import (
    DISCARD_BASE,
    DISCARDS,
    GIVE_BLACK,
    GIVE_NONE,
    GIVE_WHITE,
    LLAMA,
    NUM_SYMBOLS,
    QUIT,
    ROLL,
    SYMBOLS,
    TAKE_BASE,
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
from lamagames.dice.rules import RollResult, RoundEndReason, row_score
from lamagames.dice.state import DiceState

#: Style of a number card and of a llama card.
CARD_STYLE: Final = "bold black on grey93"
LLAMA_STYLE: Final = "bold black on yellow3"
#: Style of a card in a row that has quit (the row is face down, D-7).
QUIT_STYLE: Final = "grey50"
BLACK_CHIP: Final = "●"
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


def cards(counts: Sequence[int], *, dim: bool = False) -> Text:
    """A row of cards (count vector over the 7 symbols, ascending) as styled text.

    An empty row is shown as ``(empty)``.
    """
    out = Text()
    for s in range(NUM_SYMBOLS):
        for _ in range(counts[s]):
            if out:
                out.append(" ")
            out.append_text(card(s, dim=dim))
    return out if out else Text("(empty)", style="italic")


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


def points(n: int) -> str:
    """``"1 point"``, ``"5 points"``."""
    return f"{n} point" if n == 1 else f"{n} points"


def plain_symbols(counts: Sequence[int]) -> str:
    """Symbols of a count vector separated by spaces, e.g. ``"3 3 L"``."""
    return counts_to_text(list(counts), " ")


def render_table(
    state: DiceState,
    names: Sequence[str],
    *,
    kinds: Sequence[str] | None = None,
    viewer: int | None = None,
) -> RenderableType:
    """The whole table: one line per seat, the llama row, the dice and whose turn it is.

    Args:
        state: the position to draw.
        names: display name per seat.
        kinds: seat kinds (``human`` or a bot kind), shown beside bot names; optional.
        viewer: the seat looking at the table (marked "you"), or ``None`` for a spectator.

    Returns:
        A Rich renderable (no output happens here).
    """
    n = state.game.num_players
    to_act = state.current_player()
    winners = set(state.winners())
    over = state.is_terminal()
    table = Table(box=None, pad_edge=False, show_edge=False, header_style="bold", expand=False)
    table.add_column("", width=1)
    table.add_column("Seat")
    table.add_column("Row")
    table.add_column("Row pts", justify="right")
    table.add_column(f"Chips {BLACK_CHIP}10 {WHITE_CHIP}1")
    table.add_column("Score", justify="right")
    table.add_column("")
    for seat in range(n):
        label = Text(f"{seat + 1} {names[seat]}", style="bold" if seat == to_act else "")
        if viewer == seat:
            label.append(" (you)", style="cyan")
        elif kinds is not None and kinds[seat] != "human":
            label.append(f" [{kinds[seat]}]", style="grey50")
        if over:
            status = Text("winner", style="bold green") if seat in winners else Text("")
        elif state.quit[seat]:
            status = Text("quit", style="magenta")
        elif seat == to_act:
            status = Text("to play", style="bold cyan")
        else:
            status = Text("")
        table.add_row(
            "▶" if seat == to_act else "",
            label,
            cards(state.rows[seat], dim=state.quit[seat]),
            str(state.row_score(seat)),
            chips_text(state, seat),
            Text(str(state.scores[seat]), style="bold"),
            status,
        )
    header = Text(f"Round {state.round}", style="bold")
    header.append(f" · started by {names[state.starter]}", style="")
    if over:
        header.append(" · game over", style="bold green")
    lines: list[RenderableType] = [header, table, Text("Llama row  ") + llama_row(state)]
    if state.dice is not None:
        lines.append(Text("Dice       ") + dice_text(state.dice))
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


def render_focus(state: DiceState, seat: int) -> RenderableType:
    """What a seat needs for its choice after rolling: the dice, its row with the row score
    and its chips, and the llama row.

    Args:
        state: a state after ``seat``'s roll.
        seat: the seat choosing.
    """
    lines: list[RenderableType] = []
    if state.dice is not None:
        lines.append(Text("Dice       ") + dice_text(state.dice))
    row = Text("Your row   ") + cards(state.rows[seat])
    row.append(f"  ({points(state.row_score(seat))})  chips ")
    row.append_text(chips_text(state, seat))
    lines.append(row)
    lines.append(Text("Llama row  ") + llama_row(state))
    return Group(*lines)


def _after(counts: Sequence[int], change: Sequence[int], sign: int) -> list[int]:
    return [counts[s] + sign * change[s] for s in range(NUM_SYMBOLS)]


def action_label(state: DiceState, action: int) -> str:
    """A plain-words description of a legal player action for the current seat.

    Shows what the action does to the row score (D-10) where that helps the choice, e.g.
    ``"row becomes 5 L, 15 points"`` for ``discard 3 3``.

    Args:
        state: a state where the current seat chooses.
        action: one of ``state.legal_actions()``.
    """
    seat = state.current_player()
    row = state.rows[seat] if seat >= 0 else [0] * NUM_SYMBOLS
    if action == ROLL:
        return "roll the three dice"
    if action == QUIT:
        return f"sit out this round; your row scores {row_score(row)}"
    if action == GIVE_BLACK:
        return "give back a black chip (-10 points)"
    if action == GIVE_WHITE:
        return "give back a white chip (-1 point)"
    if action == GIVE_NONE:
        return "keep your chips"
    if TAKE_BASE <= action < GIVE_BLACK:
        s = action - TAKE_BASE
        taken = [1 if i == s else 0 for i in range(NUM_SYMBOLS)]
        after = _after(row, taken, +1)
        return f"take it: row becomes {plain_symbols(after)}, {points(row_score(after))}"
    if action >= DISCARD_BASE:
        gone = DISCARDS[action - DISCARD_BASE]
        left = _after(row, gone, -1)
        if not any(left):
            return "row becomes empty: 0 points and the round ends"
        return f"row becomes {plain_symbols(left)}, {points(row_score(left))}"
    return ""


_REASONS: Final = {
    RoundEndReason.BUST: "{actor} went bust",
    RoundEndReason.EMPTIED: "{actor} emptied the row",
    RoundEndReason.LLAMA_ROW: "the llama row is empty",
    RoundEndReason.ALL_QUIT: "everyone has quit",
}
_CHIP_WORDS: Final = {
    Chip.BLACK: "gives back a black chip (-10)",
    Chip.WHITE: "gives back a white chip (-1)",
    Chip.NONE: "keeps their chips",
}


def _scores_line(scores: Sequence[int], names: Sequence[str]) -> str:
    return "Scores: " + ", ".join(f"{names[i]} {s}" for i, s in enumerate(scores)) + "."


def describe_events(found: Sequence[Event], names: Sequence[str]) -> list[str]:
    """Plain lines for the events of one step (:func:`lamagames.dice.events.events`).

    A roll whose roller then chooses is silent: it is told with that choice ("Bot 2 rolls
    3 5 L and discards 3"). Round ends (D-9) add the points of the round and the scores; a
    chip given back for an emptied row (D-10) reprints the scores.

    Args:
        found: the events, in order.
        names: display name per seat.
    """
    lines: list[str] = []
    roll: Rolled | None = None
    for event in found:
        if isinstance(event, RoundStarted):
            lines.append(
                f"Round {event.round}: six cards each are dealt; {names[event.starter]} starts."
            )
        elif isinstance(event, Rolled):
            roll = event
            if event.result == RollResult.THREE_LLAMAS and not event.choice_follows:
                lines.append(
                    f"{names[event.seat]} rolls {' '.join(event.dice)}: three llamas, "
                    "but no chips to give back."
                )
        elif isinstance(event, Bust):
            name = names[event.seat]
            shown = " ".join(roll.dice) if roll is not None else "the dice"
            why = "none of these is in the llama row"
            if event.last_standing:
                why = "the last player in a round may not take a single card"
            lines.append(
                f"{name} rolls {shown}: no match and {why}, "
                f"so {name} takes the whole llama row (bust)!"
            )
        elif isinstance(event, Quit):
            lines.append(f"{names[event.seat]} quits with {points(event.row_points)} in the row.")
        elif isinstance(event, Discarded | Took):
            subject = f"{names[event.seat]} rolls {' '.join(event.dice)} and"
            if isinstance(event, Discarded):
                lines.append(f"{subject} discards {' '.join(event.cards)}.")
            else:
                lines.append(f"{subject} takes the {event.card} from the llama row (no match).")
        elif isinstance(event, ChipGiven):
            name, what = names[event.seat], _CHIP_WORDS[event.chip]
            if event.reason == GiveReason.THREE_LLAMAS:
                lines.append(f"{name} rolls L L L, three llamas, and {what}.")
            else:
                lines.append(f"{name} {what} for emptying the row.")
                if event.points:
                    lines.append(_scores_line(event.scores, names))
        elif isinstance(event, RoundEnded):
            reason = _REASONS[event.reason].format(actor=names[event.seat])
            scored = ", ".join(f"{names[i]} {p}" for i, p in enumerate(event.points))
            lines.append(f"Round {event.round} ends ({reason}). Points: {scored}.")
            lines.append(_scores_line(event.scores, names))
    return lines


def narrate(
    before: DiceState,
    player: int,
    action: int,
    after: DiceState,
    names: Sequence[str],
) -> list[str]:
    """Describe one applied action in a sentence or two, for a move log: the lines of
    :func:`describe_events` for :func:`lamagames.dice.events.events`.

    Args:
        before: the state before the action.
        player: the seat that acted, or -1 for a chance outcome.
        action: the action id (or chance outcome id).
        after: the state after the action.
        names: display name per seat.

    Returns:
        Zero or more plain lines, in order.
    """
    return describe_events(events(before, action, player, after), names)
