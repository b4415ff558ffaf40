"""Numba kernels of the LAMA Dice batch engine (rulings D-1 .. D-11).

Internal module: the public API is :mod:`lamagames.dice.batch`, which documents the state
arrays. Every function here works on the *per-game views* of one game ``g``:

============  =========  =======  ============================================================
view          shape      dtype    meaning
============  =========  =======  ============================================================
``ctrl``      ``(6,)``   int32    phase, seat to act, round starter, last actor, deal seat,
                                  round number (columns :data:`PHASE` .. :data:`ROUND`)
``dice``      ``(3,)``   int8     symbols shown by dice A, B, C, -1 when no roll is shown
``scores``    ``(n,)``   int32    scores in points (D-4: chips are ``s // 10``, ``s % 10``)
``rows``      ``(n,7)``  int8     each seat's row as counts of symbols 1..6, L
``quit``      ``(n,)``   bool     seat has quit this round (D-7)
``llama``     ``(7,)``   int8     llama-row cards still there (D-3), 0 or 1 per symbol
``setaside``  ``(7,)``   int8     deck cards not dealt this round (D-5)
``discards``  ``(7,)``   int8     cards discarded this round (D-8.2)
``give``      ``(n,)``   bool     seats still to be asked to give back a chip (D-10)
``rpts``      ``(n,)``   int32    sum over finished rounds of the minus points scored (D-10)
``rng``       ``(2,)``   uint64   SplitMix64 states: 0 chance stream, 1 random-policy stream
============  =========  =======  ============================================================

The phases, the action ids and the chance outcome ids are those of the scalar engine
(:mod:`lamagames.dice.game`, :mod:`lamagames.dice.actions`).

Kernels compile once per process and are cached on disk (``cache=True``: the ``.nbi`` and
``.nbc`` files in this package's ``__pycache__``, or ``NUMBA_CACHE_DIR``). All arguments have
fixed dtypes so each kernel has one signature.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final, TypeVar, cast

import numpy as np
import numpy.typing as npt
from numba import njit

from lamagames.core.jit import compiled, install_cache_key
from lamagames.dice import primitives
from lamagames.dice.actions import (
    DISCARD_BASE,
    GIVE_BLACK,
    GIVE_NONE,
    GIVE_WHITE,
    LLAMA,
    MAX_CHANCE_OUTCOMES,
    NUM_DISTINCT_ACTIONS,
    NUM_ROLLS,
    QUIT,
    ROLL,
    TAKE_BASE,
)
from lamagames.dice.rules import DECK_CARDS, LLAMA_ROW_CARDS, Phase

install_cache_key()  # the disk-cache key covers every module these kernels use

I8 = npt.NDArray[np.int8]
I16 = npt.NDArray[np.int16]
I32 = npt.NDArray[np.int32]
U64 = npt.NDArray[np.uint64]
Bools = npt.NDArray[np.bool_]

# ctrl columns
PHASE: Final = 0
PLAYER: Final = 1
STARTER: Final = 2
LAST_ACTOR: Final = 3
DEAL_SEAT: Final = 4
ROUND: Final = 5
CTRL_SIZE: Final = 6

# the scalar engine's action ids and sizes (lamagames.dice.actions), imported, not copied
A_ROLL: Final = ROLL
A_QUIT: Final = QUIT
A_TAKE: Final = TAKE_BASE
A_BLACK: Final = GIVE_BLACK
A_WHITE: Final = GIVE_WHITE
A_NONE: Final = GIVE_NONE
A_DISCARD: Final = DISCARD_BASE
NUM_ACTIONS: Final = NUM_DISTINCT_ACTIONS
NUM_OUTCOMES: Final = MAX_CHANCE_OUTCOMES
LL: Final = LLAMA

# policies
POLICY_RANDOM: Final = 0
POLICY_BENCHMARK: Final = 1
POLICY_HEURISTIC: Final = 2
#: The benchmark policy quits when its row scores at most this (bots/dice.py).
QUIT_AT: Final = 6

# step() error codes
OK: Final = 0
ERR_ILLEGAL: Final = 1
ERR_CHANCE: Final = 2
ERR_OVER: Final = 3

_DECK = np.array(DECK_CARDS, dtype=np.int8)
_LLAMA_ROW = np.array(LLAMA_ROW_CARDS, dtype=np.int8)

# The rule primitives (lamagames.dice.primitives), compiled.
row_score = compiled(primitives.row_score)
roll_result = compiled(primitives.roll_result)
is_last_standing = compiled(primitives.is_last_standing)
max_discard = compiled(primitives.max_discard)
next_discard = compiled(primitives.next_discard)
can_take = compiled(primitives.can_take)
discard = compiled(primitives.discard)
take = compiled(primitives.take)
bust = compiled(primitives.bust)
chip_choices = compiled(primitives.chip_choices)
chip_points = compiled(primitives.chip_points)
best_chip = compiled(primitives.best_chip)
next_seat = compiled(primitives.next_seat)
next_starter = compiled(primitives.next_starter)
is_empty = compiled(primitives.is_empty)
everyone_quit = compiled(primitives.everyone_quit)
gives_back_after_round = compiled(primitives.gives_back_after_round)
game_over = compiled(primitives.game_over)
wins = compiled(primitives.wins)

_F = TypeVar("_F", bound=Callable[..., Any])


def _jit(function: _F) -> _F:
    """Compile with Numba in nopython mode, cached on disk."""
    return cast(_F, njit(cache=True, nogil=True)(function))


def _inline(function: _F) -> _F:
    """:func:`_jit`, inlined into its Numba callers at Numba's IR level
    (``inline="always"``): for the helpers a long kernel is split into, so the kernel
    compiles as if written in one piece (no calls, no argument passing)."""
    return cast(_F, njit(cache=True, nogil=True, inline="always")(function))


def _jit_no_refcount(function: _F) -> _F:
    """:func:`_jit` without Numba's reference counting (``_nrt=False``), for a kernel that
    allocates no array: its arrays come from the caller, so array views and tuples of
    arrays cost no atomic counter updates in its loops."""
    options: dict[str, Any] = {"_nrt": False}  # a private flag: not in Numba's stubs
    return cast(_F, njit(cache=True, nogil=True, **options)(function))


# ---------------------------------------------------------------- random numbers
@_inline
def next_u64(rng: U64, k: int) -> np.uint64:
    """Advance SplitMix64 stream ``k`` of ``rng`` and return 64 random bits."""
    s = rng[k] + np.uint64(0x9E3779B97F4A7C15)
    rng[k] = s
    z = (s ^ (s >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return np.uint64(z ^ (z >> np.uint64(31)))


@_inline
def below(rng: U64, k: int, bound: int) -> int:
    """A uniform integer in ``0 .. bound - 1`` from stream ``k`` (Lemire's multiply-shift on
    32 bits; bound <= 2**31)."""
    high = next_u64(rng, k) >> np.uint64(32)
    # via int64: Numba's int() of a uint64 stays uint64, and uint64 mixed with
    # int64 computes in float64 (the D-5 draw's subtractions were float arithmetic)
    return int(np.int64((high * np.uint64(bound)) >> np.uint64(32)))


@_inline
def seed_streams(rng: U64, seed: np.uint64) -> None:
    """Seed the two streams of one game from its uint64 seed."""
    rng[0] = seed
    rng[1] = seed ^ np.uint64(0xD1B54A32D192ED03)
    next_u64(rng, 1)


# ---------------------------------------------------------------- rules helpers
#: One game's views (the table above, without ``rng``) as one argument: ``(ctrl, dice,
#: scores, rows, quit, llama, setaside, discards, give, rpts)``. Only :func:`reset_game`
#: takes it (once per game); the per-step kernels keep separate arguments, which measured
#: faster (``tests/core/test_complexity.py``).
Game = tuple[I32, I8, I32, I8, Bools, I8, I8, I8, Bools, I32]


@_inline
def reset_game(game: Game, start: int) -> None:
    """The state before the first deal, round 1 started by seat ``start`` (D-5)."""
    ctrl, dice, scores, rows, quit, llama, setaside, discards, give, rpts = game
    ctrl[PHASE] = Phase.DEAL
    ctrl[PLAYER] = start
    ctrl[STARTER] = start
    ctrl[LAST_ACTOR] = start
    ctrl[DEAL_SEAT] = 0
    ctrl[ROUND] = 1
    _clear_dice(dice)
    for seat in range(scores.shape[0]):
        scores[seat] = 0
        rpts[seat] = 0
    _new_round_cards(rows, quit, llama, setaside, discards, give)


@_inline
def _new_round_cards(
    rows: I8,
    quit: Bools,
    llama: I8,
    setaside: I8,
    discards: I8,
    give: Bools,
) -> None:
    for seat in range(rows.shape[0]):
        for s in range(7):
            rows[seat, s] = 0
        quit[seat] = False
        give[seat] = False
    for s in range(7):
        llama[s] = _LLAMA_ROW[s]
        setaside[s] = _DECK[s]
        discards[s] = 0


@_inline
def _clear_dice(dice: I8) -> None:
    """No roll shown: every die -1 (element stores: a slice fill ``dice[:] = -1``
    measured slower in the whole-game loop)."""
    for d in range(3):
        dice[d] = -1


@_inline
def _next_turn(ctrl: I32, dice: I8, quit: Bools) -> None:
    """D-6: the next seat clockwise that has not quit (possibly the same seat)."""
    ctrl[PLAYER] = next_seat(quit, ctrl[PLAYER])
    _clear_dice(dice)
    ctrl[PHASE] = Phase.TURN


@_inline
def _after_give_backs(
    ctrl: I32,
    scores: I32,
    rows: I8,
    quit: Bools,
    llama: I8,
    setaside: I8,
    discards: I8,
    give: Bools,
    end_score: int,
) -> None:
    n = scores.shape[0]
    for seat in range(n):  # the give-back queue, in seat order (D-10)
        if give[seat]:
            give[seat] = False
            ctrl[PLAYER] = seat
            ctrl[PHASE] = Phase.GIVE_EMPTY
            return
    if game_over(scores, end_score):  # D-11
        ctrl[PHASE] = Phase.OVER
        return
    _new_round_cards(rows, quit, llama, setaside, discards, give)  # D-5
    ctrl[STARTER] = next_starter(ctrl[LAST_ACTOR])  # D-5
    ctrl[PLAYER] = ctrl[STARTER]
    ctrl[DEAL_SEAT] = 0
    ctrl[ROUND] += 1
    ctrl[PHASE] = Phase.DEAL


@_inline
def _end_round(
    ctrl: I32,
    dice: I8,
    scores: I32,
    rows: I8,
    quit: Bools,
    llama: I8,
    setaside: I8,
    discards: I8,
    give: Bools,
    rpts: I32,
    end_score: int,
) -> None:
    """D-9 / D-10: score every row; seats with an empty row and chips may give one back."""
    n = scores.shape[0]
    for seat in range(n):
        points = row_score(rows[seat])
        rpts[seat] += points
        scores[seat] += points
        give[seat] = gives_back_after_round(points, scores[seat])
    _clear_dice(dice)
    _after_give_backs(ctrl, scores, rows, quit, llama, setaside, discards, give, end_score)


# ---------------------------------------------------------------- chance
@_jit
def roll_possible(faces: I8, outcome: int) -> bool:
    """True if dice with ``faces`` (int8 ``(3, 6)``) can show roll ``outcome`` (0..342)."""
    symbols = (outcome // 49, (outcome // 7) % 7, outcome % 7)
    for d in range(3):
        found = False
        for f in range(6):
            if faces[d, f] == symbols[d]:
                found = True
        if not found:
            return False
    return True


@_inline
def sample_chance(ctrl: I32, setaside: I8, rng: U64, faces: I8, hand_ids: I16) -> int:
    """Draw the chance outcome id of the current chance node from stream 0: a roll (one
    uniform face per die, D-1) or a deal (six cards without replacement, D-5)."""
    if ctrl[PHASE] == Phase.DICE:
        a = faces[0, below(rng, 0, 6)]
        b = faces[1, below(rng, 0, 6)]
        c = faces[2, below(rng, 0, 6)]
        return int(a * 49 + b * 7 + c)
    return int(hand_ids[draw_hand(setaside, rng)])


@_inline
def draw_hand(setaside: I8, rng: U64) -> int:
    """D-5: six cards drawn without replacement from the set-aside deck ``setaside`` (int8
    ``(7,)``, left as it is) with stream 0 of ``rng``, as the count code ``sum(counts[s] *
    7**s)`` (the index of ``hand_ids``, :mod:`lamagames.dice.batch`). The one D-5 draw of
    the batch engine: :func:`sample_chance` calls it."""
    left = 0  # the cards still there, 4 bits per symbol (at most 6 each, D-3)
    total = 0
    for s in range(7):
        left += int(setaside[s]) << (4 * s)
        total += setaside[s]
    code = 0
    for _ in range(6):
        r = below(rng, 0, total)
        s = 0
        count = left & 15
        while r >= count:
            r -= count
            s += 1
            count = (left >> (4 * s)) & 15
        left -= 1 << (4 * s)
        total -= 1
        code += _POW7[s]
    return code


_POW7 = np.array([7**s for s in range(7)], dtype=np.int32)


@_jit
def chance_legal(ctrl: I32, setaside: I8, faces: I8, hand_counts: I8, outcome: int) -> bool:
    """True if ``outcome`` is a possible chance outcome of the current chance node."""
    if outcome < 0 or outcome >= NUM_OUTCOMES:
        return False
    if ctrl[PHASE] == Phase.DICE:
        return outcome < NUM_ROLLS and roll_possible(faces, outcome)
    if outcome < NUM_ROLLS:
        return False
    for s in range(7):  # noqa: SIM110 (loops compile to simpler code than all())
        if hand_counts[outcome, s] > setaside[s]:
            return False
    return True


@_inline
def apply_chance(
    ctrl: I32,
    dice: I8,
    scores: I32,
    rows: I8,
    quit: Bools,
    llama: I8,
    setaside: I8,
    discards: I8,
    give: Bools,
    rpts: I32,
    outcome: int,
    hand_counts: I8,
    end_score: int,
) -> None:
    """Apply a legal chance outcome: a deal (D-5) or a roll resolved by D-8."""
    n = scores.shape[0]
    if ctrl[PHASE] == Phase.DEAL:
        seat = ctrl[DEAL_SEAT]
        for s in range(7):
            k = hand_counts[outcome, s]
            setaside[s] -= k
            rows[seat, s] += k
        ctrl[DEAL_SEAT] = seat + 1
        if seat + 1 == n:
            ctrl[PHASE] = Phase.TURN
            ctrl[PLAYER] = ctrl[STARTER]
        return
    a = outcome // 49
    b = (outcome // 7) % 7
    c = outcome % 7
    dice[0] = a
    dice[1] = b
    dice[2] = c
    seat = ctrl[PLAYER]
    row = rows[seat]
    result = roll_result(row, llama, a, b, c, is_last_standing(quit, seat))  # D-8
    if result == primitives.THREE_LLAMAS:
        if chip_choices(scores[seat]) != 0:  # D-8.1
            ctrl[PHASE] = Phase.GIVE_LLAMAS
        else:
            _next_turn(ctrl, dice, quit)
        return
    if result == primitives.MATCH:
        ctrl[PHASE] = Phase.DISCARD
        return
    if result == primitives.TAKE:
        ctrl[PHASE] = Phase.TAKE
        return
    bust(row, llama)
    _end_round(ctrl, dice, scores, rows, quit, llama, setaside, discards, give, rpts, end_score)


# ---------------------------------------------------------------- player actions
@_inline
def discard_limits(dice: I8, code: int, syms: I32, lims: I32) -> int:
    """The distinct symbols of the discard code ``code`` (the largest legal discard,
    :func:`~lamagames.dice.primitives.max_discard`, D-8.2) in dice order and how many of
    each may go; returns how many symbols."""
    m = 0
    for d in range(3):
        s = dice[d]
        limit = (code >> (2 * s)) & 3
        if limit == 0:
            continue
        j = 0
        while j < m and syms[j] != s:
            j += 1
        if j == m:
            syms[m] = s
            lims[m] = limit
            m += 1
    for j in range(m, 3):
        syms[j] = 0
        lims[j] = 0
    return m


@_inline
def legal_actions(
    ctrl: I32,
    dice: I8,
    scores: I32,
    rows: I8,
    llama: I8,
    discard_ids: I16,
    out: I32,
) -> int:
    """Write the legal player actions to ``out`` (int32, at least 16 long; entries 8..13
    are scratch); return how many (at most 7). Chance and terminal nodes have none."""
    phase = ctrl[PHASE]
    seat = ctrl[PLAYER]
    if phase == Phase.TURN:
        out[0] = A_ROLL
        out[1] = A_QUIT
        return 2
    if phase == Phase.DISCARD:
        # The legal discards (D-8.2, next_discard), listed with the count of the first
        # symbol the dice show varying slowest: each at its place in that order.
        syms = out[8:11]  # scratch: at most 7 discards are ever legal
        lims = out[11:14]
        code = max_discard(rows[seat], dice[0], dice[1], dice[2])
        m = discard_limits(dice, code, syms, lims)
        k = 0
        sub = next_discard(0, code)
        while sub != 0:
            place = 0
            for j in range(m):
                place = place * (lims[j] + 1) + ((sub >> (2 * syms[j])) & 3)
            out[place - 1] = discard_ids[sub]
            k += 1
            sub = next_discard(sub, code)
        return k
    if phase == Phase.TAKE:
        k = 0
        for s in range(7):
            if can_take(llama, dice[0], dice[1], dice[2], s):
                out[k] = A_TAKE + s
                k += 1
        return k
    if phase in (Phase.GIVE_LLAMAS, Phase.GIVE_EMPTY):
        k = 0
        choices = chip_choices(scores[seat])
        if choices & 1:
            out[k] = A_BLACK
            k += 1
        if choices & 2:
            out[k] = A_WHITE
            k += 1
        out[k] = A_NONE
        return k + 1
    return 0


_POW4 = np.array([4**s for s in range(7)], dtype=np.int32)


@_inline
def benchmark_action(
    ctrl: I32,
    dice: I8,
    scores: I32,
    rows: I8,
    llama: I8,
    discard_ids: I16,
) -> int:
    """The benchmark policy of ``lamagames.bots.dice.DiceBenchmarkBot``: quit iff the own
    row scores at most 6; discard as many cards as the dice allow; take the lowest matching
    llama-row card; give black before white."""
    phase = ctrl[PHASE]
    seat = ctrl[PLAYER]
    if phase == Phase.TURN:
        return A_QUIT if row_score(rows[seat]) <= QUIT_AT else A_ROLL
    if phase == Phase.DISCARD:  # the maximal discard (D-8.2)
        return int(discard_ids[max_discard(rows[seat], dice[0], dice[1], dice[2])])
    if phase == Phase.TAKE:
        for s in range(7):
            if can_take(llama, dice[0], dice[1], dice[2], s):
                return A_TAKE + s
    return give_greedy(scores[seat])


@_inline
def give_greedy(score: int) -> int:
    """Black before white before none (D-4, D-8.1, D-10): the give-back of the benchmark
    and heuristic policies."""
    choices = chip_choices(score)
    if choices & 1:
        return A_BLACK
    if choices & 2:
        return A_WHITE
    return A_NONE


@_inline
def apply_player(
    ctrl: I32,
    dice: I8,
    scores: I32,
    rows: I8,
    quit: Bools,
    llama: I8,
    setaside: I8,
    discards: I8,
    give: Bools,
    rpts: I32,
    action: int,
    discard_counts: I8,
    end_score: int,
) -> None:
    """Apply a legal player action of the seat to act (D-6 .. D-10)."""
    phase = ctrl[PHASE]
    seat = ctrl[PLAYER]
    if phase == Phase.GIVE_LLAMAS or phase == Phase.GIVE_EMPTY:
        scores[seat] -= chip_points(action)  # D-8.1, D-10
        if phase == Phase.GIVE_LLAMAS:
            _next_turn(ctrl, dice, quit)
        else:
            _after_give_backs(ctrl, scores, rows, quit, llama, setaside, discards, give, end_score)
        return
    if phase == Phase.TURN:
        ctrl[LAST_ACTOR] = seat
        if action == A_ROLL:
            ctrl[PHASE] = Phase.DICE
            return
        quit[seat] = True  # D-7
        over = everyone_quit(quit)
    elif phase == Phase.DISCARD:  # D-8.2
        row = rows[seat]
        code = 0
        for s in range(7):
            k = discard_counts[action, s]
            discards[s] += k
            code += int(k) << (2 * s)
        left = discard(row, code)
        for s in range(7):
            row[s] = left[s]
        over = is_empty(row)  # D-9
    else:  # D-8.3
        taken, rest = take(rows[seat], llama, action - A_TAKE)
        for s in range(7):
            rows[seat, s] = taken[s]
            llama[s] = rest[s]
        over = is_empty(llama)  # D-9
    # one call site each (the kernels are inlined into their callers: one copy of the
    # round end instead of three)
    if over:
        _end_round(ctrl, dice, scores, rows, quit, llama, setaside, discards, give, rpts, end_score)
    else:
        _next_turn(ctrl, dice, quit)


@_inline
def policy_action(
    ctrl: I32,
    dice: I8,
    scores: I32,
    rows: I8,
    llama: I8,
    rng: U64,
    policy: int,
    discard_ids: I16,
    buf: I32,
) -> int:
    """The action of in-kernel ``policy`` (0 random: uniform over the legal actions from
    stream 1; 1 benchmark) for the seat to act."""
    if policy == POLICY_BENCHMARK:
        return benchmark_action(ctrl, dice, scores, rows, llama, discard_ids)
    k = legal_actions(ctrl, dice, scores, rows, llama, discard_ids, buf)
    return int(buf[below(rng, 1, k)])
