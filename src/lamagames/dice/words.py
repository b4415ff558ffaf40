"""LAMA Dice hints in plain words (English; the terminal has no other language).

:func:`hint_words` turns the hint list of :func:`lamagames.dice.hints.hints` into short
sentences for a family at the table: ``"Roll: about 8 points expected this round · Quit
now: 28 points"`` and which move is best. The numbers are the hints' own, rounded (whole
points from 1.5 on, else one decimal); the technical table (exact values, margin, bust
chance, basis) is ``lama hint --details`` or ``hint details`` at the prompt.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final, Protocol

#: Width up to which the actions are joined on one line with " · ".
LINE_WIDTH: Final = 78


class Hint(Protocol):
    """The fields of :class:`lamagames.dice.hints.ActionHint` used here (read only)."""

    @property
    def notation(self) -> str: ...
    @property
    def expected_points(self) -> float | None: ...
    @property
    def margin(self) -> float | None: ...
    @property
    def bust_chance(self) -> float | None: ...
    @property
    def exact(self) -> bool: ...
    @property
    def best(self) -> bool: ...


def amount(points: float) -> str:
    """Rounded points: ``"8"``, ``"0.4"``, ``"28"`` (whole from 1.5 on)."""
    size = abs(points)
    return f"{size:.0f}" if size >= 1.5 else f"{size:.1f}"


def move_name(notation: str) -> str:
    """A move for people: ``"Roll"``, ``"Quit now"``, ``"Discard 3 3"``, ``"Take 5"``,
    ``"Give back a black chip"``, ``"Give back no chip"``."""
    head, _, rest = notation.partition(" ")
    if head == "quit":
        return "Quit now"
    if head == "give":
        chip = {"black": "a black chip", "white": "a white chip", "none": "no chip"}
        return f"Give back {chip.get(rest, rest)}"
    return f"{head.capitalize()} {rest}".strip()


def outcome(hint: Hint) -> str:
    """What a move leads to: ``"about 8 points expected this round"``, ``"28 points"`` for
    a quit (D-7: the row is final), ``"about 3 points back expected this round"`` when chips
    are expected back (D-8.1, D-10)."""
    points = hint.expected_points
    if points is None:
        return "no value"
    if hint.notation == "quit":
        return f"{amount(points)} points"
    if points < 0:
        return f"about {amount(points)} points back expected this round"
    return f"about {amount(points)} points expected this round"


def hint_words(hints: Sequence[Hint]) -> list[str]:
    """Plain lines for the hints of one position: the moves with what they lead to (joined
    with " · " when they fit :data:`LINE_WIDTH`, else one per line), then the best move and,
    for two-player margins, why a move with more own points can be best."""
    parts = [f"{move_name(h.notation)}: {outcome(h)}" for h in hints]
    joined = " · ".join(parts)
    lines = [joined] if len(joined) <= LINE_WIDTH else parts
    best = next((h for h in hints if h.best), None)
    if best is not None:
        name = move_name(best.notation)
        line = f"Best: {name[:1].lower()}{name[1:]}"  # "discard 2 L": the llama stays L
        fewest = min(
            (h.expected_points for h in hints if h.expected_points is not None), default=None
        )
        if (best.margin is not None and best.expected_points is not None
                and fewest is not None and best.expected_points > fewest + 1e-9):  # fmt: skip
            line += " (it costs your opponent more than it costs you)"
        if best.bust_chance is not None and best.bust_chance > 0:
            line += f"; the roll busts {100 * best.bust_chance:.0f}% of the time"
        lines.append(line + ".")
    if not all(h.exact for h in hints):
        lines.append("Some of these are estimates.")
    return lines
