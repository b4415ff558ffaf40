"""The ``heuristic`` policy and rollouts from a position, compiled with Numba (internal).

:func:`heuristic_turn`, :func:`heuristic_discard` and :func:`heuristic_take` make exactly
the decisions of :class:`lamagames.bots.dice.DiceHeuristicBot` (one-roll lookahead on the
own row value, D-8, D-10): the same roll table (:func:`roll_table`, built by the same float
additions in the same order), the same sums in the same order, the same tie-breaking
(``1e-9``) and the same ``ROLL_MARGIN``, so both sides compute bit-identical values. The
decisions depend only on the own row, the llama row, the last-standing flag (D-8.5) and the
chip value (D-4: 10 with a black chip, 1 with only whites, 0 without chips).

:func:`rollouts` plays copies of one game from a position with every seat on the heuristic
(the Monte-Carlo simulations of :mod:`lamagames.bots.dice_search`); the Python API is
:mod:`lamagames.dice.batch_rollout`. Per-game views as in :mod:`lamagames.dice.batch_kernel`.

Roll tables: ``rvec`` int8 ``(R, 7)`` symbol counts of a roll, ``rsym`` int8 ``(R, 3)`` the
symbols shown, ``rp`` float64 ``(R,)`` the probability of that count vector (D-1).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

import numpy as np
import numpy.typing as npt

from lamagames.dice import primitives
from lamagames.dice.batch_kernel import (
    A_QUIT,
    A_ROLL,
    A_TAKE,
    I8,
    I16,
    I32,
    PHASE,
    PLAYER,
    ROUND,
    U64,
    Bools,
    _inline,
    _jit,
    apply_chance,
    apply_player,
    best_chip,
    can_take,
    discard,
    give_greedy,
    is_empty,
    is_last_standing,
    max_discard,
    next_discard,
    roll_result,
    row_score,
    sample_chance,
    seed_streams,
    take,
)
from lamagames.dice.rules import BUST_MASKS, Phase

F64 = npt.NDArray[np.float64]

#: ``DiceHeuristicBot.ROLL_MARGIN``: roll only if one more roll is expected to save this many
#: points (the bot's test checks both stay equal).
ROLL_MARGIN: Final = 0.25
#: Tie tolerance of the heuristic's discard and take choices.
TIE: Final = 1e-9
#: Slots of the roll-value memo of whole-game loops (:func:`new_memo`).
MEMO_SIZE: Final = 1 << 16
#: Length of the int8 work buffer the decision kernels take (``scratch``): the caller owns
#: it, so they allocate nothing and kernels compiled without Numba's reference counting
#: (:mod:`lamagames.dice.vector`) can call them.
SCRATCH_SIZE: Final = 16


def roll_table(
    roll_outcomes: Sequence[tuple[int, float]],
) -> tuple[npt.NDArray[np.int8], npt.NDArray[np.int8], F64]:
    """The roll distribution aggregated by symbol counts, as the heuristic bot builds it.

    Args:
        roll_outcomes: ``DiceGame.roll_outcomes``, ``(roll id, probability)`` pairs (D-1).

    Returns:
        ``rvec`` int8 ``(R, 7)``, ``rsym`` int8 ``(R, 3)``, ``rp`` float64 ``(R,)``: count
        vectors in order of first appearance, the symbols of the last roll with that vector,
        probabilities summed in outcome order (so the floats equal the bot's).
    """
    counts: dict[tuple[int, ...], float] = {}
    shown: dict[tuple[int, ...], tuple[int, int, int]] = {}
    for outcome, probability in roll_outcomes:
        symbols = (outcome // 49, (outcome // 7) % 7, outcome % 7)
        vector = [0] * 7
        for s in symbols:
            vector[s] += 1
        key = tuple(vector)
        counts[key] = counts.get(key, 0.0) + probability
        shown[key] = symbols
    rvec = np.array(list(counts), dtype=np.int8)
    rsym = np.array([shown[k] for k in counts], dtype=np.int8)
    rp = np.array(list(counts.values()), dtype=np.float64)
    return rvec, rsym, rp


# ---------------------------------------------------------------- evaluation
@_jit
def static_value(row: I8, chip: int) -> float:
    """Row value if the seat stopped now: its score (D-10), or minus a chip if empty (D-9)."""
    if is_empty(row):
        return float(-chip)
    return float(row_score(row))


@_jit
def _best_discard(row: I8, largest: int, chip: int) -> float:
    """Lowest static value (:func:`static_value`) reachable by a legal discard (D-8.2) after
    a roll whose largest legal discard is the code ``largest``
    (:func:`~lamagames.dice.primitives.max_discard` of the roll): that of the largest one,
    so no discard is enumerated (and it depends on the roll only through that code).

    Why the largest: every card is worth points (D-2: a number its pips, a llama 10; D-10
    counts each symbol left in the row once), so discarding more cards of a symbol never
    raises the row's score, and the discard that empties the row, if any, is the largest
    one and scores minus a chip (``-chip <= 0``), below any row left with a card (at least
    1 point). ``tests/sim/test_dice_batch_heuristic.py`` checks this against every legal
    discard of the scalar rules."""
    left = discard(row, largest)  # D-8.2
    points = row_score(left)  # D-10
    if is_empty(left):  # the row emptied (D-9)
        return float(-chip)
    return float(points)


@_inline
def _after_bust(row: I8, llama: I8) -> tuple[int, int, int, int, int, int, int]:
    """The symbols the roller's row holds after a bust (D-8.4), one 0/1 count each, read
    from :data:`~lamagames.dice.rules.BUST_MASKS` by the presence masks of ``row`` and
    ``llama``, for :func:`~lamagames.dice.primitives.row_score` (D-10 counts a symbol once;
    a tuple: nothing allocated)."""
    held = 0
    cards = 0
    for s in range(7):
        if row[s] > 0:
            held |= 1 << s
        if llama[s] > 0:
            cards |= 1 << s
    m = BUST_MASKS[held, cards]
    return (
        m & 1, (m >> 1) & 1, (m >> 2) & 1, (m >> 3) & 1, (m >> 4) & 1, (m >> 5) & 1,
        (m >> 6) & 1,
    )  # fmt: skip


@_jit
def _take_value(row: I8, llama: I8, s: int) -> float:
    """D-10 points of ``row`` after taking llama-row card ``s`` (D-8.3); ``inf`` when the
    llama row does not hold ``s``."""
    if llama[s] == 0:
        return np.inf
    return float(row_score(take(row, llama, s)[0]))


@_jit
def _take_values(row: I8, llama: I8) -> tuple[float, float, float, float, float, float, float]:
    """:func:`_take_value` of each symbol, one 7-tuple (nothing allocated)."""
    return (
        _take_value(row, llama, 0), _take_value(row, llama, 1), _take_value(row, llama, 2),
        _take_value(row, llama, 3), _take_value(row, llama, 4), _take_value(row, llama, 5),
        _take_value(row, llama, 6),
    )  # fmt: skip


@_jit
def roll_value(row: I8, llama: I8, last: bool, chip: int, rvec: I8, rsym: I8, rp: F64) -> float:
    """Expected row value after one more roll answered greedily, then stopping (the bot's
    ``_roll_value``): three llamas a chip back (D-8.1), the best discard (D-8.2), the best
    llama-row card (D-8.3), the whole llama row on a bust (D-8.4, D-8.5)."""
    total = 0.0
    static = static_value(row, chip)
    busted = float(row_score(_after_bust(row, llama)))  # D-8.4, D-10: once per call
    # The best discard depends on the roll only through the code of its largest discard
    # (:func:`_best_discard`): some 10 distinct codes among some 50 matching rolls. The
    # values of the last four new codes are kept in scalars (nothing allocated: kernels
    # without reference counting call this), which spares about two thirds of the
    # discards; the values are the same floats.
    k0 = k1 = k2 = k3 = -1
    v0 = v1 = v2 = v3 = 0.0
    # A take's value depends on the roll only through the card taken: seven values at
    # most, worked out at the first roll that takes (there are none for the last player
    # standing, D-8.5).
    taken = False
    takes = (np.inf, np.inf, np.inf, np.inf, np.inf, np.inf, np.inf)
    for r in range(rp.shape[0]):
        a = rsym[r, 0]
        b = rsym[r, 1]
        c = rsym[r, 2]
        result = roll_result(row, llama, a, b, c, last)  # D-8
        if result == primitives.THREE_LLAMAS:
            value = static - chip
        elif result == primitives.MATCH:
            code = max_discard(row, a, b, c)
            if code == k0:
                value = v0
            elif code == k1:
                value = v1
            elif code == k2:
                value = v2
            elif code == k3:
                value = v3
            else:
                value = _best_discard(row, code, chip)
                k3, v3, k2, v2, k1, v1, k0, v0 = k2, v2, k1, v1, k0, v0, code, value
        elif result == primitives.TAKE:
            if not taken:  # once per call: the points after taking each card
                takes = _take_values(row, llama)
                taken = True
            value = np.inf
            for s in (a, b, c):  # only a symbol shown may be taken (D-8.3)
                if can_take(llama, a, b, c, s):
                    value = min(value, takes[s])
        else:
            value = busted
        total += rp[r] * value
    return total


def new_memo(size: int = 1 << 16) -> tuple[npt.NDArray[np.uint64], F64]:
    """An empty memo for :func:`memo_roll_value`: uint64 ``(size + 1,)`` keys (the last
    entry counts the stored values) and float64 ``(size,)`` values; ``size`` a power of
    two (0: no memo)."""
    if size & (size - 1):
        raise ValueError(f"memo size must be a power of two, got {size}")
    return np.zeros(size + 1, dtype=np.uint64), np.zeros(max(size, 1), dtype=np.float64)


@_jit
def memo_roll_value(
    row: I8, llama: I8, last: bool, chip: int, rvec: I8, rsym: I8, rp: F64, memo: U64, vals: F64
) -> float:
    """:func:`roll_value`, memoised in an open-addressing table (:func:`new_memo`). The key
    packs the row (4 bits per symbol), the llama row, the last-standing flag and the chip
    value; a table half full takes no new entries (the values are exact either way)."""
    size = memo.shape[0] - 1
    if size == 0:
        return roll_value(row, llama, last, chip, rvec, rsym, rp)
    packed = 1  # 39 bits: plain integers (a NumPy scalar per operation is slow interpreted)
    for s in range(7):
        packed += min(row[s], 15) << (4 * s)
        packed += llama[s] << (28 + s)
    packed += (1 if last else 0) << 35
    packed += (2 if chip == primitives.BLACK_POINTS else 1 if chip > 0 else 0) << 36  # D-4
    key = np.uint64(packed)
    # A multiplicative hash that stays below 2**63 (35 bits of the folded key times 28),
    # so it computes the same in plain integers interpreted (NumPy scalars there cost
    # about 1.5 microseconds a call) and in 64-bit integers compiled.
    i = ((((packed ^ (packed >> 19)) & 0x7FFFFFFFF) * 0x9E3779B) >> 30) & (size - 1)
    while memo[i] != 0:
        if memo[i] == key:
            return float(vals[i])
        i = (i + 1) & (size - 1)
    value = roll_value(row, llama, last, chip, rvec, rsym, rp)
    if memo[size] < size // 2:
        memo[i] = key
        vals[i] = value
        memo[size] += np.uint64(1)
    return value


@_jit
def position_value(
    row: I8,
    llama: I8,
    last: bool,
    chip: int,
    rvec: I8,
    rsym: I8,
    rp: F64,
    memo: U64,
    vals: F64,
) -> float:
    """Value of a position where the seat may still roll or stop (the bot's
    ``_position_value``): minus a chip for an empty row, the row score once the llama row
    is empty (D-9), else the better of stopping and one more roll."""
    if is_empty(row):  # D-9
        return float(-chip)
    if is_empty(llama):  # D-9: the round is over
        return float(row_score(row))
    rolled = memo_roll_value(row, llama, last, chip, rvec, rsym, rp, memo, vals)
    return min(static_value(row, chip), rolled)


# ---------------------------------------------------------------- decisions
@_jit
def heuristic_turn(
    row: I8,
    llama: I8,
    last: bool,
    chip: int,
    rvec: I8,
    rsym: I8,
    rp: F64,
    memo: U64,
    vals: F64,
) -> int:
    """Roll (0) or quit (1): roll iff one more roll is expected to save more than
    :data:`ROLL_MARGIN` points."""
    rolled = memo_roll_value(row, llama, last, chip, rvec, rsym, rp, memo, vals)
    return A_ROLL if rolled < static_value(row, chip) - ROLL_MARGIN else A_QUIT


@_jit
def heuristic_discard(
    row: I8,
    a: int,
    b: int,
    c: int,
    llama: I8,
    last: bool,
    chip: int,
    discard_ids: I16,
    rvec: I8,
    rsym: I8,
    rp: F64,
    memo: U64,
    vals: F64,
    scratch: I8,
) -> int:
    """The heuristic's discard (D-8.2) as a count code (``sum k_s * 4**s``): among the
    legal discards in descending action-id order (more cards first), the first whose
    resulting position value is lower than every earlier one by more than :data:`TIE`.

    ``scratch``: int8, at least :data:`SCRATCH_SIZE` long, the caller's work buffer (this
    function allocates nothing, so kernels compiled without Numba's reference counting can
    call it).
    """
    allowed = max_discard(row, a, b, c)
    new = scratch[:7]
    best_code = -1
    best_value = np.inf
    previous = 1 << 30
    while True:  # the legal discards by descending action id (at most 7 of them)
        code = -1
        identifier = -1
        candidate = next_discard(0, allowed)  # D-8.2
        while candidate != 0:
            i = discard_ids[candidate]
            if identifier < i < previous:
                identifier = i
                code = candidate
            candidate = next_discard(candidate, allowed)
        if code < 0:
            break
        previous = identifier
        left = discard(row, code)  # D-8.2
        for s in range(7):
            new[s] = left[s]
        value = position_value(new, llama, last, chip, rvec, rsym, rp, memo, vals)
        if best_code < 0 or value < best_value - TIE:
            best_code = code
            best_value = value
    return int(best_code) if best_code >= 0 else 0


@_jit
def heuristic_take(
    row: I8,
    a: int,
    b: int,
    c: int,
    llama: I8,
    last: bool,
    chip: int,
    rvec: I8,
    rsym: I8,
    rp: F64,
    memo: U64,
    vals: F64,
    scratch: I8,
) -> int:
    """The heuristic's llama-row card (D-8.3) as a symbol: the rolled symbols in the llama
    row in ascending order, the first whose position value is lower than every earlier one
    by more than :data:`TIE`. ``scratch`` as in :func:`heuristic_discard`."""
    new_row = scratch[:7]
    new_llama = scratch[7:14]
    best = -1
    best_value = np.inf
    for s in range(7):
        if can_take(llama, a, b, c, s):
            taken, left = take(row, llama, s)  # D-8.3
            for t in range(7):
                new_row[t] = taken[t]
                new_llama[t] = left[t]
            value = position_value(new_row, new_llama, last, chip, rvec, rsym, rp, memo, vals)
            if best < 0 or value < best_value - TIE:
                best = s
                best_value = value
    return best


@_jit
def heuristic_give(score: int) -> int:
    """Chip give-back (D-8.1, D-10): black before white before none."""
    return give_greedy(score)


@_inline
def heuristic_action(
    ctrl: I32,
    dice: I8,
    scores: I32,
    rows: I8,
    quit: Bools,
    llama: I8,
    discard_ids: I16,
    rvec: I8,
    rsym: I8,
    rp: F64,
    memo: U64,
    vals: F64,
    scratch: I8,
) -> int:
    """The heuristic's action for the seat to act of one game (a player decision);
    ``scratch`` int8 ``(SCRATCH_SIZE,)`` the caller's work buffer (nothing is allocated)."""
    phase = ctrl[PHASE]
    seat = ctrl[PLAYER]
    if phase != Phase.TURN and phase != Phase.DISCARD and phase != Phase.TAKE:
        return heuristic_give(scores[seat])
    last = is_last_standing(quit, seat)  # D-8.5
    chip = best_chip(scores[seat])
    row = rows[seat]
    if phase == Phase.TURN:
        return heuristic_turn(row, llama, last, chip, rvec, rsym, rp, memo, vals)
    a, b, c = dice[0], dice[1], dice[2]
    if phase == Phase.DISCARD:
        code = heuristic_discard(
            row, a, b, c, llama, last, chip, discard_ids, rvec, rsym, rp, memo, vals, scratch
        )
        return int(discard_ids[code])
    take = heuristic_take(row, a, b, c, llama, last, chip, rvec, rsym, rp, memo, vals, scratch)
    return A_TAKE + take


