"""The adapters are generic (issue 17): every per-game piece comes from the game's spec, so
Toy Race (tests/toygame) gets OpenSpiel, PettingZoo and Gymnasium adapters with no edit to
``lamagames/rl``, with its own ``"rl"`` extra and with the defaults when it has none."""

from __future__ import annotations

import dataclasses
import re
import warnings
from collections.abc import Iterator
from pathlib import Path

import gymnasium
import numpy as np
import pyspiel
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, render_test, seed_test

import lamagames.rl
from lamagames.core.errors import ParameterError
from lamagames.core.rlspec import RLSpec, default_rl_spec
from lamagames.core.spec import BUILTIN_SPECS, register_spec, unregister_spec
from lamagames.rl import gymnasium as lama_gym
from lamagames.rl import openspiel
from lamagames.rl.common import make_engine_game, rl_spec
from lamagames.rl.pettingzoo import make_env
from tests.toygame.spec import SPEC

_DICT_OBS_WARNINGS = ("Observation is not a NumPy array", "Observation space for each agent")


@pytest.fixture
def toy() -> Iterator[None]:
    register_spec(SPEC)
    yield
    unregister_spec("toy")


@pytest.fixture
def bare_toy() -> Iterator[None]:
    """Toy Race without an ``"rl"`` extra: the adapters' defaults."""
    extras = {k: v for k, v in SPEC.extras.items() if k != "rl"}
    register_spec(dataclasses.replace(SPEC, extras=extras))
    yield
    unregister_spec("toy")


def test_no_game_is_named_in_the_adapters_code() -> None:
    # Issue 17: rl/ works through the spec. Docstrings and comments may give examples; the
    # code (string literals outside docstrings included) names no game.
    folder = Path(lamagames.rl.__file__).parent
    for path in folder.glob("*.py"):
        text = path.read_text(encoding="utf-8")
        assert "game_id ==" not in text, path
        code = re.sub(r'"""[\s\S]*?"""', "", text)
        code = "\n".join(line.split("#")[0] for line in code.splitlines())
        for game_id in BUILTIN_SPECS:
            assert f'"{game_id}"' not in code, (path, game_id)


def test_the_spec_gives_the_names_and_defaults() -> None:
    assert rl_spec("dice").openspiel_name == "python_lama_dice"
    assert rl_spec("express").pettingzoo_name == "lama_express_v0"
    assert make_engine_game("express", {}).params["turn_limit"] == 1000
    assert make_engine_game("express", {"turn_limit": None}).params["turn_limit"] is None


def test_rl_spec_refuses_bad_values() -> None:
    with pytest.raises(ParameterError, match="players"):
        RLSpec("python_x", "X", {}, "x_v0")
    with pytest.raises(ParameterError, match="decision_cap"):
        RLSpec("python_x", "X", {"players": 2}, "x_v0", decision_cap=0)
    bad = dataclasses.replace(SPEC, extras={"rl": "tests.toygame.spec:SPEC"})
    register_spec(bad)
    try:
        with pytest.raises(ParameterError, match="'rl' extra is not an RLSpec"):
            rl_spec("toy")
    finally:
        unregister_spec("toy")


def test_toy_openspiel_from_its_spec(toy: None) -> None:
    name = openspiel.register("toy")
    assert name == "python_toy_race" and openspiel.register("toy") == name
    game = pyspiel.load_game("python_toy_race(target=3,max_turns=12)")
    assert game.lama_game.params == {"num_players": 2, "target": 3, "max_turns": 12}
    assert game.max_game_length() == 12  # the spec's bound: one decision per turn
    pyspiel.random_sim_test(game, num_sims=3, serialize=True, verbose=False)
    with pytest.raises(ValueError, match="target must be a whole number"):
        pyspiel.load_game("python_toy_race(target=0)")


def test_toy_openspiel_defaults_without_an_rl_extra(bare_toy: None) -> None:
    assert rl_spec("toy") == default_rl_spec("toy", "Toy Race", 2)
    name = openspiel.register("toy")
    assert name == "python_toy"
    game = pyspiel.load_game("python_toy(max_game_length=4)")
    assert game.max_game_length() == 4  # no bound: the decision cap
    pyspiel.random_sim_test(game, num_sims=3, serialize=True, verbose=False)


def test_toy_pettingzoo_from_its_spec(toy: None) -> None:
    env = make_env("toy", target=4)
    assert env.metadata["name"] == "toy_race_v0"
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api_test(env, num_cycles=50)
        seed_test(lambda: make_env("toy"), num_cycles=30)
    assert [w for w in caught if not str(w.message).startswith(_DICT_OBS_WARNINGS)] == []
    render_test(lambda render_mode=None: make_env("toy", render_mode=render_mode))


def test_toy_gymnasium_from_its_spec(toy: None) -> None:
    env_id = lama_gym.register("toy")
    assert env_id == "lamagames-test/ToyRace-v0"
    env = gymnasium.make(env_id, opponents="stepper", illegal_action="raise")
    assert isinstance(env.unwrapped, lama_gym.LamaEnv)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check_env(env.unwrapped, skip_render_check=True)
    assert all("Box observation space" in str(w.message) for w in caught)
    obs, info = env.reset(seed=1)
    assert obs.shape == (5,) and info["action_mask"].tolist() == [1, 1]
    done = False
    while not done:
        obs, reward, terminated, truncated, info = env.step(0)  # always step
        done = terminated or truncated
    assert reward == 1.0  # stepping first to 5 beats a stepper moving second


def test_toy_gymnasium_without_an_id(bare_toy: None) -> None:
    assert lama_gym.register("toy") is None
    env = lama_gym.LamaEnv("toy", "random")
    _, info = env.reset(seed=0)
    assert np.flatnonzero(info["action_mask"]).tolist() == [0, 1]
