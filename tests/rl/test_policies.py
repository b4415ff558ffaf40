"""Opponents as policies in the Gymnasium env (issue 20): callables, frozen learners."""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt
import pytest

from lamagames.core.errors import IllegalActionError, ParameterError
from lamagames.rl.gymnasium import LamaEnv
from lamagames.rl.policies import batched, check_opponents, describe, frozen_policy


class FirstLegal:
    """A policy that takes the lowest legal action and records what it saw."""

    def __init__(self) -> None:
        self.seen: list[tuple[npt.NDArray[np.float32], npt.NDArray[np.int8]]] = []

    def __call__(self, obs: npt.NDArray[np.float32], mask: npt.NDArray[np.int8]) -> int:
        self.seen.append((obs, mask))
        return int(np.flatnonzero(mask)[0])


def _play(env: LamaEnv, seed: int) -> list[int]:
    rng = np.random.default_rng(seed)
    _, info = env.reset(seed=seed)
    actions: list[int] = []
    done = False
    while not done:
        action = int(rng.choice(np.flatnonzero(info["action_mask"])))
        actions.append(action)
        _, _, terminated, truncated, info = env.step(action)
        done = terminated or truncated
    return actions


@pytest.mark.parametrize("game", ["dice", "express"])
def test_a_callable_plays_the_other_seats(game: str) -> None:
    policy = FirstLegal()
    env = LamaEnv(game, [policy, "random"])
    assert env.game.num_players == 3
    first = _play(env, 5)
    assert policy.seen, "the policy was never asked"
    shape = env.game.info.observation_shape
    for obs, mask in policy.seen:
        assert obs.shape == shape and obs.dtype == np.float32
        assert mask.dtype == np.int8 and mask.any()
    assert _play(env, 5) == first  # the same seed replays the same episode


def test_the_policy_sees_its_own_seat() -> None:
    # the policy of seat 1 gets seat 1's observation and exactly its legal actions
    seen: list[bool] = []

    def check(obs: npt.NDArray[np.float32], mask: npt.NDArray[np.int8]) -> int:
        state = env.lama_state
        seat = state.current_player()
        seen.append(seat == 2)
        np.testing.assert_array_equal(obs, state.observation_tensor(seat))
        assert np.flatnonzero(mask).tolist() == state.legal_actions(seat)
        return int(np.flatnonzero(mask)[-1])

    env = LamaEnv("dice", ["random", check], seat=0)
    for seed in range(3):
        _play(env, seed)
    assert seen and all(seen)


def test_an_illegal_policy_action_raises_naming_the_seat() -> None:
    def bad(obs: npt.NDArray[np.float32], mask: npt.NDArray[np.int8]) -> int:
        return int(np.flatnonzero(mask == 0)[0])

    env = LamaEnv("dice", bad, params={"starting_seat": 1})
    with pytest.raises(IllegalActionError, match=r"opponent policy bad at seat 1: action"):
        env.reset(seed=0)


class FakeLearner:
    """Stable-Baselines3's shape: ``learner.policy.predict(obs, deterministic, action_masks)``."""

    class Net:
        def __init__(self) -> None:
            self.prefer_last = False

        def predict(
            self, obs: Any, deterministic: bool = False, action_masks: Any = None
        ) -> tuple[int, None]:
            legal = np.flatnonzero(action_masks)
            return int(legal[-1] if self.prefer_last else legal[0]), None

    def __init__(self) -> None:
        self.policy = self.Net()


def test_frozen_policy_is_a_copy_of_the_learner_now() -> None:
    learner = FakeLearner()
    frozen = frozen_policy(learner, deterministic=True)
    learner.policy.prefer_last = True  # training goes on
    mask = np.array([0, 1, 1, 0, 1], dtype=np.int8)
    obs = np.zeros(3, dtype=np.float32)
    assert frozen(obs, mask) == 1
    assert frozen_policy(learner)(obs, mask) == 4
    env = LamaEnv("express", frozen_policy(learner))  # self-play against the copy
    assert len(_play(env, 1)) > 0
    env.set_opponents(frozen_policy(learner, deterministic=True))  # refreshed copy
    assert len(_play(env, 1)) > 0
    with pytest.raises(ParameterError, match="need 1 bot kinds or policies"):
        env.set_opponents(["random", "random"])
    with pytest.raises(ParameterError, match="unknown bot kind"):
        env.set_opponents("nobody")

    class NoMasks:
        def predict(self, obs: Any, deterministic: bool = False) -> tuple[int, None]:
            return 7, None

    assert frozen_policy(NoMasks())(obs, mask) == 7
    assert frozen_policy(lambda o, m: 2)(obs, mask) == 2
    with pytest.raises(ParameterError, match="frozen_policy needs"):
        frozen_policy(42)


def test_opponent_checks_and_helpers() -> None:
    assert check_opponents("random") == ["random"]
    assert describe("random") == "random" and describe(FirstLegal()) == "policy FirstLegal"
    for bad in ([], [3], 3, None):
        with pytest.raises(ParameterError, match="bot kinds or policies"):
            check_opponents(bad)
    with pytest.raises(ParameterError, match="need 2 bot kinds or policies"):
        LamaEnv("dice", [FirstLegal()], params={"num_players": 3})
    run = batched(lambda o, m: int(np.flatnonzero(m)[0]))
    masks = np.array([[0, 1, 1], [1, 0, 0]], dtype=np.int8)
    assert run(np.zeros((2, 4), np.float32), masks).tolist() == [1, 0]
