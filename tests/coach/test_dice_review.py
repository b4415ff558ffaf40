"""LAMA Dice reviews (issue 18): values equal the solver's, the ``exact`` bot loses nothing
where the review is exact, a bad quit is a blunder (D-7, D-8, D-10)."""

from __future__ import annotations

from functools import cache

import pytest

from lamagames.bots import make_bot
from lamagames.coach.review import MARK_Z, Review, judge, review_record
from lamagames.core.records import GameRecord, iter_replay, record_from_state
from lamagames.core.registry import make
from lamagames.dice.actions import QUIT, ROLL
from lamagames.dice.game import as_dice_state
from lamagames.dice.hints import BASIS_LAST, BASIS_TWO, hints
from lamagames.dice.primitives import row_score
from lamagames.dice.review import THRESHOLDS, DiceReviewer, move_words, points
from lamagames.dice.solver import get_solver
from lamagames.dice.solver.two_player import TwoPlayerSolver
from lamagames.sim.runner import play_game
from tests.dice.helpers import make_state


@cache
def exact_game() -> tuple[GameRecord, Review]:
    """A short two-player game, ``exact`` (seat 1) against ``heuristic``, and its review."""
    game = make("dice", num_players=2, end_score=15)
    bots = [make_bot("exact", game, 0, 5), make_bot("heuristic", game, 1, 5)]
    state = play_game(game, bots, 5).state
    record = record_from_state(state, [("Exact", "exact"), ("Heuristic", "heuristic")], seed=5)
    return record, review_record(record, seed=1, rollouts=64)


def test_d8_review_values_equal_the_solvers_at_the_same_positions() -> None:
    record, review = exact_game()
    states = list(iter_replay(record))
    exact = [d for d in review.decisions if d.exact and d.basis in (BASIS_TWO, BASIS_LAST)]
    assert len(exact) >= 5
    two = TwoPlayerSolver(get_solver(), disk_cache=False)
    for d in exact:
        state = states[d.index]
        by_notation = {h.notation: h for h in hints(state, d.seat, two_player_solver=two)}
        hint = by_notation[d.action]
        assert hint.exact
        if d.basis == BASIS_TWO:
            assert d.value == pytest.approx(hint.margin, abs=1e-9)
            assert by_notation[d.best].margin == pytest.approx(d.best_value, abs=1e-9)
        else:  # D-8.5: the quitter's row is final, the margin is it minus own points
            rest = row_score(as_dice_state(state).rows[1 - d.seat])
            assert d.value == pytest.approx(rest - (hint.expected_points or 0.0), abs=1e-9)


def test_d8_the_exact_bot_loses_nothing_at_exact_decisions() -> None:
    _record, review = exact_game()
    mine = [d for d in review.decisions if d.seat == 0 and d.exact]
    assert mine, "the exact bot made exact decisions"
    assert all(d.loss == 0.0 and d.mark is None and d.best == d.action for d in mine)
    seat = review.seats[0]
    assert seat.decisions == len([d for d in review.decisions if d.seat == 0])
    assert seat.accuracy is not None and 0.0 <= seat.accuracy <= 100.0


def test_d7_quitting_with_a_cheap_row_is_a_blunder() -> None:
    # Two players in, seat 0 holds only a 1 with 25 points: rolling often discards it and
    # gives a black chip back (D-8.2, D-10); quitting takes 1 point and lets seat 1 roll on.
    state = make_state(["1", "6"], llama_row="1", scores=[25, 10])
    reviewer = DiceReviewer(state.game)
    evaluation = reviewer.evaluate(state, 0, 0)
    assert evaluation.basis == BASIS_TWO
    mine, best, loss, stderr, _se, mark = judge(evaluation, QUIT, THRESHOLDS)
    assert mark == "blunder" and best.action == ROLL and stderr is None
    assert loss == pytest.approx(best.value - mine.value) and loss >= THRESHOLDS.blunder
    assert reviewer.loss_words(loss, best.notation) == (
        f"You lost {points(loss)} here: rolling was better"
    )
    assert judge(evaluation, ROLL, THRESHOLDS)[5] is None


def test_three_players_are_estimated_by_rollouts_with_a_standard_error() -> None:
    state = make_state(["1", "6", "5"], llama_row="1", scores=[25, 10, 3])
    reviewer = DiceReviewer(state.game, rollouts=200, seed=3)
    evaluation = reviewer.evaluate(state, 0, 7)
    assert evaluation.basis == "estimate: 200 rollouts"
    assert all(not a.exact and a.samples is not None and len(a.samples) == 200
               for a in evaluation.actions)  # fmt: skip
    again = DiceReviewer(state.game, rollouts=200, seed=3).evaluate(state, 0, 7)
    assert [a.value for a in again.actions] == [a.value for a in evaluation.actions]
    _mine, _best, loss, stderr, value_se, mark = judge(evaluation, QUIT, THRESHOLDS)
    assert stderr is not None and value_se is not None and value_se > 0
    assert mark is None or loss >= MARK_Z * stderr


def test_plain_words() -> None:
    assert points(6.2) == "about 6 points" and points(0.44) == "about 0.4 points"
    assert points(1.0) == "about 1.0 points" and points(-2.6) == "about 3 points"
    assert move_words("quit") == "quitting"
    assert move_words("discard 3 3") == "discarding 3 3"
    assert move_words("give black") == "giving back a black chip"
