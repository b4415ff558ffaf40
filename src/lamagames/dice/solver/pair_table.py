"""Compiled exact values of a two-player LAMA Dice round (both seats in), from any position.

**Objective.** As :mod:`lamagames.dice.solver.two_player`: for the seat to act, the margin
(expected opponent points of the round minus own points; D-10 row scores at the round's end,
chips given back from now on counted as points, D-8.1 / D-10), maximised by both seats, plus
each seat's expected points under the solved policies.

**State space of a table.** A table is rooted at a position: seat *A* (the seat to act
there) holds ``a0[s]`` cards of symbol ``s``, seat *B* ``b0[s]``, and ``mask0`` is the llama
row (D-3). A take (D-8.3) only happens when no die matches the own row, so the taken symbol
had count 0 in the taker's row and has count 1 after it. So per symbol the reachable
``(card in llama row c, count of A a, count of B b)`` are: ``c = 1`` with ``a <= a0``,
``b <= b0``; ``c = 0`` taken by A with ``a <= 1``, ``b <= b0``; taken by B with ``a <= a0``,
``b <= 1`` (only the ``c = 0`` grid ``a <= a0``, ``b <= b0`` if the card was already gone).
Each symbol's states get *codes* sorted by ``2c + a + b``, which every discard (D-8.2) and
take strictly lowers; the index is the mixed-radix number of the seven codes, so every move
lowers the index and one ascending sweep solves everything (no hashing, no recursion).

**Scores.** A chip given back (D-8.1) changes nothing but the giver's score and the turn
passes anyway, so giving the best chip (black if ``s >= 10``, else white if ``s % 10 >= 1``)
is optimal (:func:`greedy_chain` has the proof). A seat's score thus moves down its *greedy
chain* ``s, s - 10, ..., s % 10, s % 10 - 1, ..., 0`` and only on three llamas. Level pairs
are solved from the lowest up; at score 0 three llamas hand the turn over with nothing
changed, a 2x2 fixed point per index. A level pair needs, at each index, only its own values
at smaller indices and the two pairs one give-back below *at the same index*; so with four
level pairs or more (:data:`BLOCK_MIN_PAIRS`) blocks of them (:func:`block_rows`, within
:data:`BLOCK_BYTES`: :func:`use_blocks`) are solved side by side in one sweep
(:func:`kernel2p.sweep_block`, a block's values interleaved per index), which shares the
index arithmetic and the memory reads and is 1.2 to 2.7 times faster than one sweep per
level pair (:func:`kernel2p.sweep_pair`, kept as the reference; the values are the same to
the last bit, tested).

**Quits.** When a seat quits (D-7) the other is the last player standing (D-8.5): its row
only shrinks and the llama row is fixed, so its values are solved in the same table over the
``(c, count)`` per-symbol states of that seat (:func:`kernel2p.solve_last_standing`).

A table keeps the root's level pair and the two pairs one greedy give-back below (enough for
every action at the root); :class:`PairTable.locate` says whether a position is covered.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from functools import lru_cache
from typing import Final

import numpy as np
import numpy.typing as npt

from lamagames.core.jit import choose
from lamagames.dice import primitives
from lamagames.dice.actions import NUM_SYMBOLS
from lamagames.dice.game import DiceGame
from lamagames.dice.primitives import best_chip
from lamagames.dice.rules import discard_codes
from lamagames.dice.solver import cache, kernel2p
from lamagames.dice.solver.space import (
    SYMBOL_SCORES,
    roll_table,
    symbols_of,
)

#: Bump when the stored pair tables change meaning or layout (part of the cache file name).
PAIR_VERSION: Final = 1
#: Level pairs solved side by side in one sweep (:func:`block_rows`): a block of ``k`` level
#: pairs needs ``32 k`` bytes per index, so this bounds the memory beside the speed.
BLOCK_PAIRS: Final = 16
#: Most bytes of one block's values; a table whose one row of B's levels does not fit is
#: solved one level pair per sweep (:func:`use_blocks`).
BLOCK_BYTES: Final = 256 * 1024**2
#: Tables with fewer level pairs are solved one level pair per sweep (side by side only pays
#: from about 4 level pairs on: ``benchmarks/bench_two_player.py``).
BLOCK_MIN_PAIRS: Final = 4

IntArray = npt.NDArray[np.int64]
FloatArray = npt.NDArray[np.float64]
Row = tuple[int, ...]


def greedy_chain(score: int) -> list[int]:
    """The scores a seat passes through when it gives back the best chip at every chance,
    ascending: ``greedy_chain(23) == [0, 1, 2, 3, 13, 23]``.

    **Why greedy give-backs are optimal** (D-8.1, D-10). A give-back changes only the
    giver's score; rows, llama row, dice and the turn order go on the same whichever chip
    (or none) is given. Fix any strategies of both seats, which may look at the scores. Let
    the giver instead give the best chip every time while choosing every other action as the
    original strategy would on the *shadow* history with the original chips, and let the
    opponent act as its strategy would on that shadow history. Then every path has the same
    cards, the same opponent points and the same number ``k`` of give-back chances for the
    giver. With score ``s = 10q + r`` at most ``q`` black and ``r`` white chips can ever go
    back, one per chance, so ``k`` chances return at most ``10 min(k, q) + min(k - min(k,
    q), r)`` points, which is exactly what the greedy order returns. So on every path the
    giver's margin (and its own points) is at least as good, for every opponent strategy:
    the greedy give-back is optimal for the margin and for the expected own points.
    """
    chain = [score]
    while best_chip(score):  # D-4: a chip left to give back
        score -= best_chip(score)
        chain.append(score)
    return chain[::-1]


@dataclass(frozen=True)
class RollGroups:
    """Rolls of a dice set (D-1) grouped per *capped pattern* of the roller's row.

    A pattern is ``sum(min(count[s], 2) * 3**s)``: a roll other than three llamas shows each
    symbol at most twice (each number is on two dice, D-1; three llamas are D-8.1), so what
    a roll allows depends only on the counts capped at 2. Arrays (int64 unless noted):
    ``pat_gptr`` (2188,) into groups of equal discard limits ``min(shown, count)`` (D-8.2)
    with ``g_prob`` (float64) and ``g_dptr`` into discards; a discard ``d_ent`` (D, 3) is up
    to three entries ``3 * symbol + cards`` (21 pads), every non-empty sub-vector of the
    limits, the first symbol varying slowest. ``pat_mptr`` into non-matching rolls by
    shown-symbol mask ``m_shown`` with ``m_prob`` (float64): a take (D-8.3) or a bust
    (D-8.4). ``p3``: probability of three llamas.
    """

    pat_gptr: IntArray
    g_prob: FloatArray
    g_dptr: IntArray
    d_ent: IntArray
    pat_mptr: IntArray
    m_prob: FloatArray
    m_shown: IntArray
    p3: float

    def kernel_args(
        self,
    ) -> tuple[IntArray, FloatArray, IntArray, IntArray, IntArray, FloatArray]:
        """The arrays in the order the kernels take them."""
        return (self.pat_gptr, self.g_prob, self.g_dptr, self.d_ent, self.pat_mptr, self.m_prob)


@lru_cache(maxsize=8)
def roll_groups(dice: tuple[str, ...]) -> RollGroups:
    """:class:`RollGroups` of a dice set (built once per process and dice set)."""
    rolls = roll_table(DiceGame(num_players=2, dice=list(dice)))
    p3 = rolls.three_llamas
    pat_gptr, g_prob, g_dptr, d_ent = [0], [], [0], []
    pat_mptr, m_prob, m_shown = [0], [], []
    empty = [0] * NUM_SYMBOLS
    classes = [  # the symbols shown found once per class, not once per pattern
        (symbols_of(tuple(c)), p, sum(1 << s for s in range(NUM_SYMBOLS) if c[s]))
        for c, p in zip(rolls.counts.tolist(), rolls.probs.tolist(), strict=True)
    ]
    classes = [  # three llamas are D-8.1
        (abc, p, shown) for abc, p, shown in classes
        if primitives.roll_result(empty, empty, *abc, True) != primitives.THREE_LLAMAS
    ]  # fmt: skip
    discards: dict[int, list[list[int]]] = {}
    for pattern in range(3**NUM_SYMBOLS):
        caps = [(pattern // 3**s) % 3 for s in range(NUM_SYMBOLS)]
        groups: dict[int, float] = {}
        misses: dict[int, float] = {}
        for (a, b, c), p, shown in classes:
            if primitives.roll_result(caps, caps, a, b, c, True) == primitives.MATCH:  # D-8.2
                code = primitives.max_discard(caps, a, b, c)
                groups[code] = groups.get(code, 0.0) + p
            else:
                misses[shown] = misses.get(shown, 0.0) + p
        for code, p in groups.items():
            g_prob.append(p)
            if code not in discards:
                discards[code] = _discards(code)
            d_ent.extend(discards[code])
            g_dptr.append(len(d_ent))
        pat_gptr.append(len(g_prob))
        for shown, p in misses.items():
            m_prob.append(p)
            m_shown.append(shown)
        pat_mptr.append(len(m_prob))
    ints = np.int64
    return RollGroups(
        np.array(pat_gptr, dtype=ints), np.array(g_prob), np.array(g_dptr, dtype=ints),
        np.array(d_ent, dtype=ints),
        np.array(pat_mptr, dtype=ints), np.array(m_prob), np.array(m_shown, dtype=ints), p3,
    )  # fmt: skip


def _discards(max_code: int) -> list[list[int]]:
    """Every legal discard within the largest one ``max_code`` (D-8.2,
    :func:`~lamagames.dice.rules.discard_codes`: first symbol varying slowest), as entries
    ``3 * symbol + cards`` padded with 21 to three."""
    out = []
    for sub in discard_codes(max_code):
        entries = [3 * s + k for s in range(NUM_SYMBOLS) if (k := (sub >> (2 * s)) & 3)]
        out.append(entries + [21] * (3 - len(entries)))
    return out


def _symbol_states(a0: int, b0: int, present: bool) -> list[tuple[int, int, int]]:
    """Reachable ``(c, a, b)`` of one symbol, sorted by ``2c + a + b`` (see module doc)."""
    states = {(0, a, b) for a in range(a0 + 1) for b in range(b0 + 1)}
    if present:
        states |= {(1, a, b) for a in range(a0 + 1) for b in range(b0 + 1)}
        states |= {(0, a, b) for a in range(2) for b in range(b0 + 1)}
        states |= {(0, a, b) for a in range(a0 + 1) for b in range(2)}
    return sorted(states, key=lambda t: (2 * t[0] + t[1] + t[2], t))


@dataclass(frozen=True)
class PairSpace:
    """The index space of a table rooted at ``(a0, b0, mask0)`` (see the module docstring).

    Arrays, shape ``(7, M)`` int64 unless noted, ``M`` the most codes of a symbol:
    ``code_c``/``code_a``/``code_b`` (card in the llama row, count of A, count of B),
    ``d_a``/``d_b`` ``(7, M, 3)``: index drop when A/B discards ``k`` cards of the symbol,
    ``t_a``/``t_b``: index drop when A/B takes its llama-row card (D-8.3), ``ls_a``/``ls_b``:
    contribution of the code to A's/B's last-standing index. ``lookup`` ``(7, 2, 8, 8)``:
    code of ``(c, a, b)`` or -1. ``radix`` (7,), ``ncodes`` (7,), ``size`` = product.
    Last-standing spaces ``ls_space[0]`` (A) and ``[1]`` (B): ``(ncodes, own, card, delta,
    size)`` with the codes of ``(c, count)`` sorted by count.
    """

    a0: Row
    b0: Row
    mask0: int
    ncodes: IntArray
    radix: IntArray
    size: int
    code_c: IntArray
    code_a: IntArray
    code_b: IntArray
    lookup: IntArray
    d_a: IntArray
    d_b: IntArray
    t_a: IntArray
    t_b: IntArray
    ls_a: IntArray
    ls_b: IntArray
    ls_space: tuple[tuple[IntArray, IntArray, IntArray, IntArray, int], ...]

    def locate(self, row_a: Row, row_b: Row, mask: int) -> tuple[int, IntArray] | None:
        """``(index, codes)`` of a position, or ``None`` if the space does not hold it."""
        codes = np.zeros(NUM_SYMBOLS, dtype=np.int64)
        for s in range(NUM_SYMBOLS):
            a, b, c = row_a[s], row_b[s], mask >> s & 1
            if not (0 <= a < 8 and 0 <= b < 8):
                return None
            code = int(self.lookup[s, c, a, b])
            if code < 0:
                return None
            codes[s] = code
        return int(codes @ self.radix), codes


def left_after_discard(s: int, count: int, k: int) -> int:
    """Cards of symbol ``s`` left in a row holding ``count`` of them after discarding ``k``
    (D-8.2, :func:`~lamagames.dice.primitives.discard`)."""
    row = [0] * NUM_SYMBOLS
    row[s] = count
    return primitives.discard(row, k << (2 * s))[s]


def _taken(s: int, count: int) -> tuple[int, int]:
    """``(cards of s in the row, the llama-row card of s)`` after a row holding ``count``
    cards of symbol ``s`` takes its llama-row card (D-8.3,
    :func:`~lamagames.dice.primitives.take`)."""
    row = [0] * NUM_SYMBOLS
    row[s] = count
    llama = [0] * NUM_SYMBOLS
    llama[s] = 1
    new_row, new_llama = primitives.take(row, llama, s)
    return new_row[s], new_llama[s]


def pair_space(a0: Row, b0: Row, mask0: int) -> PairSpace:
    """Build the :class:`PairSpace` rooted at A's row ``a0``, B's row ``b0``, llama row
    ``mask0`` (count vectors of length 7, bit mask)."""
    per = [_symbol_states(a0[s], b0[s], bool(mask0 >> s & 1)) for s in range(NUM_SYMBOLS)]
    ncodes = np.array([len(p) for p in per], dtype=np.int64)
    radix = np.cumprod(np.concatenate(([1], ncodes[:-1]))).astype(np.int64)
    width = int(ncodes.max())
    code_c, code_a, code_b, t_a, t_b, ls_a, ls_b = (
        np.zeros((NUM_SYMBOLS, width), dtype=np.int64) for _ in range(7)
    )
    d_a = np.zeros((NUM_SYMBOLS, width, 3), dtype=np.int64)
    d_b = np.zeros_like(d_a)
    lookup = np.full((NUM_SYMBOLS, 2, 8, 8), -1, dtype=np.int64)
    ls_parts = []
    for seat in range(2):
        ncs, owns, cards, deltas = [], [], [], []
        for s in range(NUM_SYMBOLS):
            pairs = sorted({(t[1 + seat], t[0]) for t in per[s]})
            ncs.append(len(pairs))
            owns.append([x for x, _ in pairs])
            cards.append([c for _, c in pairs])
            deltas.append(pairs)
        ls_n = np.array(ncs, dtype=np.int64)
        ls_radix = np.cumprod(np.concatenate(([1], ls_n[:-1]))).astype(np.int64)
        lw = int(ls_n.max())
        own = np.zeros((NUM_SYMBOLS, lw), dtype=np.int64)
        card = np.zeros_like(own)
        delta = np.zeros((NUM_SYMBOLS, lw, 3), dtype=np.int64)
        for s in range(NUM_SYMBOLS):
            pairs = deltas[s]
            where = {pc: i for i, pc in enumerate(pairs)}
            for i, (x, c) in enumerate(pairs):
                own[s, i], card[s, i] = x, c
                for k in range(1, min(x, 2) + 1):
                    delta[s, i, k] = (i - where[(left_after_discard(s, x, k), c)]) * ls_radix[s]
            contrib = ls_a if seat == 0 else ls_b
            for code, (c, a, b) in enumerate(per[s]):
                contrib[s, code] = where[((a, b)[seat], c)] * ls_radix[s]
        ls_parts.append((ls_n, own, card, delta, int(np.prod(ls_n))))
    for s in range(NUM_SYMBOLS):
        where3 = {t: i for i, t in enumerate(per[s])}
        for i, (c, a, b) in enumerate(per[s]):
            code_c[s, i], code_a[s, i], code_b[s, i] = c, a, b
            lookup[s, c, a, b] = i
            for k in range(1, min(a, 2) + 1):
                d_a[s, i, k] = (i - where3[(c, left_after_discard(s, a, k), b)]) * radix[s]
            for k in range(1, min(b, 2) + 1):
                d_b[s, i, k] = (i - where3[(c, a, left_after_discard(s, b, k))]) * radix[s]
            if c == 1 and a == 0:  # A takes the card (D-8.3)
                held, out_card = _taken(s, a)
                t_a[s, i] = (i - where3[(out_card, held, b)]) * radix[s]
            if c == 1 and b == 0:
                held, out_card = _taken(s, b)
                t_b[s, i] = (i - where3[(out_card, a, held)]) * radix[s]
    return PairSpace(
        tuple(a0), tuple(b0), mask0, ncodes, radix, int(np.prod(ncodes)),
        code_c, code_a, code_b, lookup, d_a, d_b, t_a, t_b, ls_a, ls_b, tuple(ls_parts),
    )  # fmt: skip


def table_states(a0: Row, b0: Row, mask0: int) -> int:
    """Number of indices of the space rooted there (cheap; no arrays built)."""
    total = 1
    for s in range(NUM_SYMBOLS):
        total *= len(_symbol_states(a0[s], b0[s], bool(mask0 >> s & 1)))
    return total


#: ``(w, p)`` of one level pair: float64 arrays ``(2, size)``, margin and own points of the
#: seat to act (row 0: A to act, row 1: B to act).
Slot = tuple[FloatArray, FloatArray]


@dataclass(frozen=True)
class Found:
    """Where a position sits in a table: ``actor`` (0 = the seat to act is A), ``index``,
    ``codes`` (its digits) and ``levels`` (A's score, B's score)."""

    actor: int
    index: int
    codes: IntArray
    levels: tuple[int, int]


@dataclass
class PairTable:
    """A solved two-player table (see the module docstring).

    Attributes:
        space: the index space; ``groups``: the roll groups of the dice.
        scores: the root's scores ``(A, B)``; ``slots``: ``(w, p)`` per kept level pair
            ``(score of A, score of B)``: the root's pair and the pairs one greedy
            give-back below it.
        ls_values: last-standing values of A and B, float64 ``(levels, size)``, one level
            per score of the seat's greedy chain (ascending).
        chains: the greedy chains of A and B (:func:`greedy_chain`).
        solve_seconds: wall time of the solve (0.0 when read from the disk cache);
        pair_iterations: most iterations of a 2x2 three-llama fixed point.
    """

    space: PairSpace
    groups: RollGroups
    scores: tuple[int, int]
    slots: dict[tuple[int, int], Slot]
    ls_values: tuple[FloatArray, FloatArray]
    chains: tuple[list[int], list[int]]
    solve_seconds: float
    pair_iterations: int

    def find(self, own: Row, opp: Row, mask: int, own_score: int, opp_score: int) -> Found | None:
        """Locate a both-in position (``own`` seat to act) in a kept level pair, or ``None``."""
        for actor in (0, 1):
            row_a, row_b = (own, opp) if actor == 0 else (opp, own)
            levels = (own_score, opp_score) if actor == 0 else (opp_score, own_score)
            if levels not in self.slots:
                continue
            loc = self.space.locate(row_a, row_b, mask)
            if loc is not None:
                return Found(actor, loc[0], loc[1], levels)
        return None

    def value(self, f: Found) -> tuple[float, float]:
        """``(margin, own points)`` of the seat to act at a turn (optimal play)."""
        w, p = self.slots[f.levels]
        return float(w[f.actor, f.index]), float(p[f.actor, f.index])

    def quit_value(self, f: Found, quitter_points: float) -> tuple[float, float]:
        """``(margin, own points)`` of quitting now (D-7): the other seat is the last
        player standing (D-8.5) and the quitter's row scores ``quitter_points`` (D-10)."""
        other = 1 - f.actor
        chain = self.chains[other]
        level = chain.index(f.levels[other])
        ls = self.space.ls_a if other == 0 else self.space.ls_b
        i = int(sum(int(ls[s, f.codes[s]]) for s in range(NUM_SYMBOLS)))
        return float(self.ls_values[other][level, i]) - quitter_points, quitter_points

    def roll_value(self, f: Found) -> tuple[float, float] | None:
        """``(margin, own points)`` of rolling now (D-8), or ``None`` when the level pair
        after a greedy give-back on three llamas (D-8.1) is not kept in this table."""
        w, p = self.slots[f.levels]
        score = f.levels[f.actor]
        chip = best_chip(score)
        if chip:
            below = list(f.levels)
            below[f.actor] -= chip
            slot = self.slots.get((below[0], below[1]))
            if slot is None:
                return None
            gw, gp = slot
            o = 1 - f.actor
            c_w = -float(gw[o, f.index]) + chip
            c_p = float(gp[o, f.index] + gw[o, f.index]) - chip
        else:  # no chip (D-8.1): the opponent acts next in the same position
            o = 1 - f.actor
            c_w = -float(w[o, f.index])
            c_p = float(p[o, f.index] + w[o, f.index])
        sp = self.space
        g = self.groups
        r_w, r_p = choose(kernel2p.roll_value)(
            f.index, f.actor, f.codes, _space(sp), (w, p), (c_w, c_p), kernel_groups(g)
        )
        return float(r_w), float(r_p)

    def bellman_residual(self) -> float:
        """``max |T V - V|`` (margins and points) over every state of the root's level
        pair: one Jacobi Bellman backup from the stored values, in points."""
        sa, sb = self.scores
        _, residual = self._sweep(sa, sb, self.slots[(sa, sb)], check=True)
        return float(residual)

    def _sweep(self, sa: int, sb: int, out: Slot, check: bool) -> tuple[int, float]:
        sp, g = self.space, self.groups
        ca, cb = best_chip(sa), best_chip(sb)
        empty = np.zeros((2, 1))
        ga = self.slots.get((sa - ca, sb), (empty, empty)) if ca else (empty, empty)
        gb = self.slots.get((sa, sb - cb), (empty, empty)) if cb else (empty, empty)
        la = self.chains[0].index(sa)
        lb = self.chains[1].index(sb)
        kernel = choose(kernel2p.sweep_pair)
        args = (
            _space(sp),
            (self.ls_values[0][la], self.ls_values[1][lb], float(ca), float(cb)),
            (out[0], out[1]),
            (ga[0], ga[1], gb[0], gb[1]),
            kernel_groups(g),
            check,
        )
        if kernel is not kernel2p.sweep_pair:  # interpreted: threads would share one GIL
            return kernel((0, sp.size), *args)
        return sweep_spans(lambda span: kernel(span, *args), sp.ncodes)


