"""The in-kernel Lama Express ``heuristic`` policy makes exactly the choices of
:class:`lamagames.bots.express.ExpressHeuristicBot` (E-6 train choice, E-7/E-9 windows).

Games played by the batch kernel with heuristic seats (mixed with the other in-kernel
policies) are traced and replayed through the scalar engine; at every decision of a
heuristic seat the scalar bot must choose the traced action.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from lamagames.bots.express import ExpressHeuristicBot
from lamagames.core.errors import ParameterError
from lamagames.core.game import CHANCE_PLAYER
from lamagames.express.actions import MOVE_A, TRAIN_NAMES
from lamagames.express.batch import ENGINE, POLICIES, ExpressBatch
from lamagames.express.game import ExpressGame
from lamagames.express.material import DIE_COLOURS
from lamagames.express.rules import PHASE_NAMES, STAGE_NAMES
from lamagames.express.state import ExpressState

from .conftest import Runner

TINY_FILE = Path(__file__).resolve().parents[1] / "data" / "tiny_board.json"
VARIANTS = [
    pytest.param({"num_players": 2}, ["heuristic", "heuristic"], id="2p"),
    pytest.param({"num_players": 2}, ["random", "heuristic"], id="2p-vs-random"),
    pytest.param({"num_players": 3}, ["heuristic", "benchmark", "heuristic"], id="3p-mixed"),
    pytest.param({"num_players": 4}, ["heuristic"] * 4, id="4p"),
    pytest.param(
        {"num_players": 4, "llamas_to_win": 3, "starting_seat": 2},
        ["benchmark", "heuristic", "random", "heuristic"],
        id="4p-short",
    ),
    pytest.param({"num_players": 3, "board": TINY_FILE}, ["heuristic"] * 3, id="3p-tiny-board"),
]


def check_games(params: dict[str, object], policies: list[str], seeds: range) -> dict[str, int]:
    """Play ``seeds`` in the kernel, replay every trace through the scalar engine asking
    :class:`ExpressHeuristicBot` at each heuristic seat's decision; returns counts of the
    decisions checked (all: equal) and of the train choices made."""
    engine = ExpressBatch(**params, turn_limit=400, trace_length=20_000)  # type: ignore[arg-type]
    states = engine.init(np.array(seeds))
    engine.play(states, policies)
    assert states.done().all()
    assert (states.trace_len < states.trace.shape[1]).all()  # every game fully traced
    bots = [ExpressHeuristicBot(engine.game, seat) for seat in range(engine.num_players)]
    counts = {"decisions": 0, "move A": 0, "move B": 0, "wins": 0}
    for g in range(len(states)):
        state = engine.game.new_initial_state()
        for step, (player, action) in enumerate(states.history(g)):
            assert state.current_player() == player
            if player != CHANCE_PLAYER and policies[player] == "heuristic":
                choice = bots[player].step(state)
                assert choice == action, f"seed {seeds[g]}, step {step}, seat {player}"
                counts["decisions"] += 1
                legal = state.legal_actions()
                if legal[0] == MOVE_A:
                    counts["move A" if action == MOVE_A else "move B"] += 1
            state.apply_action(action)
        assert state.to_dict() == engine.to_dict(states, g)
        winner = state.winner()
        counts["wins"] += winner is not None and policies[winner] == "heuristic"
    return counts


@pytest.mark.parametrize(("params", "policies"), VARIANTS)
def test_e6_e7_in_kernel_heuristic_chooses_as_the_bot(
    params: dict[str, object], policies: list[str]
) -> None:
    """Unknown policy 'heuristic' before: now every window action and train choice of a
    heuristic seat is the scalar bot's."""
    counts = check_games(params, policies, range(100, 106))
    assert counts["decisions"] > 100
    assert counts["move A"] > 0 and counts["move B"] > 0  # both sides of the train choice


@pytest.mark.slow
@pytest.mark.parametrize(("params", "policies"), VARIANTS)
def test_e6_e7_in_kernel_heuristic_chooses_as_the_bot_in_many_games(
    params: dict[str, object], policies: list[str]
) -> None:
    counts = check_games(params, policies, range(1000, 1150))
    assert counts["decisions"] > 5_000


def kernel_choice(engine: ExpressBatch, state: ExpressState, policies: list[str]) -> int:
    """The first action the kernel takes from a scalar position where a seat must decide:
    the position is written into a batch state's row (the inverse of ``to_dict``), then
    played on by the kernel with these policies."""
    data = state.to_dict()
    states = engine.init(np.zeros(1, np.int64))
    g = 0
    states.phase[g] = PHASE_NAMES.index(data["phase"])
    states.active[g] = data["active"]
    states.current[g] = state.current_player()
    states.rolls[g] = data["rolls"]
    states.die[g] = DIE_COLOURS.index(data["die"])
    for t, name in enumerate(TRAIN_NAMES):
        states.tips[g, t] = data["trains"][name]
        for c, car in enumerate(data["cars"][name]):
            states.owner[g, 5 * t + c] = -1 if car is None else car["owner"]
            states.progress[g, 5 * t + c] = 0 if car is None else car["progress"]
    states.station[g] = data["stations"]
    states.house[g] = data["houses"]
    for i, path in enumerate(data["footpaths"]):
        states.path_len[g, i] = len(path)
        for j, llama in enumerate(path):
            states.path_owner[g, i, j] = llama["owner"]
            states.path_progress[g, i, j] = llama["progress"]
    window = data["window"]
    if window is not None:
        states.stage[g] = STAGE_NAMES.index(window["stage"])
        states.passed[g] = sum(1 << s for s in window["passed"])
        for seat in range(engine.num_players):
            states.free[g, seat] = sum(1 << a for a in state.available_actions(seat))
    states.trace_len[g] = 0
    engine.play(states, policies)
    first_player, first_action = states.history(g)[0]
    assert first_player == state.current_player()
    return first_action


