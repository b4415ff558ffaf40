"""The LAMA Dice rule primitives: plain and compiled forms agree, each cites its ruling,
and the batch kernel's constants are the scalar engine's (D-1 .. D-11)."""

from __future__ import annotations

import inspect
import itertools
import random

import numpy as np
import pytest

from lamagames.core.jit import RULING_ATTRIBUTE
from lamagames.dice import actions, primitives, rules

FUNCTIONS = [
    f
    for _, f in inspect.getmembers(primitives, inspect.isfunction)
    if f.__module__ == primitives.__name__
]


@pytest.mark.parametrize("function", FUNCTIONS, ids=lambda f: f.__name__)
def test_every_primitive_names_its_ruling_in_its_docstring(function: object) -> None:
    ruling = getattr(function, RULING_ATTRIBUTE)
    assert ruling in (function.__doc__ or "")


def test_roll_result_order_d8() -> None:
    row = [0, 1, 0, 0, 0, 0, 1]  # a 2 and a llama
    llama = [1, 1, 1, 0, 1, 1, 1]
    assert primitives.roll_result(row, llama, 6, 6, 6, False) == primitives.THREE_LLAMAS
    assert primitives.roll_result(row, llama, 1, 0, 2, False) == primitives.MATCH
    assert primitives.roll_result(row, llama, 0, 2, 3, False) == primitives.TAKE
    assert primitives.roll_result(row, llama, 0, 2, 3, True) == primitives.BUST  # D-8.5
    assert primitives.roll_result(row, llama, 3, 3, 3, False) == primitives.BUST  # D-8.4


def test_compiled_forms_agree_with_plain_forms() -> None:
    from lamagames.dice import batch_kernel as k

    rng = random.Random(3)
    for _ in range(300):
        row = np.array([rng.randint(0, 2) for _ in range(7)], dtype=np.int8)
        llama = np.array([rng.randint(0, 1) for _ in range(7)], dtype=np.int8)
        a, b, c = (rng.randint(0, 6) for _ in range(3))
        last = rng.random() < 0.3
        plain_row, plain_llama = row.tolist(), llama.tolist()
        assert k.roll_result(row, llama, a, b, c, last) == primitives.roll_result(
            plain_row, plain_llama, a, b, c, last
        )
        assert k.max_discard(row, a, b, c) == primitives.max_discard(plain_row, a, b, c)
        assert k.row_score(row) == primitives.row_score(plain_row) == primitives.row_score(row)
        score = rng.randint(0, 45)
        assert k.chip_choices(score) == primitives.chip_choices(score)


def test_batch_kernel_constants_are_the_engines() -> None:
    from lamagames.dice import batch_kernel as k

    assert k.NUM_ACTIONS == actions.NUM_DISTINCT_ACTIONS
    assert k.NUM_OUTCOMES == actions.MAX_CHANCE_OUTCOMES
    assert k.A_DISCARD == actions.DISCARD_BASE
    assert k._DECK.tolist() == list(rules.DECK_CARDS)


def _plain_discards(max_code: int) -> list[int]:
    out = []
    code = primitives.next_discard(0, max_code)
    while code:
        out.append(code)
        code = primitives.next_discard(code, max_code)
    return out


def test_next_discard_lists_every_legal_discard_once_in_code_order_d8_2() -> None:
    """D-8.2: the legal discards are the non-empty sub-multisets of max_discard, each once,
    in ascending code order; 0 has none. rules.discard_codes lists the same ones in
    lexicographic order (symbol 1's count varying slowest), the solver tables' order."""
    assert _plain_discards(0) == []
    seen = 0
    for row in itertools.product(range(4), repeat=3):
        for a, b, c in itertools.product(range(7), repeat=3):
            counts = [row[0], row[1], 0, 0, 0, 0, row[2]]  # 1s, 2s and llamas
            limit = primitives.max_discard(counts, a, b, c)
            caps = [(limit >> (2 * s)) & 3 for s in range(7)]
            expected = [
                sum(k << (2 * s) for s, k in enumerate(sub))
                for sub in itertools.product(*(range(m + 1) for m in caps))
                if any(sub)
            ]
            assert _plain_discards(limit) == sorted(expected)
            assert rules.discard_codes(limit) == expected
            seen += len(expected)
    assert seen > 1000
    assert _plain_discards(3 << 12) == [1 << 12, 2 << 12, 3 << 12]  # three llamas


