"""Vector envs on the compiled batch engines (issue 20): Gymnasium's make_vec, next-step
autoreset, per-sub-env seeds equal to the single-env view, replays through the scalar engine,
env_checker, opponents (in-kernel and Python policies), self-play, bad input."""

from __future__ import annotations

import os
import subprocess
import sys
import warnings
from pathlib import Path
from typing import Any

import gymnasium
import numpy as np
import numpy.typing as npt
import pytest
from gymnasium.utils.env_checker import check_env

import lamagames.rl.gymnasium  # noqa: F401  (registers the ids)
from lamagames.bots.express import ExpressHeuristicBot
from lamagames.core.errors import IllegalActionError, InvalidActionError, ParameterError
from lamagames.core.registry import make
from lamagames.rl.vector import LamaVectorEnv, MultiAgentVectorEnv, VectorSingleEnv

GAMES = [("dice", "lamagames/LamaDice-v0"), ("express", "lamagames/LamaExpress-v0")]


def _choose(masks: npt.NDArray[np.int8], rngs: list[np.random.Generator]) -> npt.NDArray[Any]:
    """A uniform legal action per sub-env from that sub-env's own generator (0 if none)."""
    out = np.zeros(len(masks), np.int64)
    for i, (mask, rng) in enumerate(zip(masks, rngs, strict=True)):
        legal = np.flatnonzero(mask)
        out[i] = int(rng.choice(legal)) if len(legal) else 0
    return out


def _run(env: Any, seed: int | list[int], steps: int, policy_seeds: list[int]) -> list[Any]:
    obs, infos = env.reset(seed=seed)
    rngs = [np.random.default_rng(s) for s in policy_seeds]
    frames = [(obs.copy(), None, None, None, infos["action_mask"].copy())]
    for _ in range(steps):
        actions = _choose(infos["action_mask"], rngs)
        obs, rewards, terms, truncs, infos = env.step(actions)
        frames.append((obs.copy(), rewards.copy(), terms.copy(), truncs.copy(),
                       infos["action_mask"].copy()))  # fmt: skip
    return frames


@pytest.mark.parametrize(("game", "env_id"), GAMES)
def test_make_vec_gives_a_compiled_vector_env(game: str, env_id: str) -> None:
    envs = gymnasium.make_vec(
        env_id, num_envs=5, vectorization_mode="vector_entry_point", opponents="random"
    )
    assert isinstance(envs.unwrapped, LamaVectorEnv)
    assert envs.metadata["autoreset_mode"] == gymnasium.vector.AutoresetMode.NEXT_STEP
    single = make(game, num_players=2)
    obs, infos = envs.reset(seed=3)
    assert obs.shape == (5, *single.info.observation_shape) and obs.dtype == np.float32
    assert infos["action_mask"].shape == (5, single.info.num_distinct_actions)
    assert infos["action_mask"].dtype == np.int8 and infos["action_mask"].any(axis=1).all()
    obs, rewards, terms, truncs, infos = envs.step(
        _choose(infos["action_mask"], [np.random.default_rng(i) for i in range(5)])
    )
    assert rewards.shape == terms.shape == truncs.shape == (5,)
    assert envs.observation_space.shape == obs.shape
    envs.close()


@pytest.mark.parametrize(("game", "env_id"), GAMES)
def test_make_vec_refuses_a_render_mode_in_one_line(game: str, env_id: str) -> None:
    # it was a TypeError about an unexpected keyword (found by a fresh-clone trial)
    with pytest.raises(ParameterError, match="does not render"):
        gymnasium.make_vec(
            env_id, num_envs=2, vectorization_mode="vector_entry_point", render_mode="human"
        )
    envs = gymnasium.make_vec(env_id, num_envs=2, vectorization_mode="vector_entry_point",
                              render_mode=None)  # fmt: skip
    assert envs.render_mode is None
    envs.close()


