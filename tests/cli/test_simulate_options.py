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
