"""Compile the kernels the test suite compiles first, into Numba's disk cache (CI only).

A clean clone has no compiled code: the first test that needs a kernel pays its compile
(the vector environments about 30 s each, the batch simulator about 25 s on the CI
machine). ``.ci/run`` runs this in the background while it lints and type-checks (one
core each), so that those compiles take the idle core; the tests then load the code from
the cache (``__pycache__`` next to the sources, or ``NUMBA_CACHE_DIR``) and test the same
things. Failing here changes nothing: the tests compile what is missing.

    python scripts/warm_numba_cache.py
"""

from __future__ import annotations

import subprocess
import sys
import time


def warm_vector_envs() -> None:
    """The compiled vector environments of both games, as the RL tests make them."""
    import gymnasium
    import numpy as np

    import lamagames.rl.gymnasium  # noqa: F401  (registers the environments)

    for env_id in ("lamagames/LamaDice-v0", "lamagames/LamaExpress-v0"):
        envs = gymnasium.make_vec(
            env_id, num_envs=2, vectorization_mode="vector_entry_point", opponents="random"
        )
        _, infos = envs.reset(seed=1)
        mask = np.asarray(infos["action_mask"])
        envs.step(np.asarray([int(np.flatnonzero(row)[0]) for row in mask]))
        envs.close()


def warm_simulator() -> None:
    """The batch simulator of LAMA Dice, as ``lama simulate`` runs it."""
    subprocess.run(
        [sys.executable, "-m", "lamagames", "simulate", "dice", "--players", "3",
         "--games", "20", "--seed", "2"],
        check=True, stdout=subprocess.DEVNULL,
    )  # fmt: skip


def main() -> int:
    """Warm each part, reporting its seconds; 0 even when one fails (see above)."""
    for part in (warm_vector_envs, warm_simulator):
        began = time.perf_counter()
        try:
            part()
        except Exception as exc:  # a warm-up only: the tests compile what it missed
            print(f"{part.__name__}: failed ({exc!r})")
            continue
        print(f"{part.__name__}: {time.perf_counter() - began:.1f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
