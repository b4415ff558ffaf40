"""Train sb3-contrib's MaskablePPO on the compiled vector env, plot its learning curve and
evaluate it against the ladder's bots with 95% intervals.

Needs the ``train`` extra (``pip install torch==2.13.0 'lamagames[train]'``; the pinned torch
is the CPU build, a plain ``torch`` may pull a CUDA build of several GB) and numba (``sim``).

    python examples/train_maskable_ppo.py --game dice --timesteps 100000
    python examples/train_maskable_ppo.py --game express --timesteps 100000

The agent plays seat 0 of a two-player game against in-kernel opponents
(:class:`lamagames.rl.vector.LamaVectorEnv`, one compiled call per step for all sub-envs);
:class:`Sb3VecEnv` adapts it to Stable-Baselines3's ``VecEnv`` (same-step autoreset with
``terminal_observation``, ``action_masks`` for MaskablePPO). The learning curve is the
win share of the finished training episodes (rolling mean); the evaluation plays the
trained policy (deterministic) against each in-kernel bot and reports the win share with
a Wilson 95% interval.
"""

from __future__ import annotations

import argparse
import json
import math
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
from sb3_contrib import MaskablePPO
from stable_baselines3.common.vec_env import VecEnv

from lamagames.rl.vector import LamaVectorEnv

#: In-kernel bots of each game (the ladder's bots that run inside the vector engines).
BOTS = {game: ("random", "benchmark", "heuristic") for game in ("dice", "express")}


class Sb3VecEnv(VecEnv):  # type: ignore[misc]
    """A :class:`LamaVectorEnv` as a Stable-Baselines3 ``VecEnv``: an ended sub-env is
    reset in the same step (its last observation in ``infos[i]["terminal_observation"]``),
    and ``env_method("action_masks")`` gives the masks MaskablePPO asks for. Finished
    episodes are kept as ``(agent steps so far, reward)`` in :attr:`episodes`."""

    def __init__(self, env: LamaVectorEnv, seed: int) -> None:
        self.env = env
        self.seed_value = seed
        self.episodes: list[tuple[int, float]] = []
        self.steps = 0
        self._actions: npt.NDArray[Any] = np.zeros(env.num_envs, np.int64)
        super().__init__(env.num_envs, env.single_observation_space, env.single_action_space)

    def reset(self) -> npt.NDArray[np.float32]:
        obs, _ = self.env.reset(seed=self.seed_value)
        return obs

    def step_async(self, actions: npt.NDArray[Any]) -> None:
        self._actions = np.asarray(actions, dtype=np.int64)

    def step_wait(self) -> tuple[Any, Any, Any, list[dict[str, Any]]]:
        obs, rewards, terms, truncs, _ = self.env.step(self._actions)
        self.steps += self.num_envs
        dones = terms | truncs
        infos: list[dict[str, Any]] = [{} for _ in range(self.num_envs)]
        if dones.any():
            for i in np.flatnonzero(dones):
                infos[int(i)]["terminal_observation"] = obs[i].copy()
                infos[int(i)]["TimeLimit.truncated"] = bool(truncs[i])
                self.episodes.append((self.steps, float(rewards[i])))
            fresh, _ = self.env.reset(options={"reset_mask": dones})
            obs = np.where(dones[:, None], fresh, obs)
        return obs, rewards.astype(np.float32), dones, infos

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The legal actions of every sub-env now, bool ``(N, A)``."""
        return self.env.engine.mask.astype(np.bool_)

    def env_method(
        self, method_name: str, *args: Any, indices: Any = None, **kwargs: Any
    ) -> list[Any]:
        if method_name != "action_masks":
            raise AttributeError(method_name)
        masks = self.action_masks()
        return [masks[i] for i in self._get_indices(indices)]

    def has_attr(self, attr_name: str) -> bool:
        return attr_name == "action_masks" or hasattr(self.env, attr_name)

    def get_attr(self, attr_name: str, indices: Any = None) -> list[Any]:
        return [getattr(self.env, attr_name) for _ in self._get_indices(indices)]

    def set_attr(self, attr_name: str, value: Any, indices: Any = None) -> None:
        setattr(self.env, attr_name, value)

    def env_is_wrapped(self, wrapper_class: Any, indices: Any = None) -> list[bool]:
        return [False for _ in self._get_indices(indices)]

    def close(self) -> None:
        """Nothing to release."""

    def seed(self, seed: int | None = None) -> Sequence[int | None]:
        if seed is not None:
            self.seed_value = seed
        return [None] * self.num_envs

    def get_images(self) -> Sequence[None]:
        return [None] * self.num_envs


@dataclass
class Evaluation:
    """Win share of the trained policy against one bot, with a Wilson 95% interval."""

    opponent: str
    games: int
    wins: int
    share: float
    low: float
    high: float


@dataclass
class Result:
    """What :func:`train` returns (and writes as JSON next to the plot)."""

    game: str
    timesteps: int
    episodes: int
    #: ``None`` when no training episode ended (a run too short for a whole game)
    first_quarter_win_share: float | None
    last_quarter_win_share: float | None
    evaluations: list[Evaluation] = field(default_factory=list)


def wilson(wins: int, games: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a proportion (95% with ``z = 1.96``)."""
    if games == 0:
        return 0.0, 1.0
    p = wins / games
    centre = (p + z * z / (2 * games)) / (1 + z * z / games)
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / (1 + z * z / games)
    return max(0.0, centre - half), min(1.0, centre + half)


