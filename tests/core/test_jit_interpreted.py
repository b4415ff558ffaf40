"""The interpreted form of a compiled kernel (:func:`lamagames.core.jit.interpreted`): the
same code run as plain Python gives the compiled results, so ``lama play`` can decide with
it while the kernel compiles (issue 19)."""

from __future__ import annotations

import threading
from enum import IntEnum
from typing import Any

import numba
import numpy as np
import pytest

from lamagames.core import jit


class Colour(IntEnum):
    RED = 3
    BLUE = 7


_TABLE = np.array([100, 120, 127], dtype=np.int8)


def _mix(x: Any, k: int) -> Any:
    """SplitMix-like uint64 step: wraps around in compiled code."""
    s = x + np.uint64(0x9E3779B97F4A7C15)
    return (s ^ (s >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9) + np.uint64(k)


mix = numba.njit(cache=False)(_mix)


def _kernel(small: Any, out: Any, seeds: Any) -> int:
    """int8 elements times ints (64-bit in compiled code, NumPy alone would wrap at 127),
    a module table, an IntEnum, a compiled callee, results written to ``out``."""
    total = 0
    for i in range(small.shape[0]):
        out[i] = small[i] * 49 + _TABLE[i % 3] * 2 + Colour.BLUE
        total += out[i]
    for k in range(seeds.shape[0]):
        seeds[k] = mix(seeds[k], k)
    return total


kernel = numba.njit(cache=False)(_kernel)


def _arguments() -> tuple[Any, Any, Any]:
    small = np.array([6, 5, 127, -128, 0], dtype=np.int8)
    out = np.zeros(5, dtype=np.int32)
    seeds = np.array([0, 2**63, 2**64 - 1], dtype=np.uint64)
    return small, out, seeds


def test_interpreted_gives_the_compiled_results_where_numpy_alone_would_wrap() -> None:
    a = _arguments()
    b = _arguments()
    assert jit.interpreted(kernel)(*a) == kernel(*b)
    for x, y in zip(a, b, strict=True):
        assert x.dtype == y.dtype and np.array_equal(x, y)  # written back, dtype kept
    with np.errstate(over="ignore"):  # the plain function on NumPy int8 wraps around
        assert _kernel(*_arguments()) != kernel(*_arguments())


def test_interpreted_compiles_nothing() -> None:
    def _twice(x: Any) -> Any:
        return x * 2

    twice = numba.njit(cache=False)(_twice)
    assert jit.interpreted(twice)(np.int64(21)) == 42
    assert twice.signatures == []  # never compiled
    assert jit.interpreted(twice) is jit.interpreted(twice)  # made once
    assert jit.interpreted(_twice) is _twice  # not compiled: itself


def test_interpreting_is_per_thread() -> None:
    seen: list[bool] = []

    def other() -> None:
        seen.append(jit.choose(kernel) is kernel)

    assert jit.choose(kernel) is kernel
    with jit.interpreting():
        assert jit.choose(kernel) is jit.interpreted(kernel)
        thread = threading.Thread(target=other)
        thread.start()
        thread.join()
        with jit.interpreting():
            pass
        assert jit.choose(kernel) is not kernel  # still inside the outer block
    assert jit.choose(kernel) is kernel
    assert seen == [True]


def test_interpreting_only_some_kernels_and_until_the_compiled_code_is_ready() -> None:
    """``only`` names the kernels run interpreted (the warm-up's helper process and this
    one each interpret the other's share); ``until`` switches back to compiled code."""
    with jit.interpreting(only=lambda k: k is kernel):
        assert jit.choose(kernel) is jit.interpreted(kernel)
        assert jit.choose(mix) is mix
    with jit.interpreting(only=lambda k: k is not kernel):
        assert jit.choose(kernel) is kernel
        assert jit.choose(mix) is jit.interpreted(mix)
    ready = threading.Event()
    with jit.interpreting(until=ready.is_set):
        assert jit.choose(kernel) is jit.interpreted(kernel)
        ready.set()
        assert jit.choose(kernel) is kernel
    assert jit.choose(mix) is mix


_WEIGHTS = np.array([[1.5, 0.25], [2.0, -1.0]])


def _fill(part: Any, value: int) -> None:
    for i in range(part.shape[0]):
        part[i] = value + i


fill = numba.njit(cache=False)(_fill)


def _grid_kernel(grid: Any, flags: Any, scratch: Any) -> Any:
    """Two-index reads and writes, a slice handed to a callee (a view: its writes land in
    ``scratch``), a copy that is not a view, an array made inside, float64 sums, bools."""
    fill(scratch[2:5], 7)
    scratch[6:] = 4
    before = scratch.copy()
    scratch[0] = 99
    made = np.zeros(grid.shape[1], dtype=np.int64)
    total = 0.0
    for i in range(grid.shape[0]):
        for j in range(grid.shape[1]):
            grid[i, j] = grid[i, j] * 3 + i
            made[j] += grid[i, j]
            total += _WEIGHTS[i % 2, j % 2] * grid[i, j]
        flags[i] = grid[i, 0] > 4

    return made, before, total


grid_kernel = jit.interpret_on_views(numba.njit(cache=False)(_grid_kernel))


def _grid_arguments() -> tuple[Any, Any, Any]:
    grid = np.arange(12, dtype=np.int8).reshape(3, 4)
    return grid, np.zeros(3, dtype=np.bool_), np.zeros(8, dtype=np.int16)


def test_interpreted_runs_on_views_with_the_compiled_results() -> None:
    """A kernel marked ``interpret_on_views`` sees arrays through views of their memory
    (Python numbers, several times faster than NumPy scalars): every write reaches the
    caller's array as in compiled code; unmarked, it runs on NumPy arrays."""
    assert getattr(jit.interpreted(kernel), "__name__", None) == "run_widened"
    assert getattr(jit.interpreted(grid_kernel), "__name__", None) == "run_on_views"
    a, b = _grid_arguments(), _grid_arguments()
    made_a, before_a, total_a = jit.interpreted(grid_kernel)(*a)
    made_b, before_b, total_b = grid_kernel(*b)
    for x, y in zip(a, b, strict=True):
        assert x.dtype == y.dtype and np.array_equal(x, y)
    assert isinstance(made_a, np.ndarray) and np.array_equal(made_a, made_b)
    assert np.array_equal(before_a, before_b) and before_a[0] == 0  # a copy, not a view
    assert total_a == total_b  # float64: the same roundings
    assert list(b[2][2:]) == [7, 8, 9, 0, 4, 4]


def test_views_share_memory_and_read_python_numbers() -> None:
    grid = np.arange(6, dtype=np.int8).reshape(2, 3)
    seen = jit.view(grid)
    assert seen.shape == (2, 3) and type(seen[1][2]) is int
    seen[1][2] = 100
    assert grid[1, 2] == 100 and jit.unview(seen) is grid
    assert type(jit.view(np.ones(2))[0]) is float
    assert type(jit.view(np.zeros(2, dtype=np.bool_))[0]) is bool
    single = np.ones(3, dtype=np.float32)  # float32 maths differs from Python's floats
    assert jit.view(single) is single
    assert jit.view((grid, 3))[1] == 3 and jit.view(Colour).BLUE == 7


def test_a_kernel_without_source_runs_on_numpy_arrays() -> None:
    """A compiled function whose source cannot be read (made by exec) still runs
    interpreted, on NumPy arrays (int8 widened, written back)."""
    space: dict[str, Any] = {"np": np}
    exec("def _bump(a):\n    for i in range(a.shape[0]):\n        a[i] = a[i] * 100\n", space)
    bump = jit.interpret_on_views(numba.njit(cache=False)(space["_bump"]))
    with pytest.raises(jit.NoSourceError):
        jit._plain(bump, views=True)
    small = np.array([1, 2], dtype=np.int8)
    jit.interpreted(bump)(small)
    expected = np.array([1, 2], dtype=np.int8)
    bump(expected)
    assert np.array_equal(small, expected)


def test_a_kernel_whose_file_changed_since_its_import_runs_the_imported_code(
    tmp_path: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The views form is built from the source file: after an edit of that file (an
    upgrade under a running game) the kernel runs the imported code, on NumPy arrays."""
    import importlib

    module_file = tmp_path / "edited_kernel.py"
    module_file.write_text("def _triple(a):\n    a[0] = a[0] * 3\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    module = importlib.import_module("edited_kernel")
    triple = jit.interpret_on_views(numba.njit(cache=False)(module._triple))
    module_file.write_text("def _triple(a):\n    a[0] = a[0] * 4\n")
    with pytest.raises(jit.NoSourceError, match="changed since its import"):
        jit._plain(triple, views=True)
    values = np.array([5], dtype=np.int64)
    jit.interpreted(triple)(values)
    assert values[0] == 15
