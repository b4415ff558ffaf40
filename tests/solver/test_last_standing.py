"""The exact last-player-standing solver (D-8.5) against brute-force expectimax over the
engine, its Bellman residual, and sanity properties of the values."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from lamagames.core.errors import ParameterError
from lamagames.dice.game import DiceGame
from lamagames.dice.primitives import best_chip
from lamagames.dice.rules import Phase
from lamagames.dice.solver import (
    LastStandingSolver,
    LastStandingTable,
    NotTractableError,
    PositionError,
    bust_chance,
    get_solver,
)
from lamagames.dice.solver.last_standing import MAX_LEVELS
from lamagames.dice.solver.space import (
    TOTAL_COPIES,
    llama_mask,
    row_universe,
)
from lamagames.dice.state import DiceState
from tests.dice.helpers import counts, make_state
from tests.solver.brute import expectimax

#: Rolls allowed beyond the cards in the row: the truncation error of the brute force is
#: below about C(n + 8, 8) * 27**-8 * 20 points, far under the tolerance.
EXTRA_ROLLS = 8
TOLERANCE = 1e-6

#: (own row, llama row, own score): small hand-built last-player-standing positions.
POSITIONS = [
    ("3", "123456L", 0),  # D-8.5: one card; any non-3 roll but three llamas is a bust
    ("3L", "5", 0),
    ("33", "1L", 12),  # a black and two whites to give back (D-8.1, D-10)
    ("L", "6", 1),
    ("26L", "12345", 0),
    ("11", "L", 9),
]


def _last_standing(row: str, llama_row: str, score: int) -> DiceState:
    """Seat 0 to act with ``row``; seat 1 has quit (D-7) with a one-card row."""
    other = "4" if "4" not in llama_row else "6"
    return make_state([row, other], llama_row=llama_row, scores=[score, 0], quit=[False, True])


@pytest.mark.parametrize(("row", "llama_row", "score"), POSITIONS)
def test_d8_5_turn_value_equals_brute_force_expectimax(
    solver: LastStandingSolver, row: str, llama_row: str, score: int
) -> None:
    state = _last_standing(row, llama_row, score)
    brute = expectimax(state, 0, budget=len(row) + EXTRA_ROLLS)
    table = solver.table(counts(llama_row), score)
    assert table.value(counts(row), score) == pytest.approx(brute, abs=TOLERANCE)


def test_d8_2_discard_choices_equal_brute_force(solver: LastStandingSolver) -> None:
    # Dice 3 3 L on row 3 3 L 5 (the D-8.2 example): up to two 3s and one L.
    state = make_state(
        ["335L", "6"], llama_row="12", quit=[False, True], phase=Phase.DISCARD, dice="33L"
    )
    table = solver.table(counts("12"))
    for action in state.legal_actions():
        child = state.child(action)
        brute = expectimax(child, 0, budget=4 + EXTRA_ROLLS)
        row_after = child.rows[0]
        assert table.after_discard_value(row_after, 0) == pytest.approx(brute, abs=TOLERANCE)


def test_d8_1_give_back_values_equal_brute_force(solver: LastStandingSolver) -> None:
    state = make_state(
        ["5L", "6"],
        llama_row="1",
        scores=[11, 0],
        quit=[False, True],
        phase=Phase.GIVE_LLAMAS,
        dice="LLL",
    )
    table = solver.table(counts("1"), 11)
    chips = {"give black": 10, "give white": 1, "give none": 0}
    for action in state.legal_actions():
        brute = expectimax(state.child(action), 0, budget=2 + EXTRA_ROLLS, start=11)
        chip = chips[state.action_to_string(action)]
        assert table.give_value(counts("5L"), 11, chip) == pytest.approx(brute, abs=TOLERANCE)


def test_roll_value_is_the_brute_force_value_of_rolling(solver: LastStandingSolver) -> None:
    state = _last_standing("26L", "12345", 0)
    rolled = state.child(0)  # roll: the dice chance node
    brute = expectimax(rolled, 0, budget=3 + EXTRA_ROLLS - 1)
    table = solver.table(counts("12345"))
    assert table.roll_value(counts("26L"), 0) == pytest.approx(brute, abs=TOLERANCE)
    assert table.value(counts("26L"), 0) == min(
        table.quit_value(counts("26L")), table.roll_value(counts("26L"), 0)
    )


def test_bellman_residual_is_zero(solver: LastStandingSolver) -> None:
    table = solver.table(0b1111111, 12)
    assert table.bellman_residual() < 1e-12
    assert table.iterations.max() < 40  # the three-llama loop contracts by 1/27


def test_values_are_sane(solver: LastStandingSolver) -> None:
    full = solver.table(0b1111111, 25)
    few = solver.table(llama_mask(counts("1")), 25)
    universe = row_universe()
    quit_values = universe.scores.astype(float)
    for table in (full, few):
        values = table.values
        assert (values <= quit_values + 1e-12).all()  # D-7: quitting is always allowed
        scores = np.arange(table.levels)[:, None]
        assert (values >= -scores - 1e-12).all()  # cannot give back more than one holds
        assert (values <= values[0] + 1e-12).all()  # chips to give back never hurt (D-8.1)
    # A smaller llama row makes a bust cheaper (D-8.4), never dearer.
    assert (few.values <= full.values + 1e-12).all()


def test_d10_emptying_the_row_gives_back_the_best_chip(solver: LastStandingSolver) -> None:
    table = solver.table(counts("L"), 25)
    assert table.after_discard_value([0] * 7, 25) == -best_chip(25) == -10
    assert table.after_discard_value([0] * 7, 3) == -1
    assert table.after_discard_value([0] * 7, 0) == 0


def test_bust_chance_counts_d8_4_and_d8_5() -> None:
    rolls = LastStandingSolver(use_disk_cache=False).rolls
    row, llama_row = counts("3"), counts("123456L")
    alone = bust_chance(rolls, row, llama_row, last_standing=True)
    with_others = bust_chance(rolls, row, llama_row, last_standing=False)
    # D-8.5: everything but a 3 and three llamas; 3 is on dice A and C (1/6 each).
    assert alone == pytest.approx((5 / 6) ** 2 - 1 / 27)  # no 3 on A or C, minus L L L
    assert alone == pytest.approx(
        sum(p for c, p in zip(rolls.counts, rolls.probs, strict=True) if c[2] == 0 and c[6] < 3)
    )
    assert with_others == 0.0  # D-8.3: every symbol is still in the llama row


@pytest.mark.parametrize(
    ("row", "llama_row", "score", "message"),
    [
        ("", "1", 0, "empty"),
        ("3", "", 0, "D-9"),
        ("112233445566L", "1", 0, "not a row"),  # 13 cards: more than 6 dealt + 6 taken
        ("3333333", "1", 0, "7 cards of symbol 3 .* only 6 exist"),  # D-3
        ("3", "1", -1, "non-negative"),
    ],
)
def test_bad_positions_are_refused_clearly(
    solver: LastStandingSolver, row: str, llama_row: str, score: int, message: str
) -> None:
    with pytest.raises(PositionError, match=message):
        solver.table(counts(llama_row), score).value(counts(row), max(score, 0))


@pytest.mark.slow
def test_d1_custom_dice_values_equal_brute_force() -> None:
    # D-1: any face set meeting the constraint is configuration; the solver uses its rolls.
    dice = ("LL1234", "56LL12", "3456LL")
    custom = LastStandingSolver(dice)
    state = make_state(
        ["15L", "4"],
        llama_row="23",
        quit=[False, True],
        scores=[3, 0],
        game=DiceGame(num_players=2, dice=list(dice)),
    )
    brute = expectimax(state, 0, budget=3 + EXTRA_ROLLS)
    assert custom.table(counts("23"), 3).value(counts("15L"), 3) == pytest.approx(
        brute, abs=TOLERANCE
    )


@settings(max_examples=60, deadline=None)
@given(index=st.integers(0, row_universe().size - 1), score=st.integers(0, 9))
def test_turn_value_is_the_better_of_quit_and_roll(
    solver: LastStandingSolver, index: int, score: int
) -> None:
    # D-6: at a turn the player quits (D-7) or rolls (D-8); the table holds the better one.
    table = solver.table(0b1111111)
    row = [int(c) for c in row_universe().rows[index]]
    # D-3: beside the full llama row a player holds at most 5 of a number and 6 llamas.
    assume(all(c + 1 <= cap for c, cap in zip(row, TOTAL_COPIES, strict=True)))
    best = min(table.quit_value(row), table.roll_value(row, score))
    assert table.value(row, score) == pytest.approx(best, abs=1e-12)
    assert table.value(row, score) <= table.quit_value(row)


def test_tables_beyond_the_size_budget_are_refused_without_solving(
    solver: LastStandingSolver, monkeypatch: pytest.MonkeyPatch
) -> None:
    # end_score may be up to 10000 (D-11): a table for score 9995 would need 10000 levels
    # (3.6 GB); the budget refuses it at once instead of running out of memory.
    def no_solve(*args: object) -> None:
        raise AssertionError("nothing may be solved beyond the budget")

    monkeypatch.setattr(solver, "_solve", no_solve)
    assert solver.max_levels == MAX_LEVELS == 100
    assert solver.covers(39) and solver.covers(99)  # the standard end score 40, and up to 100
    assert not solver.covers(100) and not solver.covers(9995)
    with pytest.raises(NotTractableError, match=r"score 9995 needs .* 10000 score levels"):
        solver.table(counts("12"), 9995)
    with pytest.raises(NotTractableError, match="limit of 100 score levels"):
        solver.table(counts("12"), 100)
    small = LastStandingSolver(use_disk_cache=False, max_levels=20)
    assert small.covers(19) and not small.covers(20)
    with pytest.raises(ParameterError, match="max_levels"):
        LastStandingSolver(max_levels=5)


#: Rows refused by every query of a table beside llama row ``1 L`` (message fragments).
BAD_ROWS: list[tuple[object, str]] = [
    ((1.5, 0, 1, 0, 0, 0, 1), "non-negative integers"),
    ((True, 0, 1, 0, 0, 0, 1), "non-negative integers"),
    ((1, 0, -1, 0, 0, 0, 1), "non-negative integers"),
    ((6, 0, 0, 0, 0, 0, 0), r"7 cards of symbol 1 in the row and llama row, but only 6 exist"),
    ((0, 0, 0, 0, 0, 0, 7), r"8 cards of symbol L .* only 7 exist \(D-3\)"),
    ("1030001", "7 counts"),
    (None, "7 counts"),
    ((1, 0, 1), "7 counts"),
    ((0, 0, 0, 0, 0, 0, 0), "empty"),
]


def _queries(table: LastStandingTable, row: object) -> list[tuple[str, object]]:
    """Every public query of a table on ``row`` at score 12 (callables, by name)."""
    return [
        ("value", lambda: table.value(row, 12)),  # type: ignore[arg-type]
        ("quit_value", lambda: table.quit_value(row)),  # type: ignore[arg-type]
        ("roll_value", lambda: table.roll_value(row, 12)),  # type: ignore[arg-type]
        ("after_discard_value", lambda: table.after_discard_value(row, 12)),  # type: ignore[arg-type]
        ("give_value", lambda: table.give_value(row, 12, 1)),  # type: ignore[arg-type]
    ]


@pytest.mark.parametrize(("row", "message"), BAD_ROWS)
def test_every_table_query_refuses_a_bad_row_with_a_position_error(
    solver: LastStandingSolver, row: object, message: str
) -> None:
    table = solver.table(counts("1L"), 12)
    for name, query in _queries(table, row):
        if name == "after_discard_value" and row == (0,) * 7:
            assert table.after_discard_value(row, 12) == -10  # D-10: emptied, a black back
            continue
        with pytest.raises(PositionError, match=message):
            query()  # type: ignore[operator]


@pytest.mark.parametrize(("score", "message"), [
    (True, "score must be an integer, got True"),
    (12.0, "score must be an integer, got 12.0"),
    ("12", "score must be an integer"),
    (20, r"score 20 is outside 0..19"),
    (-1, r"score -1 is outside"),
])  # fmt: skip
def test_table_queries_refuse_a_score_that_is_not_an_integer_in_the_table(
    solver: LastStandingSolver, score: object, message: str
) -> None:
    table = solver.table(counts("1L"), 12)
    row = counts("35")
    for query in (table.value, table.roll_value, table.after_discard_value):
        with pytest.raises(PositionError, match=message):
            query(row, score)  # type: ignore[arg-type]
    with pytest.raises(PositionError, match=message):
        table.give_value(row, score, 0)  # type: ignore[arg-type]


def test_give_value_refuses_a_chip_that_is_not_0_1_or_10(solver: LastStandingSolver) -> None:
    table = solver.table(counts("1L"), 12)
    for chip in (True, 5, 1.0, None):
        with pytest.raises(PositionError, match="chip must be 0, 1 or 10"):
            table.give_value(counts("35"), 12, chip)  # type: ignore[arg-type]


def test_a_good_row_is_still_valued(solver: LastStandingSolver) -> None:
    table = solver.table(counts("1L"), 12)
    row = (5, 0, 1, 0, 0, 0, 6)  # the most a row holds beside llama row 1 L (D-3)
    assert table.value(row, 12) == min(table.quit_value(row), table.roll_value(row, 12))
    assert table.value(list(row), 12) == table.value(row, 12)


@pytest.mark.parametrize("llama_row", [None, "1L", (1, 0, 0, 0, 0, 0, 1.0), True, (2,) * 7])
def test_a_bad_llama_row_is_a_position_error(solver: LastStandingSolver, llama_row: object) -> None:
    with pytest.raises(PositionError, match="a llama row is 7 flags"):
        solver.table(llama_row, 0)  # type: ignore[arg-type]


def test_numpy_integers_are_integers(solver: LastStandingSolver) -> None:
    import numpy as np

    table = solver.table(counts("1L"), 12)
    row = (5, 0, 1, 0, 0, 0, 6)
    expected = table.value(row, 12)
    as_array: Any = np.array(row)
    twelve: Any = np.int64(12)
    ten: Any = np.int64(10)
    mask: Any = np.int64(0b1000001)
    flags: Any = np.array([1, 0, 0, 0, 0, 0, 1])
    assert table.value(as_array, twelve) == expected
    assert table.value(tuple(as_array), 12) == expected
    assert table.give_value(row, twelve, ten) == table.give_value(row, 12, 10)
    assert solver.table(mask, twelve).mask == 0b1000001
    assert solver.table(flags, 3).mask == 0b1000001
    assert solver.covers(twelve)


@pytest.mark.parametrize("mask", [128, 255, -1])
def test_a_mask_out_of_range_is_not_called_empty(solver: LastStandingSolver, mask: int) -> None:
    message = rf"llama row mask {mask}: a mask of the 7 symbols is 1..127"
    with pytest.raises(PositionError, match=message):
        solver.table(mask, 0)
    with pytest.raises(PositionError, match="mask 0: an empty llama row has ended the round"):
        solver.table(0, 0)


def test_a_negative_or_non_integer_score_is_not_covered(solver: LastStandingSolver) -> None:
    assert solver.covers(0) and solver.covers(99)
    for score in (-1, -10, True, 1.5, None):
        assert not solver.covers(score)  # type: ignore[arg-type]


def test_get_solver_takes_a_list_and_refuses_what_is_no_dice_set() -> None:
    dice = ["LL3456", "12LL56", "1234LL"]
    assert get_solver(dice) is get_solver(tuple(dice))
    assert get_solver(dice).dice == tuple(dice)
    for bad in (None, "LL3456", 3, {"a": 1}):
        with pytest.raises(ParameterError, match=r"^dice must be a list or tuple of three face"):
            get_solver(bad)  # type: ignore[arg-type]
    with pytest.raises(ParameterError, match=r"^dice: need exactly three dice"):  # D-1
        get_solver(("LL3456",))
    with pytest.raises(ParameterError, match=r"^dice: die B must have six faces"):
        get_solver(("LL3456", ["12LL56"], "1234LL"))  # type: ignore[arg-type]
    with pytest.raises(ParameterError, match=r"^dice must be a list or tuple"):
        LastStandingSolver(None)  # type: ignore[arg-type]


def test_threads_asking_at_once_share_one_solver(monkeypatch: pytest.MonkeyPatch) -> None:
    """``lama play`` makes its real bots while the warm-up thread makes throwaway ones:
    both must get the one shared solver of the dice set (its tables solved once)."""
    import threading
    import time

    from lamagames.dice.solver import last_standing

    made: list[object] = []

    class Slow(last_standing.LastStandingSolver):
        def __init__(self, dice: tuple[str, ...]) -> None:
            time.sleep(0.2)  # a construction long enough for the other thread to ask too
            super().__init__(dice)
            made.append(self)

    dice = ("LL3456", "12LL56", "1234LL")
    last_standing._shared_solver.cache_clear()
    monkeypatch.setattr(last_standing, "LastStandingSolver", Slow)
    got: list[object] = []
    threads = [threading.Thread(target=lambda: got.append(get_solver(dice))) for _ in range(2)]
    try:
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    finally:
        last_standing._shared_solver.cache_clear()
    assert len(made) == 1 and got[0] is got[1] is made[0]