def _usable_cores() -> int:
    """The cores this process may run on (its affinity where the system tells it)."""
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1


#: Threads one level pair's sweep runs in (the caller's and a shared pool's): two where
#: the machine has two cores or more (a fresh deal's solve then takes about 0.6 of its
#: time alone, the exact bot's first move on a cold install waits less, issue 19).
SWEEP_THREADS: Final = 2 if _usable_cores() >= 2 else 1
#: Spaces with fewer indices are swept in one call (the hand-offs would cost more).
PARALLEL_MIN_SIZE: Final = 50_000
_pool: ThreadPoolExecutor | None = None
_pool_lock = threading.Lock()
#: Held by the one sweep that uses the pool; a sweep that finds it held (another solve in
#: another thread, such as a second table's bot on a server) runs in its own thread alone.
_pool_user = threading.Lock()


def _forget_pool_in_child() -> None:
    """In a forked child (``fork`` start method: process pools, ``lama simulate --workers``):
    the parent's pool thread does not exist there and its locks may be held, so start
    afresh (a sweep would otherwise wait forever for a block nobody runs)."""
    global _pool, _pool_lock, _pool_user
    _pool = None
    _pool_lock = threading.Lock()
    _pool_user = threading.Lock()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forget_pool_in_child)


def _sweep_pool() -> ThreadPoolExecutor:
    """The process's pool for the second thread of :func:`sweep_spans` (made on first use)."""
    global _pool
    with _pool_lock:
        if _pool is None:
            _pool = ThreadPoolExecutor(SWEEP_THREADS - 1, thread_name_prefix="lama-sweep")
        return _pool


