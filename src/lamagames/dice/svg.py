"""LAMA Dice positions as SVG pictures (pure functions returning SVG text, like python-chess's
``chess.svg``); Jupyter shows a :class:`DiceState` through ``DiceState._repr_svg_``, which
calls :func:`state_svg`.

The picture, top to bottom: the round and whose turn it is (or the winners, D-11); the llama
row (D-3: one card per symbol, cards already taken drawn faded); the three dice of the current
roll (D-1); then one line per seat: its name, the cards of its row (D-5; a quit row is drawn
face down in grey, D-7), its minus points and its chips (D-4: black = 10, white = 1).

Elements carry classes and ``data-`` attributes (``class="card" data-symbol="L"``,
``class="chip black"``) so that tests and style sheets can find them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final
from xml.sax.saxutils import escape

from lamagames.dice.actions import LLAMA, NUM_SYMBOLS, SYMBOLS
from lamagames.dice.state import DiceState

CARD_FILL: Final = "#fbfaf5"
LLAMA_FILL: Final = "#e9c46a"
QUIT_FILL: Final = "#b8b8b8"
ACTIVE_FILL: Final = "#fff2c2"


def _card(x: float, y: float, symbol: int, *, w: float, faded: bool, face_down: bool) -> str:
    fill = QUIT_FILL if face_down else (LLAMA_FILL if symbol == LLAMA else CARD_FILL)
    opacity = ' opacity="0.25"' if faded else ""
    text = "" if face_down else SYMBOLS[symbol]
    return (
        f'<g class="card" data-symbol="{SYMBOLS[symbol]}"{opacity}>'
        f'<rect x="{x:.1f}" y="{y:.1f}" width="{w:.1f}" height="{w * 1.4:.1f}" rx="3" '
        f'fill="{fill}" stroke="#333333"/>'
        f'<text x="{x + w / 2:.1f}" y="{y + w * 0.95:.1f}" font-size="{w * 0.7:.1f}" '
        f'text-anchor="middle">{text}</text></g>'
    )


def state_svg(
    state: DiceState,
    *,
    width: int = 480,
    names: Sequence[str] | None = None,
) -> str:
    """Draw a LAMA Dice position as an SVG document.

    Args:
        state: the position (read through its public views only).
        width: picture width in pixels; the height follows from the number of seats.
        names: a name per seat (default ``seat 1`` ..).

    Returns:
        SVG text (one ``<svg>`` element with a ``viewBox``).

    Raises:
        ValueError: ``width`` is below 240 pixels or ``names`` does not name every seat.
    """
    n = state.game.num_players
    if width < 240:
        raise ValueError(f"width must be at least 240 pixels, got {width}")
    if names is not None and len(names) != n:
        raise ValueError(f"names: need {n} names, got {len(names)}")
    labels = list(names) if names is not None else [f"seat {s + 1}" for s in range(n)]
    unit = width / 24
    line = unit * 2.4
    height = unit * 9 + line * n
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height:.0f}" '
        f'viewBox="0 0 {width} {height:.0f}" font-family="sans-serif">',
        f'<rect width="{width}" height="{height:.0f}" fill="#2f6b4f"/>',
    ]
    current = state.current_player()
    if state.is_terminal():
        head = "winner: " + ", ".join(labels[s] for s in state.winners())
    elif 0 <= current < n:
        head = f"round {state.round}: {labels[current]} to act"
    else:
        head = f"round {state.round}: chance"
    out.append(
        f'<text class="status" x="{unit:.1f}" y="{unit * 1.3:.1f}" font-size="{unit * 0.9:.1f}" '
        f'fill="white">{escape(head)}</text>'
    )
    # The llama row (D-3): one card per symbol, taken cards faded.
    out.append(f'<g class="llama-row" data-cards="{sum(state.llama_row)}">')
    for symbol in range(NUM_SYMBOLS):
        x = unit * (1 + 1.4 * symbol)
        out.append(
            _card(x, unit * 2, symbol, w=unit * 1.2, faded=not state.llama_row[symbol],
                  face_down=False)
        )  # fmt: skip
    out.append("</g>")
    # The dice of the current roll (D-1).
    dice = state.dice
    for i in range(3):
        x = unit * (13 + 2.6 * i)
        face = "" if dice is None else SYMBOLS[dice[i]]
        out.append(
            f'<g class="die" data-die="{"ABC"[i]}" data-symbol="{face}">'
            f'<rect x="{x:.1f}" y="{unit * 2:.1f}" width="{unit * 2:.1f}" '
            f'height="{unit * 2:.1f}" rx="{unit * 0.4:.1f}" fill="white" stroke="#222222"/>'
            f'<text x="{x + unit:.1f}" y="{unit * 3.4:.1f}" font-size="{unit * 1.3:.1f}" '
            f'text-anchor="middle">{face}</text></g>'
        )
    # One line per seat: name, row, points, chips (D-4, D-5, D-7, D-10).
    for seat in range(n):
        y = unit * 6 + line * seat
        quit_ = state.quit[seat]
        fill = ACTIVE_FILL if seat == current else "#e8efe9"
        black, white = state.chips(seat)
        out.append(
            f'<g class="seat" data-seat="{seat}" data-score="{state.scores[seat]}" '
            f'data-quit="{str(quit_).lower()}">'
            f'<rect x="{unit * 0.5:.1f}" y="{y:.1f}" width="{width - unit:.1f}" '
            f'height="{line - unit * 0.3:.1f}" rx="4" fill="{fill}"/>'
            f'<text x="{unit:.1f}" y="{y + unit * 1.3:.1f}" font-size="{unit * 0.8:.1f}">'
            f"{escape(labels[seat])}</text>"
        )
        x = unit * 5
        for symbol, count in enumerate(state.rows[seat]):
            for _ in range(count):
                out.append(
                    _card(x, y + unit * 0.5, symbol, w=unit * 0.8, faded=False, face_down=quit_)
                )
                x += unit * 0.9
        out.append(
            f'<text class="score" x="{unit * 17.6:.1f}" y="{y + unit * 1.3:.1f}" '
            f'font-size="{unit * 0.8:.1f}" text-anchor="end">{state.scores[seat]}</text>'
        )
        for i in range(black + white):
            kind = "black" if i < black else "white"
            out.append(
                f'<circle class="chip {kind}" cx="{unit * (18.3 + 0.4 * i):.1f}" '
                f'cy="{y + unit * 1:.1f}" r="{unit * 0.3:.1f}" fill="{kind}" stroke="#222222"/>'
            )
        out.append("</g>")
    out.append("</svg>")
    return "\n".join(out)


__all__ = ["state_svg"]
