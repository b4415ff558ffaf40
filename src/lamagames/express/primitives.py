"""Lama Express rule primitives: each ruling written once, over plain ints and arrays.

The scalar engine (:mod:`lamagames.express.state`, :mod:`lamagames.express.reader`,
:mod:`lamagames.express.game`) calls these functions as plain Python on lists; the batch
engine (:mod:`lamagames.express.batch_kernels`, :mod:`lamagames.express.batch`) calls their
Numba forms (:func:`lamagames.core.jit.compiled`) on rows of its state arrays (``owner[g]``).
Both forms run the very same code (a primitive that calls another calls its compiled form
when compiled itself, see below).

Arguments, whatever their container (list or NumPy array of any integer dtype):

* ``tips``: the two trains' tip spaces (E-2), index 0 = train A, 1 = train B.
* ``owner``, ``prog``: per car slot (``train * 5 + car``, car 0..4) the seat of the llama in
  it (-1 empty) and its progress in spaces (E-8).
* ``station``: llamas still waiting at each seat's station (E-5).
* ``free``: per seat, its available free actions (a list of action ids on the scalar side, a
  bitmask in kernels): only its truth value is read.
* ``passed``: bitmask of the seats that passed since the last action of a window (E-9).
* ``path_len``, ``path_owner``, ``path_prog``: per footpath, the llamas on it, and per
  footprint (front, the re-boarding end, first) the seat of its llama and its progress (a
  list of lists on the scalar side, rows of the ``(F, L)`` arrays in kernels).
* ``specials``: per tip space, the passenger cars of a train with that tip that stand on a
  role space, each ``(car, role, index, need, seat, cap)``: car 0..4, ``ROLE_*``, the
  station or footpath index of the space, the progress a llama needs to exit there (E-8),
  the seat of the station (-1 for none or a footpath), the footpath's length (0 at a
  station). The scalar engine's ``ExpressGame.car_specials`` (tuples); in kernels an int32
  ``(N, K, 6)`` table whose unused rows, after the used ones, have role ``ROLE_NONE``
  (stopping at the first of them, rather than skipping each, measured no slower than the
  former kernel; skipping each measured about 2-3% slower).

A part of a ruling that more than one caller needs is a primitive of its own, which the
others call (:func:`movable` calls :func:`free_gap`, :func:`move_train` calls
:func:`tip_after`, :func:`available` calls :func:`lap_to_go`; compiled, each calls the
compiled form, see :mod:`lamagames.core.jit`). Where a ruling needs two in sequence, the
caller passes the first one's result to the second (:func:`detour` takes the progress of
:func:`detour_progress`; :func:`train_to_move` the bitmask of :func:`movable`).
"""

from __future__ import annotations

from typing import Any, Final

from lamagames.core.jit import rule
from lamagames.express.actions import BOARD_BASE, DETOUR_BASE, EXIT_BASE, REBOARD_BASE
from lamagames.express.material import (
    PASSENGER_CARS,
    ROLE_ARROW,
    ROLE_BOARDING,
    ROLE_EXIT,
    ROLE_NONE,
    ROLE_REBOARD,
    TRAIN_SPACES,
)
from lamagames.express.rules import STAGE_AFTER_ROLL

#: Space offset of passenger car ``c`` (0-based) behind its train's tip (E-2).
CAR_BEHIND_TIP: Final = TRAIN_SPACES - PASSENGER_CARS + 1

# Containers: lists on the scalar side, NumPy arrays in kernels.
Ints = Any

# The steps of a turn (E-6, E-9) both engines go through, in this order unless a seat must
# decide: roll, the window after the roll, the move, the window after the move, end of turn.
STEP_ROLL: Final = 0
STEP_OPEN_AFTER_ROLL: Final = 1
STEP_OPEN_AFTER_MOVE: Final = 2
STEP_RESOLVE: Final = 3
STEP_END_TURN: Final = 4
#: :func:`train_to_move`: both trains can move, the active player chooses (E-6).
CHOOSE_TRAIN: Final = 2


@rule("E-2")
def car_space(tip: int, car: int, length: int) -> int:
    """Space of passenger car ``car`` (0-based, 0..4) of a train whose tip touches ``tip``
    on a track of ``length`` spaces (E-2: locomotive ``tip-1``, coal car ``tip-2``, cars
    ``tip-3 .. tip-7``, modulo the length); ``car`` -2 and -1 give the spaces of the
    locomotive and the coal car."""
    return (tip - CAR_BEHIND_TIP - car) % length


