"""Compiled rollouts from a LAMA Dice position, every seat on the ``heuristic`` policy.

:func:`position_arrays` turns a scalar :class:`~lamagames.dice.state.DiceState` into the
per-game arrays of the batch engine (nothing is hidden within a round, so the position is
the whole state); :func:`rollouts` plays ``K`` copies of it after each candidate action in
the compiled kernel (:func:`lamagames.dice.batch_heuristic.rollouts`), every seat following
the in-kernel heuristic (the decisions of :class:`lamagames.bots.dice.DiceHeuristicBot`)
until a number of rounds has ended (D-9, D-10) or the game is over (D-11). Copy ``k`` of
every candidate draws its chance outcomes from the same seed ``seeds[k]`` (common random
numbers). This is what :class:`lamagames.bots.dice_search.DiceSearchBot` simulates.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final

import numpy as np
import numpy.typing as npt

from lamagames.core.errors import IllegalActionError, ParameterError
from lamagames.core.game import State
from lamagames.core.jit import choose, interpret_on_views
from lamagames.dice.batch import (
    DISCARD_COUNTS,
    DISCARD_IDS,
    HAND_COUNTS,
    HAND_IDS,
    _faces,
    heuristic_tables,
)
from lamagames.dice.batch_heuristic import MEMO_SIZE, new_memo
from lamagames.dice.batch_heuristic import rollouts as _rollouts
from lamagames.dice.game import as_dice_state

#: Default cap on the actions of one rollout (chance included) per round simulated; LAMA
#: Dice rounds can in principle last for ever (D-8.1).
MAX_ACTIONS_PER_ROUND: Final = 2000
#: Copies per kernel call when the rollouts run interpreted (see :func:`rollouts`).
INTERPRETED_CHUNK: Final = 16

# Interpreted (a first decision while the kernel compiles, issue 19), the rollouts read
# their small arrays through memoryviews: about 2.5 times faster than on NumPy scalars,
# the same results (tests/bots/test_search_interpreted.py).
interpret_on_views(_rollouts)


def runs_interpreted() -> bool:
    """Whether :func:`rollouts`, called now in this thread, would start interpreted: inside
    :func:`lamagames.core.jit.interpreting` for its kernel, while its ``until`` (if any)
    says the compiled code is not ready (the ``search`` bot then decides on fewer
    simulations, :attr:`~lamagames.bots.dice_search.DiceSearchBot.INTERPRETED_ROLLOUTS`)."""
    return choose(_rollouts) is not _rollouts


@dataclass(frozen=True, slots=True)
class Position:
    """One game's arrays (shapes and meanings: :class:`lamagames.dice.batch.DiceBatchState`
    without the batch axis) and its rule parameters."""

    params: dict[str, Any]
    ctrl: npt.NDArray[np.int32]
    dice: npt.NDArray[np.int8]
    scores: npt.NDArray[np.int32]
    rows: npt.NDArray[np.int8]
    quit: npt.NDArray[np.bool_]
    llama_row: npt.NDArray[np.int8]
    setaside: npt.NDArray[np.int8]
    discards: npt.NDArray[np.int8]
    give: npt.NDArray[np.bool_]


def position_arrays(state: State) -> Position:
    """The batch-engine arrays of a scalar LAMA Dice state (from :meth:`DiceState.to_dict`).

    Raises:
        IllegalActionError: ``state`` is not a LAMA Dice state.
    """
    dice_state = as_dice_state(state)
    d = dice_state.to_dict()
    n = len(d["scores"])
    give = np.zeros(n, dtype=np.bool_)
    give[list(d["give_queue"])] = True
    return Position(
        params=dice_state.game.params,
        ctrl=np.array(
            [d["phase"], d["player"], d["starter"], d["last_actor"], d["deal_seat"], d["round"]],
            dtype=np.int32,
        ),
        dice=np.array(d["dice"] if d["dice"] is not None else [-1, -1, -1], dtype=np.int8),
        scores=np.array(d["scores"], dtype=np.int32),
        rows=np.array(d["rows"], dtype=np.int8),
        quit=np.array(d["quit"], dtype=np.bool_),
        llama_row=np.array(d["llama_row"], dtype=np.int8),
        setaside=np.array(d["setaside"], dtype=np.int8),
        discards=np.array(d["discards"], dtype=np.int8),
        give=give,
    )


@dataclass(frozen=True, slots=True)
class RolloutResults:
    """What :func:`rollouts` returns (``m`` candidates, ``K`` copies, ``n`` seats).

    Attributes:
        changes: int32 ``(m, K, n)``: score change of every seat in points (D-10 round
            points minus chips given back, D-8.1) from the position to the stop.
        over: bool ``(m, K)``: the game ended (D-11) in that copy.
        final_scores: int32 ``(m, K, n)``: scores at the stop.
        trace_player, trace_action: int8 / int16 ``(m, K, capacity)``: the steps taken,
            candidate action first (player -1: a chance outcome id); ``trace_length`` int32
            ``(m, K)`` counts all steps (entries past ``capacity`` are not kept).
    """

    changes: npt.NDArray[np.int32]
    over: npt.NDArray[np.bool_]
    final_scores: npt.NDArray[np.int32]
    trace_player: npt.NDArray[np.int8]
    trace_action: npt.NDArray[np.int16]
    trace_length: npt.NDArray[np.int32]


def rollouts(
    state: State,
    actions: Sequence[int],
    seeds: npt.ArrayLike,
    *,
    rounds: int = 1,
    max_actions: int | None = None,
    capacity: int = 0,
    memo: tuple[npt.NDArray[np.uint64], npt.NDArray[np.float64]] | None = None,
) -> RolloutResults:
    """Play ``len(seeds)`` copies of ``state`` after each of ``actions``, all seats on the
    in-kernel heuristic, in compiled code. ``state`` is not changed.

    Args:
        state: a LAMA Dice state at a seat's decision (not a chance node, not over).
        actions: candidate player actions of the seat to act, each legal.
        seeds: 1-D non-negative integers; copy ``k`` of every candidate draws its dice
            and deals from ``seeds[k]`` (common random numbers).
        rounds: stop once this many round ends (D-9, give-backs of D-10 included) have
            been played (1: the end of the current round); the game's end (D-11) always
            stops.
        max_actions: cap on the steps of one copy (default
            :data:`MAX_ACTIONS_PER_ROUND` times ``rounds``).
        capacity: trace entries kept per copy (0: none; for tests).
        memo: the heuristic's roll-value memo (:func:`new_memo`), to reuse across calls
            (it only saves time: the values are exact); default a fresh one.

    Inside :func:`lamagames.core.jit.interpreting` the kernel runs as plain Python
    (:func:`lamagames.core.jit.interpreted`): nothing to compile, about 100 times slower,
    the same results (tested). It then plays :data:`INTERPRETED_CHUNK` copies per call and
    asks :func:`~lamagames.core.jit.choose` before each, so it goes on compiled from the
    moment the compiled code is ready (``interpreting(until=...)``).

    Raises:
        IllegalActionError: not a LAMA Dice state, not a seat's decision, or an action
            that is not legal there.
        ParameterError: bad seeds, ``rounds < 1``, ``max_actions < 1`` or
            ``capacity < 0``.
    """
    position = position_arrays(state)
    player = state.current_player()
    if player < 0:
        raise IllegalActionError("rollouts start at a seat's decision, not a chance or end node")
    legal = set(state.legal_actions(player))
    wanted = [int(a) for a in actions]
    for action in wanted:
        if action not in legal:
            raise IllegalActionError(
                f"action {action} is not legal for seat {player}; legal: {sorted(legal)}"
            )
    seed_array = np.asarray(seeds)
    if seed_array.ndim != 1 or not (
        seed_array.dtype.kind in "ui" and (seed_array >= 0).all()
    ):
        raise ParameterError("seeds must be a 1-D array of non-negative integers")
    if rounds < 1:
        raise ParameterError(f"rounds must be at least 1, got {rounds}")
    cap = MAX_ACTIONS_PER_ROUND * rounds if max_actions is None else max_actions
    if cap < 1:
        raise ParameterError(f"max_actions must be at least 1, got {cap}")
    if capacity < 0:
        raise ParameterError(f"capacity must be >= 0, got {capacity}")
    m, k, n = len(wanted), len(seed_array), len(position.scores)
    final = np.zeros((m, k, n), dtype=np.int32)
    over = np.zeros((m, k), dtype=np.bool_)
    trace_player = np.zeros((m, k, capacity), dtype=np.int8)
    trace_action = np.zeros((m, k, capacity), dtype=np.int16)
    trace_length = np.zeros((m, k), dtype=np.int32)
    p = position
    rvec, rsym, rp = heuristic_tables(p.params)
    memo_keys, memo_vals = new_memo(MEMO_SIZE) if memo is None else memo
    fixed = (
        (p.ctrl, p.dice, p.scores, p.rows, p.quit, p.llama_row, p.setaside, p.discards, p.give),
        np.array(wanted, dtype=np.int32),
    )
    seed_array = np.ascontiguousarray(seed_array, dtype=np.uint64)
    limits = (rounds, cap, int(p.params["end_score"]))
    tables = (_faces(p.params), HAND_IDS, HAND_COUNTS, DISCARD_IDS, DISCARD_COUNTS)
    heuristic = (rvec, rsym, rp, memo_keys, memo_vals)
    outs = (final, over, trace_player, trace_action, trace_length)
    if choose(_rollouts) is _rollouts or k <= INTERPRETED_CHUNK:
        # compiled, or interpreted (same results) in jit.interpreting()
        choose(_rollouts)(*fixed, seed_array, limits, tables, heuristic, outs)
    else:
        # Interpreted, in parts of the copies: each part asks choose() again, so a decision
        # started interpreted goes on compiled once the code is ready (issue 19). Copy k
        # depends only on seeds[k] (the memo only saves time): the same results.
        for start in range(0, k, INTERPRETED_CHUNK):
            part = slice(start, min(k, start + INTERPRETED_CHUNK))
            size = part.stop - part.start
            pieces = (
                np.zeros((m, size, n), dtype=np.int32),
                np.zeros((m, size), dtype=np.bool_),
                np.zeros((m, size, capacity), dtype=np.int8),
                np.zeros((m, size, capacity), dtype=np.int16),
                np.zeros((m, size), dtype=np.int32),
            )
            choose(_rollouts)(
                *fixed, np.ascontiguousarray(seed_array[part]), limits, tables, heuristic, pieces
            )
            whole: tuple[npt.NDArray[Any], ...] = outs
            for out, piece in zip(whole, pieces, strict=True):
                out[:, part] = piece
    return RolloutResults(
        changes=final - p.scores[None, None, :],
        over=over,
        final_scores=final,
        trace_player=trace_player,
        trace_action=trace_action,
        trace_length=trace_length,
    )


__all__ = [
    "MAX_ACTIONS_PER_ROUND",
    "Position",
    "RolloutResults",
    "position_arrays",
    "rollouts",
    "runs_interpreted",
]
