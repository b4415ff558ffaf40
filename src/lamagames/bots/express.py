"""Lama Express bots: the benchmark bot and a heuristic player (docs/rules.md E-6, E-7, E-9).

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
from lamagames.express.game import ExpressGame
from lamagames.express.material import PASSENGER_CARS, ROLE_ARROW, ROLE_REBOARD
from lamagames.express.primitives import lap_to_go
from lamagames.express.rules import Phase
from lamagames.express.state import ExpressState

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


#: Heuristic weights, in spaces of progress (docs/rules.md E-8).
HOME_BONUS: Final = 10  # a llama in the house is worth a full lap plus this
FOOTPATH_WAIT: Final = 6  # expected wait per place in a footpath queue
WIN_SCORE: Final = 1_000_000.0
#: Kind order of the heuristic's own free actions: exit, detour, re-board, board.
HEURISTIC_KIND_ORDER: Final = (KIND_EXIT, KIND_DETOUR, KIND_REBOARD, KIND_BOARD)
_HEURISTIC_RANK: Final = tuple(HEURISTIC_KIND_ORDER.index(k) for k in range(NUM_FREE_KINDS))


def llama_value(state: ExpressState, seat: int, progress: int) -> int:
    """Value in spaces of a travelling llama of ``seat`` with this progress (E-8): the track
    length minus the spaces still to ride to its first exit space with a completed lap (a
    llama that has passed its exits counts the ride of the next lap); :func:`ride_value`
    over the lap needs of the seat's exits."""
    board = state.board
    game = state.game
    exits = board.stations[game.seat_station[seat]].exits
    needs = [state.lap_need(seat, e) for e in exits]
    return ride_value(progress, min(needs), max(needs), board.length)


def ride_value(progress: int, first: int, last: int, length: int) -> int:
    """Value in spaces of a travelling llama with ``progress`` (E-8) whose exits need
    ``first`` (the smallest) to ``last`` (the largest) progress, on a track of ``length``
    spaces: ``length`` minus the spaces still to ride to its first exit with a completed
    lap (:func:`~lamagames.express.primitives.lap_to_go`, E-8; past its last exit, the ride
    round to the first one, the next lap's). Written once over plain ints:
    :func:`llama_value` calls it as it is, the in-kernel heuristic
    (:mod:`lamagames.express.batch_kernels`) compiled."""
    to_go = (first - progress) % length if progress > last else lap_to_go(progress, first)
    return length - to_go


def position_value(state: ExpressState, seat: int) -> float:
    """Heuristic value of a position for ``seat`` in spaces of progress: llamas home are
    worth a lap plus :data:`HOME_BONUS`, riding llamas :func:`llama_value`, llamas on a
    footpath that value minus :data:`FOOTPATH_WAIT` per queue place, waiting llamas 0."""
    length = state.board.length
    value = float(state.house_llamas(seat) * (length + HOME_BONUS))
    for train in range(2):
        for car in range(1, PASSENGER_CARS + 1):
            llama = state.car_llama(train, car)
            if llama is not None and llama[0] == seat:
                value += llama_value(state, seat, llama[1])
    for index in range(len(state.board.footpaths)):
        for place, (who, progress) in enumerate(state.footpath_llamas(index)):
            if who == seat:
                value += llama_value(state, seat, progress) - FOOTPATH_WAIT * (place + 1)
    return value


class ExpressHeuristicBot(Bot):
    """A greedy one-ply player.

    Windows (E-7, E-9): it never lets a chance pass. It exits first (that can win at once,
    E-10), then detours (the llama of the opponent with the best position first: most
    llamas home, then highest position value), then re-boards, then boards.

    Train choice (E-6): for each train it plays the move on a copy of the state
    (:meth:`~lamagames.core.game.State.child`), resolves the following window as if every
    seat greedily took every free action (exit, detour, re-board, board), and scores the
    result as its own :func:`position_value` minus the best opponent's. So it prefers moves
    that stop its llamas on its exit spaces or boarding spaces, carry its own llamas far,
    keep them off white arrows, and carry opponents past their exits or onto arrows. A win
    (or loss) inside the window dominates. Ties go to train A.
    """

    kind = "heuristic"

    def __init__(self, game: Game, seat: int, seed: int = 0) -> None:
        super().__init__(game, seat, seed)
        if not isinstance(game, ExpressGame):
            raise IllegalActionError("ExpressHeuristicBot plays Lama Express only")

    def step(self, state: State) -> int:
        """Return the heuristic action for this seat (see the class docstring)."""
        express = _express_state(state)
        legal = express.legal_actions(self.seat)
        if legal[0] == MOVE_A:
            return self._choose_train(express)
        return self._window_action(express, self.seat, legal)

    @staticmethod
    def _window_action(state: ExpressState, seat: int, legal: list[int]) -> int:
        free = [a for a in legal if a != PASS]
        if not free:
            return PASS

        def key(action: int) -> tuple[int, float, int]:
            kind, train, car = decode_free_action(action)
            target = 0.0
            if kind == KIND_DETOUR:
                llama = state.car_llama(train, car)
                if llama is not None:
                    victim = llama[0]
                    target = -(
                        state.house_llamas(victim) * WIN_SCORE + position_value(state, victim)
                    )
            return (_HEURISTIC_RANK[kind], target, action)

        return min(free, key=key)

    def _resolve_window(self, state: ExpressState) -> None:
        """Play out an open window with every seat taking greedy actions (on a copy)."""
        while state.phase() == Phase.WINDOW:
            seat = state.current_player()
            state.apply_action(self._window_action(state, seat, state.legal_actions(seat)), seat)

    def _score(self, state: ExpressState) -> float:
        winner = state.winner()
        if winner is not None:
            return WIN_SCORE if winner == self.seat else -WIN_SCORE
        mine = position_value(state, self.seat)
        others = [position_value(state, s) for s in range(state.game.num_players) if s != self.seat]
        return mine - max(others)

    def _choose_train(self, state: ExpressState) -> int:
        best_action = MOVE_A
        best_score = -float("inf")
        for action in (MOVE_A, MOVE_B):
            child = state.child(action)
            self._resolve_window(child)
            score = self._score(child)
            if score > best_score:
                best_action, best_score = action, score
        return best_action


__all__ = [
    "BENCHMARK_KIND_ORDER",
    "HEURISTIC_KIND_ORDER",
    "ExpressBenchmarkBot",
    "ExpressHeuristicBot",
    "benchmark_order_key",
    "footpath_of_action",
    "llama_value",
    "position_value",
    "ride_value",
]
