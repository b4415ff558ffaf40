"""LAMA Dice hints in plain words, in the terminal's language (a
:class:`~lamagames.core.i18n.Translator` argument, English by default).

:func:`hint_words` turns the hint list of :func:`lamagames.dice.hints.hints` into short
sentences for a family at the table: ``"Roll: about 8 points expected this round · Quit
now: 28 points"`` and which move is best. The numbers are the hints' own, rounded (whole
points from 1.5 on, else one decimal); the technical table (exact values, margin, bust
chance, basis) is ``lama hint --details`` or ``hint details`` at the prompt.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final, Protocol

from lamagames.core.i18n import ENGLISH, Translator

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


def move_name(notation: str, tr: Translator = ENGLISH) -> str:
    """A move for people: ``"Roll"``, ``"Quit now"``, ``"Discard 3 3"``, ``"Take 5"``,
    ``"Give back a black chip"``, ``"Give back no chip"`` (in the language of ``tr``)."""
    _ = tr.gettext
    head, _sep, rest = notation.partition(" ")
    if head == "quit":
        return _("Quit now")
    if head == "roll":
        return _("Roll")
    if head == "give":
        chip = {"black": _("Give back a black chip"), "white": _("Give back a white chip"),
                "none": _("Give back no chip")}  # fmt: skip
        return chip.get(rest, notation)
    if head == "discard":
        return _("Discard {cards}").format(cards=rest)
    if head == "take":
        return _("Take {card}").format(card=rest)
    return f"{head.capitalize()} {rest}".strip()


def outcome(hint: Hint, tr: Translator = ENGLISH) -> str:
    """What a move leads to: ``"about 8 points expected this round"``, ``"28 points"`` for
    a quit (D-7: the row is final), ``"about 3 points back expected this round"`` when chips
    are expected back (D-8.1, D-10); in the language of ``tr``."""
    _ = tr.gettext
    points = hint.expected_points
    if points is None:
        return _("no value")
    if hint.notation == "quit":
        return _("{points} points").format(points=amount(points))
    if points < 0:
        return _("about {points} points back expected this round").format(points=amount(points))
    return _("about {points} points expected this round").format(points=amount(points))


def hint_words(hints: Sequence[Hint], tr: Translator = ENGLISH) -> list[str]:
    """Plain lines for the hints of one position: the moves with what they lead to (joined
    with " · " when they fit :data:`LINE_WIDTH`, else one per line), then the best move and,
    for two-player margins, why a move with more own points can be best; in the language
    of ``tr`` (the ``hint_words`` extra of the spec, see :mod:`lamagames.cli.hint`)."""
    _ = tr.gettext
    parts = [
        _("{move}: {outcome}").format(move=move_name(h.notation, tr), outcome=outcome(h, tr))
        for h in hints
    ]
    joined = " · ".join(parts)
    lines = [joined] if len(joined) <= LINE_WIDTH else parts
    best = next((h for h in hints if h.best), None)
    if best is not None:
        name = move_name(best.notation, tr)
        line = _("Best: {move}").format(move=f"{name[:1].lower()}{name[1:]}")  # "discard 2 L"
        fewest = min(
            (h.expected_points for h in hints if h.expected_points is not None), default=None
        )
        if (best.margin is not None and best.expected_points is not None
                and fewest is not None and best.expected_points > fewest + 1e-9):  # fmt: skip
            line += _(" (it costs your opponent more than it costs you)")
        if best.bust_chance is not None and best.bust_chance > 0:
            line += _("; the roll busts {percent} of the time").format(
                percent=f"{100 * best.bust_chance:.0f}%"
            )
        lines.append(line + ".")
    if not all(h.exact for h in hints):
        lines.append(_("Some of these are estimates."))
    return lines
