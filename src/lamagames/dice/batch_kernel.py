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

# phases (the scalar engine's numbers)
P_DEAL: Final = 0
P_TURN: Final = 1
P_DICE: Final = 2
P_DISCARD: Final = 3
P_TAKE: Final = 4
P_GIVE_LLAMAS: Final = 5
P_GIVE_EMPTY: Final = 6
P_OVER: Final = 7

# actions (docs/dice.md)
A_ROLL: Final = 0
A_QUIT: Final = 1
A_TAKE: Final = 2
A_BLACK: Final = 9
A_WHITE: Final = 10
A_NONE: Final = 11
A_DISCARD: Final = 12
NUM_ACTIONS: Final = 131
NUM_ROLLS: Final = 343
NUM_OUTCOMES: Final = 1267
LL: Final = 6

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

_VALUES = np.array([1, 2, 3, 4, 5, 6, 10], dtype=np.int32)
_DECK = np.array([5, 5, 5, 5, 5, 5, 6], dtype=np.int8)

_F = TypeVar("_F", bound=Callable[..., Any])


def _jit(function: _F) -> _F:
    """Compile with Numba in nopython mode, cached on disk."""
    return cast(_F, njit(cache=True, nogil=True)(function))


# ---------------------------------------------------------------- random numbers
@_jit
def next_u64(rng: U64, k: int) -> np.uint64:
    """Advance SplitMix64 stream ``k`` of ``rng`` and return 64 random bits."""
    s = rng[k] + np.uint64(0x9E3779B97F4A7C15)
    rng[k] = s
    z = (s ^ (s >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return np.uint64(z ^ (z >> np.uint64(31)))


@_jit
def below(rng: U64, k: int, bound: int) -> int:
    """A uniform integer in ``0 .. bound - 1`` from stream ``k`` (Lemire's multiply-shift on
    32 bits; bound <= 2**31)."""
    high = next_u64(rng, k) >> np.uint64(32)
    return int((high * np.uint64(bound)) >> np.uint64(32))


@_jit
def seed_streams(rng: U64, seed: np.uint64) -> None:
    """Seed the two streams of one game from its uint64 seed."""
    rng[0] = seed
    rng[1] = seed ^ np.uint64(0xD1B54A32D192ED03)
    next_u64(rng, 1)


# ---------------------------------------------------------------- rules helpers
@_jit
def row_score(row: I8) -> int:
    """D-10: distinct numbers once each, plus 10 for any llama."""
    total = 0
    for s in range(7):
        if row[s] > 0:
            total += _VALUES[s]
    return total


@_jit
def reset_game(
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
    start: int,
) -> None:
    """The state before the first deal, round 1 started by seat ``start`` (D-5)."""
    ctrl[PHASE] = P_DEAL
    ctrl[PLAYER] = start
    ctrl[STARTER] = start
    ctrl[LAST_ACTOR] = start
    ctrl[DEAL_SEAT] = 0
    ctrl[ROUND] = 1
    dice[:] = -1
    scores[:] = 0
    rpts[:] = 0
    _new_round_cards(rows, quit, llama, setaside, discards, give)


@_jit
def _new_round_cards(
    rows: I8,
    quit: Bools,
    llama: I8,
    setaside: I8,
    discards: I8,
    give: Bools,
) -> None:
    rows[:, :] = 0
    quit[:] = False
    give[:] = False
    for s in range(7):
        llama[s] = 1
        setaside[s] = _DECK[s]
        discards[s] = 0


@_jit
def _next_turn(ctrl: I32, dice: I8, quit: Bools) -> None:
    """D-6: the next seat clockwise that has not quit (possibly the same seat)."""
    n = quit.shape[0]
    seat = ctrl[PLAYER]
    for _ in range(n):
        seat = (seat + 1) % n
        if not quit[seat]:
            break
    ctrl[PLAYER] = seat
    dice[:] = -1
    ctrl[PHASE] = P_TURN


@_jit
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
            ctrl[PHASE] = P_GIVE_EMPTY
            return
    for seat in range(n):  # D-11
        if scores[seat] >= end_score:
            ctrl[PHASE] = P_OVER
            return
    _new_round_cards(rows, quit, llama, setaside, discards, give)  # D-5
    ctrl[STARTER] = ctrl[LAST_ACTOR]
    ctrl[PLAYER] = ctrl[LAST_ACTOR]
    ctrl[DEAL_SEAT] = 0
    ctrl[ROUND] += 1
    ctrl[PHASE] = P_DEAL


@_jit
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
        give[seat] = points == 0 and scores[seat] > 0
    dice[:] = -1
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


@_jit
def sample_chance(ctrl: I32, setaside: I8, rng: U64, faces: I8, hand_ids: I16) -> int:
    """Draw the chance outcome id of the current chance node from stream 0: a roll (one
    uniform face per die, D-1) or a deal (six cards without replacement, D-5)."""
    if ctrl[PHASE] == P_DICE:
        a = faces[0, below(rng, 0, 6)]
        b = faces[1, below(rng, 0, 6)]
        c = faces[2, below(rng, 0, 6)]
        return int(a * 49 + b * 7 + c)
    total = 0
    for s in range(7):
        total += setaside[s]
    code = 0
    for _ in range(6):  # draw without replacement, taking the cards out for a moment
        r = below(rng, 0, total)
        s = 0
        while r >= setaside[s]:
            r -= setaside[s]
            s += 1
        setaside[s] -= 1
        total -= 1
        code += _POW7[s]
    for s in range(7):  # put them back: applying the outcome deals them
        setaside[s] += (code // _POW7[s]) % 7
    return int(hand_ids[code])


_POW7 = np.array([7**s for s in range(7)], dtype=np.int32)


@_jit
def chance_legal(ctrl: I32, setaside: I8, faces: I8, hand_counts: I8, outcome: int) -> bool:
    """True if ``outcome`` is a possible chance outcome of the current chance node."""
    if outcome < 0 or outcome >= NUM_OUTCOMES:
        return False
    if ctrl[PHASE] == P_DICE:
        return outcome < NUM_ROLLS and roll_possible(faces, outcome)
    if outcome < NUM_ROLLS:
        return False
    for s in range(7):  # noqa: SIM110 (loops compile to simpler code than all())
        if hand_counts[outcome, s] > setaside[s]:
            return False
    return True


@_jit
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
    if ctrl[PHASE] == P_DEAL:
        seat = ctrl[DEAL_SEAT]
        for s in range(7):
            k = hand_counts[outcome, s]
            setaside[s] -= k
            rows[seat, s] += k
        ctrl[DEAL_SEAT] = seat + 1
        if seat + 1 == n:
            ctrl[PHASE] = P_TURN
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
    if a == LL and b == LL and c == LL:  # D-8.1
        if scores[seat] > 0:
            ctrl[PHASE] = P_GIVE_LLAMAS
        else:
            _next_turn(ctrl, dice, quit)
        return
    if row[a] > 0 or row[b] > 0 or row[c] > 0:  # D-8.2
        ctrl[PHASE] = P_DISCARD
        return
    last_standing = True  # D-8.5
    for i in range(n):
        if i != seat and not quit[i]:
            last_standing = False
    if not last_standing and (llama[a] > 0 or llama[b] > 0 or llama[c] > 0):
        ctrl[PHASE] = P_TAKE  # D-8.3
        return
    for s in range(7):  # D-8.4 bust: the whole llama row
        row[s] += llama[s]
        llama[s] = 0
    _end_round(ctrl, dice, scores, rows, quit, llama, setaside, discards, give, rpts, end_score)


# ---------------------------------------------------------------- player actions
@_jit
def _discard_limits(dice: I8, row: I8, syms: I32, lims: I32) -> int:
    """D-8.2: the distinct matching symbols and how many of each may go; returns how many."""
    m = 0
    for d in range(3):
        s = dice[d]
        if row[s] == 0:
            continue
        j = 0
        while j < m and syms[j] != s:
            j += 1
        if j == m:
            syms[m] = s
            lims[m] = 0
            m += 1
        if lims[j] < row[s]:
            lims[j] += 1
    for j in range(m, 3):
        syms[j] = 0
        lims[j] = 0
    return m


@_jit
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
    if phase == P_TURN:
        out[0] = A_ROLL
        out[1] = A_QUIT
        return 2
    if phase == P_DISCARD:
        syms = out[8:11]  # scratch: at most 7 discards are ever legal
        lims = out[11:14]
        _discard_limits(dice, rows[seat], syms, lims)
        k = 0
        for k0 in range(lims[0] + 1):
            for k1 in range(lims[1] + 1):
                for k2 in range(lims[2] + 1):
                    if k0 + k1 + k2 == 0:
                        continue
                    code = 0
                    code += k0 * _POW4[syms[0]]
                    code += k1 * _POW4[syms[1]]
                    code += k2 * _POW4[syms[2]]
                    out[k] = discard_ids[code]
                    k += 1
        return k
    if phase == P_TAKE:
        k = 0
        for s in range(7):
            if llama[s] > 0 and (dice[0] == s or dice[1] == s or dice[2] == s):
                out[k] = A_TAKE + s
                k += 1
        return k
    if phase in (P_GIVE_LLAMAS, P_GIVE_EMPTY):
        k = 0
        if scores[seat] >= 10:
            out[k] = A_BLACK
            k += 1
        if scores[seat] % 10 > 0:
            out[k] = A_WHITE
            k += 1
        out[k] = A_NONE
        return k + 1
    return 0


_POW4 = np.array([4**s for s in range(7)], dtype=np.int32)


@_jit
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
    if phase == P_TURN:
        return A_QUIT if row_score(rows[seat]) <= QUIT_AT else A_ROLL
    if phase == P_DISCARD:  # the maximal discard: one card per die while the row has it
        row = rows[seat]
        code = 0
        for d in range(3):
            s = dice[d]
            before = 0
            for e in range(d):
                if dice[e] == s:
                    before += 1
            if before < row[s]:
                code += _POW4[s]
        return int(discard_ids[code])
    if phase == P_TAKE:
        for s in range(7):
            if llama[s] > 0 and (dice[0] == s or dice[1] == s or dice[2] == s):
                return A_TAKE + s
    if scores[seat] >= 10:
        return A_BLACK
    if scores[seat] > 0:
        return A_WHITE
    return A_NONE


@_jit
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
    if phase == P_TURN:
        ctrl[LAST_ACTOR] = seat
        if action == A_ROLL:
            ctrl[PHASE] = P_DICE
            return
        quit[seat] = True  # D-7
        for i in range(quit.shape[0]):
            if not quit[i]:
                _next_turn(ctrl, dice, quit)
                return
        _end_round(ctrl, dice, scores, rows, quit, llama, setaside, discards, give, rpts, end_score)
        return
    if phase == P_DISCARD:  # D-8.2
        row = rows[seat]
        left = 0
        for s in range(7):
            k = discard_counts[action, s]
            row[s] -= k
            discards[s] += k
            left += row[s]
        if left == 0:  # D-9
            _end_round(
                ctrl, dice, scores, rows, quit, llama, setaside, discards, give, rpts, end_score
            )
        else:
            _next_turn(ctrl, dice, quit)
        return
    if phase == P_TAKE:  # D-8.3
        s = action - A_TAKE
        llama[s] = 0
        rows[seat, s] += 1
        for t in range(7):
            if llama[t] > 0:
                _next_turn(ctrl, dice, quit)
                return
        _end_round(ctrl, dice, scores, rows, quit, llama, setaside, discards, give, rpts, end_score)
        return
    if action == A_BLACK:  # D-8.1, D-10
        scores[seat] -= 10
    elif action == A_WHITE:
        scores[seat] -= 1
    if phase == P_GIVE_LLAMAS:
        _next_turn(ctrl, dice, quit)
    else:
        _after_give_backs(ctrl, scores, rows, quit, llama, setaside, discards, give, end_score)


@_jit
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
