"""The Lama Express rule primitives: each cites its ruling, the rulings hold on small cases,
and the compiled forms the batch engine runs agree with the plain ones (E-2, E-6 .. E-11)."""

from __future__ import annotations

import inspect
import random
from typing import Any

import numpy as np
import pytest

from lamagames.core.jit import RULING_ATTRIBUTE
from lamagames.express import primitives as p
from lamagames.express.actions import BOARD_BASE, DETOUR_BASE, EXIT_BASE, REBOARD_BASE
from lamagames.express.material import ROLE_ARROW, ROLE_BOARDING, ROLE_EXIT, ROLE_REBOARD
from lamagames.express.rules import STAGE_AFTER_MOVE, STAGE_AFTER_ROLL

FUNCTIONS = [f for _, f in inspect.getmembers(p, inspect.isfunction) if f.__module__ == p.__name__]


@pytest.mark.parametrize("function", FUNCTIONS, ids=lambda f: f.__name__)
def test_every_primitive_names_its_ruling_in_its_docstring(function: object) -> None:
    ruling = getattr(function, RULING_ATTRIBUTE)
    assert ruling in (function.__doc__ or "")


def test_car_space_e2() -> None:
    # E-2: cars 1..5 on tip-3 .. tip-7, modulo the track length.
    assert [p.car_space(10, c, 48) for c in range(5)] == [7, 6, 5, 4, 3]
    assert [p.car_space(2, c, 48) for c in range(5)] == [47, 46, 45, 44, 43]


def test_movable_e6_no_pushing() -> None:
    # A at tip 0, B at tip 24 on 48 spaces: 17 free spaces ahead of each (24 - 7).
    assert p.movable(17, 17, 0, 24, 48) == 3
    assert p.movable(18, 17, 0, 24, 48) == 2  # A would push B
    assert p.movable(17, 18, 0, 24, 48) == 1
    assert p.movable(18, 18, 0, 24, 48) == 0
    # B right behind A: B cannot move at all, A can go round to B's last car.
    assert p.movable(5, 1, 7, 0, 48) == 1


def test_free_gap_e6_counts_the_spaces_up_to_the_other_trains_last_car() -> None:
    # E-2: a train covers its tip-1 .. tip-7; A at tip 0, B at tip 24 on 48 spaces: B's last
    # car is on 17, so A may move 17 spaces (its tip onto 17, its locomotive onto 16).
    assert p.free_gap(0, 24, 48) == 17
    assert p.free_gap(24, 0, 48) == 17
    assert p.free_gap(7, 0, 48) == 48 - 14  # right in front of B: all the rest of the track
    assert p.free_gap(0, 7, 48) == 0  # right behind A: no room
    # Trains apart: the two gaps and both trains (7 spaces each) make up the track.
    for a, b in ((0, 24), (3, 40), (7, 0), (10, 17)):
        assert p.free_gap(a, b, 48) + p.free_gap(b, a, 48) + 14 == 48


def test_tip_after_e6_goes_round_the_track() -> None:
    assert p.tip_after(10, 4, 48) == 14
    assert p.tip_after(46, 4, 48) == 2
    assert p.tip_after(47, 1, 48) == 0
    assert p.tip_after(5, 48, 48) == 5  # once round (a colour found only at the tip)


def test_lap_to_go_e8_is_zero_from_the_need_on() -> None:
    # E-8: a llama may get off at an exit needing 45 once its progress is at least 45.
    assert p.lap_to_go(0, 45) == 45
    assert p.lap_to_go(40, 45) == 5
    assert p.lap_to_go(44, 45) == 1
    assert p.lap_to_go(45, 45) == 0
    assert p.lap_to_go(50, 45) == 0
    assert p.lap_to_go(-3, 45) == 48  # detoured right after boarding: a longer way to go


def test_move_train_e6_carries_riders_e8() -> None:
    tips, owner, prog = [46, 10], [0, -1, 1, -1, -1, 2, -1, -1, -1, -1], [5] * 10
    p.move_train(tips, owner, prog, 0, 4, 48)
    assert tips == [2, 10]
    assert prog == [9, 5, 9, 5, 5, 5, 5, 5, 5, 5]  # only train A's riders gain progress


