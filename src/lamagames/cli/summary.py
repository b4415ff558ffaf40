"""The summary of a batch of games for people (a Rich table) and for programs (JSON)."""

from __future__ import annotations

from typing import Any

from rich.table import Table

from lamagames.sim.stats import BatchSummary


def summary_table(summary: BatchSummary, title: str) -> Table:
    """A Rich table of a batch summary: one line per seat, hook metrics as columns.

    *Wins* include ties (a tie counts as a win for every tied winner, so the wins can add
    up to more than the games); *of them tied* says how many, and the caption says so.
    """
    extra_keys: list[str] = []
    for seat in summary.seats:
        extra_keys += [k for k in seat.extra if k not in extra_keys]
    figures = [f"{summary.games} games", f"seed {summary.seed}", f"{summary.seconds:.2f} s"]
    figures += [
        f"{k.replace('_', ' ')} {_fmt(v)}" for k, v in summary.extra.items() if v is not None
    ]
    figures.append(f"{summary.decisions} decisions")
    figures.append(f"{summary.ties} {'tie' if summary.ties == 1 else 'ties'}")
    table = Table(
        title=f"{title}\n" + " · ".join(figures),
        title_justify="left",
        caption="Wins include ties: a tie counts as a win for each tied winner.",
        caption_justify="left",
    )
    table.add_column("Seat", justify="right")
    table.add_column("Kind")
    table.add_column("Wins", justify="right")
    table.add_column("Of them tied", justify="right")
    table.add_column("Win share", justify="right")
    for key in extra_keys:
        table.add_column(key.replace("_", " ").capitalize(), justify="right")
    for seat in summary.seats:
        table.add_row(
            str(seat.seat + 1),
            seat.kind,
            _fmt(seat.wins),
            _fmt(seat.shared_wins),
            f"{seat.win_share:.3f}",
            *(_fmt(seat.extra.get(k)) for k in extra_keys),
        )
    return table


def _fmt(value: object) -> str:
    if value is None:
        return "-"
    if isinstance(value, float):
        return f"{value:g}" if value.is_integer() else f"{value:.3f}"
    return str(value)


def summary_dict(summary: BatchSummary, requested: int, interrupted: bool) -> dict[str, Any]:
    """The ``--summary-json`` contents: :meth:`BatchSummary.to_dict` with
    ``games_requested`` and ``interrupted`` (stopped before all requested games ended)
    after ``games``."""
    data: dict[str, Any] = {}
    for key, value in summary.to_dict().items():
        data[key] = value
        if key == "games":
            data["games_requested"] = requested
            data["interrupted"] = interrupted
    return data
