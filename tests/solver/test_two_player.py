"""Exact two-player round values: the compiled tables against the Python recursion and a
brute-force expectiminimax over the engine (D-6 .. D-10)."""

from __future__ import annotations

import itertools
from typing import Any

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from lamagames.core.errors import ParameterError
from lamagames.dice.solver import LastStandingSolver, PositionError
from lamagames.dice.solver.last_standing import NotTractableError
from lamagames.dice.solver.pair_table import greedy_chain, solve_table, table_states
from lamagames.dice.solver.space import TOTAL_COPIES, llama_mask
from lamagames.dice.solver.two_player import Key, TwoPlayerSolver
from tests.dice.helpers import counts, make_state
from tests.solver.brute import margin

TOLERANCE = 1e-6
EXACT = 1e-9


def _key(row: str, other: str, llama_row: str, scores: tuple[int, int]) -> Key:
    mask = llama_mask(counts(llama_row))
    return (tuple(counts(row)), tuple(counts(other)), mask, scores[0], scores[1])


@pytest.mark.parametrize("engine", ["compiled", "recursion"])
@pytest.mark.parametrize(
    ("row", "other", "llama_row", "scores", "budget"),
    [
        ("3", "5", "1L", (0, 0), 9),  # D-8.3 takes, D-8.4 busts, D-8.5 once a seat quits
        ("L", "6", "5", (11, 2), 9),  # D-8.1 give-backs for both seats
        ("12", "2", "3", (0, 0), 9),
    ],
)
def test_margin_equals_brute_force_expectiminimax(
    solver: LastStandingSolver,
    engine: str,
    row: str,
    other: str,
    llama_row: str,
    scores: tuple[int, int],
    budget: int,
) -> None:
    state = make_state([row, other], llama_row=llama_row, scores=list(scores))
    brute = margin(state, budget)
    exact = TwoPlayerSolver(solver, engine=engine).value(  # type: ignore[arg-type]
        _key(row, other, llama_row, scores)
    )
    assert exact.margin == pytest.approx(brute, abs=TOLERANCE)
    assert exact.margin == pytest.approx(exact.other - exact.own)


POSITIONS = [
    ("3", "5", "1L", (0, 0)),  # three-llama cycles with no chips (D-8.1), takes, busts
    ("L", "6", "5", (11, 2)),  # chips on both sides: black and white give-backs
    ("1L", "2", "3L", (3, 12)),
    ("33L", "5", "3L", (0, 1)),  # a duplicate to keep or discard (D-8.2)
    ("12", "46", "35L", (0, 0)),
    ("125", "46L", "36L", (0, 0)),
    ("4", "4L", "124", (13, 0)),  # a longer greedy chain (13, 3, 2, 1, 0) for one seat
]


@pytest.mark.parametrize(("row", "other", "llama_row", "scores"), POSITIONS)
def test_compiled_table_equals_the_recursion(
    solver: LastStandingSolver, row: str, other: str, llama_row: str, scores: tuple[int, int]
) -> None:
    # The recursion optimises over every give-back choice; the tables give back greedily
    # (D-8.1): equal values also check that greedy give-backs are optimal.
    key = _key(row, other, llama_row, scores)
    rec = TwoPlayerSolver(solver, engine="recursion", max_states=10**6)
    com = TwoPlayerSolver(solver)
    swapped = (key[1], key[0], key[2], key[4], key[3])  # the other seat to act, same table
    for name, k in itertools.product(("value", "roll_outcome", "quit_outcome"), (key, swapped)):
        a, b = getattr(com, name)(k), getattr(rec, name)(k)
        assert a.margin == pytest.approx(b.margin, abs=EXACT), name
        assert a.own == pytest.approx(b.own, abs=EXACT), name
        assert a.other == pytest.approx(b.other, abs=EXACT), name
    assert len(com.tables) == 1  # one solve answered both seats
    own, _, mask, score, _ = key
    for s in range(7):  # D-8.2 discards and D-8.3 takes lead to the same values
        if own[s]:
            after = tuple(c - (i == s) for i, c in enumerate(own))
            a, b = com.discard_outcome(key, after), rec.discard_outcome(key, after)
            assert a.margin == pytest.approx(b.margin, abs=EXACT)
        if mask >> s & 1 and not own[s]:
            a, b = com.take_outcome(key, s), rec.take_outcome(key, s)
            assert a.margin == pytest.approx(b.margin, abs=EXACT)
    for chip in (0, 1, 10):  # every give-back, greedy or not (D-8.1)
        if chip == 0 or (chip == 10 and score >= 10) or (chip == 1 and score % 10):
            a, b = com.give_outcome(key, chip), rec.give_outcome(key, chip)
            assert a.margin == pytest.approx(b.margin, abs=EXACT)
            assert a.own == pytest.approx(b.own, abs=EXACT)