def span_blocks(ncodes: IntArray) -> list[list[tuple[int, int]]]:
    """The index spans of a pair space with digit counts ``ncodes`` (int64, shape ``(7,)``),
    grouped in waves that may be swept side by side, in order: the blocks of equal values of
    the two slowest-varying digits that vary (``hi``, ``lo``), each a contiguous span, and a
    wave the blocks with the same ``hi + lo``. A move lowers the digits it changes and no
    other (discards D-8.2, takes D-8.3), so a block reads only itself (at lower indices) and
    blocks of earlier waves. One wave of one span ``(0, size)`` when fewer than two digits
    vary."""
    counts = [int(c) for c in ncodes]
    size = 1
    for c in counts:
        size *= c
    varying = [s for s, c in enumerate(counts) if c > 1]
    if len(varying) < 2:
        return [[(0, size)]]
    lo, hi = varying[-2], varying[-1]
    stride_lo = 1
    for c in counts[:lo]:
        stride_lo *= c
    stride_hi = stride_lo * counts[lo]  # the digits between lo and hi have one code each
    n_lo, n_hi = counts[lo], counts[hi]
    waves = []
    for k in range(n_lo + n_hi - 1):
        wave = []
        for d_hi in range(max(0, k - n_lo + 1), min(k, n_hi - 1) + 1):
            first = (k - d_hi) * stride_lo + d_hi * stride_hi
            wave.append((first, first + stride_lo))
        waves.append(wave)
    return waves


