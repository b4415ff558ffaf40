"""LAMA Dice rule primitives: each ruling written once, over plain ints and arrays.

Every engine, bot, hint and solver of LAMA Dice calls these functions: the scalar engine
(:mod:`lamagames.dice.rules`, :mod:`lamagames.dice.state`) calls them as plain Python on
lists; the batch engine (:mod:`lamagames.dice.batch_kernel`, :mod:`lamagames.dice.batch_play`),
the in-kernel bots (:mod:`lamagames.dice.batch_heuristic`) and the solver kernels call their
Numba forms (:func:`lamagames.core.jit.compiled`). Each one is a leaf (it calls no other
primitive), so both forms run the very same code.

Arguments, whatever their container (list, tuple, NumPy array of any integer dtype):

* ``row``, ``llama``, ``hand``: count vectors of 7 (cards per symbol, index 0..5 the numbers
  1..6, index 6 = :data:`~lamagames.dice.actions.LLAMA`); the llama row holds 0 or 1 each.
* ``a``, ``b``, ``c``: the symbols shown by dice A, B and C (0..6).
* ``quit``: one bool per seat, the seat has quit this round (D-7).
* ``score``: a seat's points (D-4: ``score // 10`` black chips, ``score % 10`` white ones).
* a *discard code* is a count vector packed 2 bits per symbol: ``sum(k_s * 4**s)``.
"""

from __future__ import annotations

from typing import Any, Final

from lamagames.core.jit import rule
from lamagames.dice.actions import GIVE_BLACK, GIVE_WHITE, LLAMA, VALUES

#: Points of a black and of a white chip (D-4), written here once: the chip primitives
#: below read them.
BLACK_POINTS: Final = 10
WHITE_POINTS: Final = 1

#: Roll results of :func:`roll_result` (D-8, in the order checked).
THREE_LLAMAS: Final = 0
MATCH: Final = 1
TAKE: Final = 2
BUST: Final = 3

# Containers: lists on the scalar side, NumPy arrays in kernels.
Counts = Any


@rule("D-10")
def row_score(row: Counts) -> int:
    """Minus points of a row (D-10): each distinct number once at its value (D-2: a number
    is worth its pips), plus 10 for any llama."""
    total = 0
    for s in range(7):
        if row[s] > 0:
            total += VALUES[s]
    return total


@rule("D-8")
def roll_result(row: Counts, llama: Counts, a: int, b: int, c: int, last_standing: bool) -> int:
    """What a roll means for the roller (D-8, checked in this order): :data:`THREE_LLAMAS`
    (D-8.1, whether or not the roller has a chip to give back), :data:`MATCH` when a die
    shows a symbol of the roller's row (D-8.2), :data:`TAKE` when a die shows a card of the
    llama row and other seats are still in the round (D-8.3), else :data:`BUST` (D-8.4; the
    last player standing never takes, D-8.5)."""
    if a == LLAMA and b == LLAMA and c == LLAMA:  # D-8.1
        return THREE_LLAMAS
    if row[a] > 0 or row[b] > 0 or row[c] > 0:  # D-8.2
        return MATCH
    if not last_standing and (llama[a] > 0 or llama[b] > 0 or llama[c] > 0):  # D-8.3
        return TAKE
    return BUST  # D-8.4, D-8.5


@rule("D-8.5")
def is_last_standing(quit: Counts, seat: int) -> bool:
    """True when every seat but ``seat`` has quit this round (D-8.5)."""
    for i in range(len(quit)):  # noqa: SIM110 (a loop compiles to simpler code than all())
        if i != seat and not quit[i]:
            return False
    return True


@rule("D-8.2")
def max_discard(row: Counts, a: int, b: int, c: int) -> int:
    """The largest legal discard after a match, as a discard code (D-8.2): per symbol up to
    ``min(dice showing it, cards of it in the row)``. The legal discards are exactly its
    non-empty sub-multisets; 0 when no die matches."""
    # One card per die while the row holds one more of its symbol: min(shown, in row).
    code = 0
    if row[a] > 0:
        code += 1 << (2 * a)
    if row[b] > (1 if b == a else 0):
        code += 1 << (2 * b)
    if row[c] > (1 if c == a else 0) + (1 if c == b else 0):
        code += 1 << (2 * c)
    return code


@rule("D-8.2")
def next_discard(code: int, max_code: int) -> int:
    """The legal discard that follows ``code`` (D-8.2): the legal discards after a match are
    the non-empty sub-multisets of ``max_code`` (:func:`max_discard`), and this steps
    through them in ascending code order (the count of symbol 1 changing fastest). Both
    are discard codes; ``next_discard(0, max_code)`` is the first legal discard, and 0
    follows the last one (so 0 at once when ``max_code`` is 0)::

        code = next_discard(0, max_code)
        while code:
            ...  # one legal discard
            code = next_discard(code, max_code)
    """
    # An odometer whose digit s counts 0 .. (cards of s in max_code), as one addition: each
    # digit is raised by 3 - its limit so that a digit at its limit reads 3 and carries.
    spare = max_code ^ 0x3FFF
    raised = code + spare + 1
    if raised >> 14:  # the carry left the llama's digit: that was the last discard
        return 0
    low = raised & -raised  # lowest bit set: in the digit that went up
    below = ((low | (low >> 1)) & 0x1555) - 1  # the bits of the digits below it (now 0)
    return raised - (spare & ~below)