@pytest.mark.parametrize(("row", "other", "llama_row", "scores"), POSITIONS[1:4])
def test_d8_1_greedy_give_back_is_optimal(
    solver: LastStandingSolver, row: str, other: str, llama_row: str, scores: tuple[int, int]
) -> None:
    # The recursion compares every choice; the best chip is never worse than another one
    # or none, for the margin and for the own points.
    rec = TwoPlayerSolver(solver, engine="recursion", max_states=10**6)
    for key in (_key(row, other, llama_row, scores), _key(other, row, llama_row, scores[::-1])):
        score = key[3]
        chips = [c for c in (10, 1) if (c == 10 and score >= 10) or (c == 1 and score % 10)]
        if not chips:
            continue
        best = rec.give_outcome(key, chips[0])
        for chip in [*chips[1:], 0]:
            other_choice = rec.give_outcome(key, chip)
            assert best.margin >= other_choice.margin - EXACT
            assert best.own <= other_choice.own + EXACT


def test_greedy_chain_follows_d4() -> None:
    assert greedy_chain(23) == [0, 1, 2, 3, 13, 23]
    assert greedy_chain(20) == [0, 10, 20]
    assert greedy_chain(0) == [0]


def test_bellman_residual_of_a_mid_size_table_is_zero() -> None:
    key = _key("1246L", "35L", "1236L", (12, 3))
    table = solve_table(("LL3456", "12LL56", "1234LL"), *key, use_disk_cache=False)
    assert table.space.size == table_states(*key[:3]) > 10_000
    assert table.bellman_residual() < 1e-9
    assert 0 < table.pair_iterations < 40  # the three-llama pair contracts by 1/27


@pytest.mark.parametrize("block_pairs", [1, 3, 16])
@pytest.mark.parametrize(
    ("row", "other", "llama_row", "scores"),
    [
        ("1246L", "35L", "1236L", (12, 3)),  # 4 x 4 level pairs, give-backs of both (D-8.1)
        ("12L", "356", "46L", (23, 0)),  # B without a chip: A's levels only (6 x 1)
        ("2L", "14", "356L", (1, 21)),  # 2 x 4, one black chip
    ],
)
def test_level_pairs_side_by_side_equal_one_sweep_per_pair_to_the_last_bit(
    monkeypatch: pytest.MonkeyPatch,
    row: str,
    other: str,
    llama_row: str,
    scores: tuple[int, int],
    block_pairs: int,
) -> None:
    # The block sweep (kernel2p.sweep_block) does per level pair the operations of the
    # reference sweep (kernel2p.sweep_pair) in the same order, so the values are identical;
    # small blocks check the hand-over of the row below between blocks.
    from lamagames.dice.solver import pair_table

    monkeypatch.setattr(pair_table, "BLOCK_PAIRS", block_pairs)
    key = _key(row, other, llama_row, scores)
    dice = ("LL3456", "12LL56", "1234LL")
    blocks = solve_table(dice, *key, use_disk_cache=False)
    levels = solve_table(dice, *key, use_disk_cache=False, by_levels=True)
    assert blocks.slots.keys() == levels.slots.keys() and len(levels.slots) >= 2
    for pair, (w, p) in levels.slots.items():
        assert np.array_equal(blocks.slots[pair][0], w)
        assert np.array_equal(blocks.slots[pair][1], p)
    assert blocks.pair_iterations == levels.pair_iterations
    for seat in range(2):
        assert np.array_equal(blocks.ls_values[seat], levels.ls_values[seat])


