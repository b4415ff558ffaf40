"""The figures of ``lama simulate`` carry the names of ``lama play --games`` (issue 9)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pyarrow  # noqa: F401  (the Parquet export below)

from lamagames.sim.batch_protocol import load_engine
from lamagames.sim.export import games_table
from lamagames.sim.simulate import make_configs, simulate

SRC = Path(__file__).resolve().parents[2] / "src"


def test_seats_are_0_based_and_round_points_per_round_as_in_play() -> None:
    configs = make_configs(load_engine("dice"), [3], ["benchmark"], [("", {})])
    summary, results = simulate("dice", configs, 40, seed=5)
    config = summary.to_dict()["configs"][0]
    seats = config["seats"]
    assert [s["seat"] for s in seats] == [0, 1, 2]
    assert [s["seat_label"] for s in seats] == ["Seat 1", "Seat 2", "Seat 3"]
    r = results[0].results
    first = seats[0]
    # mean_round_points: minus points per round (D-10), as lama play --games reports it
    per_round = r.extra["round_points"][:, 0].sum() / r.length.sum()
    assert abs(first["mean_round_points"]["value"] - per_round) < 1e-9
    assert (
        abs(first["round_points_per_game"]["value"] - r.extra["round_points"][:, 0].mean()) < 1e-9
    )
    assert abs(first["mean_final_score"]["value"] - r.scores[:, 0].mean()) < 1e-9
    assert summary.rows()[0]["seat"] == 0
    table = games_table(results)
    assert sorted(set(table.column("seat").to_pylist())) == [0, 1, 2]
    assert set(table.column("starter").to_pylist()) <= {0, 1, 2}
    headings = [h for h, _ in summary.columns()]
    assert "Mean round points per round" in headings
    assert "Round points per game" in headings


def test_plus_minus_has_an_ascii_stand_in() -> None:
    env = {**os.environ, "PYTHONIOENCODING": "ascii", "PYTHONPATH": str(SRC)}
    done = subprocess.run(
        [sys.executable, "-m", "lamagames", "simulate", "dice", "--games", "20", "--seed", "1"],
        capture_output=True, env=env, timeout=300, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert b"+/-" in done.stdout
    assert b"?" not in done.stdout
