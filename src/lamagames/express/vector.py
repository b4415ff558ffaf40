"""Lama Express vector engine for the RL vector environments (:mod:`lamagames.rl.vector`).

``N`` games stepped by one compiled (Numba) call, as the LAMA Dice one
(:mod:`lamagames.dice.vector`): the caller's actions for the seats it plays, then the die
(E-6), forced steps and the other seats' in-kernel policies (``random``, ``benchmark``,
``heuristic``) until
a caller's seat is asked (E-9 windows turn by turn, as the batch engine) or the game ends;
then the observation tensor (:func:`lamagames.express.views.observation_tensor`'s layout),
the mask, returns and status. New episodes start in the same call, from the sub-env's own
episode stream. The rules are the batch engine's kernels
(:mod:`lamagames.express.batch_kernels`), inlined here unchanged; the state is an
:class:`lamagames.express.batch.ExpressBatchState`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final

import numpy as np
import numpy.typing as npt

from lamagames.core.errors import ParameterError
from lamagames.express import vector_kernel
from lamagames.express.actions import NUM_DISTINCT_ACTIONS
from lamagames.express.batch import POLICIES, ExpressBatch, ExpressBatchState

#: ``mode[g]`` of :meth:`ExpressVectorEngine.run` (as :mod:`lamagames.dice.vector`).
KEEP: Final = 0
APPLY: Final = 1
RESET: Final = 2
RUNNING: Final = 0
TERMINATED: Final = 1
TRUNCATED: Final = 2
#: The parameters of :class:`~lamagames.express.batch.ExpressBatch` taken from a game's.
_PARAMS: Final = (
    "num_players", "colours", "starting_seat", "llamas_to_win", "board", "turn_limit",
)  # fmt: skip
#: The Numba kernel (typed by numba at compile time, untyped for mypy).
_kernel: Any = vector_kernel


class ExpressVectorEngine:
    """``num_envs`` Lama Express games for a vector environment (see the module docstring).

    Args:
        num_envs: games ``N``.
        params: Lama Express parameters (``num_players``, ``colours``, ``starting_seat``,
            ``llamas_to_win``, ``board``, ``turn_limit`` — required here, E-11).
        seats: per seat ``None`` (the caller plays it) or an in-kernel policy of
            :data:`~lamagames.express.batch.POLICIES` (``"random"``, ``"benchmark"``,
            ``"heuristic"``).
        trace_length: ``(player, action)`` entries kept per episode, chance as -1.

    Attributes (filled by :meth:`run`): ``obs`` float32 ``(N, D)``, ``mask`` int8
    ``(N, 43)``, ``rewards`` float32 ``(N, n)``, ``status`` int8 ``(N,)`` (running,
    terminated with a winner, truncated by the turn limit), ``seat`` int32 ``(N,)``.

    Raises:
        ParameterError: bad parameters, seats or sizes.
    """

    policies: tuple[str, ...] = tuple(POLICIES)

    def __init__(
        self,
        num_envs: int,
        params: Mapping[str, Any],
        seats: Sequence[str | None],
        trace_length: int = 0,
    ) -> None:
        if type(num_envs) is not int or num_envs < 1:
            raise ParameterError(f"num_envs must be a positive integer, got {num_envs!r}")
        chosen = dict(params)
        unknown = sorted(set(chosen) - set(_PARAMS))
        if unknown:
            raise ParameterError(
                f"unknown Lama Express parameter(s) {', '.join(unknown)}; "
                f"known: {', '.join(_PARAMS)}"
            )
        if chosen.get("turn_limit") is None:
            raise ParameterError("turn_limit: the vector engine needs a limit (E-11)")
        self.batch = ExpressBatch(**chosen, trace_length=trace_length)
        game = self.batch.game
        n = game.num_players
        if len(seats) != n:
            raise ParameterError(f"seats: need {n} entries, got {len(seats)}")
        for kind in seats:
            if kind is not None and kind not in POLICIES:
                raise ParameterError(
                    f"unknown in-kernel policy {kind!r}; available: {', '.join(POLICIES)}"
                )
        self.params = game.params
        self.num_envs = num_envs
        self.num_players = n
        self.num_actions = NUM_DISTINCT_ACTIONS
        self.observation_shape: tuple[int, ...] = tuple(game.info.observation_shape)
        self.codes = np.array([-1 if k is None else POLICIES[k] for k in seats], np.int32)
        self.state: ExpressBatchState = ExpressBatchState.empty(
            num_envs, n, self.batch.tables, trace_length
        )
        tables = self.batch.tables
        self._setup = (game.starting_seat, tables.setup[0], tables.setup[1])
        self._prm = self.batch._scalars()
        self._scratch = self.batch.scratch()
        self.ep_rng = np.zeros((num_envs, 1), np.uint64)
        self._last = np.full(num_envs, -1, np.int32)
        self.obs = np.zeros((num_envs, *self.observation_shape), np.float32)
        self.mask = np.zeros((num_envs, NUM_DISTINCT_ACTIONS), np.int8)
        self.rewards = np.zeros((num_envs, n), np.float32)
        self.status = np.zeros(num_envs, np.int8)
        self.seat = np.zeros(num_envs, np.int32)

    def seed(self, seeds: npt.NDArray[np.uint64]) -> None:
        """Seed each sub-env's episode stream (uint64 ``(N,)``)."""
        self.ep_rng[:, 0] = seeds

    def run(self, mode: npt.NDArray[np.int8], actions: npt.NDArray[np.int32], view: int) -> int:
        """One compiled call; see :meth:`lamagames.dice.vector.DiceVectorEngine.run`."""
        bad = _kernel.run_vector(
            (mode, actions, int(view), self.codes), self._setup, self._prm,
            self.state.arrays(), self.batch._tables, self._scratch, (self.ep_rng, self._last),
            (self.obs, self.mask, self.rewards, self.status, self.seat),
        )  # fmt: skip
        return int(bad)

    def history(self, game: int) -> list[tuple[int, int]]:
        """The traced ``(player, action)`` pairs of game ``game``'s current episode."""
        return self.state.history(game)


def make_engine(
    num_envs: int, params: Mapping[str, Any], seats: Sequence[str | None], trace_length: int = 0
) -> ExpressVectorEngine:
    """The ``"vector"`` extra of the Lama Express spec: an :class:`ExpressVectorEngine`."""
    return ExpressVectorEngine(num_envs, params, seats, trace_length)