def test_next_discard_compiled_agrees() -> None:
    from lamagames.dice import batch_kernel as k

    for limit in (0, 1, 2 | 1 << 12, 1 | 1 << 6 | 1 << 12, 3 << 4, 1 | 2 << 2, 0x3FFF):
        code = 0
        while True:
            nxt = k.next_discard(code, limit)
            assert nxt == primitives.next_discard(code, limit)
            if nxt == 0:
                break
            code = nxt


def test_d11_wins_the_lowest_score_ties_all_win() -> None:
    assert [primitives.wins([40, 12, 33], s) for s in range(3)] == [False, True, False]
    assert [primitives.wins([12, 40, 12], s) for s in range(3)] == [True, False, True]
    assert all(primitives.wins([0, 0], s) for s in range(2))


def test_d5_next_starter_is_the_seat_of_the_last_move() -> None:
    # D-5: each later round is started by the seat that made the last move (a roll or a quit).
    assert [primitives.next_starter(seat) for seat in range(4)] == [0, 1, 2, 3]


def test_d8_2_discard_puts_down_the_chosen_cards() -> None:
    # The example of D-8.2: dice 3, 3, llama and the row 3 3 3 L 5; putting down two 3s and
    # the llama leaves 3 5.
    row = [0, 0, 3, 0, 1, 0, 1]
    two_threes_and_a_llama = 2 << (2 * 2) | 1 << (2 * 6)
    assert primitives.discard(row, two_threes_and_a_llama) == (0, 0, 1, 0, 1, 0, 0)
    assert primitives.discard(row, 1 << (2 * 2)) == (0, 0, 2, 0, 1, 0, 1)  # one 3 only
    assert row == [0, 0, 3, 0, 1, 0, 1]  # the argument is left as it was


def test_d8_3_take_moves_one_llama_row_card_into_the_row() -> None:
    row = [1, 0, 0, 0, 0, 0, 0]
    llama = [1, 1, 0, 1, 1, 0, 1]
    new_row, new_llama = primitives.take(row, llama, 3)  # the 4 of the llama row
    assert new_row == (1, 0, 0, 1, 0, 0, 0)
    assert new_llama == (1, 1, 0, 0, 1, 0, 1)


def test_d8_4_bust_takes_every_llama_row_card() -> None:
    row = [0, 2, 0, 0, 0, 1, 0]
    llama = [1, 1, 0, 0, 1, 0, 1]
    primitives.bust(row, llama)
    assert row == [1, 3, 0, 0, 1, 1, 1]
    assert llama == [0] * 7
    assert rules.after_bust((0, 0, 0, 0, 0, 0, 0), (1,) * 7) == (1,) * 7


def test_d8_4_bust_masks_join_the_llama_row_to_the_row() -> None:
    # The symbols a row holds after a bust are its own plus every llama-row card (D-8.4).
    masks = rules.BUST_MASKS
    for held in range(128):
        for cards in range(128):
            assert masks[held, cards] == held | cards


def test_row_updates_compiled_agree_with_plain() -> None:
    from lamagames.dice import batch_kernel as k

    rng = random.Random(5)
    for _ in range(200):
        row = np.array([rng.randint(0, 3) for _ in range(7)], dtype=np.int8)
        llama = np.array([rng.randint(0, 1) for _ in range(7)], dtype=np.int8)
        code = sum(rng.randint(0, int(row[s])) << (2 * s) for s in range(7))
        s = rng.randint(0, 6)
        assert k.discard(row, code) == primitives.discard(row.tolist(), code)
        assert k.take(row, llama, s) == primitives.take(row.tolist(), llama.tolist(), s)
