"""``lama ladder`` and :mod:`lamagames.sim.ladder` (issue 10): tables, ranks, ratings, output.

Uses the cheap kinds only (random, benchmark) and a couple of games, never a timing.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from lamagames.cli.main import app
from lamagames.core.errors import ParameterError
from lamagames.sim.ladder import ladder_games, ranks, run_ladder, tables

runner = CliRunner()


def test_tables_are_combinations_or_covering_mixes() -> None:
    assert tables(["a", "b", "c", "d"], 3) == [
        ("a", "b", "c"),
        ("a", "b", "d"),
        ("a", "c", "d"),
        ("b", "c", "d"),
    ]
    mixes = tables(["a", "b"], 4)
    assert mixes == [("a", "a", "a", "b"), ("a", "a", "b", "b"), ("a", "b", "b", "b")]
    with pytest.raises(ParameterError):
        tables(["a"], 2)


def test_ranks_share_ties_and_put_the_highest_standing_first() -> None:
    assert ranks([-3.0, -1.0, -3.0, -7.0]) == [2, 1, 2, 4]


def test_ladder_rates_every_kind_and_is_reproducible() -> None:
    first = run_ladder("dice", [2, 3], games=2, seed=5, kinds=["random", "benchmark"])
    again = run_ladder("dice", [2, 3], games=2, seed=5, kinds=["random", "benchmark"])
    assert first.to_dict() == again.to_dict()
    for ratings in first.ratings.values():
        assert {r.kind for r in ratings} == {"random", "benchmark"}
        assert [r.mu for r in ratings] == sorted((r.mu for r in ratings), reverse=True)
        for r in ratings:
            assert r.ci_low < r.mu < r.ci_high
            assert r.games > 0
    # 2 players: one table of 2 games, each kind plays both
    assert all(r.games == 2 for r in first.ratings[2])


def test_ladder_refuses_unknown_kinds_and_bad_counts() -> None:
    with pytest.raises(ParameterError, match="nosuch"):
        run_ladder("dice", [2], games=1, seed=1, kinds=["random", "nosuch"])
    with pytest.raises(ParameterError):
        run_ladder("dice", [2], games=0, seed=1, kinds=["random", "benchmark"])
    with pytest.raises(ParameterError):
        run_ladder("dice", [9], games=1, seed=1, kinds=["random", "benchmark"])
    with pytest.raises(ParameterError, match="'num_players' is set by the player counts"):
        run_ladder(
            "dice", [2], games=1, seed=1, kinds=["random", "benchmark"],
            params={"num_players": 3},
        )  # fmt: skip
    with pytest.raises(ParameterError, match="num_players"):
        ladder_games("express", [2], 1, params={"num_players": 2})


def test_lama_ladder_prints_a_table_and_writes_json_and_plot(tmp_path: Path) -> None:
    out, plot = tmp_path / "ladder.json", tmp_path / "ladder.png"
    result = runner.invoke(
        app,
        [
            "ladder",
            "dice",
            "--games",
            "1",
            "--kinds",
            "random,benchmark",
            "--seed",
            "2",
            "--param",
            "end_score=20",
            "--json",
            str(out),
            "--plot",
            str(plot),
        ],
    )
    assert result.exit_code == 0, result.output
    assert "dice, 2 players" in result.output
    assert "vs next" in result.output and "tau 0, gamma 1" in " ".join(result.output.split())
    data = json.loads(out.read_text())
    rows = data["players"]["2"]["ratings"]
    assert {r["kind"] for r in rows} == {"random", "benchmark"}
    assert rows[-1]["above_next"] is None  # no next kind
    assert rows[0]["above_next"] == (rows[0]["ci95"][0] > rows[1]["ci95"][1])
    assert plot.read_bytes()[:4] == b"\x89PNG"


def test_lama_ladder_unknown_game_or_kind_exits_2() -> None:
    assert runner.invoke(app, ["ladder", "chess"]).exit_code == 2
    result = runner.invoke(app, ["ladder", "dice", "--kinds", "random,nosuch"])
    assert result.exit_code == 2
    assert "nosuch" in result.output


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["dice", "--players", "2", "--param", "num_players=3"], "--param 'num_players' is set "
         "by the player count: use --players"),
        (["express", "--players", "2", "--param", "num-players=2"], "use --players"),
        (["dice", "--players", "9"], "--players 9: LAMA Dice takes 2..6 players"),
        (["express", "--players", "2", "--players", "5"], "--players 5: Lama Express takes 2..4"),
        (["Dice", "--players", "9"], "--players 9: LAMA Dice"),  # any case, as lama play
    ],
)  # fmt: skip
def test_lama_ladder_refuses_player_counts_in_one_line_before_playing(
    args: list[str], message: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    played: list[object] = []
    monkeypatch.setattr("lamagames.cli.ladder.run_ladder", lambda *a, **k: played.append(a))
    result = runner.invoke(app, ["ladder", *args, "--games", "1"])
    assert result.exit_code == 2, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("Error: "), result.output
    assert message in lines[0]
    assert played == []


def test_lama_ladder_reads_the_game_id_whatever_its_case(tmp_path: Path) -> None:
    out = tmp_path / "l.json"
    args = ["ladder", " DICE ", "--games", "1", "--kinds", "random,benchmark", "--json", str(out)]
    result = runner.invoke(app, [*args, "--seed", "1"])
    assert result.exit_code == 0, result.output
    assert json.loads(out.read_text())["game"] == "dice"


def test_ladder_ratings_do_not_depend_on_the_number_of_workers() -> None:
    """Games run on worker processes; ratings are updated in the fixed game order."""
    kinds = ["random", "benchmark"]
    one = run_ladder("dice", [2, 3], games=3, seed=11, kinds=kinds)
    seen: list[tuple[int, int, int]] = []
    two = run_ladder(
        "dice", [2, 3], games=3, seed=11, kinds=kinds, workers=2,
        progress=lambda n, t, g, _seating: seen.append((n, t, g)),
    )  # fmt: skip
    assert one.to_dict() == two.to_dict()
    assert seen == sorted(seen) and len(seen) == ladder_games("dice", [2, 3], 3, kinds)
    with pytest.raises(ParameterError, match="workers"):
        run_ladder("dice", [2], games=1, seed=1, kinds=kinds, workers=0)


def test_lama_ladder_with_two_workers(tmp_path: Path) -> None:
    out = tmp_path / "l.json"
    args = ["ladder", "dice", "--games", "2", "--kinds", "random,benchmark", "--seed", "3"]
    result = runner.invoke(app, [*args, "--workers", "2", "--json", str(out)])
    assert result.exit_code == 0, result.output
    again = runner.invoke(app, [*args, "--json", str(tmp_path / "m.json")])
    assert again.exit_code == 0, again.output
    assert out.read_text() == (tmp_path / "m.json").read_text()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--kinds", ""], "an empty kind"),
        (["--kinds", ","], "an empty kind"),
        (["--kinds", "random,random"], "named twice: random"),
        (["--plot", "x.txt"], "suffixes .png, .svg, .pdf"),
        (["--plot", "x"], "suffixes .png, .svg, .pdf"),
    ],
)
def test_lama_ladder_refuses_bad_kinds_and_plot_names_before_playing(
    args: list[str], message: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    played: list[object] = []
    monkeypatch.setattr("lamagames.cli.ladder.run_ladder", lambda *a, **k: played.append(a))
    result = runner.invoke(app, ["ladder", "dice", "--games", "1", *args])
    assert result.exit_code == 2
    assert message in " ".join(result.output.split())
    assert played == [] and list(tmp_path.iterdir()) == []


def test_a_kind_seated_twice_counts_each_game_once() -> None:
    """Four seats, two kinds: every game seats a kind two or three times; games and wins
    count games, not seats."""
    result = run_ladder("dice", [4], games=2, seed=4, kinds=["random", "benchmark"])
    total = ladder_games("dice", [4], 2, ["random", "benchmark"])
    for r in result.ratings[4]:
        assert r.games == total
        assert r.wins <= r.games
    assert sum(r.wins for r in result.ratings[4]) >= total  # every game has a winner


def test_one_game_is_singular() -> None:
    args = ["ladder", "dice", "--games", "1", "--kinds", "random,benchmark", "--seed", "1"]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    assert "1 game per table" in result.output and "1 game\n" in result.output
