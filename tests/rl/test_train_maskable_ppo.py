"""examples/train_maskable_ppo.py: a one-second smoke run (needs the train extra, skipped
without sb3-contrib, which CI does not install)."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest

pytest.importorskip("sb3_contrib")

EXAMPLE = Path(__file__).parents[2] / "examples" / "train_maskable_ppo.py"


def _load() -> ModuleType:
    spec = importlib.util.spec_from_file_location("train_maskable_ppo", EXAMPLE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up by name
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("game", ["dice", "express"])
def test_a_tiny_run_trains_plots_and_evaluates(game: str, tmp_path: Path) -> None:
    example = _load()
    out = tmp_path / "curve.png"
    result = example.train(game, 256, num_envs=8, seed=1, eval_games=12, out=out)
    assert result.timesteps == 256 and result.episodes >= 0
    assert [e.opponent for e in result.evaluations] == list(example.BOTS[game])
    for e in result.evaluations:
        assert e.games == 12 and 0 <= e.wins <= 12
        assert e.low <= e.share <= e.high
    assert out.stat().st_size > 0
    saved = json.loads(out.with_suffix(".json").read_text(encoding="utf-8"))
    assert saved["game"] == game


def test_wilson_interval() -> None:
    example = _load()
    low, high = example.wilson(50, 100)
    assert low == pytest.approx(0.4038, abs=1e-4) and high == pytest.approx(0.5962, abs=1e-4)
    assert example.wilson(0, 0) == (0.0, 1.0)


def test_sb3_vec_env_resets_in_the_same_step() -> None:
    example = _load()
    from lamagames.rl.vector import LamaVectorEnv

    vec = example.Sb3VecEnv(LamaVectorEnv("dice", 4, "random"), seed=3)
    obs = vec.reset()
    rng = np.random.default_rng(0)
    for _ in range(200):
        masks = np.stack(vec.env_method("action_masks"))
        assert masks.any(axis=1).all()  # a finished sub-env was reset at once
        vec.step_async(np.argmax(masks * rng.random(masks.shape), axis=1))
        obs, _, dones, infos = vec.step_wait()
        for i in np.flatnonzero(dones):
            assert "terminal_observation" in infos[i]
    assert vec.episodes and obs.shape == (4, 56)
