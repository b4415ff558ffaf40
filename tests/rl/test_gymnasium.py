"""Gymnasium adapter: the upstream check_env, registration, rewards, seeds and bad input."""

from __future__ import annotations

import warnings
from typing import Any

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

from lamagames.core.errors import IllegalActionError, InvalidActionError, LamaError
from lamagames.rl.common import rl_spec
from lamagames.rl.gymnasium import LamaEnv

DICE_ENV_ID = "lamagames/LamaDice-v0"
EXPRESS_ENV_ID = "lamagames/LamaExpress-v0"

# Warnings check_env gives by design: the observation Box is unbounded (scores and progress
# have no fixed maximum) and check_env steps actions sampled without the mask, which the
# default illegal_action="warn" ignores with a warning.
_EXPECTED = ("A Box observation space m", "illegal action ignored: ")


def _check(env: Any) -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check_env(env)
    messages = [str(w.message).replace("\x1b[33mWARN: ", "") for w in caught]
    assert [m for m in messages if not m.startswith(_EXPECTED)] == []


@pytest.mark.parametrize(
    ("env_id", "opponents"),
    [
        (DICE_ENV_ID, ("heuristic",)),
        (DICE_ENV_ID, ("heuristic", "benchmark")),
        (DICE_ENV_ID, ("random",) * 5),
        (EXPRESS_ENV_ID, ("benchmark",)),
        (EXPRESS_ENV_ID, ("heuristic", "benchmark", "random")),
    ],
)
def test_check_env_passes_for_registered_ids(env_id: str, opponents: tuple[str, ...]) -> None:
    env = gymnasium.make(env_id, opponents=opponents, illegal_action="warn")
    assert isinstance(env.unwrapped, LamaEnv)
    assert env.unwrapped.game.num_players == 1 + len(opponents)
    _check(env.unwrapped)
    env.close()


@pytest.mark.parametrize("env_id", [DICE_ENV_ID, EXPRESS_ENV_ID])
def test_check_env_with_default_arguments(env_id: str) -> None:
    assert env_id in (rl_spec("dice").gymnasium_id, rl_spec("express").gymnasium_id)
    env = gymnasium.make(env_id)
    assert isinstance(env.unwrapped, LamaEnv)
    assert env.unwrapped.opponents == ("heuristic",)
    assert env.unwrapped.illegal_action == "raise"  # issue 20: the default raises
    env.unwrapped.illegal_action = "warn"  # check_env samples without the mask
    _check(env.unwrapped)


def _episode(env: LamaEnv, seed: int) -> tuple[list[Any], float, list[float], bool, bool]:
    """Play one episode with random legal actions; check the agent only acts on its turn."""
    rng = np.random.default_rng(seed)
    obs, info = env.reset(seed=seed)
    trace = [obs.copy()]
    rewards: list[float] = []
    terminated = truncated = False
    while not (terminated or truncated):
        state = env.lama_state
        assert state.current_player() == env.seat
        assert np.flatnonzero(info["action_mask"]).tolist() == state.legal_actions(env.seat)
        np.testing.assert_array_equal(env.action_masks(), info["action_mask"].astype(bool))
        action = int(rng.choice(np.flatnonzero(info["action_mask"])))
        obs, reward, terminated, truncated, info = env.step(action)
        assert "illegal_action" not in info
        trace.append(obs.copy())
        rewards.append(float(reward))
    return trace, sum(rewards), rewards, terminated, truncated


@pytest.mark.parametrize(
    "env", [LamaEnv("dice", ("benchmark", "heuristic"), seat=1), LamaEnv("express", "benchmark")]
)
def test_reward_is_the_seat_return_at_the_end(env: LamaEnv) -> None:
    wins = 0
    for seed in range(4):
        _, total, rewards, terminated, truncated = _episode(env, seed)
        state = env.lama_state
        assert state.is_terminal()
        assert rewards[:-1] == [0.0] * (len(rewards) - 1)
        assert total == rewards[-1] == state.returns()[env.seat]
        assert terminated == any(state.returns())
        assert truncated == (not terminated)
        wins += int(total)
        with pytest.raises(LamaError, match="reset"):
            env.step(0)
    assert 0 <= wins <= 4