def sweep_spans(
    sweep: Callable[[tuple[int, int]], tuple[int, float]], ncodes: IntArray
) -> tuple[int, float]:
    """Run ``sweep(span)`` (one level pair's :func:`kernel2p.sweep_pair` over an index span,
    compiled: it releases the GIL) over every index of a pair space with digit counts
    ``ncodes``: in :data:`SWEEP_THREADS` threads, wave after wave of :func:`span_blocks`
    (the blocks of a wave split between the threads), or in one call for a space under
    :data:`PARALLEL_MIN_SIZE`, one thread, or while another sweep uses the pool (concurrent
    solves are not slowed by waiting for each other's blocks). Returns the largest of the
    calls' results (``(most pair iterations, residual)``). The values written do not depend
    on the threads: every index is computed from the same values either way (tested).

    Raises:
        Whatever ``sweep`` raises.
    """
    size = 1
    for c in ncodes:
        size *= int(c)
    if SWEEP_THREADS < 2 or size < PARALLEL_MIN_SIZE or not _pool_user.acquire(blocking=False):
        return sweep((0, size))
    try:
        return _sweep_waves(sweep, ncodes)
    finally:
        _pool_user.release()


def _sweep_waves(
    sweep: Callable[[tuple[int, int]], tuple[int, float]], ncodes: IntArray
) -> tuple[int, float]:
    """:func:`sweep_spans` in two threads, wave after wave of :func:`span_blocks`."""

    def run(spans: list[tuple[int, int]]) -> tuple[int, float]:
        worst, residual = 0, 0.0
        for span in spans:
            it, res = sweep(span)
            worst, residual = max(worst, int(it)), max(residual, float(res))
        return worst, residual

    worst, residual = 0, 0.0
    pool = _sweep_pool()
    for wave in span_blocks(ncodes):
        other: Future[tuple[int, float]] | None = None
        if len(wave) > 1:
            other = pool.submit(run, wave[1::2])
        it, res = run(wave[::2] if other is not None else wave)
        if other is not None:
            it2, res2 = other.result()
            it, res = max(it, it2), max(res, res2)
        worst, residual = max(worst, it), max(residual, res)
    return worst, residual


