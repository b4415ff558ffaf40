"""Summaries of batch-engine simulations with 95% confidence intervals (game-agnostic).

A :class:`ConfigResult` holds the per-game arrays of one configuration (player count, seat
policies, rule variant); :func:`summarize` turns it into a :class:`ConfigSummary`. Method
(``docs/simulate.md``):

* win share of a seat: wins / games (a tie makes every tied seat a winner), 95% Wilson
  score interval;
* means per game (final score ``mean_final_score``, game length, each per-seat extra
  array as ``<name>_per_game``): mean and ``1.96 * sd / sqrt(games)`` (central limit
  theorem; games are independent);
* per-length rates (each per-seat extra per round or roll, ``mean_<name>``, the name
  ``lama play --games`` gives its per-round means): the ratio of sums
  ``sum(x) / sum(length)`` with a delta-method interval
  ``1.96 * sd(x - r * length) / (mean(length) * sqrt(games))``;
* first-player advantage: the mean over games of ``win[starter] - mean(win over seats)``
  (0 when the first seat is no better than the average seat), normal interval.

Seats in the data (JSON, CSV, Parquet) are 0-based indices as in records and the engines
(``seat``), with ``seat_label`` (``"Seat 1"``) for people; tables and plots show 1-based
numbers, as ``lama play`` does.
"""

from __future__ import annotations

import html
import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt

from lamagames.sim.batch_protocol import BatchResults

Z95 = 1.959964


@dataclass(frozen=True, slots=True)
class Estimate:
    """A figure with its 95% confidence interval ``[low, high]``."""

    value: float
    low: float
    high: float

    def to_dict(self) -> dict[str, float]:
        """``{"value", "low", "high"}``."""
        return {"value": self.value, "low": self.low, "high": self.high}

    def text(self, digits: int = 3) -> str:
        """``0.251 ± 0.004`` (half width of the interval)."""
        half = (self.high - self.low) / 2
        return f"{self.value:.{digits}f} ± {half:.{digits}f}"


def wilson(successes: float, trials: int) -> Estimate:
    """Share ``successes / trials`` with its 95% Wilson score interval.

    Raises:
        ValueError: ``trials`` is not positive.
    """
    if trials <= 0:
        raise ValueError(f"trials must be positive, got {trials}")
    p = successes / trials
    denom = 1 + Z95 * Z95 / trials
    centre = (p + Z95 * Z95 / (2 * trials)) / denom
    half = Z95 * math.sqrt(p * (1 - p) / trials + Z95 * Z95 / (4 * trials * trials)) / denom
    return Estimate(p, max(0.0, centre - half), min(1.0, centre + half))


def mean_ci(values: npt.NDArray[Any]) -> Estimate:
    """Mean of a 1-D array with the normal 95% interval (zero width for one value)."""
    x = np.asarray(values, dtype=np.float64)
    m = float(x.mean())
    half = Z95 * float(x.std(ddof=1)) / math.sqrt(len(x)) if len(x) > 1 else 0.0
    return Estimate(m, m - half, m + half)


def ratio_ci(x: npt.NDArray[Any], length: npt.NDArray[Any]) -> Estimate:
    """``sum(x) / sum(length)`` with a delta-method 95% interval."""
    xs = np.asarray(x, dtype=np.float64)
    ls = np.asarray(length, dtype=np.float64)
    r = float(xs.sum() / ls.sum())
    if len(xs) < 2:
        return Estimate(r, r, r)
    half = Z95 * float((xs - r * ls).std(ddof=1)) / (float(ls.mean()) * math.sqrt(len(xs)))
    return Estimate(r, r - half, r + half)


def seat_label(seat: int) -> str:
    """``Seat 1`` for the 0-based seat ``0`` (the label people read)."""
    return f"Seat {seat + 1}"


