"""Compiled (Numba) sweeps of the two-player LAMA Dice round (D-1 .. D-10).

The state space, its index and the meaning of the arrays are built and documented in
:mod:`lamagames.dice.solver.pair_table`. In short: a position with both seats in is an
index ``x`` of a mixed-radix number with one digit (*code*) per symbol; a code stands for
``(card still in the llama row, count in seat A's row, count in seat B's row)`` and codes are
sorted so that every discard (D-8.2) and every take (D-8.3) lowers the digits it changes.
Hence every move leads to a smaller index and one ascending sweep solves a level pair
(:func:`sweep_pair`), or a block of level pairs side by side (:func:`sweep_block`: the
values of a block interleaved per index, the same values bit for bit).
The kernels release the GIL (``nogil=True``), so a solve in a background thread (the
``exact`` bot's :meth:`~lamagames.bots.dice_exact.DiceExactBot.prepare`) leaves the
caller's thread free.

Arrays per level pair (one score level per seat, D-4): ``w[actor, x]`` is the *margin* of
the seat to act (expected opponent points of the round minus own points, from now on) and
``p[actor, x]`` its own expected points under the solved policies (actor 0 = seat A).

Last-standing arrays (D-8.5, one seat left after the other quit, D-7): ``v[level, i]``, the
expected further points of the seat left with last-standing index ``i`` (its row and the
llama row), minimised.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar, cast

import numpy as np
import numpy.typing as npt

from lamagames.core.jit import install_cache_key
from lamagames.dice import primitives
from lamagames.dice.solver.space import BUST_SCORES, TAKE_MASKS

try:
    from numba import njit
except ImportError as exc:  # pragma: no cover - numba is a declared dependency of the solver
    raise ImportError("the LAMA Dice solver needs numba: pip install 'lamagames[solver]'") from exc

install_cache_key()  # the disk-cache key covers every module these kernels use

#: D-9 per capped count pattern (bool, shape ``(3**7,)``): entry ``p`` is
#: :func:`~lamagames.dice.primitives.is_empty` of the row whose count of symbol ``s`` is
#: digit ``s`` of ``p`` in base 3 (a row is empty exactly when its capped row is).
EMPTY_PATTERNS = np.array(
    [primitives.is_empty([p // 3**s % 3 for s in range(7)]) for p in range(3**7)]
)
#: D-9 per presence mask (bool, shape ``(128,)``): :func:`~lamagames.dice.primitives.is_empty`
#: of the llama row holding the symbols of the mask.
EMPTY_MASKS = np.array([primitives.is_empty([m >> s & 1 for s in range(7)]) for m in range(128)])

#: Margins closer than this (points) count as equal: the first option compared is kept.
TIE: float = 1e-12
#: Two iterates of the three-llama pair (both seats without chips) closer than this end it
#: (points; the error left is below ``PAIR_TOL * p3 / (1 - p3)``).
PAIR_TOL: float = 1e-13
#: Safety cap on the pair iterations (the contraction factor is P(three llamas)).
MAX_PAIR_ITERATIONS: int = 1_000

# The kernels whose names start with ``_`` are called only by the other kernels (compiled)
# or by their interpreted forms (:func:`lamagames.core.jit.interpreted`, which runs the
# Python functions): they are compiled with ``no_cpython_wrapper``, so that Numba does not
# build and optimise a Python entry point for each. That is about a tenth of the cold
# compile of :func:`sweep_pair`, which a first ``exact`` bot move waits for (issue 19).
_F = TypeVar("_F", bound=Callable[..., Any])


def _callee(function: _F) -> _F:
    """``njit(cache=True, nogil=True)`` without the Python entry point (see above)."""
    options: dict[str, Any] = {"no_cpython_wrapper": True}  # not in Numba's stubs
    return cast(_F, njit(cache=True, nogil=True, **options)(function))

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]
#: The roll groups of :class:`~lamagames.dice.solver.pair_table.RollGroups`, as one
#: argument: ``(p3, pat_gptr, g_prob, g_dptr, d_ent, pat_mptr, m_prob, m_shown)``.
Groups = tuple[float, IntArray, FloatArray, IntArray, IntArray, IntArray, FloatArray, IntArray]
#: The index tables of a pair space (:class:`~lamagames.dice.solver.pair_table.PairSpace`)
#: and the symbols' D-10 points (:data:`~lamagames.dice.solver.space.SYMBOL_SCORES`, from
#: ``row_score``; a row scores their sum over the symbols it holds): ``(ncodes, code_a,
#: code_b, code_c, sym_values, d_a, d_b, t_a, t_b, ls_a, ls_b)``.
Space = tuple[
    IntArray, IntArray, IntArray, IntArray, IntArray, IntArray, IntArray, IntArray, IntArray,
    IntArray, IntArray,
]  # fmt: skip
#: A last-standing space of one seat: ``(ncodes, own, card, delta)``.
SeatSpace = tuple[IntArray, IntArray, IntArray, IntArray]
#: The arrays :func:`_rest` reads for one seat rolling, built once per sweep: ``(dx, t_own,
#: w_oth, p_oth)``.
RestArrays = tuple[IntArray, IntArray, FloatArray, FloatArray]
#: The work arrays of :func:`_rest_block` for one seat rolling, built once per sweep:
#: ``(ys, yt, rw, rp, best, best_p)``.
BlockArrays = tuple[IntArray, IntArray, FloatArray, FloatArray, FloatArray, FloatArray]


@njit(cache=True, nogil=True)
def solve_last_standing(
    chips: IntArray, n: int, seat: SeatSpace, sym_values: IntArray, groups: Groups
) -> FloatArray:
    """Last player standing (D-8.5): ``v[l, i]`` for every level ``l`` (``chips[l]``: the
    chip given back greedily at that level, D-8.1; ``chips[0] == 0``) and index ``i``.

    ``own[s, c]`` / ``card[s, c]``: the seat's count of symbol ``s`` and whether its
    llama-row card is still out, for code ``c``; ``delta[s, c, k]``: index drop when ``k``
    cards of ``s`` are discarded (``seat = (ncodes, own, card, delta)``). An empty row ends
    the round with the chip of D-10. ``sym_values[s]``: the D-10 points of holding symbol
    ``s`` (:data:`~lamagames.dice.solver.space.SYMBOL_SCORES`). ``groups``: :data:`Groups`.
    """
    ncodes, own, card, delta = seat
    p3, pat_gptr, g_prob, g_dptr, d_ent, pat_mptr, m_prob, _ = groups
    levels = chips.shape[0]
    v = np.zeros((levels, n))
    codes = np.zeros(7, dtype=np.int64)
    dx = np.zeros(22, dtype=np.int64)
    for lev in range(levels):
        chip = float(chips[lev])
        codes[:] = 0
        for i in range(n):
            if i > 0:
                s = 0
                codes[0] += 1
                while codes[s] == ncodes[s]:
                    codes[s] = 0
                    s += 1
                    codes[s] += 1
            quit_points = 0.0
            held = 0
            cmask = 0
            pattern = 0
            base = 1
            for s in range(7):
                dx[3 * s + 1] = delta[s, codes[s], 1]
                dx[3 * s + 2] = delta[s, codes[s], 2]
                a = own[s, codes[s]]
                if a > 0:
                    quit_points += sym_values[s]
                    held |= 1 << s
                if card[s, codes[s]] > 0:
                    cmask |= 1 << s
                pattern += min(a, 2) * base
                base *= 3
            bust = float(BUST_SCORES[held, cmask])  # D-8.4, D-10
            if EMPTY_PATTERNS[pattern]:  # D-9 / D-10: the row is empty, the best chip goes back
                v[lev, i] = -chip
                continue
            rest = 0.0
            for g in range(pat_gptr[pattern], pat_gptr[pattern + 1]):  # D-8.2
                best = np.inf
                for d in range(g_dptr[g], g_dptr[g + 1]):
                    y = i - dx[d_ent[d, 0]] - dx[d_ent[d, 1]] - dx[d_ent[d, 2]]
                    if v[lev, y] < best:
                        best = v[lev, y]
                rest += g_prob[g] * best
            for m in range(pat_mptr[pattern], pat_mptr[pattern + 1]):  # D-8.4 / D-8.5
                rest += m_prob[m] * bust
            # Three llamas: the greedy chip (D-8.1), then the same seat again; with no chip
            # the fixed point of v = min(quit, p3 * v + rest).
            roll = p3 * (v[lev - 1, i] - chip) + rest if lev > 0 else rest / (1.0 - p3)
            v[lev, i] = roll if roll < quit_points else quit_points
    return v


@_callee
def _rest(
    x: int,
    codes: IntArray,
    pattern: int,
    cmask: int,
    bust_own: float,
    score_oth: float,
    arrays: RestArrays,
    groups: Groups,
) -> tuple[float, float]:
    """``(margin, own points)`` of a roll, summed over every roll but three llamas (whose
    probability is left out): matches (D-8.2, best discard), takes (D-8.3, best card) and
    busts (D-8.4). ``arrays = (dx, t_own, w_oth, p_oth)`` (:data:`RestArrays`):
    ``dx[3 s + k]``, the index drop when the roller discards ``k`` cards of ``s`` here, and
    ``w_oth``/``p_oth``, the opponent-to-act arrays of the same level pair; ``groups``:
    :data:`Groups`. Each tuple is unpacked once, at the top."""
    dx, t_own, w_oth, p_oth = arrays
    _, pat_gptr, g_prob, g_dptr, d_ent, pat_mptr, m_prob, m_shown = groups
    wr = 0.0
    pr = 0.0
    for g in range(pat_gptr[pattern], pat_gptr[pattern + 1]):
        best = -np.inf
        best_p = 0.0
        for d in range(g_dptr[g], g_dptr[g + 1]):
            y = x - dx[d_ent[d, 0]] - dx[d_ent[d, 1]] - dx[d_ent[d, 2]]
            m = -w_oth[y]
            if m > best + TIE:
                best = m
                best_p = p_oth[y] + w_oth[y]
        wr += g_prob[g] * best
        pr += g_prob[g] * best_p
    for mi in range(pat_mptr[pattern], pat_mptr[pattern + 1]):
        takes = TAKE_MASKS[m_shown[mi], cmask]  # D-8.3: the cards that may be taken
        if takes == 0:  # D-8.4: the whole llama row joins the row, the round ends
            wr += m_prob[mi] * (score_oth - bust_own)
            pr += m_prob[mi] * bust_own
            continue
        best = -np.inf
        best_p = 0.0
        for s in range(7):
            if takes >> s & 1:
                y = x - t_own[s, codes[s]]
                m = -w_oth[y]
                if m > best + TIE:
                    best = m
                    best_p = p_oth[y] + w_oth[y]
        wr += m_prob[mi] * best
        pr += m_prob[mi] * best_p
    return wr, pr


@_callee
def _describe(
    codes: IntArray, space: Space, dx_a: IntArray, dx_b: IntArray
) -> tuple[float, float, float, float, int, int, int, int, int]:
    """Row scores (D-10) of A and B, their bust scores (row plus llama row, D-8.4, read from
    :data:`~lamagames.dice.solver.space.BUST_SCORES`), the llama-row mask, the capped count
    patterns of A and B and their last-standing indices; fills the discard index drops
    ``dx_a``/``dx_b`` (see :func:`_rest`). ``space``:
    :data:`Space` (unpacked once, at the top)."""
    _, code_a, code_b, code_c, sym_values, d_a, d_b, _, _, ls_a, ls_b = space
    sa = 0.0
    sb = 0.0
    held_a = 0
    held_b = 0
    cmask = 0
    pat_a = 0
    pat_b = 0
    ia = 0
    ib = 0
    base = 1
    for s in range(7):
        k = codes[s]
        a = code_a[s, k]
        b = code_b[s, k]
        c = code_c[s, k]
        val = sym_values[s]
        if a > 0:
            sa += val
            held_a |= 1 << s
        if b > 0:
            sb += val
            held_b |= 1 << s
        if c > 0:
            cmask |= 1 << s
        pat_a += min(a, 2) * base
        pat_b += min(b, 2) * base
        base *= 3
        ia += ls_a[s, k]
        ib += ls_b[s, k]
        dx_a[3 * s + 1] = d_a[s, k, 1]
        dx_a[3 * s + 2] = d_a[s, k, 2]
        dx_b[3 * s + 1] = d_b[s, k, 1]
        dx_b[3 * s + 2] = d_b[s, k, 2]
    bust_a = float(BUST_SCORES[held_a, cmask])  # D-8.4, D-10
    bust_b = float(BUST_SCORES[held_b, cmask])
    return sa, sb, bust_a, bust_b, cmask, pat_a, pat_b, ia, ib


@njit(cache=True, nogil=True)
def sweep_pair(
    span: tuple[int, int],
    space: Space,
    levels: tuple[FloatArray, FloatArray, float, float],
    out: tuple[FloatArray, FloatArray],
    below: tuple[FloatArray, FloatArray, FloatArray, FloatArray],
    groups: Groups,
    check: bool,
) -> tuple[int, float]:
    """Solve one level pair at the indices ``span = (start, stop)``: fill ``out = (w, p)``
    (float64, shape ``(2, n)``, ``n`` the space's size) there, in ascending order. Every
    move leads to a smaller index whose digits are each at most this index's (see the
    module docstring), so a span may be solved once every index it reads is:
    ``(0, n)`` solves the whole level pair; :func:`~lamagames.dice.solver.pair_table.
    sweep_spans` solves blocks of indices side by side in threads (the values are the same
    bit for bit: each index is computed from the same values either way).

    ``space``: :data:`Space`; ``levels = (v_a, v_b, chip_a, chip_b)``; ``below = (w_ga,
    p_ga, w_gb, p_gb)``; ``groups``: :data:`Groups` (each unpacked once, at the top).

    ``v_a``/``v_b``: last-standing values of A and B at this pair's levels (D-8.5), used when
    the other seat quits (D-7). ``chip_a > 0``: A gives that chip back on three llamas
    (greedy, D-8.1) and B then acts at the pair below, ``w_ga``/``p_ga``; likewise B with
    ``w_gb``/``p_gb``. With no chip on either side the two seats' values at an index form a
    2x2 fixed point (three llamas pass the turn with nothing changed), found by value
    iteration (factor ``p3``).

    With ``check`` nothing is written: one Jacobi Bellman backup of every state is compared
    with the stored ``w``/``p`` instead. Returns ``(most pair iterations at one index,
    max |T w - w| and |T p - p| in points)`` (the residual is 0.0 unless ``check``).
    """
    ncodes, _, _, _, _, _, _, t_a, t_b, _, _ = space
    v_a, v_b, chip_a, chip_b = levels
    w, p = out
    w_ga, p_ga, w_gb, p_gb = below
    p3 = groups[0]
    start, stop = span
    codes = np.zeros(7, dtype=np.int64)
    rem = start
    for s in range(7):  # the digits of the first index
        codes[s] = rem % ncodes[s]
        rem //= ncodes[s]
    dx_a = np.zeros(22, dtype=np.int64)  # entry 21 (and k = 0) stays 0: padding
    dx_b = np.zeros(22, dtype=np.int64)
    rest_a = (dx_a, t_a, w[1], p[1])
    rest_b = (dx_b, t_b, w[0], p[0])
    worst = 0
    residual = 0.0
    ga_w = 0.0
    ga_p = 0.0
    gb_w = 0.0
    gb_p = 0.0
    for x in range(start, stop):
        if x > start:
            _next_codes(codes, ncodes)
        sa, sb, bust_a, bust_b, cmask, pat_a, pat_b, ia, ib = _describe(codes, space, dx_a, dx_b)
        empty_a = EMPTY_PATTERNS[pat_a]
        empty_b = EMPTY_PATTERNS[pat_b]
        if empty_a or empty_b or EMPTY_MASKS[cmask]:  # D-9: the round is over, D-10 scores
            pa = -chip_a if empty_a else sa
            pb = -chip_b if empty_b else sb
            if check:
                residual = max(residual, abs(w[0, x] - (pb - pa)), abs(w[1, x] - (pa - pb)))
                continue
            w[0, x] = pb - pa
            p[0, x] = pa
            w[1, x] = pa - pb
            p[1, x] = pb
            continue
        ra_w, ra_p = _rest(x, codes, pat_a, cmask, bust_a, sb, rest_a, groups)
        rb_w, rb_p = _rest(x, codes, pat_b, cmask, bust_b, sa, rest_b, groups)
        qa_w = v_b[ib] - sa  # D-7: A quits, B is the last player standing (D-8.5)
        qb_w = v_a[ia] - sb
        if chip_a > 0.0:
            ga_w = -w_ga[1, x] + chip_a
            ga_p = p_ga[1, x] + w_ga[1, x] - chip_a
        if chip_b > 0.0:
            gb_w = -w_gb[0, x] + chip_b
            gb_p = p_gb[0, x] + w_gb[0, x] - chip_b
        if check:  # one Jacobi backup of the pair from the stored values
            if chip_a <= 0.0:  # A's three llamas hand the turn to B (D-8.1)
                ga_w, ga_p = -w[1, x], p[1, x] + w[1, x]
            if chip_b <= 0.0:
                gb_w, gb_p = -w[0, x], p[0, x] + w[0, x]
            xa_w, xa_p = _turn(qa_w, sa, p3, ga_w, ga_p, ra_w, ra_p)
            xb_w, xb_p = _turn(qb_w, sb, p3, gb_w, gb_p, rb_w, rb_p)
        else:
            xa_w, xa_p, xb_w, xb_p, it = _pair_values(
                (qa_w, sa, ga_w, ga_p, ra_w, ra_p, chip_a),
                (qb_w, sb, gb_w, gb_p, rb_w, rb_p, chip_b),
                p3,
            )
            worst = max(worst, it)
        if check:
            residual = max(
                residual,
                abs(w[0, x] - xa_w),
                abs(w[1, x] - xb_w),
                abs(p[0, x] - xa_p),
                abs(p[1, x] - xb_p),
            )
            continue
        w[0, x] = xa_w
        p[0, x] = xa_p
        w[1, x] = xb_w
        p[1, x] = xb_p
    return worst, residual


@_callee
def _turn(
    q_w: float, q_p: float, p3: float, c_w: float, c_p: float, r_w: float, r_p: float
) -> tuple[float, float]:
    """The better of quitting (``q``) and rolling (three llamas then ``c``, else ``r``);
    quitting is kept on a tie (D-6)."""
    roll_w = p3 * c_w + r_w
    if roll_w > q_w + TIE:
        return roll_w, p3 * c_p + r_p
    return q_w, q_p


@_callee
def _next_codes(codes: IntArray, ncodes: IntArray) -> None:
    """Step the mixed-radix digits ``codes`` (digit ``s`` counts to ``ncodes[s]``) to the
    next index, in place: the order in which the sweeps visit the indices."""
    s = 0
    codes[0] += 1
    while codes[s] == ncodes[s]:
        codes[s] = 0
        s += 1
        codes[s] += 1


@_callee
def _pair_values(
    seat_a: tuple[float, float, float, float, float, float, float],
    seat_b: tuple[float, float, float, float, float, float, float],
    p3: float,
) -> tuple[float, float, float, float, int]:
    """Both seats' turn values at one index of one level pair (D-6, D-8.1): ``seat_a =
    (q_w, q_p, g_w, g_p, r_w, r_p, chip)``, A's quit value (margin, own points), its value
    after giving ``chip`` back on three llamas (B then acts at the level below) and the
    rest of its roll; likewise ``seat_b``. A seat without a chip hands the turn to the
    other on three llamas, so its value needs the other's; with no chip on either side
    the two form a 2x2 fixed point (nothing changes but the turn), found by value
    iteration (factor ``p3``). Returns ``(a_w, a_p, b_w, b_p, iterations)`` (0 without
    the fixed point). The one statement of this backup for :func:`sweep_pair` and
    :func:`sweep_block`."""
    qa_w, sa, ga_w, ga_p, ra_w, ra_p, chip_a = seat_a
    qb_w, sb, gb_w, gb_p, rb_w, rb_p, chip_b = seat_b
    if chip_a > 0.0 and chip_b > 0.0:
        xa_w, xa_p = _turn(qa_w, sa, p3, ga_w, ga_p, ra_w, ra_p)
        xb_w, xb_p = _turn(qb_w, sb, p3, gb_w, gb_p, rb_w, rb_p)
        return xa_w, xa_p, xb_w, xb_p, 0
    if chip_b > 0.0:  # A has no chip: its three llamas hand the turn to B
        xb_w, xb_p = _turn(qb_w, sb, p3, gb_w, gb_p, rb_w, rb_p)
        xa_w, xa_p = _turn(qa_w, sa, p3, -xb_w, xb_p + xb_w, ra_w, ra_p)
        return xa_w, xa_p, xb_w, xb_p, 0
    if chip_a > 0.0:
        xa_w, xa_p = _turn(qa_w, sa, p3, ga_w, ga_p, ra_w, ra_p)
        xb_w, xb_p = _turn(qb_w, sb, p3, -xa_w, xa_p + xa_w, rb_w, rb_p)
        return xa_w, xa_p, xb_w, xb_p, 0
    xa_w, xa_p, xb_w, xb_p = qa_w, sa, qb_w, sb  # neither has a chip: the fixed point
    it = 0
    while it < MAX_PAIR_ITERATIONS:
        it += 1
        na_w, na_p = _turn(qa_w, sa, p3, -xb_w, xb_p + xb_w, ra_w, ra_p)
        nb_w, nb_p = _turn(qb_w, sb, p3, -xa_w, xa_p + xa_w, rb_w, rb_p)
        done = (
            abs(na_w - xa_w) < PAIR_TOL
            and abs(nb_w - xb_w) < PAIR_TOL
            and abs(na_p - xa_p) < PAIR_TOL
            and abs(nb_p - xb_p) < PAIR_TOL
        )
        xa_w, xa_p, xb_w, xb_p = na_w, na_p, nb_w, nb_p
        if done:
            break
    return xa_w, xa_p, xb_w, xb_p, it


@njit(cache=True, nogil=True)
def roll_value(
    x: int,
    actor: int,
    codes: IntArray,
    space: Space,
    values: tuple[FloatArray, FloatArray],
    after_llamas: tuple[float, float],
    groups: Groups,
) -> tuple[float, float]:
    """``(margin, own points)`` of rolling now (D-8) at index ``x`` (digits ``codes``) for
    ``actor`` (0 = A), with ``values = (w, p)`` the level pair's arrays and
    ``after_llamas = (c_w, c_p)`` the actor's value after three llamas; ``space`` and
    ``groups`` as in :func:`sweep_pair`."""
    t_a, t_b = space[7], space[8]
    w, p = values
    c_w, c_p = after_llamas
    p3 = groups[0]
    dx_a = np.zeros(22, dtype=np.int64)
    dx_b = np.zeros(22, dtype=np.int64)
    sa, sb, bust_a, bust_b, cmask, pat_a, pat_b, _, _ = _describe(codes, space, dx_a, dx_b)
    if actor == 0:
        r_w, r_p = _rest(x, codes, pat_a, cmask, bust_a, sb, (dx_a, t_a, w[1], p[1]), groups)
    else:
        r_w, r_p = _rest(x, codes, pat_b, cmask, bust_b, sa, (dx_b, t_b, w[0], p[0]), groups)
    return p3 * c_w + r_w, p3 * c_p + r_p


@_callee
def _targets(
    x: int,
    codes: IntArray,
    pattern: int,
    dx: IntArray,
    t_own: IntArray,
    groups: Groups,
    ys: IntArray,
    yt: IntArray,
) -> None:
    """The indices a roll leads to from index ``x`` (digits ``codes``) for the roller with
    capped pattern ``pattern``: ``ys[d - first]`` after discard ``d`` of the pattern's
    groups (D-8.2, ``first`` its first discard), ``yt[s]`` after taking symbol ``s``
    (D-8.3; meaningful where the llama-row card is out and the roller has none).
    ``groups``: :data:`Groups` (unpacked once, at the top)."""
    _, pat_gptr, _, g_dptr, d_ent, _, _, _ = groups
    first = g_dptr[pat_gptr[pattern]]
    for d in range(first, g_dptr[pat_gptr[pattern + 1]]):
        ys[d - first] = x - dx[d_ent[d, 0]] - dx[d_ent[d, 1]] - dx[d_ent[d, 2]]
    for s in range(7):
        yt[s] = x - t_own[s, codes[s]]


@_callee
def _rest_block(
    pattern: int,
    cmask: int,
    bust_own: float,
    score_oth: float,
    vals: FloatArray,
    wq: int,
    arrays: BlockArrays,
    groups: Groups,
) -> None:
    """:func:`_rest` for every level pair ``k`` of a block at once, with the target indices
    ``ys``/``yt`` of :func:`_targets`, ``arrays = (ys, yt, rw, rp, best, best_p)``
    (:data:`BlockArrays`): fills ``rw[k]``/``rp[k]`` (``best`` and ``best_p``: scratch).
    ``vals[y, wq, k]``/``vals[y, wq + 2, k]``: the opponent-to-act margin and points at
    index ``y``. Each tuple is unpacked once, at the top. Each level pair sees the same
    operations in the same order as in :func:`_rest` (the same options, compared and summed
    alike), so the results are the same to the last bit; the loops over the level pairs are
    innermost, over values side by side in memory."""
    ys, yt, rw, rp, best, best_p = arrays
    pq = wq + 2
    _, pat_gptr, g_prob, g_dptr, _, pat_mptr, m_prob, m_shown = groups
    nk = rw.shape[0]
    for k in range(nk):
        rw[k] = 0.0
        rp[k] = 0.0
    first = g_dptr[pat_gptr[pattern]]
    for g in range(pat_gptr[pattern], pat_gptr[pattern + 1]):  # D-8.2: the best discard
        for k in range(nk):
            best[k] = -np.inf
            best_p[k] = 0.0
        for d in range(g_dptr[g], g_dptr[g + 1]):
            y = ys[d - first]
            for k in range(nk):
                wv = vals[y, wq, k]
                if -wv > best[k] + TIE:
                    best[k] = -wv
                    best_p[k] = vals[y, pq, k] + wv
        prob = g_prob[g]
        for k in range(nk):
            rw[k] += prob * best[k]
            rp[k] += prob * best_p[k]
    for mi in range(pat_mptr[pattern], pat_mptr[pattern + 1]):
        prob = m_prob[mi]
        takes = TAKE_MASKS[m_shown[mi], cmask]  # D-8.3: the cards that may be taken
        if takes == 0:  # D-8.4: the whole llama row joins the row, the round ends
            for k in range(nk):
                rw[k] += prob * (score_oth - bust_own)
                rp[k] += prob * bust_own
            continue
        for k in range(nk):
            best[k] = -np.inf
            best_p[k] = 0.0
        for s in range(7):  # D-8.3: the best card to take
            if takes >> s & 1:
                y = yt[s]
                for k in range(nk):
                    wv = vals[y, wq, k]
                    if -wv > best[k] + TIE:
                        best[k] = -wv
                        best_p[k] = vals[y, pq, k] + wv
        for k in range(nk):
            rw[k] += prob * best[k]
            rp[k] += prob * best_p[k]


@njit(cache=True, nogil=True)
def sweep_block(
    n: int,
    space: Space,
    levels: tuple[FloatArray, FloatArray, IntArray, IntArray],
    first: int,
    out: FloatArray,
    prev: FloatArray,
    groups: Groups,
) -> int:
    """Solve a block of level pairs in one ascending sweep: A's levels ``first ..
    first + rows - 1`` times all of B's ``lb`` levels, where ``out`` is float64
    ``(n, 4, rows * lb)``, level pair ``k = i * lb + j`` (A's level ``first + i``, B's level
    ``j``), and ``out[x, :, k]`` is ``(w[0, x], w[1, x], p[0, x], p[1, x])`` of
    :func:`sweep_pair`. Same values as :func:`sweep_pair` run level pair by level pair.

    ``v_a``/``v_b``: last-standing values of A and B at every level of their greedy chains
    (D-8.5); ``chips_a[l]``/``chips_b[l]``: the chip given back greedily at level ``l``
    (D-8.1; 0 at level 0 only). ``prev`` ``(n, 4, lb)``: A's level ``first - 1`` (all of B's
    levels), read when A gives a chip back on three llamas at level ``first`` (unused when
    ``first == 0``). Keeping a block's level pairs side by side per index lets one pass of
    index arithmetic serve them all and their values share cache lines.
    ``space``: :data:`Space`; ``levels = (v_a, v_b, chips_a, chips_b)``; ``groups``:
    :data:`Groups` (each unpacked once, at the top, as in :func:`sweep_pair`).
    Returns the most pair iterations at one index (both seats at level 0).
    """
    ncodes, _, _, _, _, _, _, t_a, t_b, _, _ = space
    v_a, v_b, chips_a, chips_b = levels
    p3, pat_gptr, _, g_dptr, _, _, _, _ = groups
    lb = chips_b.shape[0]
    nk = out.shape[2]
    rows = nk // lb
    codes = np.zeros(7, dtype=np.int64)
    dx_a = np.zeros(22, dtype=np.int64)  # entry 21 (and k = 0) stays 0: padding
    dx_b = np.zeros(22, dtype=np.int64)
    most = 0  # the most discards of one pattern
    for pattern in range(pat_gptr.shape[0] - 1):
        most = max(most, g_dptr[pat_gptr[pattern + 1]] - g_dptr[pat_gptr[pattern]])
    ys_a = np.zeros(most, dtype=np.int64)
    ys_b = np.zeros(most, dtype=np.int64)
    yt_a = np.zeros(7, dtype=np.int64)
    yt_b = np.zeros(7, dtype=np.int64)
    ra_w = np.zeros(nk)
    ra_p = np.zeros(nk)
    rb_w = np.zeros(nk)
    rb_p = np.zeros(nk)
    best = np.zeros(nk)
    best_p = np.zeros(nk)
    block_a = (ys_a, yt_a, ra_w, ra_p, best, best_p)
    block_b = (ys_b, yt_b, rb_w, rb_p, best, best_p)
    worst = 0
    ga_w = 0.0
    ga_p = 0.0
    gb_w = 0.0
    gb_p = 0.0
    for x in range(n):
        if x > 0:
            _next_codes(codes, ncodes)
        sa, sb, bust_a, bust_b, cmask, pat_a, pat_b, ia, ib = _describe(codes, space, dx_a, dx_b)
        empty_a = EMPTY_PATTERNS[pat_a]
        empty_b = EMPTY_PATTERNS[pat_b]
        if empty_a or empty_b or EMPTY_MASKS[cmask]:  # D-9: the round is over, D-10 scores
            for i in range(rows):
                for j in range(lb):
                    k = i * lb + j
                    pa = -float(chips_a[first + i]) if empty_a else sa
                    pb = -float(chips_b[j]) if empty_b else sb
                    out[x, 0, k] = pb - pa
                    out[x, 1, k] = pa - pb
                    out[x, 2, k] = pa
                    out[x, 3, k] = pb
            continue
        _targets(x, codes, pat_a, dx_a, t_a, groups, ys_a, yt_a)
        _targets(x, codes, pat_b, dx_b, t_b, groups, ys_b, yt_b)
        _rest_block(pat_a, cmask, bust_a, sb, out, 1, block_a, groups)
        _rest_block(pat_b, cmask, bust_b, sa, out, 0, block_b, groups)
        for i in range(rows):
            la = first + i
            chip_a = float(chips_a[la])
            qb_w = v_a[la, ia] - sb  # D-7: B quits, A is the last player standing (D-8.5)
            for j in range(lb):
                k = i * lb + j
                chip_b = float(chips_b[j])
                qa_w = v_b[j, ib] - sa  # D-7: A quits, B is the last player standing
                if chip_a > 0.0:  # A's give-back: B acts at A's level below (D-8.1)
                    if i > 0:
                        bw = out[x, 1, k - lb]
                        bp = out[x, 3, k - lb]
                    else:
                        bw = prev[x, 1, j]
                        bp = prev[x, 3, j]
                    ga_w = -bw + chip_a
                    ga_p = bp + bw - chip_a
                if chip_b > 0.0:
                    aw = out[x, 0, k - 1]
                    gb_w = -aw + chip_b
                    gb_p = out[x, 2, k - 1] + aw - chip_b
                ra_wk = ra_w[k]
                ra_pk = ra_p[k]
                rb_wk = rb_w[k]
                rb_pk = rb_p[k]
                xa_w, xa_p, xb_w, xb_p, it = _pair_values(
                    (qa_w, sa, ga_w, ga_p, ra_wk, ra_pk, chip_a),
                    (qb_w, sb, gb_w, gb_p, rb_wk, rb_pk, chip_b),
                    p3,
                )
                worst = max(worst, it)
                out[x, 0, k] = xa_w
                out[x, 1, k] = xb_w
                out[x, 2, k] = xa_p
                out[x, 3, k] = xb_p
    return worst