@pytest.mark.parametrize(("game", "env_id"), GAMES)
def test_equal_seeds_give_the_single_env_trajectories(game: str, env_id: str) -> None:
    # Sub-env i of an N-env reset with seed s plays as the single-env view reset with s + i,
    # whatever N (each sub-env draws its episodes from its own stream), autoresets included.
    steps = 60
    params = {"turn_limit": 30} if game == "express" else {}
    envs = LamaVectorEnv(game, 3, ["benchmark"], params=params)
    frames = _run(envs, 10, steps, [0, 1, 2])
    for i in range(3):
        single = LamaVectorEnv(game, 1, ["benchmark"], params=params)
        alone = _run(single, 10 + i, steps, [i])
        for step, (got, want) in enumerate(zip(frames, alone, strict=True)):
            for a, b in zip(got, want, strict=True):
                if a is not None:
                    np.testing.assert_array_equal(a[i], b[0], err_msg=f"step {step}")
    assert any((f[2] | f[3]).any() for f in frames[1:]), "no episode ended: lengthen the test"


@pytest.mark.parametrize("game", ["dice", "express"])
def test_trajectories_replay_through_the_scalar_engine(game: str) -> None:
    # Observations, masks and rewards are the scalar engine's for the same actions: the
    # trace (chance outcomes and in-kernel opponents included) replays through the scalar
    # state, whose observation_tensor(agent seat), legal actions and returns must match.
    params = {"num_players": 3, **({"turn_limit": 1000} if game == "express" else {})}
    envs = LamaVectorEnv(game, 4, ["random", "benchmark"], seat=1, trace_length=2000)
    scalar = make(game, **params)
    obs, infos = envs.reset(seed=7)
    rngs = [np.random.default_rng(100 + i) for i in range(4)]
    ended = 0
    for _ in range(80):
        states = []
        for i in range(4):
            state = scalar.new_initial_state()
            for player, action in envs.history(i):
                state.apply_action(action, None if player < 0 else player)
            states.append(state)
            np.testing.assert_array_equal(obs[i], state.observation_tensor(1))
            if not state.is_terminal():
                assert state.current_player() == 1
                assert np.flatnonzero(infos["action_mask"][i]).tolist() == state.legal_actions(1)
        actions = _choose(infos["action_mask"], rngs)
        obs, rewards, terms, truncs, infos = envs.step(actions)
        for i in range(4):
            if terms[i] or truncs[i]:
                ended += 1
                state = scalar.new_initial_state()
                for player, action in envs.history(i):
                    state.apply_action(action, None if player < 0 else player)
                assert state.is_terminal()
                assert rewards[i] == state.returns()[1]
                assert terms[i] == any(state.returns())
    assert ended > 0


@pytest.mark.parametrize("players", [2, 3, 4])
def test_express_heuristic_opponents_play_as_the_bot_inside_the_kernel(players: int) -> None:
    # Issue 20: the other seats played inside the kernel by the heuristic (once refused:
    # unknown in-kernel policy). Every opponent decision in the traces is the one
    # ExpressHeuristicBot makes in the scalar replay, autoresets included.
    n = 4
    envs = gymnasium.make_vec(
        "lamagames/LamaExpress-v0", num_envs=n, vectorization_mode="vector_entry_point",
        opponents="heuristic", params={"num_players": players}, trace_length=3000,
    )  # fmt: skip
    vec = envs.unwrapped
    assert isinstance(vec, LamaVectorEnv)
    game = make("express", num_players=players, turn_limit=1000)  # the env's default limit
    bots = [ExpressHeuristicBot(game, s) for s in range(players)]
    _, infos = envs.reset(seed=players)
    rngs = [np.random.default_rng(i) for i in range(n)]
    checked = ended = 0

    def check(history: list[tuple[int, int]]) -> None:
        nonlocal checked
        state = game.new_initial_state()
        for player, action in history:
            if player > 0:  # an opponent's decision (the agent is seat 0)
                assert bots[player].step(state) == action
                checked += 1
            state.apply_action(action, None if player < 0 else player)

    for _ in range(300):
        _, _, terms, truncs, infos = envs.step(_choose(infos["action_mask"], rngs))
        for i in range(n):
            if terms[i] or truncs[i]:
                ended += 1
                check(vec.history(i))  # the whole episode, before the autoreset
    for i in range(n):
        check(vec.history(i))  # episodes still running
    assert ended > 0 and checked > 100
    envs.close()


