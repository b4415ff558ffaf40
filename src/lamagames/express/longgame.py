"""A long Lama Express game on purpose: the lower bound beside the proven upper bound.

:func:`lamagames.express.rl.decision_bound` proves that a game of ``T`` rolls has at most so
many decisions. :func:`long_game` builds an actual game on the scalar engine, as long as it
can find: an adversary that chooses every die colour (E-1: each has probability 1/6, so
every sequence of colours can happen) and every seat's decision, searching roll by roll
(a beam search) for the play with the most decisions. Its length is a lower bound on the
longest game; the two together say how tight the bound is (``docs/rl.md``).

In a window (E-9) the adversary takes the free actions of its *plan* (E-7: boards, detours,
re-boards and exits short of a win, or a subset of them) and passes otherwise, in the order
that lets the most seats pass: a seat takes a planned action only when no other seat that
has not passed since the last action plans one too, so every action is preceded by the
passes of the seats asked before it and followed by a new round of passes (an action resets
them). Which plan each window follows, which colour is rolled and which train moves (E-6)
are what the search chooses. Two rankings choose the positions it keeps (:data:`RANKINGS`):
``"seats"`` (:func:`_rank`) and ``"park"`` (:func:`_rank_park`: one train parked where it
gives every seat a free action nobody takes, the other cycling llamas through the
footpaths, the two swapping when they meet); ``scripts/express_long_game.py`` runs both.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from lamagames.core.errors import IllegalActionError, ParameterError
from lamagames.express.actions import (
    BOARD_BASE,
    DETOUR_BASE,
    EXIT_BASE,
    MOVE_A,
    MOVE_B,
    NUM_CAR_SLOTS,
    PASS,
    REBOARD_BASE,
)
from lamagames.express.game import ExpressGame
from lamagames.express.material import NUM_DIE_COLOURS, PASSENGER_CARS
from lamagames.express.primitives import has_won
from lamagames.express.rules import Phase
from lamagames.express.state import ExpressState

#: Window plans: the E-7 free actions the adversary takes (it passes on the others).
PLAN_ALL: Final = 0  # boards, detours, re-boards, exits that do not win, on both trains
PLAN_NONE: Final = 1  # pass on everything: the window only collects passes
PLAN_A: Final = 2  # as PLAN_ALL, on train A's cars only: train B keeps what it offers
PLAN_B: Final = 3  # as PLAN_ALL, on train B's cars only
#: as PLAN_ALL, but only actions after which as many seats have a free action as before (so
#: as many can pass at the end of the window)
PLAN_KEEP: Final = 4
PLANS: Final = (PLAN_ALL, PLAN_NONE, PLAN_A, PLAN_B, PLAN_KEEP)


def _planned(state: ExpressState, seat: int, plan: int) -> list[int]:
    """The free actions of ``seat`` that ``plan`` takes now, re-boards first (they fill a car
    for a later detour), then detours, boards and exits (never the winning one, E-10).
    ``seat`` is the seat asked or one that has not passed (:meth:`acting_players`), so
    trying an action on a copy is legal (E-9)."""
    if plan == PLAN_NONE:
        return []
    out = []
    for action in state.available_actions(seat):
        train = (action - BOARD_BASE) % NUM_CAR_SLOTS // PASSENGER_CARS
        if (plan == PLAN_A and train != 0) or (plan == PLAN_B and train != 1):
            continue
        if action >= REBOARD_BASE:
            out.append((0, action))
        elif action >= DETOUR_BASE:
            out.append((1, action))
        elif action >= EXIT_BASE:
            if not has_won(state.house_llamas(seat) + 1, state.game.llamas_to_win):  # E-10
                out.append((3, action))
        else:
            out.append((2, action))
    chosen = [a for _, a in sorted(out)]
    if plan == PLAN_KEEP and chosen:
        before = sum(1 for b in state._free_bits() if b)
        kept = []
        for action in chosen:
            after = state.clone()
            after.apply_action(action, seat)
            if after.is_terminal() or sum(1 for b in after._free_bits() if b) >= before:
                kept.append(action)
        chosen = kept
    return chosen


def _play_window(state: ExpressState, plan: int) -> int:
    """Play the open window (E-9) by ``plan``; returns the decisions made."""
    made = 0
    while state.phase() == Phase.WINDOW:
        seat = state.current_player()
        mine = _planned(state, seat, plan)
        others = [s for s in state.acting_players() if s != seat]
        if mine and not any(_planned(state, s, plan) for s in others):
            state.apply_action(mine[0])
        else:
            state.apply_action(PASS)
        made += 1
    return made


@dataclass(frozen=True, slots=True)
class LongGame:
    """A constructed game (:func:`long_game`).

    Attributes:
        state: the final state, replayed from the start on the engine (truncated at the
            turn limit, E-11); its :meth:`~ExpressState.history` is the game.
        decisions: player decisions (train choices, free actions, passes), the quantity
            bounded by :func:`lamagames.express.rl.max_game_length`.
        free_actions: boards, exits, detours and re-boards among them (E-7).
    """

    state: ExpressState
    decisions: int
    free_actions: int


#: Weights of the beam's ranking (besides the decisions so far), tuned on 100-roll games:
#: seats with an available free action (they can pass in the next window), llamas on
#: footpaths (re-boards to come), detours and re-boards made, and the seats one train alone
#: gives an action (that train can stand while the other one moves).
WEIGHT_SEATS: Final = 2.0
WEIGHT_FOOTPATH: Final = 1.0
WEIGHT_SPECIAL: Final = 2.0
WEIGHT_ONE_TRAIN: Final = 10.0


#: Per train, the bits of :meth:`ExpressState._free_bits` of free actions on its cars.
_TRAIN_BITS: Final = tuple(
    sum(
        1 << (base + train * PASSENGER_CARS + car)
        for base in (BOARD_BASE, EXIT_BASE, DETOUR_BASE, REBOARD_BASE)
        for car in range(PASSENGER_CARS)
    )
    for train in range(2)
)


def _rank(state: ExpressState, decisions: int, specials: int) -> float:
    """The beam's ranking of a state between rolls (higher is kept). Reads the engine's
    state directly (this module is part of the engine's package): it runs for every child."""
    bits = state._free_bits()
    seats = sum(1 for b in bits if b)
    train_a = sum(1 for b in bits if b & _TRAIN_BITS[0])
    train_b = sum(1 for b in bits if b & _TRAIN_BITS[1])
    return (
        decisions
        + WEIGHT_SEATS * seats
        + WEIGHT_FOOTPATH * sum(state._path_len)
        + WEIGHT_SPECIAL * specials
        + WEIGHT_ONE_TRAIN * max(train_a, train_b)
    )


#: Weights of the *park* ranking (:data:`RANKING_PARK`), tuned on 300-roll games for 2
#: seats: a train that alone gives every seat a free action (parked there, it lets every
#: seat pass in both windows of every roll while the other train moves), llamas on
#: footpaths counting at most :data:`PARK_FOOTPATH_CAP` per footpath (the other train's
#: re-boards to come, spread over the footpaths), llamas in cars (detours to come), detours
#: and re-boards made, and footpaths where the next train to park can park: their first two
#: llamas have one owner (the train re-boards the first into a car, carries it on to the
#: arrow and stops there, its car three behind on the re-boarding space: the owner can
#: re-board the second, every other seat can detour the first, E-7).
WEIGHT_PARK: Final = 30.0
WEIGHT_PARK_FOOTPATH: Final = 5.0
PARK_FOOTPATH_CAP: Final = 2
WEIGHT_PARK_ON_BOARD: Final = 2.0
WEIGHT_PARKABLE: Final = 2.0

#: Rankings of the beam (:func:`long_game`'s ``ranking``).
RANKING_SEATS: Final = "seats"  # :func:`_rank`: seats with a free action, per train
RANKING_PARK: Final = "park"  # :func:`_rank_park`: one train parked, the other cycling
RANKINGS: Final = (RANKING_SEATS, RANKING_PARK)


def _rank_park(state: ExpressState, decisions: int, specials: int) -> float:
    """The beam's *park* ranking: one train parked where it gives every seat a free action
    (E-7), which the windows leave untaken (both windows of every roll open and every seat
    passes, E-9), while the other train carries llamas from arrow to re-boarding space
    (detour, re-board, detour ...); the trains swap roles when the moving one comes up
    behind the parked one (E-6: a train cannot push)."""
    bits = state._free_bits()
    n = len(bits)
    seats = sum(1 for b in bits if b)
    parked = any(sum(1 for b in bits if b & train) == n for train in _TRAIN_BITS)
    footpaths = sum(min(m, PARK_FOOTPATH_CAP) for m in state._path_len)
    on_board = sum(1 for owner in state._owner if owner >= 0)
    parkable = sum(
        1
        for path, m in zip(state._path_owner, state._path_len, strict=True)
        if m >= 2 and path[0] == path[1]
    )
    return (
        decisions
        + WEIGHT_SEATS * seats
        + WEIGHT_PARK * parked
        + WEIGHT_PARK_FOOTPATH * footpaths
        + WEIGHT_PARK_ON_BOARD * on_board
        + WEIGHT_SPECIAL * specials
        + WEIGHT_PARKABLE * parkable
    )


def _key(state: ExpressState) -> tuple[object, ...]:
    """What tells two states apart for the search: the position (trains, llamas and their
    owners, active seat), not the history or the llamas' progress."""
    return (
        state._active,
        tuple(state._tips),
        tuple(state._owner),
        tuple(tuple(path[:m]) for path, m in zip(state._path_owner, state._path_len, strict=True)),
        tuple(state._station),
        tuple(state._house),
    )


def _children(state: ExpressState) -> list[ExpressState]:
    """Every way to play the next roll: colour, plan of the window after the roll, train
    choice, plan of the window after the move (E-6, E-9)."""
    out = []
    for colour in range(NUM_DIE_COLOURS):
        rolled = state.clone()
        rolled.apply_action(colour)
        for plan in PLANS:
            after_roll = rolled.clone()
            _play_window(after_roll, plan)
            if after_roll.phase() == Phase.CHOOSE:
                options = []
                for train in (MOVE_A, MOVE_B):
                    moved = after_roll.clone()
                    moved.apply_action(train)
                    options.append(moved)
            else:
                options = [after_roll]
            for moved in options:
                if moved.phase() != Phase.WINDOW:
                    out.append(moved)
                    continue
                for second in PLANS:
                    done = moved.clone()
                    _play_window(done, second)
                    out.append(done)
    return out


@dataclass(slots=True)
class _Node:
    """A state of the beam with its score and the actions that led to it (the engine's own
    history is emptied after each roll: cloning it would cost O(game length))."""

    state: ExpressState
    decisions: int
    specials: int
    free: int
    roll: tuple[tuple[int, int], ...]
    parent: _Node | None


def long_game(game: ExpressGame, beam: int = 8, ranking: str = RANKING_SEATS) -> LongGame:
    """A game with many decisions, built by a beam search over the whole game.

    Each roll, every state of the beam is expanded by every die colour, plan of each window
    (:data:`PLANS`) and train choice (E-6, E-9); the ``beam`` best distinct positions by
    ``ranking`` are kept (:data:`RANKINGS`: ``"seats"``, :func:`_rank`, or ``"park"``,
    :func:`_rank_park`, one train parked and the other cycling). Games ending with a winner
    are dropped (E-10: exits short of a win only). The best game is replayed from the
    start on the engine, which checks every action.

    Args:
        game: a game with a ``turn_limit`` (E-11); the search plays all its rolls.
        beam: positions kept after each roll; work grows linearly with it (about 2 ms per
            roll and position for 2 seats, 4 ms for 4).
        ranking: which ranking keeps the beam's positions, one of :data:`RANKINGS`.

    Returns:
        The :class:`LongGame` with the most decisions found.

    Raises:
        ParameterError: ``game`` has no turn limit, ``beam`` is not a positive integer, or
            ``ranking`` is not one of :data:`RANKINGS`.
    """
    if game.turn_limit is None:
        raise ParameterError("long_game needs a game with a turn_limit (E-11)")
    if type(beam) is not int or beam < 1:
        raise ParameterError(f"beam must be a positive integer, got {beam!r}")
    if ranking not in RANKINGS:
        raise ParameterError(f"ranking must be one of {', '.join(RANKINGS)}, got {ranking!r}")
    rank = _rank_park if ranking == RANKING_PARK else _rank
    frontier = [_Node(game.new_initial_state(), 0, 0, 0, (), None)]
    finished: list[_Node] = []
    while frontier:
        pool: dict[tuple[object, ...], tuple[float, _Node]] = {}
        for node in frontier:
            for child in _children(node.state):
                roll = tuple(child._history)
                child._history = []
                decisions = node.decisions + sum(1 for p, _ in roll if p >= 0)
                free = sum(1 for p, a in roll if p >= 0 and a >= BOARD_BASE)
                specials = sum(1 for p, a in roll if p >= 0 and a >= DETOUR_BASE)
                made = _Node(
                    child,
                    decisions,
                    node.specials + specials,
                    node.free + free,
                    roll,
                    node,
                )
                if child.is_terminal():
                    if child.winner() is None:
                        finished.append(made)
                    continue
                key = _key(child)
                score = rank(child, decisions, made.specials)
                if key not in pool or pool[key][0] < score:
                    pool[key] = (score, made)
        ranked = sorted(pool.values(), key=lambda item: -item[0])
        frontier = [node for _, node in ranked[:beam]]
    best = max(finished, key=lambda node: node.decisions)
    return LongGame(replay(game, _actions(best)), best.decisions, best.free)


def _actions(node: _Node) -> list[tuple[int, int]]:
    rolls = []
    at: _Node | None = node
    while at is not None:
        rolls.append(at.roll)
        at = at.parent
    return [item for roll in reversed(rolls) for item in roll]


def replay(game: ExpressGame, actions: Sequence[tuple[int, int]]) -> ExpressState:
    """Play ``(player, action)`` pairs (die rolls with player -1) from the start of ``game``.

    Raises:
        IllegalActionError: an action is not legal where it is played, or ``player`` is not
            the seat to act.
    """
    state = game.new_initial_state()
    for player, action in actions:
        if player != state.current_player():
            raise IllegalActionError(
                f"action {action} by {player}: {state.current_player()} is to act"
            )
        state.apply_action(action)
    return state


def count_decisions(history: Sequence[tuple[int, int]]) -> int:
    """Player decisions in a history (its entries with a seat, not a die roll)."""
    return sum(1 for player, _ in history if player >= 0)


__all__ = [
    "PLANS",
    "RANKINGS",
    "LongGame",
    "count_decisions",
    "long_game",
    "replay",
]
