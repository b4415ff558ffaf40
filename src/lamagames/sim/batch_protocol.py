"""The interface between ``lama simulate`` (the generic driver in :mod:`lamagames.sim`) and a
per-game compiled batch engine (``lamagames.dice.batch``, ``lamagames.express.batch``).

A batch engine plays many whole games at once inside compiled code and hands back NumPy
arrays, one row per game. The driver knows no game: it finds an engine through
:data:`BATCH_ENGINES`, checks the parameters with :meth:`BatchEngine.check_params`, cuts the
games into chunks of per-game seeds (:func:`game_seeds`) and calls :meth:`BatchEngine.play`
on each chunk, possibly in other processes or on a Ray cluster, then adds the
:class:`BatchResults` up.

Determinism contract: the results of game ``i`` depend only on ``seeds[i]``, the policies and
the parameters, never on the other games of the call, the chunk size or the process. So the
same root seed gives the same totals for any number of workers and any backend.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

import numpy as np
import numpy.typing as npt

from lamagames.core.errors import ParameterError
from lamagames.core.rng import derive_seed

# per-game lookup; joins GameSpec when issue 7 lands
BATCH_ENGINES: dict[str, str] = {
    "dice": "lamagames.dice.batch:ENGINE",
    "express": "lamagames.express.batch:ENGINE",
}


@dataclass(frozen=True, slots=True)
class BatchResults:
    """Results of ``G`` games with ``n`` seats, as NumPy arrays (row ``g`` is game ``g``).

    Attributes:
        scores: int32, shape ``(G, n)``: each seat's final score in the game's own unit
            (LAMA Dice: minus points after chip give-backs, D-11; Lama Express: the engine
            says in :attr:`BatchEngine.score_name`).
        wins: int8, shape ``(G, n)``: 1 for every winner of a finished game (a tie makes all
            tied seats winners), 0 otherwise (also every seat of an unfinished game).
        length: int32, shape ``(G,)``: game length in :attr:`BatchEngine.length_name` units
            (LAMA Dice: finished rounds; Lama Express: die rolls).
        starter: int8, shape ``(G,)``: the seat that took the first turn of the game.
        finished: bool, shape ``(G,)``: False for a game stopped by a limit (a turn limit)
            before it had a winner.
        extra: game-specific arrays, each of shape ``(G,)`` or ``(G, n)``, documented by the
            engine (LAMA Dice: ``round_points``, int32 ``(G, n)``, the sum over rounds of the
            minus points scored before give-backs, D-10).
    """

    scores: npt.NDArray[np.int32]
    wins: npt.NDArray[np.int8]
    length: npt.NDArray[np.int32]
    starter: npt.NDArray[np.int8]
    finished: npt.NDArray[np.bool_]
    extra: dict[str, npt.NDArray[Any]] = field(default_factory=dict)

    @property
    def games(self) -> int:
        """Number of games ``G``."""
        return int(self.length.shape[0])

    @property
    def num_players(self) -> int:
        """Number of seats ``n``."""
        return int(self.scores.shape[1])


@runtime_checkable
class BatchEngine(Protocol):
    """A compiled batch engine of one game (one module-level instance, ``ENGINE``).

    Attributes:
        game_id: the registry id (``"dice"``, ``"express"``).
        min_players, max_players: seat counts the engine plays.
        policies: names of the in-kernel policies; at least ``"random"`` and ``"benchmark"``
            (the same policies as the bots of that kind in :mod:`lamagames.bots`).
        score_name: what :attr:`BatchResults.scores` counts, for tables (``"points"``).
        lower_score_wins: True if the lowest score wins (LAMA Dice).
        length_name: unit of :attr:`BatchResults.length` (``"rounds"``, ``"rolls"``).
    """

    game_id: str
    min_players: int
    max_players: int
    policies: tuple[str, ...]
    score_name: str
    lower_score_wins: bool
    length_name: str

    def check_params(self, num_players: int, params: Mapping[str, Any]) -> dict[str, Any]:
        """Validate rule parameters and return them complete (defaults filled in, JSON data,
        ``num_players`` included): the dict that :meth:`play` takes and summaries record.

        Args:
            num_players: number of seats.
            params: rule variants by name, values as parsed from JSON (``end_score=60``,
                ``dice=["LL3456", ...]``); unknown names are refused.

        Raises:
            ParameterError: naming the parameter and the failed constraint.
        """
        ...

    def play(
        self,
        seeds: npt.NDArray[np.uint64],
        policies: Sequence[str],
        params: Mapping[str, Any],
    ) -> BatchResults:
        """Play ``len(seeds)`` whole games, game ``g`` with chance (and random policies)
        drawn from ``seeds[g]`` only.

        Args:
            seeds: uint64, shape ``(G,)``, one seed per game (see :func:`game_seeds`).
            policies: one policy name per seat (from :attr:`policies`).
            params: the output of :meth:`check_params`.

        Raises:
            ParameterError: a policy name is unknown or their number is not ``num_players``.
        """
        ...


def load_engine(game_id: str) -> BatchEngine:
    """The batch engine of ``game_id`` (imported on first use).

    Raises:
        ParameterError: no batch engine for that game, or it cannot be imported (the message
            names the games that have one).
    """
    target = BATCH_ENGINES.get(game_id)
    if target is None:
        raise ParameterError(
            f"no batch engine for {game_id!r}; available: {', '.join(sorted(BATCH_ENGINES))}"
        )
    module_name, _, attr = target.partition(":")
    try:
        engine: BatchEngine = getattr(importlib.import_module(module_name), attr)
    except (ImportError, AttributeError) as exc:
        raise ParameterError(f"the batch engine of {game_id!r} is not available: {exc}") from None
    return engine


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