@rule("E-6")
def free_gap(tip: int, other_tip: int, length: int) -> int:
    """Free spaces ahead of a train whose tip touches ``tip`` (E-6, E-2): from its tip up to
    the last car of the other train, whose tip touches ``other_tip``, on a track of
    ``length`` spaces; a move of at most this many spaces fits (no pushing). Two trains
    apart leave gaps that add up to ``length`` minus both trains' spaces."""
    return (other_tip - TRAIN_SPACES - tip) % length


@rule("E-6")
def tip_after(tip: int, distance: int, length: int) -> int:
    """Where the tip of a train lands (E-6) that moves ``distance`` spaces (``0 ..
    length``) on from ``tip`` on a track of ``length`` spaces (modulo the length)."""
    tip += distance
    if tip >= length:
        tip -= length
    return tip


@rule("E-6")
def movable(distance_a: int, distance_b: int, tip_a: int, tip_b: int, length: int) -> int:
    """Which trains can make their move (E-6), as a bitmask: bit 0 train A, bit 1 train B.

    ``distance_*`` is the distance to the next space of the rolled colour strictly ahead of
    the train's tip (the board's ``next_distance``). A train cannot move when its
    locomotive would enter a space of the other train (no pushing): the move must fit in
    the free spaces between its tip and the other train's last car. Both bits: the active
    player chooses; one: that train must move; none: nothing moves."""
    free_a = free_gap(tip_a, tip_b, length)
    free_b = free_gap(tip_b, tip_a, length)
    return (1 if distance_a <= free_a else 0) | (2 if distance_b <= free_b else 0)


@rule("E-6")
def move_train(tips: Ints, owner: Ints, prog: Ints, train: int, distance: int, length: int) -> None:
    """Move ``train`` forward ``distance`` spaces, in place (E-6): its tip moves on
    (:func:`tip_after`) and every llama riding it is carried forward, its progress growing
    by the distance (E-8)."""
    tips[train] = tip_after(tips[train], distance, length)
    base = train * PASSENGER_CARS
    for slot in range(base, base + PASSENGER_CARS):
        if owner[slot] >= 0:
            prog[slot] += distance


@rule("E-8")
def lap_need(boarding: int, space: int, length: int) -> int:
    """Progress a llama needs to get off at ``space`` (E-8): the distance forward from its
    home boarding space ``boarding`` to ``space`` on a track of ``length`` spaces, ``0 ..
    length-1`` (on the standard board 45, 46 or 47 at the owner's exit spaces). The boards'
    ``exit_need`` tables and ``ExpressState.lap_need`` are built with it, and :func:`available`
    compares a llama's progress with those needs; it is also the progress of a llama at
    ``space`` on its first lap without detours (``build_state``'s default, and the
    congruence every saved progress must keep)."""
    return (space - boarding) % length


@rule("E-8")
def lap_to_go(progress: int, need: int) -> int:
    """Spaces a llama with ``progress`` still has to ride before it has been once round for
    an exit space that needs ``need`` (:func:`lap_need`, E-8); 0 once its progress is at
    least the need: then it may get off there (:func:`available`). Also what the terminal
    and the browser show (``rules.spaces_to_go``, for the first exit space of its
    station)."""
    return need - progress if progress < need else 0


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


@rule("E-6")
def train_to_move(can: int) -> int:
    """What the move of a turn is (E-6), from the bitmask of :func:`movable`: 0 or 1, the
    one train that can move (it must); :data:`CHOOSE_TRAIN`, both can (the active player
    chooses); -1, neither can (nothing moves, the turn ends)."""
    if can == 3:
        return CHOOSE_TRAIN
    if can == 0:
        return -1
    return can - 1


@rule("E-6")
def next_active(active: int, n: int) -> int:
    """The seat whose turn comes after ``active``'s in an ``n``-seat game (E-6: turns go
    round in seat order)."""
    return (active + 1) % n


@rule("E-9")
def step_after_window(stage: int) -> int:
    """What follows a window that closes or does not open (E-9): after the window of the
    roll (``stage`` :data:`~lamagames.express.rules.STAGE_AFTER_ROLL`) the train moves
    (:data:`STEP_RESOLVE`); after the window of the move the turn ends
    (:data:`STEP_END_TURN`)."""
    return STEP_RESOLVE if stage == STAGE_AFTER_ROLL else STEP_END_TURN


