"""Lama Express rule primitives: each ruling written once, over plain ints and arrays.

The scalar engine (:mod:`lamagames.express.state`, :mod:`lamagames.express.reader`,
:mod:`lamagames.express.game`) calls these functions as plain Python on lists; the batch
engine (:mod:`lamagames.express.batch_kernels`, :mod:`lamagames.express.batch`) calls their
Numba forms (:func:`lamagames.core.jit.compiled`) on rows of its state arrays (``owner[g]``).
Each one is a leaf (it calls no other primitive), so both forms run the very same code.

Arguments, whatever their container (list or NumPy array of any integer dtype):

* ``tips``: the two trains' tip spaces (E-2), index 0 = train A, 1 = train B.
* ``owner``, ``prog``: per car slot (``train * 5 + car``, car 0..4) the seat of the llama in
  it (-1 empty) and its progress in spaces (E-8).
* ``station``: llamas still waiting at each seat's station (E-5).
* ``free``: per seat, its available free actions (a list of action ids on the scalar side, a
  bitmask in kernels): only its truth value is read.
* ``passed``: bitmask of the seats that passed since the last action of a window (E-9).
"""

from __future__ import annotations

from typing import Any, Final

from lamagames.core.jit import rule
from lamagames.express.board import PASSENGER_CARS, TRAIN_SPACES

#: Space offset of passenger car ``c`` (0-based) behind its train's tip (E-2).
CAR_BEHIND_TIP: Final = TRAIN_SPACES - PASSENGER_CARS + 1

# Containers: lists on the scalar side, NumPy arrays in kernels.
Ints = Any


@rule("E-2")
def car_space(tip: int, car: int, length: int) -> int:
    """Space of passenger car ``car`` (0-based, 0..4) of a train whose tip touches ``tip``
    on a track of ``length`` spaces (E-2: locomotive ``tip-1``, coal car ``tip-2``, cars
    ``tip-3 .. tip-7``, modulo the length)."""
    return (tip - CAR_BEHIND_TIP - car) % length


@rule("E-6")
def movable(distance_a: int, distance_b: int, tip_a: int, tip_b: int, length: int) -> int:
    """Which trains can make their move (E-6), as a bitmask: bit 0 train A, bit 1 train B.

    ``distance_*`` is the distance to the next space of the rolled colour strictly ahead of
    the train's tip (the board's ``next_distance``). A train cannot move when its
    locomotive would enter a space of the other train (no pushing): the move must fit in
    the free spaces between its tip and the other train's last car. Both bits: the active
    player chooses; one: that train must move; none: nothing moves."""
    free_a = (tip_b - TRAIN_SPACES - tip_a) % length
    free_b = (tip_a - TRAIN_SPACES - tip_b) % length
    return (1 if distance_a <= free_a else 0) | (2 if distance_b <= free_b else 0)


@rule("E-6")
def move_train(tips: Ints, owner: Ints, prog: Ints, train: int, distance: int, length: int) -> None:
    """Move ``train`` forward ``distance`` spaces, in place (E-6): its tip moves on (modulo
    ``length``) and every llama riding it is carried forward, its progress growing by the
    distance (E-8)."""
    tip = tips[train] + distance
    if tip >= length:
        tip -= length
    tips[train] = tip
    base = train * PASSENGER_CARS
    for slot in range(base, base + PASSENGER_CARS):
        if owner[slot] >= 0:
            prog[slot] += distance


@rule("E-8")
def detour_progress(progress: int, walk_back: int) -> int:
    """Progress of a detoured llama (E-8): its progress minus the spaces walked back on the
    footpath (arrow index to re-boarding index); kept while it waits and rides on."""
    return progress - walk_back


@rule("E-9")
def next_asked(free: Ints, passed: int, start: int, n: int) -> int:
    """The seat asked next in a window (E-9): the first seat from ``start`` in turn order
    with an available free action that has not passed since the last action; -1 when there
    is none (the window closes, or does not open)."""
    for i in range(n):
        seat = (start + i) % n
        if free[seat] and not (passed >> seat) & 1:
            return seat
    return -1


@rule("E-10")
def has_won(house: int, llamas_to_win: int) -> bool:
    """True when a seat with ``house`` llamas in its house has won (E-10): all its llamas
    (4, or 3 in the short variant); the game ends at once."""
    return house >= llamas_to_win


@rule("E-11")
def turn_limit_reached(rolls: int, limit: int) -> bool:
    """True when a game with ``rolls`` die rolls so far ends truncated, with no winner, at
    the end of this turn (E-11); ``limit < 0``: no limit (live play)."""
    return 0 <= limit <= rolls
