"""examples/train_dice.py: a REINFORCE loop on the Gymnasium environment is wired up."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import gymnasium  # noqa: F401  (the example needs it; a dev dependency, never skipped)
import numpy as np

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "train_dice.py"


def _load() -> ModuleType:
    spec = importlib.util.spec_from_file_location("train_dice_example", EXAMPLE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up by name
    spec.loader.exec_module(module)
    return module


def test_reinforce_runs_a_few_hundred_steps_and_changes_the_policy() -> None:
    example = _load()
    result = example.train(100, seed=3)
    assert result.steps >= 200
    assert len(result.losses) == len(result.returns) == 100
    assert np.isfinite(result.losses).all()
    assert set(result.returns) <= {0.0, 1.0}
    assert 0.0 < sum(result.returns) < 100  # it won some games and lost some
    assert not np.allclose(result.weights, result.initial_weights)
    # the policy itself moved: some legal action's probability changed at a fixed position
    env = example.LamaEnv("dice", ("benchmark",))
    obs, info = env.reset(seed=0)
    before = example.masked_policy(result.initial_weights, obs, info["action_mask"])
    after = example.masked_policy(result.weights, obs, info["action_mask"])
    assert np.isclose(after.sum(), 1.0)
    assert (after[info["action_mask"] == 0] == 0).all()
    assert np.abs(after - before).max() > 1e-3


def test_training_is_reproducible_from_its_seed() -> None:
    example = _load()
    first = example.train(10, seed=5)
    again = example.train(10, seed=5)
    np.testing.assert_array_equal(first.weights, again.weights)
    assert first.returns == again.returns
