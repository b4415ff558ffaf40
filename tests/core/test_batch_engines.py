"""Every game with a batch engine agrees with its scalar engine step by step
(:func:`lamagames.core.testing.check_batch_engine`, as Pgx's ``api_test``): LAMA Dice, Lama
Express and Toy Race (tests/toygame/batch.py, registered by the ``registered`` fixture)."""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt
import pytest
import tests.toygame.batch as toy_batch
from tests.toygame.game import STEP

from lamagames.core.errors import ParameterError
from lamagames.core.testing import ProtocolViolation, check_batch_engine


@pytest.mark.parametrize("game_id", ["dice", "express", "toy"])
def test_batch_engine_agrees_with_scalar_engine(registered: None, game_id: str) -> None:
    """D-1..D-11, E-1..E-12, Toy Race: traces, masks and states agree at every step, every
    player count and variant."""
    assert check_batch_engine(game_id, games=3, seed=1, max_steps=300) > 0


def test_the_toy_batch_engine_is_checked_over_long_runs(registered: None) -> None:
    """Many toy games, both variants: wins and turn-limit endings are both reached."""
    assert check_batch_engine("toy", games=40, seed=7, max_steps=100) > 0


class _StepScoresTwo(toy_batch.ToyStepper):
    """Off by one: ``step`` scores 2 points instead of 1."""

    def step(self, states: toy_batch.ToyBatchState, actions: npt.ArrayLike) -> None:
        acts = np.asarray(actions)
        before = states.player.copy()
        stepping = self.legal_mask(states).any(axis=1) & (acts == STEP)
        super().step(states, actions)
        states.scores[np.flatnonzero(stepping), before[stepping]] += 1


class _OnlyStepIsLegal(toy_batch.ToyStepper):
    """Off by one in the mask: only action 0 is legal."""

    def legal_mask(self, states: toy_batch.ToyBatchState) -> npt.NDArray[np.bool_]:
        mask = super().legal_mask(states)
        mask[:, 1] = False
        return mask


class _WrongEngine(toy_batch.ToyBatchEngine):
    def __init__(self, stepper: type[toy_batch.ToyStepper]) -> None:
        self._stepper = stepper

    def stepper(self, num_players: int, params: Any) -> toy_batch.ToyStepper:
        return self._stepper(params)


@pytest.mark.parametrize(
    ("stepper", "message"),
    [(_StepScoresTwo, "scores is"), (_OnlyStepIsLegal, "legal actions disagree")],
    ids=["step-off-by-one", "mask-off-by-one"],
)
def test_a_wrong_toy_batch_engine_is_caught(
    registered: None,
    monkeypatch: pytest.MonkeyPatch,
    stepper: type[toy_batch.ToyStepper],
    message: str,
) -> None:
    """The check bites on Toy Race: a wrong step or mask is a ProtocolViolation naming the
    game."""
    monkeypatch.setattr(toy_batch, "ENGINE", _WrongEngine(stepper))
    with pytest.raises(ProtocolViolation, match=rf"toy, 2 players.*{message}"):
        check_batch_engine("toy", games=3, seed=1, max_steps=100)


def test_an_unknown_game_is_refused() -> None:
    with pytest.raises(ParameterError, match="no-such-game"):
        check_batch_engine("no-such-game")


def test_an_engine_with_only_the_step_interface_cannot_simulate(registered: None) -> None:
    """The toy engine offers what check_batch_engine steps, not whole-game play: asking
    ``lama simulate``'s loader for it is a clear refusal, not an AttributeError later."""
    from lamagames.sim.batch_protocol import load_engine

    with pytest.raises(ParameterError, match=r"'toy' cannot play whole games: it has no .*play"):
        load_engine("toy")
    assert load_engine("dice").game_id == "dice"