@pytest.mark.parametrize("game", ["dice", "express"])
def test_next_step_autoreset(game: str) -> None:
    envs = LamaVectorEnv(game, 2, "random")
    _, infos = envs.reset(seed=1)
    rngs = [np.random.default_rng(i) for i in range(2)]
    for _ in range(2000):
        _, rewards, terms, truncs, infos = envs.step(_choose(infos["action_mask"], rngs))
        done = terms | truncs
        if done.any():
            break
    assert done.any()
    i = int(np.flatnonzero(done)[0])
    assert not infos["action_mask"][i].any()  # nothing to do in a finished game
    actions = _choose(infos["action_mask"], rngs)
    actions[i] = 10_000  # ignored: this sub-env resets
    _, rewards, terms, truncs, infos = envs.step(actions)
    assert rewards[i] == 0.0 and not terms[i] and not truncs[i]
    assert infos["action_mask"][i].any()


@pytest.mark.parametrize("game", ["dice", "express"])
def test_check_env_on_the_single_env_view(game: str) -> None:
    env = VectorSingleEnv(game, opponents="random", illegal_action="warn")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check_env(env, skip_render_check=True)
    messages = [str(w.message) for w in caught]
    allowed = ("A Box observation space", "illegal action ignored")
    assert [m for m in messages if not any(a in m for a in allowed)] == []
    _, info = env.reset(seed=2)
    assert env.action_masks().tolist() == info["action_mask"].astype(bool).tolist()


def test_illegal_actions_raise_and_change_nothing() -> None:
    envs = LamaVectorEnv("dice", 3, "random")
    obs, infos = envs.reset(seed=4)
    actions = _choose(infos["action_mask"], [np.random.default_rng(i) for i in range(3)])
    bad = actions.copy()
    bad[1] = int(np.flatnonzero(infos["action_mask"][1] == 0)[0])
    with pytest.raises(IllegalActionError, match="sub-env 1: action"):
        envs.step(bad)
    np.testing.assert_array_equal(envs.engine.obs, obs)
    for wrong in (actions[:2], actions.astype(float), np.array([[0, 0, 0]])):
        with pytest.raises(InvalidActionError, match="3 integers"):
            envs.step(wrong)
    warn = LamaVectorEnv("dice", 3, "random", illegal_action="warn")
    obs, infos = warn.reset(seed=4)
    with warnings.catch_warnings(record=True):
        warnings.simplefilter("always")
        obs2, rewards, *_, infos2 = warn.step(bad)
    assert infos2["illegal_action"].tolist() == [False, True, False]
    np.testing.assert_array_equal(obs2[1], obs[1])
    assert rewards[1] == 0.0


def test_bad_arguments_are_refused() -> None:
    with pytest.raises(ParameterError, match="unknown in-kernel policy"):
        LamaVectorEnv("dice", 2, "nobody")
    with pytest.raises(ParameterError, match="num_envs"):
        LamaVectorEnv("dice", 0, "random")
    with pytest.raises(ParameterError, match="need 2 policies"):
        LamaVectorEnv("dice", 2, ["random"], params={"num_players": 3})
    with pytest.raises(ParameterError, match="seed"):
        LamaVectorEnv("dice", 2, "random").reset(seed=[1])
    with pytest.raises(ParameterError, match="unknown in-kernel policy 'cleverest'"):
        LamaVectorEnv("express", 2, "cleverest")
    with pytest.raises(ParameterError, match="reset"):
        LamaVectorEnv("dice", 2, "random").step(np.zeros(2, np.int64))
    with pytest.raises(ParameterError, match="end_score"):
        LamaVectorEnv("dice", 2, "random", params={"end_score": 0})
    for game in ("dice", "express"):
        with pytest.raises(ParameterError, match=r"unknown .* parameter"):
            LamaVectorEnv(game, 2, "random", params={"speed": 3})
    with pytest.raises(ParameterError, match="llamas_to_win"):
        LamaVectorEnv("express", 2, "random", params={"llamas_to_win": 5})
    with pytest.raises(ParameterError, match="turn_limit"):
        LamaVectorEnv("express", 2, "random", params={"turn_limit": None})