@pytest.mark.parametrize("game", ["dice", "express"])
def test_same_seed_same_episode(game: str) -> None:
    env = LamaEnv(game, ("random", "benchmark"))
    first, *_ = _episode(env, 21)
    again, *_ = _episode(env, 21)
    assert len(first) == len(again)
    for a, b in zip(first, again, strict=True):
        np.testing.assert_array_equal(a, b)
    other, *_ = _episode(env, 22)
    assert len(other) != len(first) or any(
        not np.array_equal(a, b) for a, b in zip(first, other, strict=True)
    )


@pytest.mark.parametrize("game", ["dice", "express"])
def test_illegal_action_raise_mode_refuses_and_keeps_the_state(game: str) -> None:
    env = LamaEnv(game, "benchmark")  # the default: raise
    obs, info = env.reset(seed=4)
    before = env.lama_state.to_dict()
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    with pytest.raises(IllegalActionError, match="is not legal for seat 0 now; legal: "):
        env.step(illegal)
    assert isinstance(env.action_space, gymnasium.spaces.Discrete)
    for bad in (env.action_space.n, -3, 2.0, False, None):
        with pytest.raises(InvalidActionError):
            env.step(bad)
    assert env.lama_state.to_dict() == before
    np.testing.assert_array_equal(env.lama_state.observation_tensor(0), obs)


@pytest.mark.parametrize("game", ["dice", "express"])
def test_illegal_action_warn_mode_reports_in_info_and_keeps_the_state(game: str) -> None:
    env = LamaEnv(game, "benchmark", illegal_action="warn")
    obs, info = env.reset(seed=4)
    before = env.lama_state.to_dict()
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    with warnings.catch_warnings(record=True):
        warnings.simplefilter("always")
        obs2, reward, terminated, truncated, info2 = env.step(illegal)
    assert "is not legal" in info2["illegal_action"]
    assert (reward, terminated, truncated) == (0.0, False, False)
    np.testing.assert_array_equal(obs, obs2)
    np.testing.assert_array_equal(info["action_mask"], info2["action_mask"])
    assert env.lama_state.to_dict() == before


def test_opponents_parameters() -> None:
    env = LamaEnv("dice", ("heuristic", "benchmark", "random"), seat=2)
    assert env.game.num_players == 4
    assert env.opponents == ("heuristic", "benchmark", "random")
    env.reset(seed=0)
    assert [type(env._bots[s]).kind for s in (0, 1, 3)] == ["heuristic", "benchmark", "random"]
    assert LamaEnv("express", "random", params={"num_players": 4}).opponents == ("random",) * 3
    assert LamaEnv("express").game.params["turn_limit"] == 1000
    with pytest.raises(ValueError, match="need 2 bot kinds"):
        LamaEnv("dice", ("random",), params={"num_players": 3})
    with pytest.raises(ValueError, match="unknown bot kind"):
        LamaEnv("dice", ("nobody",))
    with pytest.raises(ValueError, match="seat"):
        LamaEnv("dice", ("random",), seat=2)
    with pytest.raises(ValueError, match="illegal_action"):
        LamaEnv("dice", illegal_action="ignore")
    with pytest.raises(ValueError, match="end_score"):
        LamaEnv("dice", params={"end_score": 0})


def test_max_game_length_truncates_and_render_gives_text() -> None:
    env = LamaEnv("express", "benchmark", max_game_length=2, render_mode="ansi")
    _, info = env.reset(seed=1)
    assert isinstance(env.render(), str)
    truncated = False
    steps = 0
    while not truncated:
        _, _, terminated, truncated, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))
        steps += 1
        assert not terminated
    assert steps == 2
