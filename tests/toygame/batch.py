"""A NumPy batch engine of Toy Race (tests/toygame/game.py), in the step form
:func:`lamagames.core.testing.check_batch_engine` drives.

It keeps the rules in arrays of its own, one row per game, and never calls the scalar
engine: seat actions are applied to every game at once and chance is drawn from each
game's own counter-based stream (SplitMix64 of the game's seed plus a draw counter), so game
``g`` depends on ``seeds[g]`` only.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final

import numpy as np
import numpy.typing as npt

from lamagames.core.errors import IllegalActionError, InvalidActionError, ParameterError
from lamagames.sim.batch_protocol import splitmix64
from tests.toygame.game import ROLL, STEP, ToyGame

#: Chance outcome (points added) of a uniform draw in 0..3: +0, +1, +1, +2 (1/4, 1/2, 1/4).
_OUTCOME_OF_DRAW: Final = np.array([0, 1, 1, 2], dtype=np.int32)


@dataclass(slots=True)
class ToyBatchState:
    """``G`` Toy Race games as arrays.

    Attributes:
        scores: int32 ``(G, 2)``: each seat's points.
        turn: int32 ``(G,)``: finished turns.
        player: int32 ``(G,)``: the seat whose turn it is (the winner once won).
        rolling: bool ``(G,)``: a roll waits for its chance outcome.
        seed: uint64 ``(G,)``: each game's chance stream seed.
        draws: uint64 ``(G,)``: chance draws taken so far per game.
    """

    scores: npt.NDArray[np.int32]
    turn: npt.NDArray[np.int32]
    player: npt.NDArray[np.int32]
    rolling: npt.NDArray[np.bool_]
    seed: npt.NDArray[np.uint64]
    draws: npt.NDArray[np.uint64]


class ToyStepper:
    """The step API of Toy Race for ``check_batch_engine``.

    Args:
        params: ``target`` and ``max_turns`` as :class:`ToyGame` takes them.

    Raises:
        ParameterError: parameters :class:`ToyGame` refuses.
    """

    def __init__(self, params: Mapping[str, Any]) -> None:
        #: The scalar game of the same parameters.
        self.game = ToyGame(**dict(params))
        self.target = self.game.target
        self.max_turns = self.game.max_turns
        self._history: list[list[tuple[int, int]]] = []

    def init(self, seeds: npt.ArrayLike) -> ToyBatchState:
        """``len(seeds)`` games at 0:0, seat 0 to act (uint64 seeds, one per game)."""
        seed = np.asarray(seeds, dtype=np.uint64)
        g = seed.shape[0]
        self._history = [[] for _ in range(g)]
        return ToyBatchState(
            scores=np.zeros((g, 2), dtype=np.int32),
            turn=np.zeros(g, dtype=np.int32),
            player=np.zeros(g, dtype=np.int32),
            rolling=np.zeros(g, dtype=np.bool_),
            seed=seed.copy(),
            draws=np.zeros(g, dtype=np.uint64),
        )

    def done(self, states: ToyBatchState) -> npt.NDArray[np.bool_]:
        """bool ``(G,)``: a seat reached ``target`` or ``max_turns`` turns are over."""
        won = (states.scores >= self.target).any(axis=1)
        return np.asarray(won | (states.turn >= self.max_turns))

    def legal_mask(self, states: ToyBatchState) -> npt.NDArray[np.bool_]:
        """bool ``(G, 2)``: step and roll for a seat to act, nothing at a pending roll or
        a finished game."""
        acting = ~self.done(states) & ~states.rolling
        return np.repeat(acting[:, None], 2, axis=1)

    def step(self, states: ToyBatchState, actions: npt.ArrayLike) -> None:
        """Apply one seat action per unfinished game (-1 for a finished one), then draw the
        pending rolls.

        Raises:
            InvalidActionError: ``actions`` is not ``G`` integers.
            IllegalActionError: an action is not legal in its game; then no game changes.
        """
        acts = np.asarray(actions)
        g = states.turn.shape[0]
        if acts.shape != (g,) or acts.dtype.kind not in "ui":
            raise InvalidActionError(f"actions must be {g} integers, got shape {acts.shape}")
        mask = self.legal_mask(states)
        acting = mask.any(axis=1)
        legal = np.where(acting, (acts >= 0) & (acts < 2), acts == -1)
        if not legal.all():
            bad = int(np.flatnonzero(~legal)[0])
            raise IllegalActionError(f"game {bad}: action {int(acts[bad])} is not legal")
        rows = np.arange(g)
        for index in np.flatnonzero(acting):
            self._history[index].append((int(states.player[index]), int(acts[index])))
        stepping = acting & (acts == STEP)
        states.scores[rows[stepping], states.player[stepping]] += 1
        states.rolling |= acting & (acts == ROLL)
        rolled = self._chance(states)
        self._end_turn(states, stepping | rolled)

    def _chance(self, states: ToyBatchState) -> npt.NDArray[np.bool_]:
        """Draw every pending roll from its game's stream and add the points; returns the
        games that rolled."""
        rolling = states.rolling.copy()
        draws = splitmix64(states.seed + states.draws)
        outcome = _OUTCOME_OF_DRAW[(draws % np.uint64(4)).astype(np.int64)]
        for index in np.flatnonzero(rolling):
            self._history[index].append((-1, int(outcome[index])))
        states.draws[rolling] += np.uint64(1)
        states.scores[np.flatnonzero(rolling), states.player[rolling]] += outcome[rolling]
        states.rolling[rolling] = False
        return rolling

    def _end_turn(self, states: ToyBatchState, ended: npt.NDArray[np.bool_]) -> None:
        """One more turn for the games in ``ended``; the other seat acts unless one won."""
        states.turn[ended] += 1
        won = (states.scores >= self.target).any(axis=1)
        switch = ended & ~won
        states.player[switch] = 1 - states.player[switch]

    def history(self, states: ToyBatchState, g: int) -> list[tuple[int, int]]:
        """Game ``g``'s ``(player, action)`` pairs so far (player -1: chance, action: the
        outcome id ``0..2``)."""
        return list(self._history[g])

    def state_dict(self, states: ToyBatchState, g: int) -> dict[str, Any]:
        """Game ``g`` as the matching entries of ``ToyState.to_dict()``."""
        return {
            "scores": states.scores[g].tolist(),
            "turn": int(states.turn[g]),
            "player": int(states.player[g]),
            "rolling": bool(states.rolling[g]),
        }


class ToyBatchEngine:
    """The ``batch`` extra of Toy Race: the step form only (no in-kernel ``play``)."""

    game_id = "toy"
    min_players = 2
    max_players = 2

    #: Parameter variants ``check_batch_engine`` plays: the defaults, and a short race
    #: whose turn limit ends some games without a winner.
    check_variants: tuple[dict[str, Any], ...] = ({}, {"target": 4, "max_turns": 5})

    def stepper(self, num_players: int, params: Mapping[str, Any]) -> ToyStepper:
        """A :class:`ToyStepper` for ``num_players`` (2) seats.

        Raises:
            ParameterError: not 2 players, or parameters :class:`ToyGame` refuses.
        """
        if num_players != 2:
            raise ParameterError(f"num_players must be 2, got {num_players}")
        return ToyStepper(params)


#: The engine ``check_batch_engine`` finds through the ``batch`` extra of the toy spec.
ENGINE: Final = ToyBatchEngine()