def test_python_policies_play_inside_the_vector_env() -> None:
    # A batch policy gets (k, D) observations and (k, A) masks of its own seat.
    calls: list[int] = []

    def lowest(obs: npt.NDArray[np.float32], masks: npt.NDArray[np.int8]) -> Any:
        calls.append(len(obs))
        assert obs.shape[1:] == (10 * 3 + 36,) and masks.shape[1] == 131
        assert masks.any(axis=1).all()
        return masks.argmax(axis=1)

    envs = LamaVectorEnv("dice", 4, [lowest, "heuristic"], trace_length=500)
    frames = _run(envs, 3, 40, [0, 1, 2, 3])
    assert calls and sum(calls) > 0
    # the policy's choices are in the trace: seat 1 always took its lowest legal action
    scalar = make("dice", num_players=3)
    for i in range(4):
        state = scalar.new_initial_state()
        for player, action in envs.history(i):
            if player == 1:
                assert action == min(state.legal_actions(1))
            state.apply_action(action, None if player < 0 else player)
    assert len(frames) == 41

    def cheat(obs: npt.NDArray[np.float32], masks: npt.NDArray[np.int8]) -> Any:
        return (masks == 0).argmax(axis=1)

    with pytest.raises(IllegalActionError, match="opponent policy cheat at seat 1"):
        LamaVectorEnv("dice", 2, [cheat, "random"], params={"starting_seat": 1}).reset(seed=0)


@pytest.mark.parametrize("game", ["dice", "express"])
def test_multi_agent_self_play_replays_through_the_scalar_engine(game: str) -> None:
    extra = {"turn_limit": 25} if game == "express" else {}  # E-11: short games end here
    envs = MultiAgentVectorEnv(game, 3, params={"num_players": 3, **extra}, trace_length=3000)
    scalar = make(game, num_players=3, **extra)
    obs, infos = envs.reset(seed=5)
    rngs = [np.random.default_rng(i) for i in range(3)]
    finished = 0
    for _ in range(150):
        for i in range(3):
            state = scalar.new_initial_state()
            for player, action in envs.history(i):
                state.apply_action(action, None if player < 0 else player)
            if not state.is_terminal():
                seat = int(infos["seat"][i])
                assert state.current_player() == seat
                np.testing.assert_array_equal(obs[i], state.observation_tensor(seat))
                assert np.flatnonzero(infos["action_mask"][i]).tolist() == state.legal_actions(seat)
        obs, rewards, terms, truncs, infos = envs.step(_choose(infos["action_mask"], rngs))
        assert rewards.shape == (3, 3)
        for ended in np.flatnonzero(terms | truncs):
            i = int(ended)
            finished += 1
            state = scalar.new_initial_state()
            for player, action in envs.history(i):
                state.apply_action(action, None if player < 0 else player)
            assert rewards[i].tolist() == state.returns()
    assert finished > 0


def test_a_game_without_a_vector_engine_is_refused() -> None:
    from lamagames.core.spec import register_spec, unregister_spec
    from tests.toygame.spec import SPEC

    register_spec(SPEC)
    try:
        with pytest.raises(ParameterError, match="Toy Race has no vector engine"):
            LamaVectorEnv("toy", 2, "random")
    finally:
        unregister_spec("toy")