def test_window_end_and_limit_e9_e10_e11() -> None:
    free = [[], [40], [41], []]
    assert p.next_asked(free, 0, 0, 4) == 1
    assert p.next_asked(free, 0b10, 0, 4) == 2  # seat 1 passed
    assert p.next_asked(free, 0b110, 3, 4) == -1
    assert p.detour_progress(20, 3) == 17
    assert p.has_won(4, 4) and not p.has_won(3, 4) and p.has_won(3, 3)
    assert p.turn_limit_reached(10, 10) and not p.turn_limit_reached(9, 10)
    assert not p.turn_limit_reached(10**6, -1)  # no limit


def test_compiled_forms_agree_with_plain_forms() -> None:
    from lamagames.express import batch_kernels as k

    rng = random.Random(17)
    for _ in range(300):
        d0, d1, t0, t1 = (rng.randrange(48) for _ in range(4))
        assert k.movable(d0, d1, t0, t1, 48) == p.movable(d0, d1, t0, t1, 48)
        free = np.array([rng.randrange(2) for _ in range(4)], np.uint64)
        passed, start = rng.randrange(16), rng.randrange(4)
        assert k.next_asked(free, passed, start, 4) == p.next_asked(list(free), passed, start, 4)
        tips = np.array([rng.randrange(48), rng.randrange(48)], np.int32)
        owner = np.array([rng.randrange(-1, 4) for _ in range(10)], np.int32)
        prog = np.zeros(10, np.int32)
        plain = (tips.tolist(), owner.tolist(), prog.tolist())
        k.move_train(tips, owner, prog, d0 % 2, d1, 48)
        p.move_train(*plain, d0 % 2, d1, 48)
        assert (tips.tolist(), prog.tolist()) == (plain[0], plain[2])


def test_compiled_callees_are_the_compiled_primitives() -> None:
    """A primitive that calls another one (``movable`` calls ``free_gap``) is compiled with
    the callee's compiled form (core.jit), so both forms run the same code."""
    from lamagames.core.jit import compiled
    from lamagames.express import batch_kernels as k

    pairs = (("movable", "free_gap"), ("move_train", "tip_after"), ("available", "lap_to_go"))
    for caller, callee in pairs:
        names = getattr(k, caller).py_func.__globals__
        assert names[callee] is compiled(getattr(p, callee))
    assert p.movable.__globals__["free_gap"] is p.free_gap  # the plain form: plain callees


# ---------------------------------------------------------------- E-7 availability
# A hand-made table of cars on role spaces: train A's tip is 0, train B's tip is 1.
# Train A: car 0 on seat 1's boarding space, car 1 on seat 1's exit space (lap need 40),
# car 2 on the arrow of footpath 0 (2 footprints). Train B: car 4 on the re-boarding space
# of footpath 0.
_SPECIALS = [
    (
        (0, ROLE_BOARDING, 1, 0, 1, 0),
        (1, ROLE_EXIT, 1, 40, 1, 0),
        (2, ROLE_ARROW, 0, 0, -1, 2),
    ),
    ((4, ROLE_REBOARD, 0, 0, -1, 2),),
]
_TIPS = [0, 1]
_CAP = 2


def _position() -> dict[str, Any]:
    """Empty cars, one llama of each seat at its station, empty footpath."""
    return {
        "owner": [-1] * 10,
        "prog": [0] * 10,
        "station": [1, 1, 1],
        "path_len": [0],
        "path_owner": [[-1] * _CAP],
        "path_prog": [[0] * _CAP],
    }


def _available(pos: dict[str, Any]) -> list[int]:
    free = [0, 0, 0]
    p.available(
        free, _SPECIALS, _TIPS, pos["owner"], pos["prog"], pos["station"],
        pos["path_len"], pos["path_owner"],
    )  # fmt: skip
    return free


def test_e7_board_needs_an_empty_car_on_the_seats_boarding_space_and_a_waiting_llama() -> None:
    pos = _position()
    assert _available(pos) == [0, 1 << BOARD_BASE, 0]  # seat 1's boarding space, car A1
    pos["station"][1] = 0
    assert _available(pos) == [0, 0, 0]  # no llama waiting
    pos["station"][1] = 1
    pos["owner"][0] = 2
    assert _available(pos)[1] == 0  # the car is taken