@dataclass(slots=True)
class ConfigResult:
    """One configuration's per-game results, in game order.

    Attributes:
        label: name of the configuration (``"4p end_score=60"``).
        num_players: seats.
        policies: policy per seat.
        params: complete rule parameters (the engine's ``check_params`` output).
        results: the games (``BatchResults`` arrays, ``G`` rows).
    """

    label: str
    num_players: int
    policies: list[str]
    params: dict[str, Any]
    results: BatchResults


@dataclass(frozen=True, slots=True)
class SeatSummary:
    """One seat (0-based) of one configuration: ``win_share``, ``mean_score`` (final score
    per game) and ``extra`` figures (per game ``<name>_per_game``, per length unit
    ``mean_<name>``)."""

    seat: int
    policy: str
    win_share: Estimate
    mean_score: Estimate
    extra: dict[str, Estimate] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class ConfigSummary:
    """Summary of one configuration (see the module docstring for the method)."""

    label: str
    num_players: int
    params: dict[str, Any]
    games: int
    finished: int
    length: Estimate
    first_player_advantage: Estimate
    seats: list[SeatSummary]


def summarize(config: ConfigResult, length_name: str) -> ConfigSummary:
    """Figures with 95% intervals of one configuration.

    Args:
        config: the games.
        length_name: unit of the game length (``rounds``, ``rolls``), for rate names.

    Raises:
        ValueError: no games.
    """
    r = config.results
    g = r.games
    if g == 0:
        raise ValueError("no games to summarize")
    wins = r.wins.astype(np.float64)
    seats = []
    for seat in range(config.num_players):
        extra: dict[str, Estimate] = {}
        for name, array in r.extra.items():
            if array.ndim == 2:
                extra[f"{name}_per_game"] = mean_ci(array[:, seat])
                extra[f"mean_{name}"] = ratio_ci(array[:, seat], r.length)
        seats.append(
            SeatSummary(
                seat=seat,
                policy=config.policies[seat],
                win_share=wilson(float(wins[:, seat].sum()), g),
                mean_score=mean_ci(r.scores[:, seat]),
                extra=extra,
            )
        )
    first = wins[np.arange(g), r.starter.astype(np.int64)] - wins.mean(axis=1)
    return ConfigSummary(
        label=config.label,
        num_players=config.num_players,
        params=config.params,
        games=g,
        finished=int(r.finished.sum()),
        length=mean_ci(r.length),
        first_player_advantage=mean_ci(first),
        seats=seats,
    )


#: Columns of :meth:`SimulationSummary.tidy_rows` (the ``.csv`` export), in order.
TIDY_COLUMNS: tuple[str, ...] = (
    "config", "players", "games", "seat", "seat_label", "policy", "figure", "value", "low",
    "high",
)  # fmt: skip


