"""Plain-Python expectimax over the scalar engine, the reference for the exact solver.

It walks :meth:`DiceState.chance_outcomes` and :meth:`DiceState.legal_actions` of the real
engine (no solver code) from a hand-built position and returns the seat's expected further
points of the round (score change until the round is scored, D-10, chips given back
included, D-8.1). The three-llama loop (D-8.1) makes the game tree infinite, so the walk
allows at most ``budget`` rolls (then only ``quit``); the truncated value is an upper
bound that approaches the exact one geometrically (each extra roll beyond the cards in the
row needs three llamas, probability 1/27 with the standard dice).
"""

from __future__ import annotations

from lamagames.dice.actions import QUIT, ROLL
from lamagames.dice.rules import Phase
from lamagames.dice.state import DiceState

Key = tuple[object, ...]


def expectimax(state: DiceState, seat: int, budget: int, start: int | None = None) -> float:
    """Expected further points of ``seat`` until the round is scored (truncated search),
    counted from the score ``start`` (default: the seat's score in ``state``)."""
    memo: dict[Key, float] = {}
    return _value(state, seat, budget, state.scores[seat] if start is None else start, memo)


def _value(state: DiceState, seat: int, budget: int, start: int, memo: dict[Key, float]) -> float:
    if state.phase in (Phase.DEAL, Phase.OVER):  # the round has been scored
        return float(state.scores[seat] - start)
    key: Key = (
        state.phase,
        state.current_player(),
        tuple(tuple(r) for r in state.rows),
        tuple(state.llama_row),
        tuple(state.scores),
        tuple(state.quit),
        state.dice,
        budget,
    )
    cached = memo.get(key)
    if cached is not None:
        return cached
    if state.is_chance_node():
        value = sum(
            p * _value(state.child(a), seat, budget, start, memo)
            for a, p in state.chance_outcomes()
        )
    else:
        if state.current_player() != seat:
            raise AssertionError("the brute force plays one seat only (last player standing)")
        options = []
        for action in state.legal_actions():
            if action == ROLL:
                if budget == 0:
                    continue
                options.append(_value(state.child(action), seat, budget - 1, start, memo))
            else:
                options.append(_value(state.child(action), seat, budget, start, memo))
        value = min(options) if options else _value(state.child(QUIT), seat, 0, start, memo)
    memo[key] = value
    return value


def margin(state: DiceState, budget: int) -> float:
    """Two seats: expectiminimax of seat 1's further points minus seat 0's (seat 0
    maximises, seat 1 minimises), over the engine, at most ``budget`` rolls in all."""
    memo: dict[Key, float] = {}
    return _margin(state, budget, (state.scores[0], state.scores[1]), memo)


def _margin(state: DiceState, budget: int, start: tuple[int, int], memo: dict[Key, float]) -> float:
    if state.phase in (Phase.DEAL, Phase.OVER):
        return float((state.scores[1] - start[1]) - (state.scores[0] - start[0]))
    key: Key = (
        state.phase,
        state.current_player(),
        tuple(tuple(r) for r in state.rows),
        tuple(state.llama_row),
        tuple(state.scores),
        tuple(state.quit),
        state.dice,
        budget,
    )
    cached = memo.get(key)
    if cached is not None:
        return cached
    if state.is_chance_node():
        value = sum(
            p * _margin(state.child(a), budget, start, memo) for a, p in state.chance_outcomes()
        )
    else:
        options = []
        for action in state.legal_actions():
            if action == ROLL:
                if budget > 0:
                    options.append(_margin(state.child(action), budget - 1, start, memo))
            else:
                options.append(_margin(state.child(action), budget, start, memo))
        value = max(options) if state.current_player() == 0 else min(options)
    memo[key] = value
    return value
