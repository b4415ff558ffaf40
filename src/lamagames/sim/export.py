"""Exports and plots of ``lama simulate`` results (game-agnostic).

Formats by file suffix (:func:`write_output`):

* ``.json``: :meth:`SimulationSummary.to_dict` (every figure with its 95% interval);
* ``.csv``: :meth:`SimulationSummary.tidy_rows`, the long, tidy form: one row per
  configuration, seat and figure (game-level figures once per configuration, seat empty);
* ``.parquet``: every game, one row per game and seat (:func:`games_table`), via pyarrow,
  with the run's key-value metadata in the schema (:func:`run_metadata`: seed, parameters,
  version, command);
* ``.png`` / ``.svg``: :func:`plot_summary` (matplotlib): the distribution of final scores
  per configuration, and the win share by seat with 95% intervals, one series per
  configuration (so player counts and variants are side by side).
"""

from __future__ import annotations

import csv
import importlib
import json
import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Final

import numpy as np

from lamagames import __version__
from lamagames.core.errors import ParameterError
from lamagames.sim.summary import TIDY_COLUMNS, ConfigResult, SimulationSummary

FORMATS: Final = (".json", ".csv", ".parquet", ".png", ".svg")


#: The library each format needs beyond NumPy (all in the ``sim`` extra).
LIBRARIES: Final = {".parquet": "pyarrow", ".png": "matplotlib", ".svg": "matplotlib"}


def check_output(path: Path) -> None:
    """Refuse an output file before any game is played: an unknown suffix, a missing
    library for its format, or a place where it cannot be written.

    Raises:
        ParameterError: the suffix is not one of :data:`FORMATS`; the format's library
            (:data:`LIBRARIES`) cannot be imported (the message says what to install); the
            path is a folder, its folder does not exist or is not writable, or the file
            exists and is not writable.
    """
    suffix = path.suffix.lower()
    if suffix not in FORMATS:
        raise ParameterError(
            f"{path}: unknown output format {path.suffix or '(no suffix)'!r}; "
            f"use one of {', '.join(FORMATS)}"
        )
    library = LIBRARIES.get(suffix)
    if library is not None:
        try:
            importlib.import_module(library)
        except ImportError:
            raise ParameterError(
                f"{suffix} needs {library}: pip install 'lamagames[sim]'"
            ) from None
    if path.is_dir():
        raise ParameterError(f"{path} is a folder; give a file name")
    folder = path.resolve().parent
    if not folder.is_dir():
        raise ParameterError(f"the folder of {path} does not exist")
    if not os.access(folder, os.W_OK) or (path.exists() and not os.access(path, os.W_OK)):
        raise ParameterError(f"{path} cannot be written here")


def games_table(results: Sequence[ConfigResult]) -> Any:
    """A ``pyarrow.Table`` of every game: columns ``config``, ``players``, ``game``
    (index), ``seat`` (0-based, as in records and the engines), ``policy``, ``score``,
    ``win`` (0/1), ``length``, ``starter`` (0-based seat), ``finished`` and the engine's
    per-seat extras."""
    import pyarrow as pa

    tables = []
    for config in results:
        r = config.results
        g, n = r.scores.shape
        columns: dict[str, Any] = {
            "config": pa.array([config.label] * (g * n)),
            "players": np.full(g * n, n, dtype=np.int8),
            "game": np.repeat(np.arange(g, dtype=np.int64), n),
            "seat": np.tile(np.arange(n, dtype=np.int8), g),
            "policy": pa.array(list(config.policies) * g),
            "score": r.scores.reshape(-1),
            "win": r.wins.reshape(-1),
            "length": np.repeat(r.length, n),
            "starter": np.repeat(r.starter, n).astype(np.int8),
            "finished": np.repeat(r.finished, n),
        }
        for name, array in r.extra.items():
            columns[name] = array.reshape(-1) if array.ndim == 2 else np.repeat(array, n)
        tables.append(pa.table(columns))
    return pa.concat_tables(tables, promote_options="default")


#: Format name stored under ``format`` in the Parquet metadata (:func:`run_metadata`).
PARQUET_FORMAT: Final = "lamagames-simulate-games"


