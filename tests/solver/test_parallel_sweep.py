"""A level pair's sweep in blocks side by side (``pair_table.sweep_spans``): every index once,
each block after every block it reads, and the same values to the last bit as one
ascending sweep (issue 19: the exact bot's first solve on two cores)."""

from __future__ import annotations

import multiprocessing
import threading

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lamagames.core.jit import interpreting
from lamagames.dice.solver import pair_table
from lamagames.dice.solver.pair_table import solve_table, span_blocks, sweep_spans
from lamagames.dice.solver.space import llama_mask
from tests.dice.helpers import counts

DICE = ("LL3456", "12LL56", "1234LL")  # the standard dice


def _digits(size: int, ncodes: list[int]) -> np.ndarray:
    """The digits of every index, shape ``(size, 7)``."""
    index = np.arange(size)
    out = np.empty((size, len(ncodes)), dtype=np.int64)
    for s, c in enumerate(ncodes):
        out[:, s] = index % c
        index //= c
    return out


@settings(deadline=None, max_examples=60)
@given(st.lists(st.integers(1, 4), min_size=7, max_size=7))
def test_span_blocks_cover_every_index_once_after_what_they_read(ncodes: list[int]) -> None:
    waves = span_blocks(np.array(ncodes, dtype=np.int64))
    size = int(np.prod(ncodes))
    seen = np.zeros(size, dtype=np.int64)
    wave_of = np.full(size, -1)
    block_of = np.full(size, -1)
    for w, wave in enumerate(waves):
        for b, (first, stop) in enumerate(wave):
            assert first < stop
            seen[first:stop] += 1
            wave_of[first:stop] = w
            block_of[first:stop] = b
    assert (seen == 1).all()
    # A move lowers the digits it changes and no other (D-8.2 discards, D-8.3 takes): every
    # index y whose digits are each at most x's is in x's block at a lower index (the
    # ascending sweep inside a block) or in an earlier wave.
    digits = _digits(size, ncodes)
    rng = np.random.default_rng(sum(ncodes))
    for x in rng.integers(0, size, 30):
        below = (digits <= digits[x]).all(axis=1)
        below[x] = False
        same = below & (wave_of == wave_of[x])
        assert (block_of[same] == block_of[x]).all()
        assert (np.flatnonzero(same) < x).all()
        assert (wave_of[below & ~same] < wave_of[x]).all()


def test_sweep_spans_splits_a_wave_between_two_threads(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(pair_table, "SWEEP_THREADS", 2)
    monkeypatch.setattr(pair_table, "PARALLEL_MIN_SIZE", 0)
    calls: list[tuple[tuple[int, int], int]] = []
    lock = threading.Lock()

    def sweep(span: tuple[int, int]) -> tuple[int, float]:
        with lock:
            calls.append((span, threading.get_ident()))
        return span[0] % 5, float(span[1] % 7)

    ncodes = np.array([3, 1, 2, 1, 4, 1, 3], dtype=np.int64)
    worst, residual = sweep_spans(sweep, ncodes)
    spans = [span for span, _ in calls]
    assert sorted(spans) == sorted(s for wave in span_blocks(ncodes) for s in wave)
    assert len({thread for _, thread in calls}) == 2
    assert worst == max(s[0] % 5 for s in spans)
    assert residual == max(float(s[1] % 7) for s in spans)
    calls.clear()
    with pair_table._pool_user:  # another solve holds the pool: this one sweeps alone
        sweep_spans(sweep, ncodes)
    assert calls == [((0, int(np.prod(ncodes))), threading.get_ident())]


def test_sweep_spans_passes_on_an_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(pair_table, "SWEEP_THREADS", 2)
    monkeypatch.setattr(pair_table, "PARALLEL_MIN_SIZE", 0)

    def sweep(span: tuple[int, int]) -> tuple[int, float]:
        if span[0] > 0:
            raise RuntimeError("broken block")
        return 0, 0.0

    with pytest.raises(RuntimeError, match="broken block"):
        sweep_spans(sweep, np.array([2, 2, 1, 1, 1, 1, 2], dtype=np.int64))


@pytest.mark.parametrize(
    ("row", "other", "llama_row", "scores"),
    [
        ("1235", "246", "13L", (0, 0)),  # three-llama cycles without chips (D-8.1)
        ("12L", "356", "24", (11, 2)),  # give-backs on both sides
    ],
)
def test_blocks_in_threads_give_the_values_of_one_sweep_bit_for_bit(
    monkeypatch: pytest.MonkeyPatch, row: str, other: str, llama_row: str, scores: tuple[int, int]
) -> None:
    key = (
        tuple(counts(row)), tuple(counts(other)), llama_mask(counts(llama_row)), *scores,
    )  # fmt: skip

    class _NaNEmpty:
        """numpy for pair_table, but new arrays hold NaN: a block swept before one it reads
        would read NaN and so change the values (not a stale copy of the right ones)."""

        def __getattr__(self, name: str) -> object:
            return getattr(np, name)

        @staticmethod
        def empty(shape: object, dtype: object = float) -> np.ndarray:
            out: np.ndarray = np.full(shape, np.nan, dtype=dtype)  # type: ignore[call-overload]
            return out

    monkeypatch.setattr(pair_table, "np", _NaNEmpty())

    def solve(threads: int, min_size: int) -> dict[tuple[int, int], tuple[bytes, bytes]]:
        monkeypatch.setattr(pair_table, "SWEEP_THREADS", threads)
        monkeypatch.setattr(pair_table, "PARALLEL_MIN_SIZE", min_size)
        table = solve_table(DICE, *key, use_disk_cache=False, by_levels=True)
        return {lv: (w.tobytes(), p.tobytes()) for lv, (w, p) in table.slots.items()}

    one = solve(1, 10**12)
    waves = span_blocks(pair_table.pair_space(*key[:3]).ncodes)
    assert len(waves) >= 3 and max(len(wave) for wave in waves) > 1  # blocks side by side
    assert solve(2, 0) == one
    with interpreting():  # interpreted: one ascending sweep, the same values
        assert solve(2, 0) == one


Key = tuple[tuple[int, ...], tuple[int, ...], int, int, int]


def _solve_in_child(key: Key) -> int:
    a0, b0, mask0, score_a, score_b = key
    table = solve_table(DICE, a0, b0, mask0, score_a, score_b, use_disk_cache=False, by_levels=True)
    return int(table.space.size)


def test_a_forked_child_sweeps_after_the_parent_used_the_pool(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A process that swept in two threads, then forked (process pools, ``lama simulate
    --workers``): the child has no pool thread, so a sweep there must not wait for one
    (it did, forever, before the pool was forgotten at fork)."""
    monkeypatch.setattr(pair_table, "SWEEP_THREADS", 2)
    monkeypatch.setattr(pair_table, "PARALLEL_MIN_SIZE", 0)
    key: Key = (tuple(counts("1235")), tuple(counts("246")), llama_mask(counts("13L")), 0, 0)
    _solve_in_child(key)
    assert pair_table._pool is not None  # the parent's pool and its thread exist
    context = multiprocessing.get_context("fork")
    with context.Pool(1) as pool:
        result = pool.apply_async(_solve_in_child, (key,))
        assert result.get(timeout=60) == pair_table.pair_space(key[0], key[1], key[2]).size
