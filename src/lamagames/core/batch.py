"""What a game's compiled batch engine hands to the generic simulation driver.

A batch engine (``lamagames.dice.batch``, ``lamagames.express.batch``) plays many whole games
at once inside compiled code; a game names it in its spec's ``batch`` extra and
``lama simulate`` (:mod:`lamagames.sim.simulate`) drives it through the protocol below. The
types live in the core, like :class:`~lamagames.core.game.Game`, so a game package implements
them without importing ``sim`` (data flows downward only).

Determinism contract: the results of game ``i`` depend only on ``seeds[i]``, the policies and
the parameters, never on the other games of the call, the chunk size or the process. So the
same root seed gives the same totals for any number of workers and any backend.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

import numpy as np
import numpy.typing as npt

from lamagames.core.errors import ParameterError


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


def check_policies(policies: Sequence[str], num_players: int, known: Sequence[str]) -> list[str]:
    """The in-kernel policy names of a batch engine's seats, one per seat, checked: the
    same check and messages for every game's batch engine.

    Args:
        policies: a sequence of one name per seat (a single string is refused: it is not
            a list of one-letter names).
        num_players: seats.
        known: the engine's policy names (:attr:`BatchEngine.policies`).

    Returns:
        ``policies`` as a list.

    Raises:
        ParameterError: ``policies`` is a string or not a sequence, has not one name per
            seat, or names a policy not in ``known``.
    """
    if isinstance(policies, str | bytes) or not isinstance(policies, Sequence):
        raise ParameterError(
            f"policies must be a sequence of policy names, one per seat, got {policies!r}"
        )
    if len(policies) != num_players:
        raise ParameterError(f"{len(policies)} policies for {num_players} seats")
    for name in policies:
        if name not in known:
            raise ParameterError(
                f"policies: unknown in-kernel policy {name!r}; available: {', '.join(known)}"
            )
    return list(policies)
