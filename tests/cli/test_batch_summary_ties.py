"""A tie counts as a win for each tied winner; the batch summary says so, in the table and in
``--summary-json`` (issue 8)."""

from __future__ import annotations

import io
import json
from collections.abc import Callable
from pathlib import Path

from rich.console import Console
from typer.testing import Result

from lamagames.cli.summary import summary_table
from lamagames.core import make
from lamagames.core.game import State
from lamagames.sim.runner import GameResult
from lamagames.sim.stats import StatsCollector

Lama = Callable[..., Result]


class _Finished:
    """A stand-in for a finished game's state with fixed returns."""

    def __init__(self, returns: list[float]) -> None:
        self._returns = returns

    def returns(self) -> list[float]:
        return self._returns


def _summary_of(*returns: list[float]) -> StatsCollector:
    collector = StatsCollector(make("dice", num_players=2), ["random", "heuristic"])
    for result in returns:
        state: State = _Finished(result)  # type: ignore[assignment]
        collector.add(GameResult(state=state, decisions=1, chance_events=0))
    return collector


def test_ties_are_counted_for_each_winner_and_said_so() -> None:
    summary = _summary_of([1.0, 0.0], [1.0, 1.0], [0.0, 1.0], [1.0, 1.0]).summary(1.0, 5)
    data = summary.to_dict()
    assert data["ties"] == 2
    assert [(s["wins"], s["shared_wins"]) for s in data["seats"]] == [(3, 2), (3, 2)]
    assert [s["win_share"] for s in data["seats"]] == [0.75, 0.75]  # sums to more than 1
    out = io.StringIO()
    Console(file=out, width=120, color_system=None).print(summary_table(summary, "LAMA Dice"))
    text = out.getvalue()
    assert "a tie counts as a win for each tied winner" in " ".join(text.split())
    assert "Of them tied" in text and "2 ties" in text
    row = next(line for line in text.splitlines() if "heuristic" in line)
    assert [cell.strip() for cell in row.split("│")[1:5]] == ["2", "heuristic", "3", "2"]


def test_no_ties_no_shared_wins() -> None:
    data = _summary_of([1.0, 0.0], [0.0, 1.0]).summary(1.0).to_dict()
    assert data["ties"] == 0 and [s["shared_wins"] for s in data["seats"]] == [0, 0]


def test_summary_json_of_a_batch_adds_up(lama: Lama, tmp_path: Path) -> None:
    """Every LAMA Dice game has a winner: wins - shared wins + ties = games."""
    path = tmp_path / "s.json"
    result = lama(
        "play", "dice", "--seats", "random,random,random", "--games", "200", "--seed", "1",
        "--summary-json", str(path),
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    data = json.loads(path.read_text(encoding="utf-8"))
    wins = sum(s["wins"] for s in data["seats"])
    shared = sum(s["shared_wins"] for s in data["seats"])
    assert data["ties"] > 0  # seed 1 has ties, so the check below means something
    assert wins - shared + data["ties"] == data["games"] == 200