@rule("E-9")
def ask_from(seat: int, asked: int, acted: bool, n: int) -> int:
    """The seat from which the asking goes on (E-9, then :func:`next_asked`) after ``seat``
    took a free action (``acted``) or passed, ``asked`` being the seat asked: after an
    action, or a pass of the asked seat, the seat after ``seat`` in turn order; after a pass
    of another seat (live play: any seat may act in the window), ``asked`` still."""
    if acted or seat == asked:
        return (seat + 1) % n
    return asked


@rule("E-7")
def available(
    free: Ints,
    specials: Any,
    tips: Ints,
    owner: Ints,
    prog: Ints,
    station: Ints,
    path_len: Ints,
    path_owner: Any,
) -> None:
    """Fill ``free[s]`` (one per seat) with the bitmask of seat ``s``'s available free
    actions (E-7): bit ``a`` for action id ``a``. Board: an empty car on the seat's boarding
    space while a llama waits at its station. Exit: the seat's llama on one of its exit
    spaces with its lap completed (E-8, :func:`lap_to_go` 0). Detour: an opponent's llama
    on an arrow space whose footpath has a free footprint (every seat but the owner).
    Re-board: an empty car on a re-boarding space, for the seat of the front llama of that
    footpath."""
    n = len(free)
    for seat in range(n):
        free[seat] = 0
    for train in range(2):
        base = train * PASSENGER_CARS
        for c, role, index, need, seat_here, cap in specials[tips[train]]:
            if role == ROLE_NONE:  # the unused rows of a kernel table, last
                break
            slot = base + c
            who = owner[slot]
            if cap:  # an arrow or re-boarding space; index: its footpath
                if who < 0:
                    if role == ROLE_REBOARD and path_len[index] > 0:
                        front = path_owner[index][0]
                        free[front] |= 1 << (REBOARD_BASE + slot)
                elif role == ROLE_ARROW and path_len[index] < cap:
                    bit = 1 << (DETOUR_BASE + slot)
                    for seat in range(n):
                        if seat != who:
                            free[seat] |= bit
            elif who < 0:
                if role == ROLE_BOARDING and seat_here >= 0 and station[seat_here] > 0:
                    free[seat_here] |= 1 << (BOARD_BASE + slot)
            elif role == ROLE_EXIT and seat_here == who and lap_to_go(prog[slot], need) == 0:
                free[who] |= 1 << (EXIT_BASE + slot)


@rule("E-7")
def board(owner: Ints, prog: Ints, station: Ints, slot: int, seat: int) -> None:
    """Board (E-7), in place: a llama of ``seat`` leaves its station for the car in
    ``slot``; its progress counts from here (E-8: 0)."""
    station[seat] -= 1
    owner[slot] = seat
    prog[slot] = 0


@rule("E-7")
def exit_car(owner: Ints, house: Ints, slot: int, seat: int) -> int:
    """Exit (E-7), in place: the llama of ``seat`` in ``slot`` goes into its house; returns
    the llamas now in that house (for :func:`has_won`, E-10)."""
    owner[slot] = -1
    house[seat] += 1
    return int(house[seat])


@rule("E-7")
def detour(
    owner: Ints,
    slot: int,
    path_len: Ints,
    path_owner: Any,
    path_prog: Any,
    index: int,
    progress: int,
) -> None:
    """Detour (E-7), in place: the llama in ``slot`` leaves its car for the free footprint
    of footpath ``index`` nearest the re-boarding end (the one behind the llamas already
    there), with ``progress``, its progress after the walk back (:func:`detour_progress`,
    E-8)."""
    m = path_len[index]
    path_owner[index][m] = owner[slot]
    path_prog[index][m] = progress
    path_len[index] = m + 1
    owner[slot] = -1


@rule("E-7")
def reboard(
    owner: Ints,
    prog: Ints,
    slot: int,
    path_len: Ints,
    path_owner: Any,
    path_prog: Any,
    index: int,
) -> None:
    """Re-board (E-7), in place: the front llama of footpath ``index`` gets into the empty
    car in ``slot`` with the progress it had on the footpath (E-8); the llamas behind it move
    up one footprint."""
    owners = path_owner[index]
    progs = path_prog[index]
    owner[slot] = owners[0]
    prog[slot] = progs[0]
    m = path_len[index] - 1
    for j in range(m):
        owners[j] = owners[j + 1]
        progs[j] = progs[j + 1]
    path_len[index] = m
