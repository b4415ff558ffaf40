"""``lama simulate ... | cat``: a figure and its ± half width stay on one line (issue 19,
the family table's trial: piped output was laid out on 80 columns and ``0.233 ±`` /
``0.048`` took two lines)."""

from __future__ import annotations

import io
import re
from collections.abc import Callable

import pytest
from rich.console import Console
from rich.table import Table
from typer.testing import Result

from lamagames.cli.common import print_unwrapped

Invoke = Callable[..., Result]

#: A figure with its half width, whole: ``0.233 ± 0.048``.
WHOLE_FIGURE = re.compile(r"-?\d+\.\d+ ± \d+\.\d+")


def _wide_table() -> Table:
    table = Table(title="4p · 300 games")
    table.add_column("Seat", justify="right")
    for heading in ("Win share", "Mean final points", "Round points per game", "Mean round"):
        table.add_column(heading, justify="right")
    for seat in range(1, 5):
        table.add_row(str(seat), "0.257 ± 0.049", "28.070 ± 1.604", "32.887 ± 1.759", "6.42 ± 0.3")
    return table


def test_piped_simulate_keeps_each_figure_on_one_line(
    lama: Invoke, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("COLUMNS", raising=False)  # Rich's 80 columns for a pipe
    result = lama("simulate", "dice", "--players", "4", "--games", "20", "--seed", "2")
    assert result.exit_code == 0, result.output
    rows = [line for line in result.stdout.splitlines() if "benchmark" in line]
    assert len(rows) == 4, result.stdout
    for row in rows:
        assert len(WHOLE_FIGURE.findall(row)) == 4, row  # win share and three more figures
    assert not re.search(r"± *│", result.stdout), result.stdout


def test_print_unwrapped_widens_a_pipe_only_for_the_table() -> None:
    out = io.StringIO()
    console = Console(file=out, width=80, highlight=False)
    assert not console.is_terminal
    print_unwrapped(console, _wide_table())
    print_unwrapped(console, "after")
    lines = out.getvalue().splitlines()
    rows = [line for line in lines if line.startswith("│")]
    assert len(rows) == 4 and all(len(WHOLE_FIGURE.findall(row)) == 4 for row in rows), lines
    assert max(len(line) for line in lines) > 80
    assert console.width == 80 and lines[-1].rstrip() == "after"


def test_print_unwrapped_keeps_a_terminals_width() -> None:
    out = io.StringIO()
    console = Console(file=out, width=60, force_terminal=True, color_system=None)
    print_unwrapped(console, _wide_table())
    assert max(len(line) for line in out.getvalue().splitlines()) <= 60
