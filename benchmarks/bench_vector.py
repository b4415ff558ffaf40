"""Agent steps per second of the compiled vector envs (not a test).

``LamaVectorEnv`` with ``N`` sub-envs (default 4096), the agent at seat 0 against in-kernel
opponents (default ``random``), on one core (Numba kernels are single-threaded). The agent
takes a uniform legal action per sub-env (``argmax`` of the mask times uniform noise,
drawn outside the timed part); the time counted is ``env.step`` (the compiled call plus the
Python wrapper: checks, flags, copies of the outputs) and, separately, the compiled call
alone. CPU time (``time.process_time``), after one warm-up step (compilation is cached on
disk). Issue-20 goals: 1,000,000 agent steps/s for LAMA Dice, 300,000 for Lama Express.

Usage: python benchmarks/bench_vector.py [--game dice|express|both] [--num-envs 4096]
[--steps 200] [--players 2] [--opponent random]
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from lamagames.core.errors import ParameterError
from lamagames.rl.vector import APPLY, RESET, LamaVectorEnv


def measure(game: str, num_envs: int, steps: int, players: int, opponent: str) -> None:
    env = LamaVectorEnv(game, num_envs, opponent, params={"num_players": players})
    _, infos = env.reset(seed=0)
    rng = np.random.default_rng(0)
    env_time = kernel_time = 0.0
    ended = 0
    for _ in range(steps):
        noise = rng.random(infos["action_mask"].shape, dtype=np.float32)
        actions = np.argmax(infos["action_mask"] * noise, axis=1)
        start = time.process_time()
        _, _, terms, truncs, infos = env.step(actions)
        env_time += time.process_time() - start
        ended += int((terms | truncs).sum())
    engine = env.engine
    for _ in range(steps):  # the compiled call alone, on the same kind of positions
        noise = rng.random(engine.mask.shape, dtype=np.float32)
        actions = np.argmax(engine.mask * noise, axis=1).astype(np.int32)
        mode = np.where(engine.status > 0, RESET, APPLY).astype(np.int8)
        start = time.process_time()
        engine.run(mode, actions, 0)
        kernel_time += time.process_time() - start
    total = num_envs * steps
    print(
        f"{game}: {players} players vs {opponent}, N={num_envs}, {steps} steps, "
        f"{ended} episodes ended"
    )
    print(f"  env.step     : {total / env_time:12,.0f} agent steps/s")
    print(f"  compiled call: {total / kernel_time:12,.0f} agent steps/s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="both", choices=["dice", "express", "both"])
    parser.add_argument("--num-envs", type=int, default=4096)
    parser.add_argument("--steps", type=int, default=200)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--opponent", default="random")
    args = parser.parse_args()
    games = ["dice", "express"] if args.game == "both" else [args.game]
    for game in games:
        try:
            warm = LamaVectorEnv(game, 2, args.opponent, params={"num_players": args.players})
        except ParameterError as exc:  # e.g. an unknown policy or too many players
            print(f"{game}: skipped: {exc}")
            continue
        warm.reset(seed=0)  # compile (or load the cache) outside the timing
        measure(game, args.num_envs, args.steps, args.players, args.opponent)


if __name__ == "__main__":
    main()