def test_e7_exit_needs_the_owners_exit_space_and_a_completed_lap_e8() -> None:
    pos = _position()
    pos["station"] = [0, 0, 0]
    pos["owner"][1] = 1
    pos["prog"][1] = 39
    assert _available(pos) == [0, 0, 0]  # E-8: lap not completed
    pos["prog"][1] = 40
    assert _available(pos) == [0, 1 << (EXIT_BASE + 1), 0]
    pos["owner"][1] = 0
    assert _available(pos) == [0, 0, 0]  # not the owner's exit space


def test_e7_detour_is_for_the_owners_opponents_while_a_footprint_is_free() -> None:
    pos = _position()
    pos["station"] = [0, 0, 0]
    pos["owner"][2] = 1
    pos["owner"][9] = 1  # car B5 taken: no re-boarding
    bit = 1 << (DETOUR_BASE + 2)
    assert _available(pos) == [bit, 0, bit]
    pos["path_len"] = [2]
    pos["path_owner"] = [[0, 2]]
    assert _available(pos) == [0, 0, 0]  # the footpath is full


def test_e7_reboard_is_for_the_front_llama_of_the_footpath_into_an_empty_car() -> None:
    pos = _position()
    pos["station"] = [0, 0, 0]
    assert _available(pos) == [0, 0, 0]  # empty footpath
    pos["path_len"] = [2]
    pos["path_owner"] = [[2, 0]]
    assert _available(pos) == [0, 0, 1 << (REBOARD_BASE + 9)]  # front: seat 2, car B5
    pos["owner"][9] = 1
    assert _available(pos) == [0, 0, 0]  # the car is taken


def test_e7_available_clears_what_was_there() -> None:
    pos = _position()
    pos["station"] = [0, 0, 0]
    free = [5, 7, 9]
    p.available(
        free, _SPECIALS, _TIPS, pos["owner"], pos["prog"], pos["station"],
        pos["path_len"], pos["path_owner"],
    )  # fmt: skip
    assert free == [0, 0, 0]


# ---------------------------------------------------------------- E-7 effects
def test_e7_board_takes_a_llama_from_the_station_with_progress_zero_e8() -> None:
    owner, prog, station = [-1] * 10, [7] * 10, [4, 2]
    p.board(owner, prog, station, 3, 1)
    assert (owner[3], prog[3], station) == (1, 0, [4, 1])


def test_e7_exit_puts_the_llama_in_its_house_and_returns_the_count_e10() -> None:
    owner, house = [-1, 2, -1] + [-1] * 7, [0, 0, 3]
    assert p.exit_car(owner, house, 1, 2) == 4
    assert owner[1] == -1 and house == [0, 0, 4]
    assert p.has_won(p.exit_car([2] * 10, [0, 0, 0], 0, 2), 4) is False


def test_e7_detour_takes_the_footprint_nearest_the_reboarding_end() -> None:
    owner = [-1] * 10
    owner[6] = 3
    path_len, path_owner, path_prog = [0, 1], [[-1] * 3, [0, -1, -1]], [[0] * 3, [9, 0, 0]]
    p.detour(owner, 6, path_len, path_owner, path_prog, 1, p.detour_progress(20, 4))
    assert owner[6] == -1
    # E-7: behind the llama already there, the free footprint nearest the re-boarding end;
    # E-8: its progress after the walk back.
    assert (path_len, path_owner[1][:2], path_prog[1][:2]) == ([0, 2], [0, 3], [9, 16])
    assert path_owner[0] == [-1] * 3  # the other footpath is untouched


def test_e7_reboard_takes_the_front_llama_and_the_others_move_up() -> None:
    owner, prog = [-1] * 10, [0] * 10
    path_len, path_owner, path_prog = [3], [[2, 0, 1]], [[5, 6, 7]]
    p.reboard(owner, prog, 4, path_len, path_owner, path_prog, 0)
    assert (owner[4], prog[4]) == (2, 5)  # E-8: the progress it had on the footpath
    assert (path_len, path_owner[0][:2], path_prog[0][:2]) == ([2], [0, 1], [6, 7])


