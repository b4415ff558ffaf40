"""Exact two-player round values against brute-force expectiminimax over the engine."""

from __future__ import annotations

import pytest

from lamagames.dice.solver import LastStandingSolver
from lamagames.dice.solver.space import llama_mask
from lamagames.dice.solver.two_player import Key, NotTractableError, TwoPlayerSolver
from tests.dice.helpers import counts, make_state
from tests.solver.brute import margin

TOLERANCE = 1e-6


def _key(row: str, other: str, llama_row: str, scores: tuple[int, int]) -> Key:
    mask = llama_mask(counts(llama_row))
    return (tuple(counts(row)), tuple(counts(other)), mask, scores[0], scores[1])


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
    row: str,
    other: str,
    llama_row: str,
    scores: tuple[int, int],
    budget: int,
) -> None:
    state = make_state([row, other], llama_row=llama_row, scores=list(scores))
    brute = margin(state, budget)
    exact = TwoPlayerSolver(solver).value(_key(row, other, llama_row, scores))
    assert exact.margin == pytest.approx(brute, abs=TOLERANCE)
    assert exact.margin == pytest.approx(exact.other - exact.own)


def test_opponent_quit_is_the_last_standing_value(solver: LastStandingSolver) -> None:
    tp = TwoPlayerSolver(solver)
    outcome = tp.last_standing_outcome(tuple(counts("33L")), tuple(counts("56")), 0b11, 0)
    table = solver.table(0b11)
    assert outcome.own == table.value(counts("33L"), 0)
    assert outcome.other == 11.0  # D-10: 5 + 6
    state = make_state(["33L", "56"], llama_row="12", quit=[False, True])
    assert outcome.margin == pytest.approx(margin(state, 3 + 8), abs=TOLERANCE)


def test_too_large_positions_are_refused_not_guessed(solver: LastStandingSolver) -> None:
    tp = TwoPlayerSolver(solver, max_states=10)
    with pytest.raises(NotTractableError, match="more than 10 states"):
        tp.value(_key("1234", "456L", "1L", (0, 0)))
    assert tp.states == 0  # nothing half-solved is kept
