"""The review chart: each seat's value across the game (Matplotlib, PNG or SVG).

One line per reviewed seat through the ``level`` of its decisions (LAMA Dice: expected
score at the end of the round after the move; Lama Express: win chance after the move)
against the action's index in the record; marked decisions are drawn as larger points
(inaccuracy, mistake, blunder). Matplotlib is optional (the ``sim`` and ``ladder`` extras
install it).
"""

from __future__ import annotations

from pathlib import Path
from typing import Final

from lamagames.coach.review import Review
from lamagames.core.errors import ParameterError
from lamagames.core.extras import require

#: File suffixes the chart is written as (by the file name).
FORMATS: Final = {".png": "png", ".svg": "svg"}
#: Marker size and colour per mark.
MARK_STYLE: Final = {
    "inaccuracy": (40, "#e6b800"),
    "mistake": (60, "#e67300"),
    "blunder": (90, "#cc0000"),
}


def chart_format(path: Path) -> str:
    """``"png"`` or ``"svg"`` from the file name.

    Raises:
        ParameterError: any other suffix.
    """
    fmt = FORMATS.get(path.suffix.lower())
    if fmt is None:
        raise ParameterError(f"--plot {path}: the file name must end in .png or .svg")
    return fmt


def write_chart(review: Review, path: Path) -> None:
    """Draw the chart of ``review`` into ``path`` (PNG or SVG by its suffix).

    Raises:
        ParameterError: a suffix other than ``.png``/``.svg``, or Matplotlib is missing.
        OSError: the file cannot be written.
    """
    fmt = chart_format(path)
    require("--plot", ("matplotlib",), "sim")
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(9, 4.5))
    try:
        for totals in review.seats:
            points = [
                (d.index, d.level, d.mark)
                for d in review.decisions
                if d.seat == totals.seat and d.level is not None
            ]
            label = f"{totals.name} (seat {totals.seat + 1})"
            (line,) = ax.plot([p[0] for p in points], [p[1] for p in points], linewidth=1.2,
                              label=label)  # fmt: skip
            for mark, (size, colour) in MARK_STYLE.items():
                marked = [p for p in points if p[2] == mark]
                if marked:
                    ax.scatter([p[0] for p in marked], [p[1] for p in marked], s=size,
                               color=colour, edgecolors=line.get_color(), zorder=3,
                               label=None)  # fmt: skip
        for mark, (size, colour) in MARK_STYLE.items():
            ax.scatter([], [], s=size, color=colour, label=mark)
        ax.set_xlabel("action in the record")
        ax.set_ylabel(review.level_label)
        ax.set_title(f"{review.title}: review" + ("" if review.finished else " (unfinished)"))
        ax.grid(alpha=0.3)
        ax.legend(fontsize="small", loc="best")
        fig.tight_layout()
        fig.savefig(path, format=fmt)
    finally:
        plt.close(fig)