# ---------------------------------------------------------------- E-6 / E-9 order
def test_e6_train_to_move_chooses_forces_or_ends_the_turn() -> None:
    assert p.train_to_move(3) == p.CHOOSE_TRAIN
    assert p.train_to_move(1) == 0
    assert p.train_to_move(2) == 1
    assert p.train_to_move(0) == -1


def test_e6_next_active_goes_round_the_seats() -> None:
    assert [p.next_active(s, 3) for s in range(3)] == [1, 2, 0]


def test_e9_the_window_of_the_roll_is_followed_by_the_move_the_other_by_the_turns_end() -> None:
    assert p.step_after_window(STAGE_AFTER_ROLL) == p.STEP_RESOLVE
    assert p.step_after_window(STAGE_AFTER_MOVE) == p.STEP_END_TURN


def test_e9_asking_goes_on_after_the_actor_or_the_asked_seat_that_passed() -> None:
    assert p.ask_from(1, 1, False, 4) == 2  # the asked seat passed
    assert p.ask_from(3, 3, True, 4) == 0  # an action: from the seat after the actor
    assert p.ask_from(2, 0, True, 4) == 3  # live play: another seat acted
    assert p.ask_from(2, 0, False, 4) == 0  # live play: another seat passed, 0 still asked


# ---------------------------------------------------------------- compiled forms
def test_compiled_e7_primitives_agree_with_plain_forms_on_the_engines_own_tables() -> None:
    from lamagames.express import batch_kernels as k
    from lamagames.express.batch import BatchTables
    from lamagames.express.game import ExpressGame

    game = ExpressGame(num_players=4)
    table = BatchTables.from_game(game)
    cap = table.fp_cap
    rng = random.Random(7)
    for _ in range(300):
        tips = [rng.randrange(48), rng.randrange(48)]
        owner = [rng.choice([-1, -1, 0, 1, 2, 3]) for _ in range(10)]
        prog = [rng.randrange(60) for _ in range(10)]
        station = [rng.randrange(3) for _ in range(4)]
        path_len = [rng.randrange(int(c) + 1) for c in cap]
        depth = int(cap.max())
        path_owner = [[rng.randrange(4) for _ in range(depth)] for _ in cap]
        path_prog = [[rng.randrange(60) for _ in range(depth)] for _ in cap]
        plain = [0] * 4
        p.available(plain, game.car_specials, tips, owner, prog, station, path_len, path_owner)
        t_tips, t_owner, t_prog, t_station, t_len = (
            np.array(x, np.int32) for x in (tips, owner, prog, station, path_len)
        )
        po, pp = np.array(path_owner, np.int32), np.array(path_prog, np.int32)
        free = np.full(4, 99, np.uint64)
        k.available(free, table.specials, t_tips, t_owner, t_prog, t_station, t_len, po)
        assert free.tolist() == plain
        # The effects, on a random llama and footpath.
        slot, index = rng.randrange(10), rng.randrange(len(cap))
        if path_len[index] < cap[index]:
            p.detour(owner, slot, path_len, path_owner, path_prog, index, 11)
            k.detour(t_owner, slot, t_len, po, pp, index, 11)
        elif path_len[index] > 0:
            p.reboard(owner, prog, slot, path_len, path_owner, path_prog, index)
            k.reboard(t_owner, t_prog, slot, t_len, po, pp, index)
        assert t_owner.tolist() == owner and t_prog.tolist() == prog
        assert t_len.tolist() == path_len
        for i, m in enumerate(path_len):
            assert po[i, :m].tolist() == path_owner[i][:m]
            assert pp[i, :m].tolist() == path_prog[i][:m]
    for can in range(4):
        assert k.train_to_move(can) == p.train_to_move(can)
    for stage in (STAGE_AFTER_ROLL, STAGE_AFTER_MOVE):
        assert k.step_after_window(stage) == p.step_after_window(stage)
    for seat, asked, acted in [(1, 1, False), (2, 0, True), (2, 0, False)]:
        assert k.ask_from(seat, asked, acted, 4) == p.ask_from(seat, asked, acted, 4)
    assert k.next_active(3, 4) == p.next_active(3, 4) == 0