def _space(sp: PairSpace) -> kernel2p.Space:
    """The kernels' :data:`~lamagames.dice.solver.kernel2p.Space` of a pair space."""
    return (
        sp.ncodes, sp.code_a, sp.code_b, sp.code_c, SYMBOL_SCORES, sp.d_a, sp.d_b, sp.t_a,
        sp.t_b, sp.ls_a, sp.ls_b,
    )  # fmt: skip


def kernel_groups(g: RollGroups) -> kernel2p.Groups:
    """The kernels' :data:`~lamagames.dice.solver.kernel2p.Groups` of the roll groups."""
    return (g.p3, *g.kernel_args(), g.m_shown)


def table_bytes(a0: Row, b0: Row, mask0: int, score_a: int, score_b: int) -> int:
    """Peak bytes of the value arrays while solving, 32 per index and level pair held: one
    level pair per sweep holds ``levels of B + 2``; blocks (:func:`block_rows`) hold a
    block, the row below it (and its copy) and the three kept level pairs."""
    levels_a, levels_b = len(greedy_chain(score_a)), len(greedy_chain(score_b))
    size = table_states(a0, b0, mask0)
    if use_blocks(levels_a, levels_b, size):
        pairs = block_rows(levels_a, levels_b, size) * levels_b + 2 * levels_b + 3
    else:
        pairs = levels_b + 2
    return 32 * size * pairs