def test_a_row_of_level_pairs_over_the_block_budget_is_solved_one_pair_per_sweep(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Blocks hold a block and the row below it: where one row of B's levels is over
    # BLOCK_BYTES the table keeps the smaller memory of one sweep per level pair.
    from lamagames.dice.solver import kernel2p, pair_table

    key = _key("12L", "356", "46L", (23, 0))
    size = table_states(*key[:3])
    assert pair_table.use_blocks(6, 1, size)
    small = 32 * size - 1
    monkeypatch.setattr(pair_table, "BLOCK_BYTES", small)
    assert not pair_table.use_blocks(6, 1, size)

    def refuse(*_args: Any) -> int:
        raise AssertionError("sweep_block used over the block budget")

    monkeypatch.setattr(kernel2p, "sweep_block", refuse)
    table = solve_table(("LL3456", "12LL56", "1234LL"), *key, use_disk_cache=False)
    assert (23, 0) in table.slots
    assert pair_table.table_bytes(*key) == 32 * size * (1 + 2)  # B's levels + 2


def test_in_kernel_last_standing_values_equal_the_one_player_tables(
    solver: LastStandingSolver,
) -> None:
    # D-8.5: after a quit the other seat is alone; the table solves it over its own rows.
    own, opp, mask, sa, sb = _key("1L", "356L", "1246", (0, 12))
    table = solve_table(solver.dice, own, opp, mask, sa, sb, use_disk_cache=False)
    ncodes, rows, cards, _, _ = table.space.ls_space[1]
    radix = np.cumprod(np.concatenate(([1], ncodes[:-1])))
    one_player = solver.table(mask, sb)
    checked = 0
    for digits in itertools.product(*(range(int(n)) for n in ncodes)):
        row = [int(rows[s, d]) for s, d in enumerate(digits)]
        card_mask = sum(int(cards[s, d]) << s for s, d in enumerate(digits))
        if card_mask != mask or not any(row):
            continue
        i = int(np.dot(digits, radix))
        for level, score in enumerate(table.chains[1]):
            got = table.ls_values[1][level, i]
            assert got == pytest.approx(one_player.value(row, score), abs=EXACT)
            checked += 1
    assert checked == 15 * 4  # B keeps any of 3, 5, 6, L: 15 rows x scores 0, 1, 2, 12


def test_disk_cache_round_trip_and_damaged_file(solver: LastStandingSolver) -> None:
    from lamagames.dice.solver import cache
    from lamagames.dice.solver.pair_table import PAIR_VERSION

    key = _key("12L", "35", "46L", (11, 0))
    first = solve_table(solver.dice, *key)
    assert first.solve_seconds > 0.0
    again = solve_table(solver.dice, *key)
    assert again.solve_seconds == 0.0  # read back, not solved
    for levels, (w, p) in first.slots.items():
        assert np.array_equal(again.slots[levels][0], w)
        assert np.array_equal(again.slots[levels][1], p)
    path = cache.pair_path(PAIR_VERSION, solver.dice, *key)
    assert path is not None and path.is_file()
    path.write_bytes(b"not a table")
    fallback = solve_table(solver.dice, *key)
    assert fallback.solve_seconds > 0.0  # solved again
    assert np.array_equal(fallback.slots[(11, 0)][0], first.slots[(11, 0)][0])


def test_too_large_positions_are_refused_not_guessed(solver: LastStandingSolver) -> None:
    tp = TwoPlayerSolver(solver, max_states=10, engine="recursion")
    with pytest.raises(NotTractableError, match="more than 10 states"):
        tp.value(_key("1234", "456L", "1L", (0, 0)))
    assert tp.states == 0  # nothing half-solved is kept
    small = TwoPlayerSolver(solver, max_work=1000)
    with pytest.raises(NotTractableError, match="limit 1,000"):
        small.value(_key("1234", "456L", "1L", (0, 0)))
    assert small.tables == []


@pytest.mark.parametrize(
    ("key", "message"),
    [
        (_key("", "5", "1", (0, 0)), "D-9"),
        (_key("3", "5", "", (0, 0)), "D-9"),
        (((0, 0, 6, 0, 0, 0, 0), (0, 0, 1, 0, 0, 0, 0), 1, 0, 0), "only 6 exist"),
        (_key("3", "5", "1", (-1, 0)), "non-negative"),
        (((1,), (1,), 1, 0, 0), "7 counts"),
        (((1.5, 0, 0, 0, 0, 0, 0), (0, 1, 0, 0, 0, 0, 0), 1, 0, 0), "non-negative integers"),
        (("1000000", (0, 1, 0, 0, 0, 0, 0), 1, 0, 0), "7 counts"),
        (((0, 0, 0, 0, 0, 0, 3), (0, 0, 0, 0, 0, 0, 4), 64, 0, 0), "8 cards of symbol L"),
    ],
)
def test_bad_positions_are_refused_clearly(
    solver: LastStandingSolver, key: Key, message: str
) -> None:
    for engine in ("compiled", "recursion"):
        with pytest.raises(PositionError, match=message):
            TwoPlayerSolver(solver, engine=engine).value(key)


def test_opponent_quit_is_the_last_standing_value(solver: LastStandingSolver) -> None:
    tp = TwoPlayerSolver(solver)
    outcome = tp.last_standing_outcome(tuple(counts("33L")), tuple(counts("56")), 0b11, 0)
    table = solver.table(0b11)
    assert outcome.own == table.value(counts("33L"), 0)
    assert outcome.other == 11.0  # D-10: 5 + 6
    state = make_state(["33L", "56"], llama_row="12", quit=[False, True])
    assert outcome.margin == pytest.approx(margin(state, 3 + 8), abs=TOLERANCE)


@pytest.mark.slow
@settings(max_examples=25, deadline=None)
@given(data=st.data())
def test_compiled_equals_recursion_on_random_small_positions(
    solver: LastStandingSolver, data: st.DataObject
) -> None:
    # Random rows of 1-3 cards, a llama row of 1-3 cards and scores with chips (D-4).
    symbols = st.sampled_from("123456L")
    row = "".join(data.draw(st.lists(symbols, min_size=1, max_size=3)))
    other = "".join(data.draw(st.lists(symbols, min_size=1, max_size=3)))
    llama_row = "".join(data.draw(st.sets(symbols, min_size=1, max_size=3)))
    scores = (data.draw(st.integers(0, 13)), data.draw(st.integers(0, 13)))
    # only real positions: no symbol held more often than the game has cards of it (D-3)
    held = row + other + llama_row
    assume(all(held.count(s) <= copies for s, copies in zip("123456L", TOTAL_COPIES, strict=True)))
    key = _key(row, other, llama_row, scores)
    rec = TwoPlayerSolver(solver, engine="recursion", max_states=10**6).value(key)
    com = TwoPlayerSolver(solver).value(key)
    assert com.margin == pytest.approx(rec.margin, abs=EXACT)
    assert com.own == pytest.approx(rec.own, abs=EXACT)


@pytest.mark.parametrize("key", [None, "3-5-1", (1, 2, 3), [(1,) * 7, (1,) * 7, 1, 0, 0]])
def test_a_key_that_is_not_a_5_tuple_is_a_position_error(
    solver: LastStandingSolver, key: object
) -> None:
    for engine in ("compiled", "recursion"):
        with pytest.raises(PositionError, match="a position is a 5-tuple"):
            TwoPlayerSolver(solver, engine=engine).value(key)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"max_work": -1}, "max_work must be a positive integer, got -1"),
        ({"max_work": 0}, "max_work must be a positive integer"),
        ({"max_states": 0}, "max_states must be a positive integer, got 0"),
        ({"max_states": 1.5}, "max_states must be a positive integer"),
        ({"max_bytes": True}, "max_bytes must be a positive integer, got True"),
        ({"max_bytes": "big"}, "max_bytes must be a positive integer"),
        ({"engine": "fast"}, "engine must be 'compiled' or 'recursion', got 'fast'"),
        ({"disk_cache": "no"}, "disk_cache must be None or a bool"),
    ],
)
def test_bad_solver_arguments_raise_parameter_errors_naming_them(
    solver: LastStandingSolver, kwargs: dict[str, object], message: str
) -> None:
    with pytest.raises(ParameterError, match=f"^{message}"):
        TwoPlayerSolver(solver, **kwargs)  # type: ignore[arg-type]


def test_the_first_argument_must_be_a_last_standing_solver() -> None:
    for bad in (None, "standard", TwoPlayerSolver):
        with pytest.raises(ParameterError, match=r"^last_standing must be a LastStandingSolver"):
            TwoPlayerSolver(bad)  # type: ignore[arg-type]
    assert issubclass(ParameterError, ValueError)  # what the engine check raised before


def test_numpy_integers_in_a_position_are_integers(solver: LastStandingSolver) -> None:
    # As for the last-standing tables: a key built from NumPy arrays is the same position.
    key: Key = (tuple(counts("35")), tuple(counts("6L")), llama_mask(counts("12")), 3, 11)
    two = TwoPlayerSolver(solver, disk_cache=False)
    numpy_key: Any = (
        np.array(key[0]),
        tuple(np.array(key[1])),
        np.int64(key[2]),
        np.int64(3),
        np.int64(11),
    )
    assert two.value(numpy_key) == two.value(key)
    assert two.roll_outcome(numpy_key) == two.roll_outcome(key)
    assert two.quit_outcome(numpy_key) == two.quit_outcome(key)
