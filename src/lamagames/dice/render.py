"""LAMA Dice as Rich text: the table view, action labels and move narration.

Pure functions: they read a :class:`~lamagames.dice.game.DiceState` through its public views
and return Rich renderables or plain strings; nothing here prints or reads input. Seat
numbers shown to people are 1-based ("seat 1" is seat index 0).

Cards are drawn as their symbols (``1``..``6``, ``L`` for the llama, D-2), chips as ``●``
(black, 10 points) and ``○`` (white, 1 point) per D-4.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

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
    roll_symbols,
)
from lamagames.dice.game import PHASE_DEAL, PHASE_DICE, DiceState, round_end_reason, row_score

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


def _roller(state: DiceState) -> int:
    """Seat whose roll is pending at a dice chance node (the last actor in the history)."""
    return state.history()[-1][0]


def _round_end_lines(after: DiceState, names: Sequence[str], reason: str) -> list[str]:
    scored_now = after.round_points[-1]
    n = after.game.num_players
    round_no = len(after.round_points)
    scored = ", ".join(f"{names[i]} {scored_now[i]}" for i in range(n))
    totals = ", ".join(f"{names[i]} {after.scores[i]}" for i in range(n))
    return [f"Round {round_no} ends ({reason}). Points: {scored}.", f"Scores: {totals}."]


def narrate(
    before: DiceState,
    player: int,
    action: int,
    after: DiceState,
    names: Sequence[str],
) -> list[str]:
    """Describe one applied action in a sentence or two, for a move log.

    A roll is told together with what its roller then does ("Bot 2 rolls 3 5 L and discards
    3"), so the dice outcome itself is silent when a choice follows it. Round ends (D-9)
    add the points of the round and the scores.

    Args:
        before: the state before the action.
        player: the seat that acted, or -1 for a chance outcome.
        action: the action id (or chance outcome id).
        after: the state after the action.
        names: display name per seat.

    Returns:
        Zero or more plain lines, in order.
    """
    lines: list[str] = []
    round_ended = len(after.round_points) > len(before.round_points)
    reason = ""
    if player < 0:
        if before.phase == PHASE_DEAL:
            if after.phase != PHASE_DEAL:
                lines.append(
                    f"Round {after.round}: six cards each are dealt; {names[after.starter]} starts."
                )
            return lines
        if before.phase != PHASE_DICE:
            return lines
        seat = _roller(before)
        dice = roll_symbols(action)
        name = names[seat]
        shown = " ".join(SYMBOLS[s] for s in dice)
        if after.current_player() == seat and not round_ended and after.dice is not None:
            return lines  # the roller chooses next: told with that choice
        if all(s == LLAMA for s in dice):
            lines.append(f"{name} rolls {shown}: three llamas, but no chips to give back.")
        else:
            why = "none of these is in the llama row"
            if any(before.llama_row[s] for s in dice):
                why = "the last player in a round may not take a single card"
            lines.append(
                f"{name} rolls {shown}: no match and {why}, "
                f"so {name} takes the whole llama row (bust)!"
            )
    else:
        name = names[player]
        if action == ROLL:
            return lines
        # A choice right after the roller's own roll is told together with the roll.
        subject = name
        if before.dice is not None:
            subject = f"{name} rolls " + " ".join(SYMBOLS[s] for s in before.dice) + " and"
        if action == QUIT:
            lines.append(f"{name} quits with {points(before.row_score(player))} in the row.")
        elif action >= DISCARD_BASE:
            gone = DISCARDS[action - DISCARD_BASE]
            lines.append(f"{subject} discards {plain_symbols(gone)}.")
        elif TAKE_BASE <= action < GIVE_BLACK:
            symbol = SYMBOLS[action - TAKE_BASE]
            lines.append(f"{subject} takes the {symbol} from the llama row (no match).")
        else:
            what = {
                GIVE_BLACK: "gives back a black chip (-10)",
                GIVE_WHITE: "gives back a white chip (-1)",
                GIVE_NONE: "keeps their chips",
            }[action]
            if before.dice is not None:
                lines.append(f"{name} rolls L L L, three llamas, and {what}.")
            else:
                lines.append(f"{name} {what} for emptying the row.")
    code = round_end_reason(before, player, action, after)
    if code is not None:
        actor = names[_roller(before) if player < 0 else player]
        reason = {
            "bust": f"{actor} went bust",
            "emptied": f"{actor} emptied the row",
            "llama_row": "the llama row is empty",
            "all_quit": "everyone has quit",
        }[code]
        lines.extend(_round_end_lines(after, names, reason))
    return lines