def table_work(a0: Row, b0: Row, mask0: int, score_a: int, score_b: int) -> int:
    """States to sweep: indices times the level pairs of the two greedy chains."""
    levels = len(greedy_chain(score_a)) * len(greedy_chain(score_b))
    return table_states(a0, b0, mask0) * levels


def solve_table(
    dice: tuple[str, ...], a0: Row, b0: Row, mask0: int, score_a: int, score_b: int,
    use_disk_cache: bool = True, by_levels: bool = False,
) -> PairTable:  # fmt: skip
    """Solve (or read from the disk cache) the table rooted at A's row ``a0`` (A to act),
    B's row ``b0``, llama row ``mask0`` and scores ``score_a``, ``score_b`` (D-4).

    ``by_levels``: solve one level pair per sweep (:func:`kernel2p.sweep_pair`, the
    reference) instead of blocks of level pairs side by side (:func:`kernel2p.sweep_block`,
    the default, several times faster with many level pairs); the values are the same to
    the last bit (tested)."""
    space = pair_space(a0, b0, mask0)
    groups = roll_groups(dice)
    chains = (greedy_chain(score_a), greedy_chain(score_b))
    keep = _kept_levels(score_a, score_b)
    path = (
        cache.pair_path(PAIR_VERSION, dice, a0, b0, mask0, score_a, score_b)
        if use_disk_cache
        else None
    )
    shapes: dict[str, tuple[int, ...]] = {f"w{i}": (2, space.size) for i in range(len(keep))}
    shapes |= {f"p{i}": (2, space.size) for i in range(len(keep))}
    shapes["ls0"] = (len(chains[0]), space.ls_space[0][4])
    shapes["ls1"] = (len(chains[1]), space.ls_space[1][4])
    stored = cache.load_arrays(path, shapes)
    if stored is not None:
        slots = {lv: (stored[f"w{i}"], stored[f"p{i}"]) for i, lv in enumerate(keep)}
        ls = (stored["ls0"], stored["ls1"])
        return PairTable(space, groups, (score_a, score_b), slots, ls, chains, 0.0, 0)
    start = time.perf_counter()
    ls_values, chips = _last_standing(space, groups, chains)
    if by_levels or not use_blocks(len(chains[0]), len(chains[1]), space.size):
        slots, worst = _sweep_levels(space, groups, chains, ls_values, keep)
    else:
        slots, worst = _sweep_blocks(space, groups, chains, ls_values, chips, keep)
    table = PairTable(
        space, groups, (score_a, score_b), slots, (ls_values[0], ls_values[1]), chains,
        time.perf_counter() - start, worst,
    )  # fmt: skip
    arrays = {f"w{i}": slots[lv][0] for i, lv in enumerate(keep)}
    arrays |= {f"p{i}": slots[lv][1] for i, lv in enumerate(keep)}
    arrays |= {"ls0": ls_values[0], "ls1": ls_values[1]}
    cache.store_arrays(path, arrays)
    return table