def test_a_frozen_learner_plays_a_seat_of_the_vector_env() -> None:
    # Self-play against a copy: frozen_policy of a Stable-Baselines3 style learner whose
    # predict takes batches (as MaskablePPO's does) serves as a batch opponent.
    from lamagames.rl.policies import frozen_policy

    class Net:
        def __init__(self) -> None:
            self.last = True

        def predict(
            self, obs: Any, deterministic: bool = False, action_masks: Any = None
        ) -> tuple[Any, None]:
            masks = np.asarray(action_masks)
            pick = (
                masks.shape[1] - 1 - np.argmax(masks[:, ::-1], axis=1)
                if self.last
                else (np.argmax(masks, axis=1))
            )
            return pick, None

    class Learner:
        def __init__(self) -> None:
            self.policy = Net()

    learner = Learner()
    opponent = frozen_policy(learner)
    learner.policy.last = False  # the learner moves on; the copy keeps choosing the last
    envs = LamaVectorEnv("express", 3, [opponent], trace_length=3000, params={"turn_limit": 30})
    _run(envs, 2, 30, [0, 1, 2])
    scalar = make("express", num_players=2, turn_limit=30)
    for i in range(3):
        state = scalar.new_initial_state()
        for player, action in envs.history(i):
            if player == 1:
                assert action == max(state.legal_actions(1))
            state.apply_action(action, None if player < 0 else player)


def test_without_numba_the_vector_env_says_what_to_install(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from tests.missing_packages import hide

    hide(monkeypatch, "numba")
    for game in ("dice", "express"):
        with pytest.raises(ParameterError, match=r"vector engine needs numba: pip install"):
            LamaVectorEnv(game, 2, "random")


# A fresh process with an empty Numba cache: every kernel the LAMA Dice vector engine calls
# is compiled from source under the vector kernel's own options. Numba compiles a callee
# the first time a caller needs it, with that caller's options, and reuses the compiled
# callee afterwards, so only an empty cache shows whether a callee allocates.
_FRESH_COMPILE = """
import numpy as np
from lamagames.dice import vector
assert vector.run_vector.targetoptions.get("_nrt") is False, vector.run_vector.targetoptions
engine = vector.DiceVectorEngine(2, {"num_players": 4}, [None, "heuristic", "benchmark", "random"])
engine.run(np.full(2, vector.RESET, np.int8), np.zeros(2, np.int32), -1)
print("compiled", int(engine.status.max()))
"""


@pytest.mark.slow
def test_dice_vector_kernel_compiles_from_an_empty_numba_cache(tmp_path: Path) -> None:
    """The kernel runs without Numba's reference counting, so nothing it calls may allocate
    (the heuristic opponent once did: ``np.zeros`` in its discard choice; a disk cache made
    before had hidden the failed compile). About 20 s of CPU time (35-70 s of the CI's
    wall time), so marked slow like the Lama Express one: on a fresh clone (CI) the default
    run compiles the same kernel from an empty cache anyway, in
    :func:`test_make_vec_gives_a_compiled_vector_env`; this one also catches it where a
    cache made before would hide the failure."""
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "numba")}
    done = subprocess.run(
        [sys.executable, "-c", _FRESH_COMPILE],
        env=env,
        capture_output=True,
        text=True,
        timeout=1200,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stdout.strip() == "compiled 0"


_FRESH_COMPILE_EXPRESS = """
import numpy as np
from lamagames.express import vector
assert vector._kernel.run_vector.targetoptions.get("_nrt") is False
seats = [None, "heuristic", "benchmark", "random"]
engine = vector.ExpressVectorEngine(2, {"num_players": 4, "turn_limit": 1000}, seats)
engine.run(np.full(2, vector.RESET, np.int8), np.zeros(2, np.int32), -1)
print("compiled", int(engine.status.max()))
"""


@pytest.mark.slow
def test_express_vector_kernel_compiles_from_an_empty_numba_cache(tmp_path: Path) -> None:
    """As the LAMA Dice one: nothing the kernel calls may allocate, the heuristic's
    look-ahead (a scratch state the engine owns) included. About 22 s of CPU time."""
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "numba")}
    done = subprocess.run(
        [sys.executable, "-c", _FRESH_COMPILE_EXPRESS],
        env=env,
        capture_output=True,
        text=True,
        timeout=1200,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stdout.strip() == "compiled 0"
