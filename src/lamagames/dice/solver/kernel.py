"""Compiled (Numba) Bellman backups of the last-player-standing problem (D-8.5).

Value ``V[s, i]``: expected further points of the round (D-10 row score at the round's end,
minus points of chips given back, D-8.1 / D-10) for a last player standing at the start of
a turn, with score ``s`` (D-4) and row ``i`` of :func:`lamagames.dice.solver.space.row_universe`,
when playing to minimise it. The llama row is fixed for the whole problem (no take, D-8.5).

Bellman equation at a turn (D-6; the only cycle is three llamas, D-8.1, after which the same
player is to act again)::

    V[s, i] = min( quit: score(row_i),                                    # D-7
                   roll: sum_k p_k * outcome_k )                           # D-8
    outcome_k = min(V[s, i], -10 + V[s-10, i] if s >= 10,
                    -1 + V[s-1, i] if s % 10 >= 1)        three llamas, D-8.1
              = min over legal discards d of V[s, i - d]  (or -chip(s) if the row empties,
                                                           D-9 / D-10)  match, D-8.2
              = score(row_i + llama row)                  bust, D-8.4 / D-8.5
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from lamagames.core.jit import compiled, install_cache_key
from lamagames.dice import primitives
from lamagames.dice.actions import GIVE_BLACK, GIVE_WHITE

try:
    from numba import njit
except ImportError as exc:  # pragma: no cover - numba is a declared dependency of the solver
    raise ImportError("the LAMA Dice solver needs numba: pip install 'lamagames[solver]'") from exc

install_cache_key()  # the disk-cache key covers every module these kernels use

#: Values closer than this (points) end the per-state fixed-point iteration.
FIXED_POINT_TOL = 1e-15
#: Safety cap on fixed-point iterations per state (the contraction factor is P(three llamas)).
MAX_FIXED_POINT_ITERATIONS = 10_000

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]
#: The matching-roll structure of :func:`build_transitions`, as one argument:
#: ``(group_ptr, group_prob, succ_ptr, succ, bust_prob)``.
Transitions = tuple[IntArray, FloatArray, IntArray, IntArray, FloatArray]


# The rule primitives (lamagames.dice.primitives), compiled.
_best_chip = compiled(primitives.best_chip)
_chip_choices = compiled(primitives.chip_choices)
_chip_points = compiled(primitives.chip_points)
_roll_result = compiled(primitives.roll_result)
_max_discard = compiled(primitives.max_discard)
_next_discard = compiled(primitives.next_discard)
_is_empty = compiled(primitives.is_empty)
_discard = compiled(primitives.discard)

#: Discard codes (2 bits per symbol, :mod:`lamagames.dice.primitives`): ``0 .. 4**7 - 1``.
DISCARD_CODES = 1 << 14


@njit(cache=True)
def _chip(s: int) -> float:
    """Points of the best chip (D-4), as a float."""
    return float(_best_chip(s))


@njit(cache=True)
def _transitions(
    rows: IntArray,
    index: IntArray,
    weights: IntArray,
    roll_counts: IntArray,
    roll_probs: FloatArray,
    fill: bool,
    structure: Transitions,
) -> tuple[int, int]:
    """Count (``fill=False``) or write (into ``structure``, :data:`Transitions`, unpacked
    once at the top) the matching-roll groups of every row.

    Rolls that allow the same discards from a row (the same largest discard,
    :func:`~lamagames.dice.primitives.max_discard`, D-8.2) form one group; a group's
    successors are the rows left by each legal discard, in the order of
    :func:`~lamagames.dice.primitives.next_discard` (-1: the row empties, D-9,
    :func:`~lamagames.dice.primitives.is_empty`). Returns ``(groups, successors)``.
    """
    group_ptr, group_prob, succ_ptr, succ, bust_prob = structure
    n = rows.shape[0]
    acc = np.zeros(DISCARD_CODES)
    seen = np.full(DISCARD_CODES, -1, dtype=np.int64)
    touched = np.zeros(roll_counts.shape[0], dtype=np.int64)
    n_groups = 0
    n_succ = 0
    for i in range(n):
        row = rows[i]
        m = 0
        bust = 0.0
        for k in range(roll_counts.shape[0]):
            roll = roll_counts[k]
            a = b = c = 0
            d = 0
            for sym in range(7):
                for _ in range(roll[sym]):
                    if d == 0:
                        a = sym
                    elif d == 1:
                        b = sym
                    else:
                        c = sym
                    d += 1
            result = _roll_result(row, row, a, b, c, True)  # D-8 for the last standing
            if result == primitives.THREE_LLAMAS:  # D-8.1: the three-llama loop
                continue
            if result == primitives.BUST:  # no match: bust for the last standing (D-8.5)
                bust += roll_probs[k]
                continue
            code = _max_discard(row, a, b, c)  # D-8.2: the group of rolls allowing it
            if seen[code] != i:
                seen[code] = i
                acc[code] = 0.0
                touched[m] = code
                m += 1
            acc[code] += roll_probs[k]
        if fill:
            bust_prob[i] = bust
            group_ptr[i] = n_groups
        for t in range(m):
            largest = touched[t]
            if fill:
                group_prob[n_groups] = acc[largest]
                succ_ptr[n_groups] = n_succ
            discard = _next_discard(0, largest)  # every legal discard (D-8.2), ascending
            while discard:
                left = _discard(row, discard)  # D-8.2
                nk = 0
                for sym in range(7):
                    nk += left[sym] * weights[sym]
                if fill:
                    succ[n_succ] = -1 if _is_empty(left) else index[nk]  # D-9
                n_succ += 1
                discard = _next_discard(discard, largest)
            n_groups += 1
    if fill:
        group_ptr[n] = n_groups
        succ_ptr[n_groups] = n_succ
    return n_groups, n_succ


def build_transitions(
    rows: IntArray,
    index: IntArray,
    weights: IntArray,
    roll_counts: IntArray,
    roll_probs: FloatArray,
) -> Transitions:
    """The matching-roll structure of every universe row (independent of the llama row and
    the score): ``group_ptr`` (int64, ``n + 1``), ``group_prob`` (float64, groups),
    ``succ_ptr`` (int64, groups + 1), ``succ`` (int64, successors; -1 = row emptied) and
    ``bust_prob`` (float64, ``n``: probability that a roll matches nothing, D-8.5)."""
    n = rows.shape[0]
    e_i = np.zeros(1, dtype=np.int64)
    e_f = np.zeros(1)
    groups, successors = _transitions(
        rows, index, weights, roll_counts, roll_probs, False, (e_i, e_f, e_i, e_i, e_f)
    )
    group_ptr = np.zeros(n + 1, dtype=np.int64)
    group_prob = np.zeros(groups)
    succ_ptr = np.zeros(groups + 1, dtype=np.int64)
    succ = np.zeros(successors, dtype=np.int64)
    bust_prob = np.zeros(n)
    structure = (group_ptr, group_prob, succ_ptr, succ, bust_prob)
    _transitions(rows, index, weights, roll_counts, roll_probs, True, structure)
    return structure


@njit(cache=True, nogil=True)
def _parts(
    values: FloatArray,
    s: int,
    i: int,
    quit_values: FloatArray,
    bust_values: FloatArray,
    structure: Transitions,
    p_llamas: float,
) -> tuple[float, float, float, float]:
    """``(quit value, expected value of the rolls other than three llamas, P(three
    llamas), best give-back value)`` of state ``(s, i)`` given the table ``values``;
    ``structure``: :data:`Transitions` (unpacked once, at the top)."""
    group_ptr, group_prob, succ_ptr, succ, bust_prob = structure
    empty_value = -_chip(s)
    rest = bust_prob[i] * bust_values[i]  # D-8.4 / D-8.5
    for g in range(group_ptr[i], group_ptr[i + 1]):  # D-8.2
        best = np.inf
        for j in range(succ_ptr[g], succ_ptr[g + 1]):
            t = succ[j]
            v = empty_value if t < 0 else values[s, t]  # D-9 / D-10 on an emptied row
            if v < best:
                best = v
        rest += group_prob[g] * best
    give = np.inf
    choices = _chip_choices(s)  # D-4, D-8.1: the chips this score may give back
    if choices & 1:
        black = _chip_points(GIVE_BLACK)
        give = -float(black) + values[s - black, i]
    if choices & 2:
        white_points = _chip_points(GIVE_WHITE)
        white = -float(white_points) + values[s - white_points, i]
        if white < give:
            give = white
    return quit_values[i], rest, p_llamas, give


@njit(cache=True, nogil=True)
def solve_levels(
    levels: int,
    quit_values: FloatArray,
    bust_values: FloatArray,
    structure: Transitions,
    p_llamas: float,
) -> tuple[FloatArray, IntArray]:
    """Solve ``V[s, i]`` for scores ``0 .. levels - 1`` and every row of the universe
    (``structure``: :data:`Transitions`).

    Levels go up in ``s`` (a give-back only lowers the score, D-8.1) and rows up in card
    count (a discard only removes cards, D-8.2), so each state's only unknown is its own
    value through the three-llama loop; it is found by value iteration of the one-state
    contraction ``v <- min(quit, p_llamas * min(v, give) + rest)`` (factor ``p_llamas``)
    until two iterates differ by less than :data:`FIXED_POINT_TOL`.

    Returns:
        ``values`` (float64, shape ``(levels, n)``) and ``iterations`` (int64, shape
        ``(levels, n)``): fixed-point iterations used per state.
    """
    n = quit_values.shape[0]
    values = np.zeros((levels, n))
    iterations = np.zeros((levels, n), dtype=np.int64)
    for s in range(levels):
        for i in range(n):
            q, rest, p3, give = _parts(values, s, i, quit_values, bust_values, structure, p_llamas)
            v = q
            it = 0
            while it < MAX_FIXED_POINT_ITERATIONS:
                it += 1
                cont = v if v < give else give
                nv = p3 * cont + rest
                if q < nv:
                    nv = q
                if abs(nv - v) < FIXED_POINT_TOL:
                    v = nv
                    break
                v = nv
            values[s, i] = v
            iterations[s, i] = it
    return values, iterations


@njit(cache=True)
def bellman_residual(
    values: FloatArray,
    quit_values: FloatArray,
    bust_values: FloatArray,
    structure: Transitions,
    p_llamas: float,
) -> float:
    """``max |T V - V|`` over every state: one full (Jacobi) Bellman backup, in points
    (``structure``: :data:`Transitions`)."""
    worst = 0.0
    for s in range(values.shape[0]):
        for i in range(quit_values.shape[0]):
            q, rest, p3, give = _parts(values, s, i, quit_values, bust_values, structure, p_llamas)
            v = values[s, i]
            cont = v if v < give else give
            tv = p3 * cont + rest
            if q < tv:
                tv = q
            d = abs(tv - v)
            if d > worst:
                worst = d
    return worst


def warm_up() -> None:
    """Compile the kernels on a tiny input (for benchmarks that time solving only)."""
    rows = np.array([[1, 0, 0, 0, 0, 0, 0]], dtype=np.int64)
    index = np.zeros(8**7, dtype=np.int64)
    weights = 8 ** np.arange(7, dtype=np.int64)
    roll_counts = np.array([[1, 0, 0, 0, 0, 0, 2], [0, 0, 0, 0, 0, 0, 3]], dtype=np.int64)
    structure = build_transitions(rows, index, weights, roll_counts, np.array([0.5, 0.5]))
    q = np.ones(1)
    values, _ = solve_levels(2, q, q, structure, 0.5)
    bellman_residual(values, q, q, structure, 0.5)
