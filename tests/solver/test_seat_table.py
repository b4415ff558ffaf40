"""The last player standing's table of its own rows (D-8.5) against the one-player tables,
and the ``exact`` bot that plays from it."""

from __future__ import annotations

import itertools
import random
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lamagames.bots.dice_exact import DiceExactBot
from lamagames.core.jit import interpreting
from lamagames.dice import primitives
from lamagames.dice.actions import QUIT, ROLL
from lamagames.dice.rules import Phase, after_discard
from lamagames.dice.solver import LastStandingSolver, PositionError
from lamagames.dice.solver import seat_table as seat_module
from lamagames.dice.solver.pair_table import greedy_chain
from lamagames.dice.solver.seat_table import SeatTooLargeError, seat_work, solve_seat
from lamagames.dice.solver.space import llama_mask
from tests.dice.helpers import counts, make_state

EXACT = 1e-12
#: Decisions whose options differ by less than this (points) may go either way.
GAP = 1e-9


def _sub_rows(row0: tuple[int, ...]) -> list[tuple[int, ...]]:
    return [tuple(r) for r in itertools.product(*(range(c + 1) for c in row0))]


@pytest.mark.parametrize(
    ("row", "llama_row", "score"),
    [
        ("335L", "12", 0),  # D-8.5: nothing to take, a non-matching roll busts
        ("1L", "356", 12),  # D-8.1: the greedy chain 12, 2, 1, 0
        ("1122LL", "3456L", 23),  # two llamas in the row and one in the llama row
        ("123456", "L", 39),  # the end score's chain, D-11
    ],
)
def test_values_equal_the_one_player_tables_d8_5(
    solver: LastStandingSolver, row: str, llama_row: str, score: int
) -> None:
    row0 = tuple(counts(row))
    mask = llama_mask(counts(llama_row))
    table = solve_seat(solver.dice, row0, mask, score)
    assert table.chain == greedy_chain(score)
    one_player = solver.table(mask, score)
    checked = 0
    for sub in _sub_rows(row0):
        for level_score in table.chain:
            if primitives.is_empty(list(sub)):  # D-9 / D-10: the best chip goes back
                expected = one_player.after_discard_value(sub, level_score)
            else:
                expected = one_player.value(sub, level_score)
            assert table.value(sub, level_score) == pytest.approx(expected, abs=EXACT)
            checked += 1
    assert checked == int(np.prod([c + 1 for c in row0])) * len(greedy_chain(score))


@settings(max_examples=25, deadline=None)
@given(
    row0=st.tuples(*[st.integers(0, 2)] * 7).filter(lambda r: 0 < sum(r) <= 12),  # D-5
    mask=st.sampled_from([0b1111111, 0b1000101, 0b0111000]),  # few one-player tables
    score=st.integers(0, 19),
)
def test_roll_or_quit_is_the_one_player_tables_choice_d7_d8(
    solver: LastStandingSolver, row0: tuple[int, ...], mask: int, score: int
) -> None:
    table = solve_seat(solver.dice, row0, mask, score)
    one_player = solver.table(mask, score)
    for sub in _sub_rows(row0):
        if primitives.is_empty(list(sub)):
            continue
        roll, stop = one_player.roll_value(sub, score), one_player.quit_value(sub)
        if abs(roll - stop) > GAP:
            assert table.rolls(sub, score) == (roll < stop), sub


def test_interpreted_values_equal_the_compiled_ones() -> None:
    dice = LastStandingSolver(use_disk_cache=False).dice
    row0, mask = tuple(counts("1234LL")), llama_mask(counts("56L"))
    compiled = solve_seat(dice, row0, mask, 13)
    with interpreting():
        plain = solve_seat(dice, row0, mask, 13)
    assert np.array_equal(compiled.values, plain.values)  # bit for bit


