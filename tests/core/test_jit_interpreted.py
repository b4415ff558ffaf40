"""The interpreted form of a compiled kernel (:func:`lamagames.core.jit.interpreted`): the
same code run as plain Python gives the compiled results, so ``lama play`` can decide with
it while the kernel compiles (issue 19)."""

from __future__ import annotations

import threading
from enum import IntEnum
from typing import Any

import numpy as np
import pytest

from lamagames.core import jit

numba = pytest.importorskip("numba")


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
