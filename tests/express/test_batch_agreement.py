"""The Lama Express batch engine agrees with the scalar engine (E-5 .. E-11,
E-9 asking, of docs/rules.md).

Traces of chance outcomes and actions recorded by the batch engine replay through the
scalar engine (the core protocol) to the very same states; the legal-action masks equal the
scalar legal actions at every step; the kernel's benchmark policy takes the action
:class:`ExpressBenchmarkBot` takes; and benchmark self-play statistics match the scalar
engine within 4 standard errors.
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest

from lamagames.bots.express import ExpressBenchmarkBot
from lamagames.core.game import CHANCE_PLAYER
from lamagames.express.actions import MOVE_A, NUM_DISTINCT_ACTIONS
from lamagames.express.batch import ExpressBatch, ExpressBatchState
from lamagames.express.state import ExpressState
from lamagames.sim.runner import play_game

from .conftest import TINY_BOARD

TINY_FILE = Path(__file__).resolve().parents[1] / "data" / "tiny_board.json"
VARIANTS = [
    pytest.param({"num_players": 2}, id="2p"),
    pytest.param({"num_players": 3}, id="3p"),
    pytest.param({"num_players": 4}, id="4p"),
    pytest.param({"num_players": 4, "llamas_to_win": 3, "starting_seat": 2}, id="4p-short"),
    pytest.param({"num_players": 2, "colours": ["pink", "blue"]}, id="2p-pink-blue"),
    pytest.param({"num_players": 3, "board": TINY_FILE}, id="3p-tiny-file"),
]


def replay(engine: ExpressBatch, states: ExpressBatchState, g: int) -> ExpressState:
    """Replay game ``g``'s trace through the scalar engine, checking who acts at each step."""
    state = engine.game.new_initial_state()
    for player, action in states.history(g):
        assert state.current_player() == player
        state.apply_action(action)
    return state


@pytest.mark.parametrize("params", VARIANTS)
@pytest.mark.parametrize("policy", ["benchmark", "random"])
def test_traces_replay_to_the_same_final_states(params: dict[str, object], policy: str) -> None:
    """E-5..E-11: same chance outcomes and actions, same final state (positions, houses,
    winner or truncation, rolls, history)."""
    engine = ExpressBatch(**params, turn_limit=300, trace_length=20_000)  # type: ignore[arg-type]
    states = engine.init(np.arange(12) + 1000)
    engine.play(states, [policy] * engine.num_players)
    assert states.done().all()
    assert (states.trace_len < states.trace.shape[1]).all()  # every game fully traced
    for g in range(len(states)):
        scalar = replay(engine, states, g)
        assert scalar.is_terminal()
        assert scalar.to_dict() == engine.to_dict(states, g)
        assert scalar.to_dict() == engine.to_state(states, g).to_dict()


@pytest.mark.parametrize("players", [2, 3, 4])
def test_masks_and_states_agree_at_every_step(players: int) -> None:
    """E-9 turn-by-turn asking: after every batch ``step`` with random legal actions, each
    game equals the scalar game stepped alike, and the mask is the scalar legal set."""
    engine = ExpressBatch(num_players=players, turn_limit=60, trace_length=5_000)
    states = engine.init(np.arange(6) + 7 * players)
    scalars = [replay(engine, states, g) for g in range(len(states))]
    rng = np.random.default_rng(players)
    while not states.done().all():
        mask = engine.legal_mask(states)
        actions = np.zeros(len(states), np.int64)
        for g, scalar in enumerate(scalars):
            legal = np.flatnonzero(mask[g])
            assert legal.tolist() == ([] if scalar.is_terminal() else scalar.legal_actions())
            if legal.size:
                actions[g] = rng.choice(legal)
        before = [states.trace_len[g] for g in range(len(states))]
        engine.step(states, actions)
        for g, scalar in enumerate(scalars):
            for player, action in states.history(g)[before[g] :]:
                assert player == scalar.current_player()
                scalar.apply_action(action)
            assert scalar.to_dict() == engine.to_dict(states, g)


@pytest.mark.parametrize("players", [2, 4])
def test_kernel_benchmark_takes_the_benchmark_bots_actions(players: int) -> None:
    """The in-kernel benchmark policy (exit, board, re-board, detour; footpath, train, car)
    takes in every window the action ExpressBenchmarkBot takes."""
    engine = ExpressBatch(num_players=players, board=TINY_BOARD, trace_length=20_000)
    states = engine.init(np.arange(8))
    engine.play(states, ["benchmark"] * players)
    bots = [ExpressBenchmarkBot(engine.game, s) for s in range(players)]
    windows = 0
    for g in range(len(states)):
        state = engine.game.new_initial_state()
        for player, action in states.history(g):
            if player != CHANCE_PLAYER and action not in (MOVE_A, MOVE_A + 1):
                assert bots[player].step(state) == action
                windows += 1
            state.apply_action(action)
    assert windows > 50


def _mean_se(values: np.ndarray) -> tuple[float, float]:
    return float(values.mean()), float(values.std(ddof=1) / math.sqrt(len(values)))


@pytest.mark.parametrize("players", [2, 3, 4])
def test_benchmark_self_play_statistics_match_the_scalar_engine(players: int) -> None:
    """Rolls per game, win share and llamas home per seat of benchmark self-play agree with
    the scalar engine and its benchmark bots within 4 standard errors."""
    scalar_games = 150
    game_engine = ExpressBatch(num_players=players)
    game = game_engine.game
    rolls, wins, home = [], [], []
    for seed in range(scalar_games):
        bots = [ExpressBenchmarkBot(game, s, seed) for s in range(players)]
        state = play_game(game, bots, seed).state
        assert isinstance(state, ExpressState)
        rolls.append(state.rolls())
        wins.append([1.0 if state.winner() == s else 0.0 for s in range(players)])
        home.append([state.house_llamas(s) for s in range(players)])
    states = game_engine.init(np.arange(3000) + 10**9)
    game_engine.play(states, ["benchmark"] * players)
    batch_wins = (states.winner[:, None] == np.arange(players)).astype(float)
    pairs = [(np.array(rolls, float), states.rolls.astype(float))]
    pairs += [(np.array(wins)[:, s], batch_wins[:, s]) for s in range(players)]
    pairs += [
        (np.array(home, float)[:, s], states.house[:, s].astype(float)) for s in range(players)
    ]
    for scalar_values, batch_values in pairs:
        m1, se1 = _mean_se(scalar_values)
        m2, se2 = _mean_se(batch_values)
        assert abs(m1 - m2) <= 4 * math.hypot(se1, se2)


def test_mask_has_the_action_space_width() -> None:
    """Masks use the scalar action encoding: 43 ids."""
    engine = ExpressBatch(num_players=2)
    assert engine.legal_mask(engine.init([1, 2])).shape == (2, NUM_DISTINCT_ACTIONS)
