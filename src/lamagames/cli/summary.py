"""The summary of a batch of games for people (a Rich table) and for programs (JSON)."""

from __future__ import annotations

from typing import Any

from rich.table import Table

from lamagames.cli.i18n import _, ngettext
from lamagames.core.i18n import mark as _mark
from lamagames.sim.stats import BatchSummary

#: The games' statistics hooks' figures (``lamagames.dice.stats``, ``lamagames.express.stats``)
#: in words, marked for the catalogs; any other key is shown as its name.
METRIC_WORDS = {
    "rounds_per_game": _mark("rounds per game"),
    "mean_round_points": _mark("mean round points"),
    "mean_final_score": _mark("mean final score"),
    "turns_per_game": _mark("turns per game"),
    "truncated": _mark("truncated"),
    "mean_llamas_home": _mark("mean llamas home"),
    "colour": _mark("colour"),
}


def _metric(key: str) -> str:
    """A hook figure's name in the chosen language (``rounds per game``)."""
    words = METRIC_WORDS.get(key)
    return _(words) if words is not None else key.replace("_", " ")


def _heading(key: str) -> str:
    """A hook figure's column heading (``Mean round points``)."""
    words = _metric(key)
    return words[:1].upper() + words[1:]


def summary_table(summary: BatchSummary, title: str) -> Table:
    """A Rich table of a batch summary: one line per seat, hook metrics as columns.

    *Wins* include ties (a tie counts as a win for every tied winner, so the wins can add
    up to more than the games); *of them tied* says how many, and the caption says so.
    """
    extra_keys: list[str] = []
    for seat in summary.seats:
        extra_keys += [k for k in seat.extra if k not in extra_keys]
    figures = [
        ngettext("{n} game", "{n} games", summary.games).format(n=summary.games),
        _("seed {seed}").format(seed=summary.seed),
        f"{summary.seconds:.2f} s",
    ]
    figures += [f"{_metric(k)} {_fmt(v)}" for k, v in summary.extra.items() if v is not None]
    figures.append(
        ngettext("{n} decision", "{n} decisions", summary.decisions).format(n=summary.decisions)
    )
    figures.append(ngettext("{n} tie", "{n} ties", summary.ties).format(n=summary.ties))
    table = Table(
        title=f"{title}\n" + " · ".join(figures),
        title_justify="left",
        caption=_("Wins include ties: a tie counts as a win for each tied winner."),
        caption_justify="left",
    )
    table.add_column(_("Seat"), justify="right")
    table.add_column(_("Kind"))
    table.add_column(_("Wins"), justify="right")
    table.add_column(_("Of them tied"), justify="right")
    table.add_column(_("Win share"), justify="right")
    for key in extra_keys:
        table.add_column(_heading(key), justify="right")
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
    if isinstance(value, str):  # Lama Express: a seat's colour
        return _(value)
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