def _last_standing(
    space: PairSpace, groups: RollGroups, chains: tuple[list[int], list[int]]
) -> tuple[list[FloatArray], list[IntArray]]:
    """Last-standing values of A and B at every level of their chains (D-8.5), and the
    chip each seat gives back greedily at each level (D-8.1; 0 at level 0)."""
    ls_values: list[FloatArray] = []
    all_chips: list[IntArray] = []
    for seat in range(2):
        ncodes, own, card, delta, size = space.ls_space[seat]
        chain = chains[seat]
        chips = np.array(
            [0] + [chain[i] - chain[i - 1] for i in range(1, len(chain))], dtype=np.int64
        )
        all_chips.append(chips)
        seat_space = (ncodes, own, card, delta)
        ls_values.append(
            choose(kernel2p.solve_last_standing)(
                chips, size, seat_space, SYMBOL_SCORES, kernel_groups(groups)
            )
        )
    return ls_values, all_chips


def use_blocks(levels_a: int, levels_b: int, size: int) -> bool:
    """Whether a table of ``size`` indices is solved in blocks of level pairs: from
    :data:`BLOCK_MIN_PAIRS` level pairs on, when one row of B's levels fits
    :data:`BLOCK_BYTES` (larger tables keep the smaller memory of one sweep per pair)."""
    return levels_a * levels_b >= BLOCK_MIN_PAIRS and 32 * size * levels_b <= BLOCK_BYTES