# ---------------------------------------------------------------- rollouts
#: One game's state views in :mod:`lamagames.dice.batch_kernel` order, passed as one
#: argument: ``(ctrl, dice, scores, rows, quit, llama, setaside, discards, give)``.
Position = tuple[I32, I8, I32, I8, Bools, I8, I8, I8, Bools]
#: The read-only tables of the step kernels: ``(faces, hand_ids, hand_counts, discard_ids,
#: discard_counts)`` (:mod:`lamagames.dice.batch`).
StepTables = tuple[I8, I16, I8, I16, I8]
#: The heuristic's tables and memo: the roll table ``(rvec, rsym, rp)``
#: (:func:`roll_table`) and the roll-value memo ``(memo, vals)`` (:func:`new_memo`).
Heuristic = tuple[I8, I8, F64, U64, F64]
#: What :func:`rollouts` writes: ``(scores_out, over_out, trace_player, trace_action,
#: trace_len)``.
RolloutOut = tuple[I32, Bools, I8, I16, I32]


@_jit
def rollouts(
    position: Position,
    actions: I32,
    seeds: U64,
    limits: tuple[int, int, int],
    tables: StepTables,
    heuristic: Heuristic,
    out: RolloutOut,
) -> None:
    """Play ``len(seeds)`` copies of one position after each candidate action.

    Copy ``k`` of candidate ``i``: the position (one game's views, :data:`Position`), then
    the player action ``actions[i]`` of the seat to act, then every seat on the heuristic
    (:data:`Heuristic`) and chance from stream 0 seeded with ``seeds[k]`` (the same dice
    stream for every candidate), until ``limits = (rounds, max_actions, end_score)`` says
    stop: ``rounds`` rounds have ended (D-9, after the give-backs of D-10), the game is
    over (D-11, at ``end_score``) or ``max_actions`` actions (chance included) were taken.

    Writes (``out``) ``scores_out[i, k]`` (int32 ``(m, K, n)``, scores at the stop),
    ``over_out[i, k]`` (the game ended) and, while there is room, the ``(player, action)``
    steps including the candidate action to ``trace_player[i, k]`` /
    ``trace_action[i, k]`` (capacity ``trace_player.shape[2]``; ``trace_len[i, k]`` counts
    all steps).

    The groups are unpacked here, once per call: the per-decision kernels below keep
    their arrays as separate arguments (passing the heuristic's arrays as one tuple down
    to them cost rollouts about 7%, measured).
    """
    ctrl0, dice0, scores0, rows0, quit0, llama0, setaside0, discards0, give0 = position
    rounds, max_actions, end_score = limits
    faces, hand_ids, hand_counts, discard_ids, discard_counts = tables
    rvec, rsym, rp, memo, vals = heuristic
    scores_out, over_out, trace_player, trace_action, trace_len = out
    ctrl = ctrl0.copy()
    dice = dice0.copy()
    scores = scores0.copy()
    rows = rows0.copy()
    quit = quit0.copy()
    llama = llama0.copy()
    setaside = setaside0.copy()
    discards = discards0.copy()
    give = give0.copy()
    rpts = np.zeros(scores0.shape[0], dtype=np.int32)
    rng = np.zeros(2, dtype=np.uint64)
    scratch = np.zeros(SCRATCH_SIZE, dtype=np.int8)
    capacity = trace_player.shape[2]
    n = scores0.shape[0]
    start_round = ctrl0[ROUND]
    for i in range(actions.shape[0]):
        for k in range(seeds.shape[0]):
            # element loops, not ``a[:] = b``: a slice copy compiles Numba's shape-mismatch
            # message (string formatting, about 4 CPU s of a cold compile)
            for j in range(ctrl0.shape[0]):
                ctrl[j] = ctrl0[j]
            for j in range(3):
                dice[j] = dice0[j]
            for seat in range(n):
                scores[seat] = scores0[seat]
                quit[seat] = quit0[seat]
                give[seat] = give0[seat]
                for s in range(7):
                    rows[seat, s] = rows0[seat, s]
            for s in range(7):
                llama[s] = llama0[s]
                setaside[s] = setaside0[s]
                discards[s] = discards0[s]
            seed_streams(rng, seeds[k])
            player = ctrl[PLAYER]
            # int64 as the later actions: the callees compile for one signature, not two
            action: int = np.int64(actions[i])  # type: ignore[assignment]
            t = 0
            while True:
                if t < capacity:
                    trace_player[i, k, t] = player
                    trace_action[i, k, t] = action
                t += 1
                if player < 0:
                    apply_chance(
                        ctrl, dice, scores, rows, quit, llama, setaside, discards, give, rpts,
                        action, hand_counts, end_score,
                    )  # fmt: skip
                else:
                    apply_player(
                        ctrl, dice, scores, rows, quit, llama, setaside, discards, give, rpts,
                        action, discard_counts, end_score,
                    )  # fmt: skip
                phase = ctrl[PHASE]
                if phase == Phase.OVER or ctrl[ROUND] - start_round >= rounds or t >= max_actions:
                    break
                if phase in (Phase.DEAL, Phase.DICE):
                    player = -1
                    action = sample_chance(ctrl, setaside, rng, faces, hand_ids)
                else:
                    player = ctrl[PLAYER]
                    action = heuristic_action(
                        ctrl, dice, scores, rows, quit, llama, discard_ids, rvec, rsym, rp,
                        memo, vals, scratch,
                    )  # fmt: skip
            for seat in range(n):
                scores_out[i, k, seat] = scores[seat]
            over_out[i, k] = ctrl[PHASE] == Phase.OVER
            trace_len[i, k] = t