@pytest.mark.parametrize(
    ("houses", "green", "victim"),
    [
        ([0, 2, 0, 0], ["A1"], "B1"),  # test_express_bots: pink (1) has two llamas home
        ([0, 0, 2, 0], ["A1"], "A1"),  # green (2) has
        ([0, 1, 1, 0], ["A1"], "B1"),  # equal houses: pink's value 103 > green's 79
        ([0, 1, 1, 0], ["A1", "A2", "A3"], "A1"),  # green's value 118 > pink's 103
        ([0, 1, 2, 0], ["A1"], "A1"),  # houses before values
    ],
)
def test_e7_in_kernel_heuristic_detours_the_leader_first(
    std4: ExpressGame, run: Runner, houses: list[int], green: list[str], victim: str
) -> None:
    """The detour victim order (llamas home, then position value), which the seeded games
    never meet (two detours of different seats at once are rare on the standard board)."""
    cars = {**dict.fromkeys(green, 2), "B1": 1}
    state = std4.build_state(trains={"A": 45, "B": 9}, cars=cars, houses=houses)
    run(state, "roll O")
    bot = ExpressHeuristicBot(std4, 0)
    assert bot.step(state) == state.string_to_action(f"detour {victim}")
    engine = ExpressBatch(num_players=4, trace_length=10)
    assert kernel_choice(engine, state, ["heuristic", "random", "random", "random"]) == bot.step(
        state
    )


def test_e8_in_kernel_heuristic_moves_its_llama_onto_its_exit(
    std2: ExpressGame, run: Runner
) -> None:
    # test_express_bots: red moves A four spaces and A1 lands on yellow's exit 45
    state = std2.build_state(trains={"A": 44, "B": 20}, cars={"A1": 0})
    run(state, "roll R")
    engine = ExpressBatch(num_players=2, trace_length=10)
    assert kernel_choice(engine, state, ["heuristic", "random"]) == MOVE_A
    state.apply_action(MOVE_A)
    assert kernel_choice(engine, state, ["heuristic", "random"]) == state.string_to_action(
        "exit A1"
    )


def test_e10_in_kernel_heuristic_beats_benchmark() -> None:
    """As the scalar bot (test_express_bots), the heuristic beats the benchmark: more than
    three quarters of 400 two-player games, 200 from each seat (375 when written)."""
    engine = ExpressBatch(num_players=2)
    wins = 0
    for seat in range(2):
        policies = ["benchmark", "benchmark"]
        policies[seat] = "heuristic"
        states = engine.init(np.arange(200) + 10_000 * seat)
        engine.play(states, policies)
        wins += int((states.winner == seat).sum())
    assert wins > 300


def test_heuristic_is_a_simulate_policy_and_bad_names_are_refused() -> None:
    assert "heuristic" in POLICIES and "heuristic" in ENGINE.policies
    params = ENGINE.check_params(3, {"short_game": True})
    results = ENGINE.play(np.arange(20, dtype=np.uint64), ["heuristic"] * 3, params)
    assert results.wins.sum() + int((~results.finished).sum()) == 20
    engine = ExpressBatch(num_players=2)
    with pytest.raises(ParameterError, match="policies"):
        engine.play(engine.init(np.arange(2)), ["heuristic", "cleverest"])


def test_e8_llama_value_is_written_once_for_the_bot_and_the_kernel() -> None:
    """The in-kernel heuristic values a travelling llama with the bot's own ride_value
    (compiled), not a copy; and the bot's llama_value is that function of the lap needs."""
    from lamagames.bots import express as bots
    from lamagames.express import batch_kernels

    # the same code (compiled() runs it with its primitive callees compiled: lap_to_go)
    kernel_code = getattr(getattr(batch_kernels.ride_value, "py_func", None), "__code__", None)
    assert kernel_code is bots.ride_value.__code__
    state = ExpressGame(num_players=3).new_initial_state()
    board = state.board
    for seat in range(3):
        exits = board.stations[state.game.seat_station[seat]].exits
        needs = [state.lap_need(seat, e) for e in exits]
        for progress in range(0, 2 * board.length):
            value = bots.llama_value(state, seat, progress)
            assert value == bots.ride_value(progress, min(needs), max(needs), board.length)
            assert value == batch_kernels.ride_value(progress, min(needs), max(needs), board.length)
            assert 0 < value <= board.length