@dataclass(frozen=True, slots=True)
class SimulationSummary:
    """Everything ``lama simulate`` reports: one :class:`ConfigSummary` per configuration,
    compared side by side. Shows as an HTML table in Jupyter.

    Attributes:
        game: game id; ``seed``: root seed; ``seconds``: wall-clock time of the games;
        ``warmup_seconds``: first engine call before them (compile or cache load);
        ``score_name`` / ``length_name``: units from the engine; ``workers`` / ``backend``.
    """

    game: str
    seed: int
    seconds: float
    warmup_seconds: float
    score_name: str
    length_name: str
    workers: int
    backend: str
    configs: list[ConfigSummary]

    def rows(self) -> list[dict[str, Any]]:
        """One wide row per configuration and seat: every figure with ``_low`` / ``_high``
        columns, the configuration's game-level figures (game length, first-player
        advantage) repeated on each of its seat rows. The files and data frames use the
        long form, :meth:`tidy_rows`."""
        out = []
        for c in self.configs:
            for s in c.seats:
                row: dict[str, Any] = {
                    "config": c.label,
                    "players": c.num_players,
                    "games": c.games,
                    "seat": s.seat,
                    "seat_label": seat_label(s.seat),
                    "policy": s.policy,
                }
                figures = {
                    "win_share": s.win_share,
                    "mean_final_score": s.mean_score,
                    **s.extra,
                    f"{self.length_name}_per_game": c.length,
                    "first_player_advantage": c.first_player_advantage,
                }
                for name, est in figures.items():
                    row[name] = est.value
                    row[f"{name}_low"] = est.low
                    row[f"{name}_high"] = est.high
                out.append(row)
        return out

    def tidy_rows(self) -> list[dict[str, Any]]:
        """The long, tidy form: one row per configuration, seat and figure (the ``.csv``
        export, :meth:`to_pandas`, :meth:`to_polars`).

        Columns: ``config`` (label), ``players``, ``games``, ``seat`` (0-based, as in
        records; ``None`` on the rows of game-level figures), ``seat_label``
        (``"Seat 1"``, else ``None``), ``policy`` (the seat's, else ``None``), ``figure``
        (its name, as in :meth:`to_dict`), ``value``, ``low`` and ``high`` (the 95%
        interval). Game-level figures come once per configuration, before its seats:
        ``<length>_per_game`` (``rounds_per_game``, ``rolls_per_game``),
        ``first_player_advantage`` and ``finished_games`` (a count: ``low`` = ``high`` =
        ``value``). Seat figures: ``win_share``, ``mean_final_score`` and the extras."""
        out: list[dict[str, Any]] = []

        def add(c: ConfigSummary, seat: SeatSummary | None, name: str, est: Estimate) -> None:
            out.append(
                {
                    "config": c.label,
                    "players": c.num_players,
                    "games": c.games,
                    "seat": None if seat is None else seat.seat,
                    "seat_label": None if seat is None else seat_label(seat.seat),
                    "policy": None if seat is None else seat.policy,
                    "figure": name,
                    "value": est.value,
                    "low": est.low,
                    "high": est.high,
                }
            )

        for c in self.configs:
            finished = float(c.finished)
            add(c, None, f"{self.length_name}_per_game", c.length)
            add(c, None, "first_player_advantage", c.first_player_advantage)
            add(c, None, "finished_games", Estimate(finished, finished, finished))
            for s in c.seats:
                for name, est in self.seat_figures(c, s).items():
                    add(c, s, name, est)
        return out

    def to_pandas(self) -> Any:
        """:meth:`tidy_rows` as a ``pandas.DataFrame`` (``seat`` as the nullable
        ``Int64`` dtype: game-level rows have none).

        Raises:
            ImportError: pandas is not installed (``pip install pandas``).
        """
        try:
            import pandas as pd
        except ImportError:
            raise ImportError("to_pandas() needs pandas: pip install pandas") from None
        frame = pd.DataFrame(self.tidy_rows(), columns=TIDY_COLUMNS)
        frame["seat"] = frame["seat"].astype("Int64")
        return frame

    def to_polars(self) -> Any:
        """:meth:`tidy_rows` as a ``polars.DataFrame`` (``seat`` null on game-level rows).

        Raises:
            ImportError: polars is not installed (``pip install polars``).
        """
        try:
            import polars as pl
        except ImportError:
            raise ImportError("to_polars() needs polars: pip install polars") from None
        rows = self.tidy_rows()
        schema = {
            "config": pl.String, "players": pl.Int64, "games": pl.Int64, "seat": pl.Int64,
            "seat_label": pl.String, "policy": pl.String, "figure": pl.String,
            "value": pl.Float64, "low": pl.Float64, "high": pl.Float64,
        }  # fmt: skip
        return pl.DataFrame(
            {name: [row[name] for row in rows] for name in TIDY_COLUMNS}, schema=schema
        )

    def to_dict(self) -> dict[str, Any]:
        """JSON data: run facts and, per configuration, every figure as
        ``{"value", "low", "high"}`` (95% interval)."""
        return {
            "game": self.game,
            "seed": self.seed,
            "seconds": round(self.seconds, 3),
            "warmup_seconds": round(self.warmup_seconds, 3),
            "workers": self.workers,
            "backend": self.backend,
            "score": self.score_name,
            "length": self.length_name,
            "configs": [
                {
                    "label": c.label,
                    "players": c.num_players,
                    "params": c.params,
                    "games": c.games,
                    "finished": c.finished,
                    f"{self.length_name}_per_game": c.length.to_dict(),
                    "first_player_advantage": c.first_player_advantage.to_dict(),
                    "seats": [
                        {
                            "seat": s.seat,
                            "seat_label": seat_label(s.seat),
                            "policy": s.policy,
                            "win_share": s.win_share.to_dict(),
                            "mean_final_score": s.mean_score.to_dict(),
                            **{k: v.to_dict() for k, v in s.extra.items()},
                        }
                        for s in c.seats
                    ],
                }
                for c in self.configs
            ],
        }

    def columns(self) -> list[tuple[str, str]]:
        """Table columns ``(heading, figure key)`` shared by the Rich and HTML tables."""
        keys = ["win_share", "mean_final_score"]
        for c in self.configs:
            for s in c.seats:
                keys += [k for k in s.extra if k not in keys]
        return [(self.heading(k), k) for k in keys]

    def heading(self, key: str) -> str:
        """A column heading that says the unit: ``Mean final points``, ``Round points per
        game``, ``Mean round points per round``."""
        unit = self.length_name.rstrip("s") or self.length_name
        if key == "mean_final_score":
            return f"Mean final {self.score_name}"
        if key.startswith("mean_"):
            return f"{key.replace('_', ' ').capitalize()} per {unit}"
        return key.replace("_", " ").capitalize()

    def seat_figures(self, config: ConfigSummary, seat: SeatSummary) -> dict[str, Estimate]:
        """A seat's figures by column key."""
        return {
            "win_share": seat.win_share,
            "mean_final_score": seat.mean_score,
            **seat.extra,
        }

    def config_line(self, config: ConfigSummary) -> str:
        """``4 players · 1000 games · rounds/game 5.16 ± 0.02 · first-player advantage ...``;
        when some games were stopped unfinished (a turn limit), it says how many, since they
        count as won by nobody: ``... · 12 of 1000 games unfinished (no winner)``."""
        line = (
            f"{config.label} · {config.games} games · {self.length_name}/game "
            f"{config.length.text(2)} · first-player advantage "
            f"{config.first_player_advantage.text(3)}"
        )
        unfinished = config.games - config.finished
        if unfinished:
            line += f" · {unfinished} of {config.games} games unfinished (no winner)"
        return line

    def _repr_html_(self) -> str:
        """An HTML table for Jupyter: one block of seat rows per configuration."""
        cols = self.columns()
        head = "".join(f"<th>{html.escape(h)}</th>" for h, _ in cols)
        parts = [
            f"<p><b>{html.escape(self.game)}</b>: seed {self.seed}, {self.seconds:.2f} s, "
            f"values ± half width of the 95% interval</p>",
            f"<table><thead><tr><th>Seat</th><th>Policy</th>{head}</tr></thead><tbody>",
        ]
        width = len(cols) + 2
        for c in self.configs:
            parts.append(
                f'<tr><td colspan="{width}" style="text-align:left"><i>'
                f"{html.escape(self.config_line(c))}</i></td></tr>"
            )
            for s in c.seats:
                figures = self.seat_figures(c, s)
                cells = "".join(
                    f"<td>{figures[k].text() if k in figures else '-'}</td>" for _, k in cols
                )
                parts.append(
                    f"<tr><td>{s.seat + 1}</td><td>{html.escape(s.policy)}</td>{cells}</tr>"
                )
        parts.append("</tbody></table>")
        return "".join(parts)
