"""``lama simulate`` refuses bad options before any game is played (issue 9)."""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from typer.testing import Result

from lamagames.core.errors import ParameterError
from lamagames.core.spec import GameSpec
from lamagames.sim import simulate as simulate_module
from lamagames.sim.batch_protocol import load_engine

Invoke = Callable[..., Result]


@pytest.fixture
def no_run(monkeypatch: pytest.MonkeyPatch) -> None:
    """Any call of the driver fails the test: the error must come before the games."""

    def started(*args: object, **kwargs: object) -> None:
        raise AssertionError("the games were played before the error")

    monkeypatch.setattr(simulate_module, "simulate", started)


def _error_line(output: str) -> str:
    lines = [line for line in output.splitlines() if line.strip()]
    assert len(lines) == 1, output
    assert lines[0].startswith("Error: "), output
    return lines[0]


@pytest.mark.parametrize(("suffix", "library"), [(".parquet", "pyarrow"), (".png", "matplotlib")])
def test_a_missing_export_library_is_named_before_the_run(
    lama: Invoke, no_run: None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
    suffix: str, library: str,
) -> None:  # fmt: skip
    monkeypatch.setitem(sys.modules, library, None)  # import fails as if not installed
    result = lama("simulate", "dice", "--games", "5", "--out", str(tmp_path / f"x{suffix}"))
    assert result.exit_code == 2
    line = _error_line(result.output)
    assert f"{suffix} needs {library}: pip install 'lamagames[sim]'" in line


def test_an_output_in_a_missing_folder_is_refused_before_the_run(
    lama: Invoke, no_run: None, tmp_path: Path
) -> None:
    path = tmp_path / "nowhere" / "x.json"
    result = lama("simulate", "dice", "--games", "5", "--out", str(path))
    assert result.exit_code == 2
    assert f"the folder of {path} does not exist" in _error_line(result.output)
    result = lama("simulate", "dice", "--games", "5", "--out", str(tmp_path))
    assert result.exit_code == 2
    assert "unknown output format" in _error_line(result.output)


def test_missing_numba_says_what_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    def no_numba(self: GameSpec, name: str) -> object:
        raise ImportError("No module named 'numba'", name="numba")

    monkeypatch.setattr(GameSpec, "load_extra", no_numba)
    with pytest.raises(ParameterError, match=r"needs numba: pip install 'lamagames\[sim\]'"):
        load_engine("dice")


def test_address_without_the_ray_backend_is_refused(lama: Invoke) -> None:
    result = lama("simulate", "dice", "--games", "5", "--address", "auto")
    assert result.exit_code == 2
    assert "add --backend ray" in _error_line(result.output)


def test_an_unreachable_ray_cluster_is_reported_at_once(lama: Invoke) -> None:
    # Port 1 on this machine: nothing listens, so the connection is refused at once.
    result = lama(
        "simulate", "dice", "--games", "5", "--backend", "ray", "--address", "127.0.0.1:1"
    )
    assert result.exit_code == 2
    assert "cannot reach the Ray cluster at 127.0.0.1:1" in _error_line(result.output)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--players", "4,4"], "'4p' is the same configuration as '4p'"),
        (["--param", "end_score=40", "--param", "end_score=40"], "end_score=40 is given twice"),
        (["--param", "num_players=3"], "use --players"),
        (["--param", "starting_seat=1"], "use --starting-seat (seats count from 1)"),
        (["--param", "end_score=true"], "--param end_score=true: "),
        (["--games", "0"], "--games: expected a whole number >= 1, got '0'"),
        (["--games", "abc"], "--games: expected a whole number >= 1, got 'abc'"),
        (["--workers", "0"], "--workers: expected a whole number >= 1, got '0'"),
        (["--starting-seat", "5"], "--starting-seat: there are 4 seats, got 5"),
        (["--players", "9"], "--players 9: LAMA Dice takes 2..6 players"),
        (["--players", "2..7"], "--players 7: LAMA Dice takes 2..6 players"),
        (["--seats", ",".join(["random"] * 7)], "--seats: 7 seats: LAMA Dice takes 2..6 players"),
    ],
)
def test_bad_options_give_one_error_line(
    lama: Invoke, no_run: None, args: list[str], message: str
) -> None:
    result = lama("simulate", "dice", *args)
    assert result.exit_code == 2
    assert message in _error_line(result.output)


def test_the_game_id_is_read_whatever_its_case(lama: Invoke, no_run: None) -> None:
    """DICE as in lama play: the error is about the options, not 'unknown game'."""
    result = lama("simulate", " DICE ", "--players", "9")
    assert result.exit_code == 2
    assert "--players 9: LAMA Dice takes" in _error_line(result.output)


def test_the_same_output_twice_is_refused(lama: Invoke, no_run: None, tmp_path: Path) -> None:
    path = tmp_path / "x.json"
    result = lama("simulate", "dice", "--out", str(path), "--out", str(path))
    assert result.exit_code == 2
    assert "is given twice" in _error_line(result.output)


def test_starting_seat_counts_from_one_as_in_play(lama: Invoke, tmp_path: Path) -> None:
    path = tmp_path / "s.json"
    result = lama(
        "simulate", "dice", "--players", "3", "--games", "20", "--seed", "2",
        "--starting-seat", "2", "--out", str(path),
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    import json

    config = json.loads(path.read_text())["configs"][0]
    assert config["params"]["starting_seat"] == 1  # the engine's 0-based seat (D-5)


def test_unnamed_variants_of_a_file_are_numbered(tmp_path: Path) -> None:
    from lamagames.cli.simulate import load_variant_file

    path = tmp_path / "vl.json"
    path.write_text('[{"end_score": 20}, {"params": {"end_score": 30}}]')
    assert [name for name, _ in load_variant_file(path)] == ["vl#1", "vl#2"]


def test_help_uses_readable_metavars_and_examples(lama: Invoke) -> None:
    result = lama("simulate", "--help")
    assert result.exit_code == 0
    for word in ("GAME", "KEY=VALUE", "FILE", "Examples", "lama simulate dice --players"):
        assert word in result.output
