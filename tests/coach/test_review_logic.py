"""The generic review rules (lamagames.coach.review): ties, the noise test, confirmation of
an estimated loss on a fresh sample, floors, totals."""

from __future__ import annotations

from typing import Any

import pytest

from lamagames.bots import make_bot
from lamagames.coach.review import (
    ActionValue,
    Evaluation,
    Floor,
    Thresholds,
    judge,
    review_record,
)
from lamagames.core.errors import ParameterError
from lamagames.core.game import State
from lamagames.core.records import record_from_state
from lamagames.core.registry import make
from lamagames.sim.runner import play_game

THRESHOLDS = Thresholds(0.05, 0.1, 0.2)


def _est(action: int, samples: list[float]) -> ActionValue:
    mean = sum(samples) / len(samples)
    return ActionValue(action, f"a{action}", mean, mean, tuple(samples), False)


def _exact(action: int, value: float) -> ActionValue:
    return ActionValue(action, f"a{action}", value, value, None, True)


def test_thresholds_must_increase() -> None:
    with pytest.raises(ParameterError):
        Thresholds(0.1, 0.1, 0.2)
    assert [THRESHOLDS.mark(x) for x in (0.0, 0.05, 0.1, 0.25)] == [
        None, "inaccuracy", "mistake", "blunder",
    ]  # fmt: skip


def test_exact_ties_are_no_loss_and_exact_losses_have_no_stderr() -> None:
    ev = Evaluation([_exact(0, 1.0), _exact(1, 1.0 + 1e-12), _exact(2, 0.7)], "exact")
    mine, best, loss, stderr, _se, mark = judge(ev, 0, THRESHOLDS)
    assert best is mine and loss == 0.0 and stderr is None and mark is None
    _mine, _best, loss, stderr, _se, mark = judge(ev, 2, THRESHOLDS)
    assert loss == pytest.approx(0.3) and stderr is None and mark == "blunder"


def test_an_estimated_difference_within_noise_counts_as_no_loss() -> None:
    noisy = Evaluation([_est(0, [0, 1, 0, 1]), _est(1, [1, 0, 1, 1])], "estimate")
    mine, best, loss, stderr, _se, mark = judge(noisy, 0, THRESHOLDS)
    assert best is mine and loss == 0.0 and mark is None and stderr is not None and stderr > 0
    clear = Evaluation([_est(0, [0, 0, 0, 0]), _est(1, [1, 1, 1, 0.9])], "estimate")
    assert judge(clear, 0, THRESHOLDS)[5] == "blunder"


def test_a_floor_marks_a_move_whatever_its_estimate() -> None:
    floor = Floor("mistake", 1, "You let an exit go here (E-7)")
    ev = Evaluation([_est(0, [1, 1]), _est(1, [1, 1])], "estimate", {0: floor})
    _mine, best, loss, _stderr, _se, mark = judge(ev, 0, THRESHOLDS)
    assert mark == "mistake" and best.action == 1 and loss == 0.0


class _Reviewer:
    """A reviewer whose first sample makes action 1 look far better and whose confirming
    sample shows no difference."""

    unit = "win chance"
    thresholds = THRESHOLDS
    level_label = "win chance"

    def __init__(self, confirmed: list[float]) -> None:
        self.confirmed = confirmed
        self.asked: list[list[int]] = []

    def evaluate(self, state: State, player: int, index: int) -> Evaluation:
        legal = state.legal_actions(player)
        values = [_est(a, [0.0] * 8 if i == 0 else [1.0] * 8) for i, a in enumerate(legal)]
        return Evaluation(values, "estimate: 8 rollouts")

    def confirm(self, state: State, player: int, index: int, actions: list[int]) -> Evaluation:
        self.asked.append(actions)
        values = [_est(a, list(self.confirmed)) for a in actions]
        return Evaluation(values, "estimate: 32 rollouts (confirmed)")

    def loss_words(self, loss: float, best: str) -> str:
        return f"lost {loss:.2f}: {best}"

    def amount(self, value: float) -> str:
        return f"{value}"


def _record() -> Any:
    game = make("express", num_players=2)
    state = play_game(game, [make_bot("random", game, s, 1) for s in range(2)], 1).state
    return record_from_state(state, [("A", "random"), ("B", "random")])


def test_an_estimated_loss_is_judged_again_on_a_fresh_sample() -> None:
    record = _record()
    reviewer = _Reviewer(confirmed=[0.5] * 32)
    review = review_record(record, reviewer=reviewer, player=0)
    first_choice = [d for d in review.decisions if d.action == d.best]
    assert reviewer.asked, "a loss was confirmed"
    assert all(len(asked) == 2 for asked in reviewer.asked)
    assert all(d.mark is None and d.loss == 0.0 for d in review.decisions)
    assert all(d.basis.endswith("(confirmed)") for d in review.decisions if d not in first_choice)
    assert review.seats[0].accuracy == 100.0