def run_metadata(
    summary: SimulationSummary, results: Sequence[ConfigResult], command: str | None = None
) -> dict[str, str]:
    """The key-value metadata of a Parquet export: what reproduces the games. Every value
    is JSON text (read it back with ``json.loads``).

    Keys: ``format`` (:data:`PARQUET_FORMAT`), ``lamagames_version``, ``game``, ``seed``
    (the root seed, int), ``games`` (per configuration, int), ``parameters`` (a list, one
    object per configuration: ``label``, ``players``, ``policies`` and the complete rule
    ``params`` as the engine checked them), ``command`` (the ``lama simulate`` command
    with the seed that was used, or ``null`` from Python), ``workers`` and ``backend``
    (they do not change the games: equal seeds give equal games for any split).
    """
    parameters = [
        {
            "label": c.label,
            "players": c.num_players,
            "policies": list(c.policies),
            "params": c.params,
        }
        for c in results
    ]
    games = summary.configs[0].games if summary.configs else 0
    values: dict[str, Any] = {
        "format": PARQUET_FORMAT,
        "lamagames_version": __version__,
        "game": summary.game,
        "seed": summary.seed,
        "games": games,
        "parameters": parameters,
        "command": command,
        "workers": summary.workers,
        "backend": summary.backend,
    }
    return {key: json.dumps(value, sort_keys=True) for key, value in values.items()}


def plot_summary(
    summary: SimulationSummary, results: Sequence[ConfigResult], path: Path | None = None
) -> Any:
    """Two panels: final-score distribution per configuration (all seats pooled) and win
    share by seat with 95% intervals. Saved to ``path`` (PNG or SVG by suffix) if given.

    Returns:
        The matplotlib ``Figure``.
    """
    import matplotlib

    if path is not None:
        matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, (left, right) = plt.subplots(1, 2, figsize=(11, 4.2))
    for config in results:
        scores = config.results.scores.reshape(-1)
        bins = np.arange(scores.min(), scores.max() + 2) - 0.5
        left.hist(scores, bins=bins, density=True, histtype="step", label=config.label)
    left.set_xlabel(f"final {summary.score_name}")
    left.set_ylabel("share of seats")
    left.set_title(f"{summary.game}: distribution of final {summary.score_name}")
    left.legend(fontsize="small")
    width = 0.8 / max(1, len(summary.configs))
    for k, conf in enumerate(summary.configs):
        x = np.arange(1, conf.num_players + 1) + (k - (len(summary.configs) - 1) / 2) * width
        share = [s.win_share for s in conf.seats]
        values = np.array([e.value for e in share])
        errors = np.array([[e.value - e.low for e in share], [e.high - e.value for e in share]])
        right.bar(x, values, width=width, yerr=errors, capsize=2, label=conf.label)
    right.set_xticks(range(1, max(c.num_players for c in summary.configs) + 1))
    right.set_xlabel("seat (1 = first)")
    right.set_ylabel("win share (95% interval)")
    right.set_title("win share by seat and configuration")
    right.legend(fontsize="small")
    fig.tight_layout()
    if path is not None:
        fig.savefig(path)
        plt.close(fig)
    return fig


def write_output(
    path: Path,
    summary: SimulationSummary,
    results: Sequence[ConfigResult],
    command: str | None = None,
) -> None:
    """Write ``path`` in the format its suffix names (see the module docstring).

    Args:
        path: the file; its suffix names the format.
        summary: the figures (JSON, CSV, plots).
        results: the games (Parquet, plots).
        command: the command that ran the simulation, for the Parquet metadata
            (:func:`run_metadata`); ``None`` from Python.

    Raises:
        ParameterError: an unknown suffix.
        OSError: the file cannot be written.
    """
    check_output(path)
    suffix = path.suffix.lower()
    if suffix == ".json":
        path.write_text(json.dumps(summary.to_dict(), indent=2) + "\n", encoding="utf-8")
    elif suffix == ".csv":
        with path.open("w", newline="", encoding="utf-8") as handle:
            writer = csv.DictWriter(handle, fieldnames=TIDY_COLUMNS)
            writer.writeheader()
            writer.writerows(summary.tidy_rows())  # None (game-level seat) is written empty
    elif suffix == ".parquet":
        import pyarrow.parquet as pq

        table = games_table(results)
        table = table.replace_schema_metadata(run_metadata(summary, results, command))
        pq.write_table(table, path)
    else:
        plot_summary(summary, results, path)