def evaluate(
    model: Any, game: str, opponent: str, games: int, seed: int, num_envs: int = 256
) -> Evaluation:
    """Play the model (deterministic, masked) at seat 0 against ``opponent`` until
    ``games`` episodes have ended; count the wins."""
    env = LamaVectorEnv(game, min(num_envs, games), opponent)
    obs, infos = env.reset(seed=seed)
    wins = played = 0
    while played < games:
        actions, _ = model.predict(
            obs, action_masks=infos["action_mask"].astype(np.bool_), deterministic=True
        )
        obs, rewards, terms, truncs, infos = env.step(np.asarray(actions, np.int64))
        for i in np.flatnonzero(terms | truncs):
            if played < games:
                played += 1
                wins += int(rewards[i] > 0)
    low, high = wilson(wins, played)
    return Evaluation(opponent, played, wins, wins / played, low, high)


def train(
    game: str,
    timesteps: int,
    *,
    opponent: str = "random",
    num_envs: int = 64,
    seed: int = 0,
    eval_games: int = 2000,
    out: Path | None = None,
    threads: int = 1,
) -> Result:
    """Train MaskablePPO against ``opponent``, plot the curve to ``out`` (PNG) and evaluate.

    ``threads``: PyTorch's intra-op threads (1: a small MLP gains nothing from more, and on
    a shared machine more threads only wait for each other)."""
    import torch

    torch.set_num_threads(threads)
    vec = Sb3VecEnv(LamaVectorEnv(game, num_envs, opponent), seed)
    n_steps = max(8, min(128, timesteps // num_envs))
    model = MaskablePPO(
        "MlpPolicy", vec, n_steps=n_steps, batch_size=min(512, n_steps * num_envs),
        seed=seed, verbose=0, device="cpu",
    )  # fmt: skip
    model.learn(total_timesteps=timesteps)
    rewards = np.array([r for _, r in vec.episodes], dtype=np.float64)
    quarter = max(1, len(rewards) // 4)
    result = Result(
        game=game,
        timesteps=timesteps,
        episodes=len(rewards),
        first_quarter_win_share=float(rewards[:quarter].mean()) if len(rewards) else None,
        last_quarter_win_share=float(rewards[-quarter:].mean()) if len(rewards) else None,
    )
    for bot in BOTS[game]:
        result.evaluations.append(evaluate(model, game, bot, eval_games, seed + 1))
    if out is not None:
        plot(vec.episodes, result, out)
        out.with_suffix(".json").write_text(json.dumps(asdict(result), indent=2) + "\n")
    return result


def plot(episodes: list[tuple[int, float]], result: Result, out: Path) -> None:
    """The rolling win share of the training episodes against agent steps."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    steps = np.array([s for s, _ in episodes], dtype=np.float64)
    wins = np.array([r for _, r in episodes], dtype=np.float64)
    window = max(1, len(wins) // 50)
    fig, ax = plt.subplots(figsize=(7, 4))
    if len(wins):  # a very short run may end no episode
        rolling = np.convolve(wins, np.ones(window) / window, mode="valid")
        ax.plot(steps[window - 1 :], rolling, label=f"training episodes (rolling {window})")
    for e in result.evaluations:
        ax.axhline(e.share, linestyle=":", linewidth=1)
        ax.annotate(
            f"vs {e.opponent}: {e.share:.3f} [{e.low:.3f}, {e.high:.3f}]",
            (steps[-1] if len(steps) else 0, e.share), ha="right", va="bottom", fontsize=8,
        )  # fmt: skip
    ax.set_xlabel("agent steps")
    ax.set_ylabel("win share")
    ax.set_title(f"MaskablePPO on {result.game}: 2 players, trained against random", fontsize=10)
    if len(wins):
        ax.legend(loc="upper left")
    fig.tight_layout()
    fig.savefig(out, dpi=100)
    plt.close(fig)


def main() -> None:
    parser = argparse.ArgumentParser(description=" ".join(__doc__.split("\n\n")[0].split()))
    parser.add_argument("--game", choices=sorted(BOTS), default="dice", help="the game")
    parser.add_argument(
        "--timesteps", type=int, default=100_000, help="agent steps of training (all sub-envs)"
    )
    parser.add_argument("--num-envs", type=int, default=64, help="sub-envs of the vector env")
    parser.add_argument(
        "--opponent", default="random", help="the in-kernel bot trained against (seat 1)"
    )
    parser.add_argument("--seed", type=int, default=0, help="seed of the envs and the model")
    parser.add_argument(
        "--eval-games", type=int, default=2000, help="evaluation games against each bot"
    )
    parser.add_argument(
        "--out", type=Path, default=None, help="learning curve PNG (figures in .json beside it)"
    )
    parser.add_argument("--threads", type=int, default=1, help="PyTorch threads")
    args = parser.parse_args()
    out = args.out or Path(f"maskable_ppo_{args.game}.png")
    result = train(
        args.game, args.timesteps, opponent=args.opponent, num_envs=args.num_envs,
        seed=args.seed, eval_games=args.eval_games, out=out, threads=args.threads,
    )  # fmt: skip
    print(json.dumps(asdict(result), indent=2))
    if not result.episodes:
        print("no training episode ended: raise --timesteps for a learning curve")
    for e in result.evaluations:
        print(
            f"vs {e.opponent}: win share {e.share:.3f}, 95% Wilson interval "
            f"[{e.low:.3f}, {e.high:.3f}] over {e.games} games"
        )
    print(f"learning curve: {out}")


if __name__ == "__main__":
    main()