def block_rows(levels_a: int, levels_b: int, size: int = 0) -> int:
    """A's levels solved together in one sweep (:func:`kernel2p.sweep_block`): enough for
    about :data:`BLOCK_PAIRS` level pairs side by side, but a block of ``size`` indices
    within :data:`BLOCK_BYTES`; at least one row of B's levels."""
    rows = min(levels_a, -(-BLOCK_PAIRS // levels_b))
    if size:
        rows = min(rows, BLOCK_BYTES // (32 * size * levels_b))
    return max(1, rows)


def _sweep_blocks(
    space: PairSpace,
    groups: RollGroups,
    chains: tuple[list[int], list[int]],
    ls_values: list[FloatArray],
    chips: list[IntArray],
    keep: list[tuple[int, int]],
) -> tuple[dict[tuple[int, int], Slot], int]:
    """Every level pair, solved in blocks of :func:`block_rows` of A's levels times all of
    B's (one sweep each, :func:`kernel2p.sweep_block`); returns the kept slots and the most
    pair iterations."""
    levels_a, levels_b = len(chains[0]), len(chains[1])
    n = space.size
    rows = block_rows(levels_a, levels_b, n)
    sp = space
    prev = np.zeros((1, 4, levels_b))  # not read for the first block (no chip at level 0)
    kept: dict[tuple[int, int], Slot] = {}
    worst = 0
    for first in range(0, levels_a, rows):
        count = min(rows, levels_a - first)
        out = np.empty((n, 4, count * levels_b))
        levels = (ls_values[0], ls_values[1], chips[0], chips[1])
        it = kernel2p.sweep_block(n, _space(sp), levels, first, out, prev, kernel_groups(groups))
        worst = max(worst, it)
        for level in keep:
            i, j = chains[0].index(level[0]), chains[1].index(level[1])
            if first <= i < first + count:
                k = (i - first) * levels_b + j
                kept[level] = (
                    np.ascontiguousarray(out[:, 0:2, k].T),
                    np.ascontiguousarray(out[:, 2:4, k].T),
                )
        prev = out if count == 1 else np.ascontiguousarray(out[:, :, (count - 1) * levels_b :])
        del out
    return kept, worst


def _sweep_levels(
    space: PairSpace,
    groups: RollGroups,
    chains: tuple[list[int], list[int]],
    ls_values: list[FloatArray],
    keep: list[tuple[int, int]],
) -> tuple[dict[tuple[int, int], Slot], int]:
    """Every level pair, one sweep each (:func:`kernel2p.sweep_pair`), lowest first: the
    reference :func:`_sweep_blocks` is tested against; returns the kept slots and the most
    pair iterations."""
    table = PairTable(space, groups, (0, 0), {}, (ls_values[0], ls_values[1]), chains, 0.0, 0)
    worst = 0
    previous: list[Slot | None] = []
    kept: dict[tuple[int, int], Slot] = {}
    for sa in chains[0]:
        current: list[Slot | None] = []
        for j, sb in enumerate(chains[1]):
            table.slots = {}
            if previous:
                below_a = previous[j]
                assert below_a is not None
                table.slots[(sa - best_chip(sa), sb)] = below_a
            if j:
                below_b = current[j - 1]
                assert below_b is not None
                table.slots[(sa, chains[1][j - 1])] = below_b
            out = (np.empty((2, space.size)), np.empty((2, space.size)))
            it, _ = table._sweep(sa, sb, out, check=False)
            worst = max(worst, it)
            current.append(out)
            if previous:
                if (sa - best_chip(sa), sb) in keep:
                    kept[(sa - best_chip(sa), sb)] = previous[j]  # type: ignore[assignment]
                previous[j] = None  # no longer needed: free it
            if (sa, sb) in keep:
                kept[(sa, sb)] = out
        previous = current
    return kept, worst


def _kept_levels(score_a: int, score_b: int) -> list[tuple[int, int]]:
    """The root's level pair, then A's and B's greedy give-back below it (if any)."""
    keep = [(score_a, score_b)]
    if best_chip(score_a):
        keep.append((score_a - best_chip(score_a), score_b))
    if best_chip(score_b):
        keep.append((score_a, score_b - best_chip(score_b)))
    return keep
