"""Train a small policy for LAMA Dice with REINFORCE on the Gymnasium environment.

A linear softmax policy over the observation tensor, with illegal actions masked out
(``info["action_mask"]``), learns from the episode return (1.0 for a win, else 0.0) against
one ``benchmark`` bot. Only NumPy is needed besides the ``rl`` extra::

    pip install 'lamagames[rl]'
    python examples/train_dice.py --episodes 2000

The policy gradient of REINFORCE (Williams 1992) with a running-mean baseline: for each step
``t`` of an episode with return ``G``, ``W += lr * (G - b) * (onehot(a_t) - pi_t) x obs_t``.
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass, field

import gymnasium
import numpy as np
import numpy.typing as npt

from lamagames.rl.gymnasium import LamaEnv

Array = npt.NDArray[np.float64]


@dataclass
class TrainResult:
    """What a training run did.

    Attributes:
        weights: final policy weights, shape ``(num_actions, obs_size + 1)`` (last column:
            bias).
        initial_weights: the weights before training (same shape).
        losses: REINFORCE surrogate loss ``-(G - b) * sum_t log pi(a_t | s_t)`` per episode.
        returns: episode returns (1.0 win, 0.0 loss).
        steps: agent steps taken in all.
    """

    weights: Array
    initial_weights: Array
    losses: list[float] = field(default_factory=list)
    returns: list[float] = field(default_factory=list)
    steps: int = 0


def masked_policy(weights: Array, obs: Array, mask: npt.NDArray[np.int8]) -> Array:
    """Softmax over the legal actions of the linear scores ``weights @ [obs, 1]``.

    Returns:
        Probabilities, shape ``(num_actions,)``; exactly 0.0 on illegal actions.
    """
    features = np.append(obs, 1.0)
    logits = weights @ features
    logits = np.where(mask.astype(bool), logits, -np.inf)
    logits -= logits.max()
    probs = np.exp(logits)
    return np.asarray(probs / probs.sum(), dtype=np.float64)


def train(
    episodes: int = 200, *, seed: int = 0, lr: float = 0.05, opponent: str = "benchmark"
) -> TrainResult:
    """Run REINFORCE for ``episodes`` two-player games against ``opponent``."""
    env = LamaEnv("dice", (opponent,))
    rng = np.random.default_rng(seed)
    assert env.observation_space.shape is not None
    assert isinstance(env.action_space, gymnasium.spaces.Discrete)
    size = env.observation_space.shape[0] + 1
    weights = rng.normal(0.0, 0.01, size=(int(env.action_space.n), size))
    result = TrainResult(weights=weights, initial_weights=weights.copy())
    baseline = 0.0
    for episode in range(episodes):
        obs, info = env.reset(seed=seed * 1_000_003 + episode)
        grads = np.zeros_like(weights)
        log_prob = 0.0
        done = False
        reward = 0.0
        while not done:
            probs = masked_policy(weights, obs.astype(np.float64), info["action_mask"])
            action = int(rng.choice(len(probs), p=probs))
            log_prob += float(np.log(probs[action]))
            one_hot = np.zeros_like(probs)
            one_hot[action] = 1.0
            grads += np.outer(one_hot - probs, np.append(obs, 1.0))
            obs, r, terminated, truncated, info = env.step(action)
            reward += float(r)
            result.steps += 1
            done = terminated or truncated
        advantage = reward - baseline
        weights += lr * advantage * grads
        baseline += 0.05 * (reward - baseline)
        result.losses.append(-advantage * log_prob)
        result.returns.append(reward)
    result.weights = weights
    return result


def main() -> None:
    """Command line: train and print the win rate of the first and last quarter."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--episodes", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--lr", type=float, default=0.05)
    args = parser.parse_args()
    result = train(args.episodes, seed=args.seed, lr=args.lr)
    quarter = max(1, args.episodes // 4)
    first = float(np.mean(result.returns[:quarter]))
    last = float(np.mean(result.returns[-quarter:]))
    print(f"{args.episodes} episodes, {result.steps} agent steps")
    print(f"win rate vs benchmark: first quarter {first:.3f}, last quarter {last:.3f}")


if __name__ == "__main__":
    main()