@rule("D-8.2")
def discard(row: Counts, code: int) -> tuple[int, int, int, int, int, int, int]:
    """The roller's row after the discard ``code`` (D-8.2): ``k_s`` fewer cards of each
    symbol ``s`` (a discard code, see the module docstring); a new 7-tuple (``row`` is not
    changed, and a kernel allocates nothing)."""
    return (
        row[0] - (code & 3), row[1] - ((code >> 2) & 3), row[2] - ((code >> 4) & 3),
        row[3] - ((code >> 6) & 3), row[4] - ((code >> 8) & 3), row[5] - ((code >> 10) & 3),
        row[6] - ((code >> 12) & 3),
    )  # fmt: skip


@rule("D-8.3")
def can_take(llama: Counts, a: int, b: int, c: int, s: int) -> bool:
    """True if llama-row card ``s`` may be taken after a roll with no match (D-8.3): a die
    shows it and it is still in the llama row."""
    return llama[s] > 0 and (a == s or b == s or c == s)


@rule("D-8.3")
def take(
    row: Counts, llama: Counts, s: int
) -> tuple[tuple[int, int, int, int, int, int, int], tuple[int, int, int, int, int, int, int]]:
    """The roller's row and the llama row after taking llama-row card ``s`` (D-8.3): the
    card leaves the llama row and joins the row. Two new 7-tuples (the arguments are not
    changed, and a kernel allocates nothing)."""
    new_row = (
        row[0] + (s == 0), row[1] + (s == 1), row[2] + (s == 2), row[3] + (s == 3),
        row[4] + (s == 4), row[5] + (s == 5), row[6] + (s == 6),
    )  # fmt: skip
    new_llama = (
        llama[0] * (s != 0), llama[1] * (s != 1), llama[2] * (s != 2), llama[3] * (s != 3),
        llama[4] * (s != 4), llama[5] * (s != 5), llama[6] * (s != 6),
    )  # fmt: skip
    return new_row, new_llama


@rule("D-8.4")
def bust(row: Counts, llama: Counts) -> None:
    """A bust (D-8.4, D-8.5): the whole llama row joins the roller's row (in place)."""
    for s in range(7):
        row[s] += llama[s]
        llama[s] = 0


@rule("D-4")
def chip_choices(score: int) -> int:
    """Chips a seat with ``score`` points may give back (D-4, D-8.1, D-10), as bits: 1 a
    black chip (10 points, ``score >= 10``), 2 a white chip (1 point, ``score % 10 > 0``).
    Declining is always allowed."""
    choices = 0
    if score >= BLACK_POINTS:
        choices |= 1
    if score % BLACK_POINTS > 0:
        choices |= 2
    return choices


@rule("D-4")
def chip_points(action: int) -> int:
    """Points a give-back action takes off the giver's score (D-4, D-8.1, D-10): 10 for
    ``give black``, 1 for ``give white``, 0 for ``give none``."""
    if action == GIVE_BLACK:
        return BLACK_POINTS
    if action == GIVE_WHITE:
        return WHITE_POINTS
    return 0


@rule("D-4")
def best_chip(score: int) -> int:
    """Points of the most valuable chip a seat with ``score`` points holds (D-4): 10 with a
    black chip, 1 with only white ones, 0 without chips."""
    if score >= BLACK_POINTS:
        return BLACK_POINTS
    if score > 0:
        return WHITE_POINTS
    return 0


@rule("D-5")
def next_starter(last_mover: int) -> int:
    """The seat that starts a round after the first (D-5): ``last_mover``, the seat that
    made the last move of the round before, a roll or a quit (D-6)."""
    return last_mover


@rule("D-6")
def next_seat(quit: Counts, seat: int) -> int:
    """The next seat clockwise after ``seat`` that has not quit this round (D-6), possibly
    ``seat`` itself; ``seat`` when every seat has quit."""
    n = len(quit)
    other = seat
    for _ in range(n):
        other += 1
        if other == n:
            other = 0
        if not quit[other]:
            return other
    return seat


@rule("D-7")
def everyone_quit(quit: Counts) -> bool:
    """True when every seat has quit (D-7): the quit of the last seat ends the round (D-9)."""
    for seat in range(len(quit)):  # noqa: SIM110
        if not quit[seat]:
            return False
    return True


@rule("D-9")
def is_empty(counts: Counts) -> bool:
    """True when a row (or the llama row) holds no card: a discard or take that empties it
    ends the round (D-9)."""
    for s in range(7):  # noqa: SIM110
        if counts[s] > 0:
            return False
    return True


@rule("D-10")
def gives_back_after_round(points: int, score: int) -> bool:
    """True when a seat that scored ``points`` this round (D-10) and now has ``score`` may
    give back a chip: its row was empty and it holds a chip."""
    return points == 0 and score > 0


@rule("D-11")
def game_over(scores: Counts, end_score: int) -> bool:
    """True when a score has reached ``end_score`` after the round's give-backs (D-11)."""
    for seat in range(len(scores)):  # noqa: SIM110
        if scores[seat] >= end_score:
            return True
    return False


@rule("D-11")
def wins(scores: Counts, seat: int) -> bool:
    """True when ``seat`` has the lowest score (D-11: the lowest score wins, ties all
    win); asked once the game is over."""
    for other in range(len(scores)):  # noqa: SIM110
        if scores[other] < scores[seat]:
            return False
    return True
