"""``lama simulate`` files for analysis (issue 20): Parquet with the run's key-value
metadata, the long, tidy CSV form, and summaries as pandas or polars data frames."""

from __future__ import annotations

import csv
import json
import shlex
import sys
from pathlib import Path

import pandas as pd
import polars as pl
import pyarrow.parquet as pq
import pytest
from typer.testing import CliRunner

from lamagames import __version__
from lamagames.cli.main import app
from lamagames.sim.batch_protocol import load_engine
from lamagames.sim.export import PARQUET_FORMAT, run_metadata, write_output
from lamagames.sim.simulate import make_configs, simulate
from lamagames.sim.summary import TIDY_COLUMNS, ConfigResult, SimulationSummary

runner = CliRunner()
GAME_LEVEL = {"rounds_per_game", "first_player_advantage", "finished_games"}


def _summary() -> tuple[SimulationSummary, list[ConfigResult]]:
    configs = make_configs(load_engine("dice"), [2, 3], ["benchmark"], [("", {})])
    summary, results = simulate("dice", configs, 60, seed=5)
    return summary, list(results)


def _metadata(path: Path) -> dict[str, object]:
    raw = pq.read_schema(path).metadata
    return {key.decode(): json.loads(value) for key, value in raw.items()}


def test_parquet_carries_seed_parameters_version_and_command(tmp_path: Path) -> None:
    first = tmp_path / "first.parquet"
    args = ["simulate", "dice", "--players", "2,3", "--games", "50", "--seed", "9"]
    args += ["--param", "end_score=30", "--out", str(first)]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    meta = _metadata(first)
    assert meta["format"] == PARQUET_FORMAT and meta["lamagames_version"] == __version__
    assert meta["game"] == "dice" and meta["seed"] == 9 and meta["games"] == 50
    parameters = meta["parameters"]
    assert isinstance(parameters, list)
    assert [p["label"] for p in parameters] == ["2p end_score=30", "3p end_score=30"]
    assert parameters[1]["players"] == 3 and parameters[1]["policies"] == ["benchmark"] * 3
    assert parameters[0]["params"]["end_score"] == 30  # the complete, checked parameters
    assert parameters[0]["params"]["dice"] == ["LL3456", "12LL56", "1234LL"]
    command = meta["command"]
    assert isinstance(command, str)
    assert command == (
        f"lama simulate dice --players 2,3 --games 50 --param end_score=30 --out {first} "
        "--seed 9"
    )
    # the command reproduces the games: run it again into another file
    second = tmp_path / "second.parquet"
    again = shlex.split(command)[1:]
    again[again.index(str(first))] = str(second)
    assert runner.invoke(app, again).exit_code == 0
    assert pq.read_table(second).equals(pq.read_table(first))


def test_a_random_seed_is_in_the_command(tmp_path: Path) -> None:
    path = tmp_path / "games.parquet"
    result = runner.invoke(app, ["simulate", "dice", "--games", "20", "--out", str(path)])
    assert result.exit_code == 0, result.output
    meta = _metadata(path)
    assert isinstance(meta["seed"], int)
    assert str(meta["command"]).endswith(f"--seed {meta['seed']}")
    assert f"seed {meta['seed']}" in result.output  # the seed the terminal showed


def test_parquet_from_python_has_no_command(tmp_path: Path) -> None:
    summary, results = _summary()
    path = tmp_path / "games.parquet"
    write_output(path, summary, results)
    meta = _metadata(path)
    assert meta["command"] is None and meta["seed"] == 5 and meta["workers"] == 1
    assert set(run_metadata(summary, results)) == set(meta)
    assert pq.read_table(path).num_rows == 60 * (2 + 3)


def test_csv_is_long_and_tidy(tmp_path: Path) -> None:
    summary, results = _summary()
    path = tmp_path / "summary.csv"
    write_output(path, summary, results)
    with path.open(newline="") as handle:
        reader = csv.DictReader(handle)
        assert tuple(reader.fieldnames or ()) == TIDY_COLUMNS
        rows = list(reader)
    data = summary.to_dict()["configs"]
    for config in data:
        mine = [r for r in rows if r["config"] == config["label"]]
        game_rows = [r for r in mine if r["seat"] == ""]
        # game-level figures once per configuration, never on a seat row
        assert sorted(r["figure"] for r in game_rows) == sorted(GAME_LEVEL)
        assert all(r["figure"] not in GAME_LEVEL for r in mine if r["seat"] != "")
        length = next(r for r in game_rows if r["figure"] == "rounds_per_game")
        assert float(length["value"]) == config["rounds_per_game"]["value"]
        for seat in config["seats"]:
            seat_rows = {r["figure"]: r for r in mine if r["seat"] == str(seat["seat"])}
            assert set(seat_rows) == set(seat) - {"seat", "seat_label", "policy"}
            for figure, row in seat_rows.items():
                assert row["seat_label"] == seat["seat_label"] and row["policy"] == "benchmark"
                for key in ("value", "low", "high"):
                    assert float(row[key]) == seat[figure][key]


def test_to_pandas_and_to_polars_hold_the_tidy_rows() -> None:
    summary, _results = _summary()
    rows = summary.tidy_rows()
    frame = summary.to_pandas()
    assert isinstance(frame, pd.DataFrame)
    assert tuple(frame.columns) == TIDY_COLUMNS and len(frame) == len(rows)
    assert str(frame["seat"].dtype) == "Int64"
    assert frame["seat"].isna().sum() == sum(r["seat"] is None for r in rows)
    assert frame["value"].tolist() == [r["value"] for r in rows]
    wins = frame[frame["figure"] == "win_share"]
    # every game has a winner (a tie makes every tied seat one): shares add up to >= 1
    assert wins.groupby("config")["value"].sum().ge(1 - 1e-9).all()
    polars = summary.to_polars()
    assert isinstance(polars, pl.DataFrame)
    assert tuple(polars.columns) == TIDY_COLUMNS and polars.height == len(rows)
    assert polars.schema["seat"] == pl.Int64 and polars["seat"].null_count() > 0
    assert polars["value"].to_list() == [r["value"] for r in rows]
    assert polars.to_dicts() == rows


@pytest.mark.parametrize(("method", "module"), [("to_pandas", "pandas"), ("to_polars", "polars")])
def test_without_the_library_a_clear_error(
    monkeypatch: pytest.MonkeyPatch, method: str, module: str
) -> None:
    summary, _results = _summary()
    monkeypatch.setitem(sys.modules, module, None)  # import now raises ImportError
    with pytest.raises(ImportError, match=rf"{method}\(\) needs {module}: pip install {module}"):
        getattr(summary, method)()
