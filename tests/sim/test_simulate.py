"""``lama simulate`` and its driver: reproducible chunks, workers, Ray, summaries, exports."""

from __future__ import annotations

import csv
import json
import math
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from lamagames.cli.main import app
from lamagames.cli.simulate import load_variant_file, parse_players
from lamagames.core.errors import ParameterError
from lamagames.sim.batch_protocol import BatchEngine, game_seeds, load_engine
from lamagames.sim.simulate import Config, make_configs, simulate, variant_grid
from lamagames.sim.summary import mean_ci, ratio_ci, wilson

runner = CliRunner()


def _configs(players: list[int], variants: list[dict[str, object]] | None = None) -> list[Config]:
    engine = load_engine("dice")
    return make_configs(engine, players, ["benchmark"], [("", v) for v in variants or [{}]])


def test_dice_engine_meets_the_protocol() -> None:
    engine = load_engine("dice")
    assert isinstance(engine, BatchEngine)
    assert {"random", "benchmark"} <= set(engine.policies)
    with pytest.raises(ParameterError, match="no batch engine for 'chess'"):
        load_engine("chess")


def test_game_seeds_do_not_depend_on_the_split() -> None:
    whole = game_seeds(5, 0, 50)
    parts = np.concatenate([game_seeds(5, 0, 7), game_seeds(5, 7, 40), game_seeds(5, 47, 3)])
    assert (whole == parts).all()
    assert len(set(whole.tolist())) == 50
    assert (game_seeds(6, 0, 50) != whole).any()


def test_same_seed_same_games_for_any_chunks_and_workers() -> None:
    configs = _configs([2, 3])
    one, res_one = simulate("dice", configs, 60, seed=3, chunk_games=60)
    two, res_two = simulate("dice", configs, 60, seed=3, workers=2, chunk_games=7)
    for a, b in zip(res_one, res_two, strict=True):
        assert (a.results.scores == b.results.scores).all()
        assert (a.results.length == b.results.length).all()
    assert one.to_dict()["configs"] == two.to_dict()["configs"]
    other, _ = simulate("dice", configs, 60, seed=4)
    assert other.to_dict()["configs"] != one.to_dict()["configs"]


def test_ray_backend_with_two_workers_matches_local() -> None:
    import ray  # the dev extra installs it: a missing Ray fails here, it does not skip
    configs = _configs([4])
    local, _ = simulate("dice", configs, 300, seed=11, chunk_games=100)
    try:
        ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
        remote, _ = simulate(
            "dice", configs, 300, seed=11, workers=2, backend="ray", chunk_games=100
        )
    finally:
        ray.shutdown()
    assert remote.to_dict()["configs"] == local.to_dict()["configs"]
    assert remote.backend == "ray"


def test_variants_are_compared_side_by_side_d11() -> None:
    grid = variant_grid({"end_score": [20, 60]})
    assert grid == [{"end_score": 20}, {"end_score": 60}]
    summary, _ = simulate("dice", _configs([3], grid), 400, seed=1)
    short, long = summary.configs
    assert [short.label, long.label] == ["3p end_score=20", "3p end_score=60"]
    assert short.length.high < long.length.low  # longer games to 60 points (D-11)
    for config in summary.configs:
        shares = [s.win_share.value for s in config.seats]
        assert 1.0 <= sum(shares) <= 1.2  # every game has a winner; ties make several


def test_bad_configurations_are_refused() -> None:
    engine = load_engine("dice")
    with pytest.raises(ParameterError, match="unknown seat kind 'search'"):
        make_configs(engine, [4], ["search"], [("", {})])
    with pytest.raises(ParameterError, match="2 seat kinds given but 4 players"):
        make_configs(engine, [4], ["random", "benchmark"], [("", {})])
    with pytest.raises(ParameterError, match="2 to 6 players, got 7"):
        make_configs(engine, [7], ["random"], [("", {})])
    with pytest.raises(ParameterError, match=r"end_score.*\(variant 'big'\)"):
        make_configs(engine, [4], ["random"], [("big", {"end_score": 0})])
    with pytest.raises(ParameterError, match="backend"):
        simulate("dice", make_configs(engine, [2], ["random"], [("", {})]), 5, 1, backend="x")


