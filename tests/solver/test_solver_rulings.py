"""The solvers read D-10 row scores and D-4 chips from the rule primitives (issue 17: each
ruling written once): the tables they are built from agree with ``row_score``,
``chip_choices`` and ``chip_points`` everywhere they are used."""

from __future__ import annotations

import numpy as np
import pytest

from lamagames.dice import primitives
from lamagames.dice.actions import GIVE_BLACK, GIVE_WHITE, NUM_SYMBOLS
from lamagames.dice.solver import LastStandingSolver, PositionError
from lamagames.dice.solver.last_standing import _kernel_inputs
from lamagames.dice.solver.space import (
    PRESENCE_SCORES,
    check_give,
    give_choices,
    presence,
    row_universe,
)
from tests.dice.helpers import counts


def test_d10_presence_scores_are_row_score_of_every_universe_row() -> None:
    # D-10 counts each symbol a row holds once: the table by presence mask equals the
    # primitive on every row the solver covers, whatever the count of each symbol.
    u = row_universe()
    rows = u.rows.tolist()
    expected = [primitives.row_score(r) for r in rows]
    assert u.scores.tolist() == expected
    assert PRESENCE_SCORES[presence(u.rows)].tolist() == expected


@pytest.mark.parametrize("mask", [0b0000001, 0b1000000, 0b0110101, 0b1111111])
def test_d8_4_bust_values_are_row_score_of_the_row_joined_by_the_llama_row(mask: int) -> None:
    u = row_universe()
    quit_values, bust_values = _kernel_inputs(u, mask)
    llama = np.array([mask >> s & 1 for s in range(NUM_SYMBOLS)], dtype=np.int64)
    for i in range(0, u.size, 97):  # every 97th row: all card counts and symbol sets
        row = u.rows[i]
        assert quit_values[i] == primitives.row_score(row.tolist())
        assert bust_values[i] == primitives.row_score((row + llama).tolist())


@pytest.mark.parametrize("score", range(0, 45))
def test_d4_give_choices_are_the_chips_chip_choices_allows(score: int) -> None:
    choices = primitives.chip_choices(score)
    expected = [primitives.chip_points(GIVE_BLACK)] if choices & 1 else []
    expected += [primitives.chip_points(GIVE_WHITE)] if choices & 2 else []
    assert give_choices(score) == expected
    for chip in expected:
        assert check_give(score, chip) == chip
    assert check_give(score, 0) == 0  # declining is always allowed (D-8.1)


@pytest.mark.parametrize(("score", "chip", "message"), [
    (5, 10, "a chip of 10 points cannot be given back with score 5"),
    (20, 1, "a chip of 1 points cannot be given back with score 20"),
    (0, 1, "a chip of 1 points cannot be given back with score 0"),
    (12, 5, "chip must be 0, 1 or 10 points, got 5"),
    (12, True, "chip must be 0, 1 or 10 points, got True"),
    (12, "10", "chip must be 0, 1 or 10 points"),
])  # fmt: skip
def test_d4_check_give_refuses_a_chip_the_score_cannot_give(
    score: int, chip: object, message: str
) -> None:
    with pytest.raises(PositionError, match=message):
        check_give(score, chip)


def test_d8_1_give_value_gives_the_chip_points_back(solver: LastStandingSolver) -> None:
    # A give-back lowers the score by the chip's points and counts them as given back.
    table = solver.table(counts("1L"), 23)
    row = counts("35")
    for chip in give_choices(23):
        assert table.give_value(row, 23, chip) == -chip + table.value(row, 23 - chip)
    with pytest.raises(PositionError, match="cannot be given back with score 20"):
        solver.table(counts("1L"), 20).give_value(row, 20, 1)
