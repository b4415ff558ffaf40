"""Loading scalar Lama Express positions into batch rows (:meth:`ExpressBatch.from_state`).

A round trip ``to_state(from_state(s))`` gives back ``s`` in every observable way at any
reachable position (windows with their stage, asked seat and passes, E-9; train choices,
E-6; footpaths, E-8; houses; finished games, E-10), and play goes on from a loaded row
exactly as in the scalar engine with the same actions and chance.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from lamagames.bots.express import ExpressHeuristicBot
from lamagames.core.errors import ParameterError
from lamagames.core.game import CHANCE_PLAYER
from lamagames.express.batch import ExpressBatch
from lamagames.express.game import ExpressGame
from lamagames.express.state import ExpressState

TINY_FILE = Path(__file__).resolve().parents[1] / "data" / "tiny_board.json"
VARIANTS = [
    pytest.param({"num_players": 2}, id="2p"),
    pytest.param({"num_players": 3}, id="3p"),
    pytest.param({"num_players": 4}, id="4p"),
    pytest.param({"num_players": 4, "llamas_to_win": 3, "starting_seat": 2}, id="4p-short"),
    pytest.param({"num_players": 3, "board": TINY_FILE}, id="3p-tiny-board"),
]


def positions(game: ExpressGame, seed: int, heuristic: bool) -> list[ExpressState]:
    """Every position of one seeded game (random or heuristic seats), chance included."""
    rng = random.Random(seed)
    bots = [ExpressHeuristicBot(game, s, 0) for s in range(game.num_players)]
    state = game.new_initial_state()
    out = [state.clone()]
    while not state.is_terminal() and len(out) < 3000:
        player = state.current_player()
        if player == CHANCE_PLAYER:
            state.apply_action(state.sample_chance_outcome(rng))
        elif heuristic and (player + seed) % 2 == 0:
            state.apply_action(bots[player].step(state), player)
        else:
            state.apply_action(rng.choice(state.legal_actions(player)), player)
        out.append(state.clone())
    return out


def same(a: ExpressState, b: ExpressState) -> None:
    """``a`` and ``b`` agree in every observable way."""
    assert a.to_dict() == b.to_dict()
    assert a.current_player() == b.current_player()
    assert a.is_terminal() == b.is_terminal()
    assert a.winner() == b.winner()
    assert a.returns() == b.returns()
    assert a.history() == b.history()
    for seat in range(a.game.num_players):
        assert a.legal_actions(seat) == b.legal_actions(seat)
        assert a.observation(seat) == b.observation(seat)
        assert np.array_equal(a.observation_tensor(seat), b.observation_tensor(seat))


def engine_of(params: dict[str, Any], **extra: Any) -> ExpressBatch:
    return ExpressBatch(**params, trace_length=5000, **extra)


@pytest.mark.parametrize("params", VARIANTS)
def test_round_trip_at_every_position(params: dict[str, Any]) -> None:
    """E-6..E-10: from_state then to_state is the identity at decisions and ends; at a
    chance node the loaded row has rolled its die, as the scalar state does with that die."""
    engine = engine_of(params)
    game = engine.game
    checked = {"decision": 0, "chance": 0, "over": 0, "window": 0, "choose": 0}
    for seed in range(4):
        for state in positions(game, seed, heuristic=seed % 2 == 1)[::3]:
            rows = engine.from_state(state, 3, np.array([seed, seed + 1, seed + 2]))
            for g in range(3):
                back = engine.to_state(rows, g)
                if state.is_chance_node():
                    checked["chance"] += 1
                    player, die = rows.history(g)[len(state.history())]
                    assert player == CHANCE_PLAYER
                    want = state.clone()
                    want.apply_action(die)
                    # the loaded row runs on to the next decision, as the scalar does
                    while want.is_chance_node():
                        player, die = rows.history(g)[len(want.history())]
                        want.apply_action(die)
                    same(back, want)
                else:
                    checked["over" if state.is_terminal() else "decision"] += 1
                    phase = state.to_dict()["phase"]
                    checked[phase] = checked.get(phase, 0) + 1
                    same(back, state)
    assert checked["decision"] > 100 and checked["chance"] > 30 and checked["choose"] > 0


@pytest.mark.parametrize("params", VARIANTS)
def test_play_on_from_a_loaded_row_matches_the_scalar_engine(params: dict[str, Any]) -> None:
    """Stepping loaded rows with random legal actions gives the scalar engine's positions
    for the same actions and the rows' own die rolls (E-6..E-11)."""
    engine = engine_of(params)
    game = engine.game
    rng = random.Random(7)
    for seed in range(3):
        path = positions(game, 100 + seed, heuristic=True)
        start = path[len(path) // 3]
        rows = engine.from_state(start, 4, np.arange(4) + 1000 * seed)
        scalars = []
        for g in range(4):
            s = start.clone()
            while s.is_chance_node():
                s.apply_action(rows.history(g)[len(s.history())][1])
            scalars.append(s)
        for _ in range(200):
            mask = engine.legal_mask(rows)
            actions = np.zeros(4, np.int32)
            for g in range(4):
                if not scalars[g].is_terminal():
                    legal = scalars[g].legal_actions()
                    assert list(np.flatnonzero(mask[g])) == legal
                    actions[g] = rng.choice(legal)
            engine.step(rows, actions)
            for g in range(4):
                s = scalars[g]
                if not s.is_terminal():
                    s.apply_action(int(actions[g]))
                    while s.is_chance_node():
                        s.apply_action(rows.history(g)[len(s.history())][1])
                same(engine.to_state(rows, g), s)


@pytest.mark.parametrize("params", VARIANTS)
def test_loading_the_setup_is_init(params: dict[str, Any]) -> None:
    """E-5: the setup position loaded with seed ``s`` plays exactly as ``init`` with ``s``
    (same streams), so rows of a loaded position follow their seeds."""
    engine = engine_of(params, turn_limit=400)
    seeds = np.arange(20) * 7919
    a = engine.init(seeds)
    b = engine.from_state(engine.game.new_initial_state(), 20, seeds)
    policies = ["heuristic", "random", "benchmark", "heuristic"][: engine.num_players]
    engine.play(a, policies)
    engine.play(b, policies)
    for name in ("winner", "rolls", "house", "trace_len"):
        assert np.array_equal(getattr(a, name), getattr(b, name)), name
    assert np.array_equal(a.trace, b.trace)


def test_turn_limit_of_one_play_call() -> None:
    """E-11: ``play(..., turn_limit=n)`` truncates at ``n`` rolls with no winner."""
    engine = ExpressBatch(2)
    states = engine.from_state(engine.game.new_initial_state(), 5, np.arange(5))
    engine.play(states, ["random", "random"], turn_limit=3)
    assert (states.rolls == 3).all() and (states.winner == -1).all() and states.done().all()
    with pytest.raises(ParameterError, match="turn_limit must be a positive integer"):
        engine.play(states, ["random", "random"], turn_limit=0)


def test_bad_input_is_refused() -> None:
    engine = ExpressBatch(2)
    state = engine.game.new_initial_state()
    with pytest.raises(ParameterError, match="another Lama Express game"):
        engine.from_state(ExpressGame(3).new_initial_state(), 1, [0])
    with pytest.raises(ParameterError, match="another Lama Express game"):
        engine.from_state(ExpressGame(2, llamas_to_win=3).new_initial_state(), 1, [0])
    with pytest.raises(ParameterError, match="must be an ExpressState"):
        engine.from_state("no", 1, [0])  # type: ignore[arg-type]
    with pytest.raises(ParameterError, match="copies must be 0 or more"):
        engine.from_state(state, -1, [])
    with pytest.raises(ParameterError, match="seeds must be 2 integers"):
        engine.from_state(state, 2, [1])
    with pytest.raises(ParameterError, match="seeds must be 1 integers"):
        engine.from_state(state, 1, [0.5])
    assert len(engine.from_state(state, 0, np.zeros(0, np.int64))) == 0
    # a different turn limit is the same game
    rows = engine.from_state(ExpressGame(2, turn_limit=50).new_initial_state(), 1, [3])
    assert rows.rolls[0] == 1