def test_bad_positions_are_refused_with_the_reason() -> None:
    dice = LastStandingSolver(use_disk_cache=False).dice
    with pytest.raises(PositionError, match="both hold a card"):
        solve_seat(dice, (0,) * 7, 0b1, 0)
    with pytest.raises(PositionError, match="both hold a card"):
        solve_seat(dice, (1, 0, 0, 0, 0, 0, 0), 0, 0)
    with pytest.raises(PositionError, match="never negative"):
        solve_seat(dice, (1, 0, 0, 0, 0, 0, 0), 0b10, -1)
    with pytest.raises(PositionError, match="7 counts"):
        solve_seat(dice, (1, 0), 0b10, 0)
    table = solve_seat(dice, (1, 1, 0, 0, 0, 0, 0), 0b100, 2)
    assert not table.covers((2, 0, 0, 0, 0, 0, 0), 0b100, 2)  # more than the root holds
    assert not table.covers((1, 0, 0, 0, 0, 0, 0), 0b101, 2)  # another llama row
    assert not table.covers((1, 0, 0, 0, 0, 0, 0), 0b100, 3)  # not on the greedy chain
    with pytest.raises(PositionError, match="does not hold"):
        table.value((2, 0, 0, 0, 0, 0, 0), 2)


def test_a_table_over_the_budget_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    dice = LastStandingSolver(use_disk_cache=False).dice
    row0 = (1, 1, 0, 0, 0, 0, 0)
    assert seat_work(row0, 9995) == 4 * len(greedy_chain(9995)) == 4 * 1005
    monkeypatch.setattr(seat_module, "MAX_SEAT_WORK", 4 * 1004)
    with pytest.raises(SeatTooLargeError, match="4,020 rows times levels"):
        solve_seat(dice, row0, 0b100, 9995)


def _last_standing_positions(seed: int, count: int) -> list[tuple[list[str], str, int, str]]:
    """Random last-standing positions: (rows, llama row, score, phase) of seat 0."""
    rng = random.Random(seed)
    symbols = "123456L"
    out: list[tuple[list[str], str, int, str]] = []
    while len(out) < count:
        row = "".join(sorted(rng.sample(symbols * 2, rng.randint(1, 6))))
        llama_row = rng.choice(["12", "3456L", "L"])  # few one-player tables to solve
        out.append(([row, "6"], llama_row, rng.choice([0, 5, 7]), rng.choice("TD")))
    return out


@pytest.mark.parametrize("seed", [1, 2])
def test_the_bot_plays_the_one_player_tables_best_action_d8_5(
    solver: LastStandingSolver, seed: int
) -> None:
    # Every decision of the last player standing (roll or quit, which discard) is optimal
    # under the one-player table, within GAP of its best option.
    decided = {Phase.TURN: 0, Phase.DISCARD: 0}
    for rows, llama_row, score, kind in _last_standing_positions(seed, 40):
        extra: dict[str, Any] = {}
        if kind == "D":
            dice = "".join(sorted(set(rows[0])))[:3].ljust(3, "L")
            extra = {"phase": Phase.DISCARD, "dice": dice}
        try:
            state = make_state(rows, llama_row=llama_row, quit=[False, True],
                               scores=[score, 0], **extra)  # fmt: skip
        except (ValueError, PositionError):
            continue  # not a position the rules allow (the dice match nothing, D-8.2)
        legal = state.legal_actions(0)
        bot = DiceExactBot(state.game, 0)
        action = bot.step(state)
        assert bot.last_basis == "exact"
        table = solver.table(llama_mask(state.llama_row), score)
        row = tuple(state.rows[0])
        if state.phase == Phase.TURN:
            value = {ROLL: table.roll_value(row, score), QUIT: table.quit_value(row)}
        else:
            value = {a: table.after_discard_value(after_discard(row, a), score) for a in legal}
        assert value[action] <= min(value[a] for a in legal) + GAP
        decided[state.phase] += 1
    assert min(decided.values()) >= 10, decided
