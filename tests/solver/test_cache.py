"""The disk cache of solved tables: keyed by solver version, dice faces, llama row and
levels; a damaged file is solved again, never trusted."""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pytest

from lamagames.dice.solver import SOLVER_VERSION, LastStandingSolver, cache


def test_cache_key_names_version_dice_llama_row_and_levels(solver_cache: Path) -> None:
    path = cache.table_path(SOLVER_VERSION, ("LL3456", "12LL56", "1234LL"), 5, 10)
    assert path is not None and path.parent == solver_cache
    assert f"v{SOLVER_VERSION}_" in path.name and "LL3456-12LL56-1234LL" in path.name
    assert "llamas005" in path.name and "levels10" in path.name
    other = cache.table_path(SOLVER_VERSION, ("LL1234", "56LL12", "3456LL"), 5, 10)
    assert other != path


def test_solved_table_is_stored_and_read_back(solver: LastStandingSolver) -> None:
    table = solver.table(0b1000000)  # L only
    path = cache.table_path(SOLVER_VERSION, solver.dice, 0b1000000, table.levels)
    assert path is not None and path.is_file()
    fresh = LastStandingSolver()
    again = fresh.table(0b1000000)
    assert again.solve_seconds == 0.0  # loaded, not solved
    assert np.array_equal(again.values, table.values)


def test_damaged_cache_file_is_ignored(tmp_path: Path) -> None:
    bad = tmp_path / "bad.npy"
    bad.write_bytes(b"not a table")
    assert cache.load(bad, (2, 3)) is None
    np.save(bad, np.zeros((2, 2)))
    assert cache.load(bad, (2, 3)) is None  # wrong shape
    assert cache.load(None, (2, 3)) is None


def test_cache_can_be_switched_off(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(cache.CACHE_ENV, "off")
    assert cache.cache_dir() is None
    assert cache.table_path(SOLVER_VERSION, ("a",), 1, 10) is None


def test_two_player_tables_on_disk_are_capped(tmp_path: Path) -> None:
    # Every deal has its own table (tens of MB): only the newest few are kept.
    for i in range(4):
        cache.store_arrays(tmp_path / f"pair1_t{i}.npz", {"w0": np.zeros((2, 3))}, keep=2)
    assert sorted(p.name for p in tmp_path.glob("pair*.npz")) == ["pair1_t2.npz", "pair1_t3.npz"]
    assert cache.load_arrays(tmp_path / "pair1_t3.npz", {"w0": (2, 3)}) is not None
    assert cache.load_arrays(tmp_path / "pair1_t3.npz", {"w0": (2, 4)}) is None  # shape
    assert cache.load_arrays(tmp_path / "pair1_t3.npz", {"w1": (2, 3)}) is None  # names


def _table(path: Path, megabytes: float, used: float) -> Path:
    """A table file of about ``megabytes`` MB last used at time ``used`` (seconds)."""
    with path.open("wb") as handle:  # np.save(name) would add ".npy" to a ".npz" name
        np.save(handle, np.zeros((int(megabytes * 125), 1000)))
    os.utime(path, (used, used))
    return path


def test_the_cache_is_kept_under_its_size_bound_least_recently_used_first(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(cache.CACHE_SIZE_ENV, "2.6")  # 2.6 MB
    old = _table(tmp_path / "v1_a.npy", 1, 1000)
    used = _table(tmp_path / "v1_b.npy", 1, 2000)
    pair = _table(tmp_path / "pair1_c.npz", 0.5, 3000)
    assert cache.load(used, (125, 1000)) is not None  # a hit marks b as just used
    new = tmp_path / "v1_d.npy"
    cache.store(new, np.zeros((125, 1000)))  # 1 MB more: 3.5 MB, over the bound by one table
    assert sorted(f.name for f in tmp_path.iterdir()) == ["pair1_c.npz", "v1_b.npy", "v1_d.npy"]
    assert not old.exists() and used.exists() and pair.exists()


def test_prune_never_deletes_the_table_just_written(tmp_path: Path) -> None:
    big = _table(tmp_path / "v1_big.npy", 1, 1000)
    other = _table(tmp_path / "v1_other.npy", 1, 2000)
    cache.prune(tmp_path, keep=big, limit=0)
    assert big.exists() and not other.exists()


GB = 10**9
BOUNDS = [("", GB), ("abc", GB), ("-1", GB), ("nan", GB), ("0", 0), ("250", GB // 4)]


@pytest.mark.parametrize(("value", "expected"), BOUNDS)
def test_size_bound_from_the_environment(
    value: str, expected: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(cache.CACHE_SIZE_ENV, value)
    assert cache.max_bytes() == expected
