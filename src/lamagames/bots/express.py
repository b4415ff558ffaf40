"""Lama Express bots: the benchmark bot and a heuristic player (RULES E-6, E-7, E-9).

Both use only the public state protocol and the public helpers of :mod:`lamagames.express`.
"""

from __future__ import annotations

from typing import Final

from lamagames.bots.base import Bot
from lamagames.core.errors import IllegalActionError
from lamagames.core.game import Game, State
from lamagames.express.actions import (
    KIND_BOARD,
    KIND_DETOUR,
    KIND_EXIT,
    KIND_REBOARD,
    MOVE_A,
    MOVE_B,
    NUM_FREE_KINDS,
    PASS,
    decode_free_action,
)
from lamagames.express.board import PASSENGER_CARS, ROLE_ARROW, ROLE_REBOARD
from lamagames.express.game import ExpressGame, ExpressState

#: Benchmark order of the kinds of free action: exit, board, re-board, detour.
BENCHMARK_KIND_ORDER: Final = (KIND_EXIT, KIND_BOARD, KIND_REBOARD, KIND_DETOUR)
_KIND_RANK: Final = tuple(BENCHMARK_KIND_ORDER.index(k) for k in range(NUM_FREE_KINDS))


def _express_state(state: State) -> ExpressState:
    if not isinstance(state, ExpressState):
        name = type(state).__name__
        raise IllegalActionError(f"an Express bot needs an ExpressState, got {name}")
    return state


def footpath_of_action(state: ExpressState, action: int) -> int | None:
    """Footpath index (track order) concerned by a detour or re-board action, else ``None``.

    The car named by the action stands on the footpath's arrow (detour) or re-boarding space
    (re-board), E-7.
    """
    kind, train, car = decode_free_action(action)
    if kind not in (KIND_DETOUR, KIND_REBOARD):
        return None
    space = state.car_space(train, car)
    board = state.board
    if board.role[space] in (ROLE_ARROW, ROLE_REBOARD):
        return board.role_index[space]
    return None


def benchmark_order_key(state: ExpressState, action: int) -> tuple[int, int, int, int]:
    """Sort key of a free action in the benchmark order: kind (exit, board, re-board, detour),
    then footpath in track order, then train A before B, then car 1..5."""
    kind, train, car = decode_free_action(action)
    footpath = footpath_of_action(state, action)
    return (_KIND_RANK[kind], -1 if footpath is None else footpath, train, car)


class ExpressBenchmarkBot(Bot):
    """The benchmark policy.

    In a window (E-9) it takes one available free action in the order exit, board, re-board,
    detour; among candidates of one kind: footpaths in track order, then train A before B,
    then car 1 to 5. It passes when it has none. When it must choose a train (E-6) it picks
    uniformly at random, with its own stream, among the trains that can move (both, since
    the choice is only offered then).
    """

    kind = "benchmark"

    def __init__(self, game: Game, seat: int, seed: int = 0) -> None:
        super().__init__(game, seat, seed)
        if not isinstance(game, ExpressGame):
            raise IllegalActionError("ExpressBenchmarkBot plays Lama Express only")

    def step(self, state: State) -> int:
        """Return the benchmark action for this seat (see the class docstring)."""
        legal = state.legal_actions(self.seat)
        first = legal[0]
        if first == MOVE_A:
            return MOVE_A if self.rng.random() < 0.5 else MOVE_B
        if first != PASS or len(legal) == 1:
            return first
        if len(legal) == 2:
            return legal[1]
        express = _express_state(state)
        return min(legal[1:], key=lambda a: benchmark_order_key(express, a))


class ExpressHeuristicBot(Bot):
    """Placeholder, replaced below."""

    kind = "heuristic"

    def step(self, state: State) -> int:
        """Placeholder."""
        return state.legal_actions(self.seat)[0]


__all__ = [
    "BENCHMARK_KIND_ORDER",
    "PASSENGER_CARS",
    "ExpressBenchmarkBot",
    "ExpressHeuristicBot",
    "benchmark_order_key",
    "footpath_of_action",
]
