"""The Lama Express rule primitives: each cites its ruling, the rulings hold on small cases,
and the compiled forms the batch engine runs agree with the plain ones (E-2, E-6 .. E-11)."""

from __future__ import annotations

import inspect
import random

import numpy as np
import pytest

from lamagames.core.jit import RULING_ATTRIBUTE
from lamagames.express import primitives as p

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
    pytest.importorskip("numba")
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
