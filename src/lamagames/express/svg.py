"""Lama Express positions as SVG pictures (pure functions returning SVG text, like
python-chess's ``chess.svg``); Jupyter shows an :class:`ExpressState` through
``ExpressState._repr_svg_``, which calls :func:`state_svg`.

The picture: the track as a ring of spaces in their die colours (E-3), clockwise from the top;
each station's boarding space marked by a square in the player's colour with the number of
llamas waiting, its exit spaces ringed in that colour; white arrows as triangles with the
footpath's footprints leading inwards (llamas on them as dots); the two trains outside the ring
(locomotive, coal car and cars 1..5, E-2) with a dot per riding llama in its owner's colour;
in the middle the die, the rolls, whose turn, and per seat the llamas waiting and home.

Elements carry classes and ``data-`` attributes (``class="llama" data-seat="1"
data-where="A3"``) so that tests and style sheets can find them.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Final
from xml.sax.saxutils import escape, quoteattr

from lamagames.express.material import PASSENGER_CARS, ROLE_EXIT, ROLE_REBOARD
from lamagames.express.state import ExpressState

#: Fill of each die colour letter (E-1).
DIE_FILL: Final = {
    "R": "#d62728",
    "O": "#ff8c1a",
    "Y": "#f2d21b",
    "G": "#2ca02c",
    "B": "#1f77b4",
    "P": "#8e4fc0",
}
#: Fill of each player colour (E-1).
PLAYER_FILL: Final = {"yellow": "#e8b800", "pink": "#f06bb0", "green": "#1e8c3a", "blue": "#2457c5"}
TRAIN_FILL: Final = ("#444444", "#8a5a2b")  # trains A and B


def _point(cx: float, cy: float, radius: float, index: int, length: int) -> tuple[float, float]:
    angle = 2 * math.pi * index / length - math.pi / 2
    return cx + radius * math.cos(angle), cy + radius * math.sin(angle)


def _attr(**values: object) -> str:
    """Attributes from keywords: ``class_`` gives ``class``, ``data_seat`` ``data-seat``."""
    return " ".join(
        f"{key.rstrip('_').replace('_', '-')}={quoteattr(str(v))}" for key, v in values.items()
    )


def state_svg(
    state: ExpressState,
    *,
    size: int = 480,
    names: Sequence[str] | None = None,
    show_status: bool = True,
) -> str:
    """Draw a Lama Express position as an SVG document.

    Args:
        state: the position (read through its public accessors only).
        size: width and height in pixels.
        names: a name per seat for the status lines (default ``seat 1`` ..).
        show_status: write the die, turn and per-seat counts in the middle.

    Returns:
        SVG text (UTF-8, one ``<svg>`` element with a ``viewBox``).

    Raises:
        ValueError: ``size`` is below 120 pixels or ``names`` does not name every seat.
    """
    n = state.game.num_players
    if size < 120:
        raise ValueError(f"size must be at least 120 pixels, got {size}")
    if names is not None and len(names) != n:
        raise ValueError(f"names: need {n} names, got {len(names)}")
    labels = list(names) if names is not None else [f"seat {s + 1}" for s in range(n)]
    board = state.board
    length = board.length
    c = size / 2
    ring = size * 0.36
    r = min(math.pi * ring / length * 0.85, size * 0.035)
    out: list[str] = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{size}" height="{size}" '
        f'viewBox="0 0 {size} {size}" font-family="sans-serif">',
        f'<rect width="{size}" height="{size}" fill="#f7f3e8"/>',
    ]
    seat_of = state.game.station_seat
    # The track (E-3): spaces in their colours; exits ringed; re-boarding spaces dashed.
    for i, letter in enumerate(board.track):
        x, y = _point(c, c, ring, i, length)
        stroke = "#555555"
        dash = ""
        if board.role[i] == ROLE_EXIT:
            stroke = PLAYER_FILL[board.stations[board.role_index[i]].colour]
        elif board.role[i] == ROLE_REBOARD:
            dash = ' stroke-dasharray="2,1.5"'
        out.append(
            f"<circle {_attr(class_='space', data_space=i, data_colour=letter)} "
            f'cx="{x:.1f}" cy="{y:.1f}" r="{r:.1f}" fill="{DIE_FILL[letter]}" '
            f'stroke="{stroke}" stroke-width="{r * 0.3:.1f}"{dash}/>'
        )
    # Stations (E-3, E-4): boarding square with the llamas waiting.
    for k, station in enumerate(board.stations):
        x, y = _point(c, c, ring - 2.6 * r, station.boarding, length)
        seat = seat_of[k]
        waiting = state.waiting_llamas(seat) if seat >= 0 else 0
        out.append(
            f"<g {_attr(class_='station', data_colour=station.colour, data_waiting=waiting)}>"
            f'<rect x="{x - r * 1.2:.1f}" y="{y - r * 1.2:.1f}" width="{r * 2.4:.1f}" '
            f'height="{r * 2.4:.1f}" fill="{PLAYER_FILL[station.colour]}" '
            f'opacity="{1.0 if seat >= 0 else 0.35}"/>'
            f'<text x="{x:.1f}" y="{y + r * 0.5:.1f}" font-size="{r * 1.4:.1f}" '
            f'text-anchor="middle" fill="white">{waiting if seat >= 0 else ""}</text></g>'
        )
    # White arrows and their footpaths (E-3, E-7): footprints lead inwards.
    for f, path in enumerate(board.footpaths):
        x, y = _point(c, c, ring, path.arrow, length)
        out.append(
            f"<polygon {_attr(class_='arrow', data_footpath=f)} "
            f'points="{x:.1f},{y - r * 0.7:.1f} {x - r * 0.6:.1f},{y + r * 0.5:.1f} '
            f'{x + r * 0.6:.1f},{y + r * 0.5:.1f}" fill="white" stroke="black" '
            f'stroke-width="0.8"/>'
        )
        walkers = state.footpath_llamas(f)
        for j in range(path.length):
            px, py = _point(c, c, ring - (2.4 + 1.8 * j) * r, path.arrow, length)
            if j < len(walkers):
                seat = walkers[j][0]
                colour = PLAYER_FILL[state.game.colours[seat]]
                out.append(
                    f"<circle {_attr(class_='llama', data_seat=seat, data_where=f'F{f}.{j}')} "
                    f'cx="{px:.1f}" cy="{py:.1f}" r="{r * 0.75:.1f}" fill="{colour}" '
                    f'stroke="black" stroke-width="0.8"/>'
                )
            else:
                out.append(
                    f'<circle class="footprint" cx="{px:.1f}" cy="{py:.1f}" '
                    f'r="{r * 0.3:.1f}" fill="#b0a890"/>'
                )
    # Trains (E-2): locomotive, coal car and cars 1..5 outside the ring.
    for t, name in enumerate("AB"):
        spaces = state.train_spaces(t)
        for offset, space in enumerate(spaces):
            x, y = _point(c, c, ring + 2.3 * r, space, length)
            label = name if offset == 0 else ("" if offset == 1 else str(offset - 1))
            part = "locomotive" if offset == 0 else ("coal" if offset == 1 else "car")
            out.append(
                f"<g {_attr(class_=part, data_train=name, data_space=space)}>"
                f'<rect x="{x - r:.1f}" y="{y - r:.1f}" width="{2 * r:.1f}" '
                f'height="{2 * r:.1f}" rx="{r * 0.3:.1f}" fill="{TRAIN_FILL[t]}"/>'
                f'<text x="{x:.1f}" y="{y + r * 0.45:.1f}" font-size="{r * 1.2:.1f}" '
                f'text-anchor="middle" fill="white">{label}</text></g>'
            )
        for car in range(1, PASSENGER_CARS + 1):
            llama = state.car_llama(t, car)
            if llama is None:
                continue
            x, y = _point(c, c, ring + 4.4 * r, state.car_space(t, car), length)
            colour = PLAYER_FILL[state.game.colours[llama[0]]]
            out.append(
                f"<circle {_attr(class_='llama', data_seat=llama[0], data_where=f'{name}{car}')} "
                f'cx="{x:.1f}" cy="{y:.1f}" r="{r * 0.8:.1f}" fill="{colour}" '
                f'stroke="black" stroke-width="0.8"><title>{name}{car}: '
                f"{escape(labels[llama[0]])}, progress {llama[1]}</title></circle>"
            )
    if show_status:
        out.extend(_status(state, labels, c, size))
    out.append("</svg>")
    return "\n".join(out)


def _status(state: ExpressState, labels: list[str], c: float, size: int) -> list[str]:
    """Status lines in the middle: die, rolls, turn or result, llamas per seat."""
    font = size * 0.026
    die = state.die()
    winner = state.winner()
    if winner is not None:
        head = f"{labels[winner]} wins"
    elif state.is_truncated():
        head = "truncated (turn limit)"
    else:
        head = f"{labels[state.active_player()]} to play ({state.phase().label})"
    lines = [
        (
            "die",
            f"die {die}" if die is not None else "no roll yet",
            DIE_FILL.get(die or "", "#333333"),
        ),
        ("rolls", f"rolls {state.rolls()}", "#333333"),
        ("turn", head, "#333333"),
    ]
    for seat, label in enumerate(labels):
        colour = state.game.colours[seat]
        text = (
            f"{label} ({colour}): {state.waiting_llamas(seat)} waiting, "
            f"{state.house_llamas(seat)} home"
        )
        lines.append(("seat", text, PLAYER_FILL[colour]))
    top = c - font * 1.3 * len(lines) / 2
    out = []
    for i, (kind, text, fill) in enumerate(lines):
        extra = f' data-seat="{i - 3}"' if kind == "seat" else ""
        out.append(
            f'<text class="{kind}"{extra} x="{c:.1f}" y="{top + font * 1.3 * (i + 1):.1f}" '
            f'font-size="{font:.1f}" text-anchor="middle" fill="{fill}">{escape(text)}</text>'
        )
    return out


__all__ = ["DIE_FILL", "PLAYER_FILL", "state_svg"]