def test_confidence_intervals() -> None:
    share = wilson(50, 100)
    assert share.value == 0.5
    assert share.low == pytest.approx(0.4038, abs=1e-4)
    assert share.high == pytest.approx(0.5962, abs=1e-4)
    m = mean_ci(np.array([1.0, 2.0, 3.0, 4.0]))
    assert m.value == 2.5
    assert m.high - m.value == pytest.approx(1.959964 * math.sqrt(5 / 3) / 2)
    r = ratio_ci(np.array([10, 20, 30]), np.array([1, 2, 3]))  # exact ratio: no spread
    assert (r.value, r.low, r.high) == (10.0, 10.0, 10.0)
    with pytest.raises(ValueError, match="trials"):
        wilson(0, 0)


def test_summary_shows_as_an_html_table() -> None:
    summary, _ = simulate("dice", _configs([2]), 50, seed=2)
    page = summary._repr_html_()
    assert page.count("<tr><td>") == 2
    assert "Win share" in page
    assert "first-player advantage" in page


def test_parse_players_and_variant_files(tmp_path: Path) -> None:
    assert parse_players("2..4") == [2, 3, 4]
    assert parse_players("2,6") == [2, 6]
    with pytest.raises(ParameterError, match="--players"):
        parse_players("four")
    path = tmp_path / "short.json"
    path.write_text(json.dumps([{"name": "short", "params": {"end_score": 20}}, {"end_score": 5}]))
    assert load_variant_file(path) == [("short", {"end_score": 20}), ("short#2", {"end_score": 5})]
    path.write_text("[1]")
    with pytest.raises(ParameterError, match="entry 1 is not a JSON object"):
        load_variant_file(path)


def test_cli_writes_every_output(tmp_path: Path) -> None:
    outs = [tmp_path / f"run.{suffix}" for suffix in ("json", "csv", "parquet", "png", "svg")]
    args = ["simulate", "dice", "--players", "2,3", "--games", "200", "--seed", "9"]
    args += ["--param", "end_score=30", "--param", "end_score=50"]
    for path in outs:
        args += ["--out", str(path)]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    assert "2p end_score=30" in result.output
    assert "first-player advantage" in result.output
    data = json.loads(outs[0].read_text())
    assert [c["label"] for c in data["configs"]] == [
        "2p end_score=30", "2p end_score=50", "3p end_score=30", "3p end_score=50",
    ]  # fmt: skip
    seat = data["configs"][0]["seats"][0]
    assert seat["win_share"]["low"] <= seat["win_share"]["value"] <= seat["win_share"]["high"]
    with outs[1].open() as handle:
        rows = list(csv.DictReader(handle))
    assert len(rows) == 4 * 3 + (2 + 2 + 3 + 3) * 4  # tidy: game-level and seat figures
    import pyarrow.parquet as pq

    table = pq.read_table(outs[2])
    assert table.num_rows == 200 * (2 + 2 + 3 + 3)
    assert outs[3].read_bytes()[:4] == b"\x89PNG"
    assert "<svg" in outs[4].read_text()


def test_cli_errors_name_the_option(tmp_path: Path) -> None:
    result = runner.invoke(app, ["simulate", "dice", "--seats", "search", "--games", "5"])
    assert result.exit_code == 2
    assert "unknown seat kind 'search'" in result.output
    result = runner.invoke(app, ["simulate", "dice", "--out", str(tmp_path / "x.txt")])
    assert result.exit_code == 2
    assert "unknown output format '.txt'" in result.output
    result = runner.invoke(app, ["simulate", "dice", "--param", "end_score=-1"])
    assert result.exit_code == 2
    assert "end_score must be an integer" in result.output
    result = runner.invoke(app, ["simulate", "dice", "--players", "2..x"])
    assert result.exit_code == 2
    assert "--players" in result.output


def test_table_says_how_many_games_the_turn_limit_left_unfinished() -> None:
    """E-10 games cut by ``turn_limit`` have no winner; the table must say so, not only show
    win shares of 0."""
    args = ["simulate", "express", "--games", "30", "--param", "turn_limit=5", "--seed", "1"]
    result = runner.invoke(app, args, terminal_width=200)
    assert result.exit_code == 0, result.output
    words = " ".join(result.output.split())  # the title wraps at the table's width
    assert "30 of 30 games unfinished (no winner)" in words
    result = runner.invoke(app, ["simulate", "express", "--games", "30", "--seed", "1"],
                           terminal_width=200)  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "unfinished" not in result.output
