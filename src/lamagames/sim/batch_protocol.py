"""The interface between ``lama simulate`` (the generic driver in :mod:`lamagames.sim`) and a
per-game compiled batch engine (``lamagames.dice.batch``, ``lamagames.express.batch``).

A batch engine plays many whole games at once inside compiled code and hands back NumPy
arrays, one row per game. The driver knows no game: it finds an engine through the ``batch``
extra of the game's spec, checks the parameters with :meth:`BatchEngine.check_params`, cuts the
games into chunks of per-game seeds (:func:`game_seeds`) and calls :meth:`BatchEngine.play`
on each chunk, possibly in other processes or on a Ray cluster, then adds the
:class:`BatchResults` up.

Determinism contract: the results of game ``i`` depend only on ``seeds[i]``, the policies and
the parameters, never on the other games of the call, the chunk size or the process. So the
same root seed gives the same totals for any number of workers and any backend.
"""

from __future__ import annotations

from typing import Final

import numpy as np
import numpy.typing as npt

from lamagames.core.batch import BatchEngine, BatchResults
from lamagames.core.errors import ParameterError
from lamagames.core.rng import derive_seed
from lamagames.core.spec import all_specs, get_spec

__all__ = [
    "BATCH_EXTRA",
    "BatchEngine",
    "BatchResults",
    "batch_game_ids",
    "game_seeds",
    "load_engine",
    "splitmix64",
]

#: Name of the :class:`~lamagames.core.spec.GameSpec` extra that holds a game's batch engine.
BATCH_EXTRA = "batch"


def batch_game_ids() -> list[str]:
    """Ids of the games whose spec names a batch engine (extra :data:`BATCH_EXTRA`), sorted."""
    return sorted(spec.game_id for spec in all_specs() if BATCH_EXTRA in spec.extras)


def load_engine(game_id: str) -> BatchEngine:
    """The batch engine of ``game_id`` (imported on first use).

    Raises:
        ParameterError: no batch engine for that game (the message names the games that
            have one), or it cannot be imported (numba missing: the message says what to
            install).
    """
    available = ", ".join(batch_game_ids())
    try:
        spec = get_spec(game_id)
    except ParameterError:
        raise ParameterError(f"no batch engine for {game_id!r}; available: {available}") from None
    if BATCH_EXTRA not in spec.extras:
        raise ParameterError(f"no batch engine for {game_id!r}; available: {available}")
    try:
        engine: BatchEngine = spec.load_extra(BATCH_EXTRA)
    except ImportError as exc:
        if exc.name in {"numba", "llvmlite"}:
            raise ParameterError(
                f"the batch engine of {game_id!r} needs numba: pip install 'lamagames[sim]'"
            ) from None
        raise ParameterError(f"the batch engine of {game_id!r} is not available: {exc}") from None
    except AttributeError as exc:
        raise ParameterError(f"the batch engine of {game_id!r} is not available: {exc}") from None
    missing = [name for name in SIMULATION_ATTRIBUTES if not hasattr(engine, name)]
    if missing:  # e.g. an engine with only the step interface of check_batch_engine
        raise ParameterError(
            f"the batch engine of {game_id!r} cannot play whole games: it has no "
            f"{', '.join(missing)}"
        )
    return engine


#: What :func:`load_engine` needs of an engine to simulate with it (:class:`BatchEngine`).
SIMULATION_ATTRIBUTES: Final = (
    "game_id", "min_players", "max_players", "policies", "score_name", "lower_score_wins",
    "length_name", "check_params", "play",
)  # fmt: skip


_GOLDEN = np.uint64(0x9E3779B97F4A7C15)


def splitmix64(x: npt.NDArray[np.uint64]) -> npt.NDArray[np.uint64]:
    """SplitMix64 finaliser (Steele, Lea, Flood 2014), elementwise on uint64 arrays."""
    with np.errstate(over="ignore"):
        z = x + _GOLDEN
        z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
        z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
        return z ^ (z >> np.uint64(31))


def game_seeds(seed: int, start: int, count: int) -> npt.NDArray[np.uint64]:
    """Seeds of games ``start .. start + count - 1`` of a simulation with root ``seed``.

    Game ``i`` gets ``splitmix64(derive_seed(seed, "simulate") + i)`` (mod 2**64): a pure
    function of the root seed and the game index, so any split into chunks gives the same
    games.

    Returns:
        uint64 array of shape ``(count,)``.

    Raises:
        ValueError: ``start`` or ``count`` is negative.
    """
    if start < 0 or count < 0:
        raise ValueError(f"start and count must be >= 0, got {start}, {count}")
    base = np.uint64(derive_seed(seed, "simulate"))
    with np.errstate(over="ignore"):
        index = np.arange(start, start + count, dtype=np.uint64) + base
    return splitmix64(index)
