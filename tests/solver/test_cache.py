"""The disk cache of solved tables: keyed by solver version, dice faces, llama row and
levels; a damaged file is solved again, never trusted."""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import platformdirs
import pytest

from lamagames.dice.rules import STANDARD_DICE
from lamagames.dice.solver import SOLVER_VERSION, LastStandingSolver, cache


def test_cache_key_names_version_dice_llama_row_and_levels(solver_cache: Path) -> None:
    path = cache.table_path(SOLVER_VERSION, ("LL3456", "12LL56", "1234LL"), 5, 10)
    assert path is not None and path.parent == solver_cache
    assert f"v{SOLVER_VERSION}s{cache.code_stamp()}_" in path.name
    assert "LL3456-12LL56-1234LL" in path.name
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


@pytest.mark.parametrize("value", ["", "   "])
def test_an_empty_cache_variable_means_the_default_folder_not_the_current_one(
    value: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(cache.CACHE_ENV, value)
    default = Path(platformdirs.user_cache_dir("lamagames")) / "solver"
    assert cache.cache_dir() == default


def _name(i: int) -> str:
    """The cache's own name of a last-standing table (llama row mask ``i``)."""
    return cache.table_name(SOLVER_VERSION, STANDARD_DICE, i, 10)


def _pair_name(i: int) -> str:
    """The cache's own name of a two-player table (scores ``i``, 0)."""
    row = (1, 0, 0, 0, 0, 0, 0)
    return cache.pair_name(1, STANDARD_DICE, row, row, 0b1000000, i, 0)


def test_only_the_solver_naming_patterns_are_cache_files(solver_cache: Path) -> None:
    key = ((1, 0, 0, 0, 0, 0, 0), (0, 1, 0, 0, 0, 0, 0), 0b1000000, 12, 3)
    built = [
        cache.table_path(SOLVER_VERSION, STANDARD_DICE, 127, 40),
        cache.table_path(SOLVER_VERSION, ("ll3456", "12ll56", "1234ll"), 1, 100),
        cache.pair_path(1, STANDARD_DICE, *key),
    ]
    for path in built:
        assert path is not None and cache.is_cache_file(path)
    foreign = ["my_experiment.npy", "results.npz", "v2_results.npy", "pair_notes.npz",
               _name(5) + ".bak", "x" + _name(5), _pair_name(1).replace(".npz", ".npy"),
               _name(5) + ".123.tmp"]  # fmt: skip
    for name in foreign:
        assert not cache.is_cache_file(Path(name)), name


def _foreign_files(folder: Path) -> dict[str, bytes]:
    """A user's own numpy files in ``folder``: names and contents."""
    np.save(folder / "my_experiment.npy", np.arange(100_000.0))
    np.savez(folder / "results.npz", a=np.ones(1000))
    np.savez(folder / "pair_notes.npz", b=np.ones(10))
    return {f.name: f.read_bytes() for f in folder.iterdir()}


def test_cleanup_never_touches_or_counts_a_users_own_files(
    solver: LastStandingSolver, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # LAMAGAMES_SOLVER_CACHE may name a folder with data: the LRU bound deletes only tables.
    mine = _foreign_files(tmp_path)
    monkeypatch.setenv(cache.CACHE_ENV, str(tmp_path))
    monkeypatch.setenv(cache.CACHE_SIZE_ENV, "0")
    solver.table(0b0100001, 0)  # llama row 1 6: solved now, written, then pruned
    written = cache.table_path(SOLVER_VERSION, solver.dice, 0b0100001, 10)
    assert written is not None and written.is_file()
    assert {f.name: f.read_bytes() for f in tmp_path.iterdir() if f != written} == mine
    # Foreign bytes are not counted: 1.1 MB of tables fit a 1.2 MB bound next to them.
    written.unlink()
    monkeypatch.setenv(cache.CACHE_SIZE_ENV, "1.2")
    _table(tmp_path / _name(1), 0.5, 1000)
    cache.store(tmp_path / _name(2), np.zeros((75, 1000)))  # 0.6 MB
    assert (tmp_path / _name(1)).exists() and (tmp_path / _name(2)).exists()


def test_two_player_tables_on_disk_are_capped(tmp_path: Path) -> None:
    # Every deal has its own table (tens of MB): only the newest few are kept.
    mine = _foreign_files(tmp_path)
    names = [_pair_name(i) for i in range(4)]
    for name in names:
        cache.store_arrays(tmp_path / name, {"w0": np.zeros((2, 3))}, keep=2)
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([*names[2:], *mine])
    assert all((tmp_path / name).read_bytes() == data for name, data in mine.items())
    newest = tmp_path / names[3]
    assert cache.load_arrays(newest, {"w0": (2, 3)}) is not None
    assert cache.load_arrays(newest, {"w0": (2, 4)}) is None  # shape
    assert cache.load_arrays(newest, {"w1": (2, 3)}) is None  # names


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
    old = _table(tmp_path / _name(1), 1, 1000)
    used = _table(tmp_path / _name(2), 1, 2000)
    pair = _table(tmp_path / _pair_name(0), 0.5, 3000)
    assert cache.load(used, (125, 1000)) is not None  # a hit marks b as just used
    new = tmp_path / _name(4)
    cache.store(new, np.zeros((125, 1000)))  # 1 MB more: 3.5 MB, over the bound by one table
    assert sorted(f.name for f in tmp_path.iterdir()) == sorted([pair.name, used.name, new.name])
    assert not old.exists() and used.exists() and pair.exists()


def test_prune_never_deletes_the_table_just_written(tmp_path: Path) -> None:
    big = _table(tmp_path / _name(1), 1, 1000)
    other = _table(tmp_path / _name(2), 1, 2000)
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


def test_a_table_solved_by_other_code_is_never_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The file names carry :func:`cache.code_stamp` (the solver's and the rules' source):
    after an upgrade or an edited rule, the old tables are not found (a fresh-clone trial
    read stale values after a change of the card values with the same SOLVER_VERSION)."""
    monkeypatch.setenv(cache.CACHE_ENV, str(tmp_path))
    stamp = cache.code_stamp()
    assert len(stamp) == 12 and int(stamp, 16) >= 0
    path = cache.table_path(SOLVER_VERSION, STANDARD_DICE, 5, 10)
    pair = cache.pair_path(1, STANDARD_DICE, (1,) * 7, (1,) * 7, 5, 0, 0)
    assert path is not None and pair is not None
    assert f"s{stamp}_" in path.name and f"s{stamp}_" in pair.name
    assert cache.is_cache_file(path) and cache.is_cache_file(pair)
    monkeypatch.setattr(cache, "code_stamp", lambda: "0123456789ab")
    assert cache.table_path(SOLVER_VERSION, STANDARD_DICE, 5, 10) != path
    assert cache.is_cache_file(tmp_path / cache.table_name(1, STANDARD_DICE, 5, 10))  # older
