"""Lama Express bots: the exact benchmark policy and the heuristic player."""

from __future__ import annotations

from lamagames.bots.base import make_bot
from lamagames.bots.express import ExpressBenchmarkBot, ExpressHeuristicBot
from lamagames.express import ExpressGame, ExpressState
from lamagames.express.actions import MOVE_A, MOVE_B, string_to_player_action
from lamagames.express.rules import Phase
from lamagames.sim.runner import play_game

from .conftest import Runner


def act(text: str) -> int:
    return string_to_player_action(text)


def test_e7_benchmark_order_exit_reboard_detour(std2: ExpressGame, run: Runner) -> None:
    # A1 (yellow llama) on exit 47; B1 (green llama) on arrow 6; B4 empty on re-boarding
    # space 3 with a yellow llama at the front of footpath 0.
    state = std2.build_state(trains={"A": 2, "B": 9}, cars={"A1": 0, "B1": 1}, footpaths={0: [0]})
    run(state, "roll O")
    assert state.legal_actions(0) == [0, act("exit A1"), act("detour B1"), act("reboard B4")]
    bot = make_bot("benchmark", std2, 0, seed=1)
    assert isinstance(bot, ExpressBenchmarkBot)
    taken = []
    while state.phase() == Phase.WINDOW and state.current_player() == 0:
        action = bot.step(state)
        taken.append(state.action_to_string(action, 0))
        state.apply_action(action)
    assert taken == ["exit A1", "reboard B4", "detour B1"]


def test_e7_benchmark_board_before_reboard(std4: ExpressGame, run: Runner) -> None:
    # B tip 19: B5 empty on pink's boarding space 12, B2 empty on re-boarding space 15 with
    # a pink llama at the front of footpath 1.
    state = std4.build_state(trains={"A": 0, "B": 19}, footpaths={1: [1]}, active=1)
    run(state, "roll O")
    bot = make_bot("benchmark", std4, 1)
    assert bot.step(state) == act("board B5")


def test_e7_benchmark_detours_in_footpath_track_order(std2: ExpressGame, run: Runner) -> None:
    # A1 on arrow 42 (footpath 3) and B1 on arrow 6 (footpath 0) carry green llamas: the
    # benchmark takes footpath 0 first although train A comes before B.
    state = std2.build_state(trains={"A": 45, "B": 9}, cars={"A1": 1, "B1": 1})
    run(state, "roll O")
    assert state.legal_actions(0) == [0, act("detour A1"), act("detour B1")]
    assert make_bot("benchmark", std2, 0).step(state) == act("detour B1")


def test_e6_benchmark_train_choice_uniform_with_own_stream(std2: ExpressGame, run: Runner) -> None:
    state = std2.new_initial_state()
    run(state, "roll G")
    choices = {make_bot("benchmark", std2, 0, seed).step(state) for seed in range(20)}
    assert choices == {MOVE_A, MOVE_B}
    first = [make_bot("benchmark", std2, 0, 5).step(state) for _ in range(3)]
    assert len(set(first)) == 1  # the same seed gives the same choice


def test_e6_benchmark_games_replay_from_seed() -> None:
    game = ExpressGame(4, turn_limit=500)

    def run_once() -> list[tuple[int, int]]:
        bots = [make_bot("benchmark", game, s, 11) for s in range(4)]
        return play_game(game, bots, 11).state.history()

    assert run_once() == run_once()


def test_e8_heuristic_moves_its_llama_onto_its_exit(std2: ExpressGame, run: Runner) -> None:
    # A tip 44: yellow llama in A1 on 41; red moves A four spaces, A1 lands on exit 45
    state = std2.build_state(trains={"A": 44, "B": 20}, cars={"A1": 0})
    run(state, "roll R")
    assert state.movable_trains() == [0, 1]
    bot = make_bot("heuristic", std2, 0)
    assert isinstance(bot, ExpressHeuristicBot)
    assert bot.step(state) == MOVE_A
    run(state, "move A")
    assert bot.step(state) == act("exit A1")


def test_e7_heuristic_detours_the_leader_first(std4: ExpressGame, run: Runner) -> None:
    # pink (1) has two llamas home, green (2) none: seat 0 detours pink's llama first
    state = std4.build_state(trains={"A": 45, "B": 9}, cars={"A1": 2, "B1": 1}, houses=[0, 2, 0, 0])
    run(state, "roll O")
    assert make_bot("heuristic", std4, 0).step(state) == act("detour B1")


def test_e10_heuristic_beats_benchmark_in_seeded_games() -> None:
    game = ExpressGame(2, turn_limit=1000)
    wins = 0
    for seed in range(30):
        seat = seed % 2
        kinds = ["heuristic", "benchmark"] if seat == 0 else ["benchmark", "heuristic"]
        bots = [make_bot(kind, game, s, seed) for s, kind in enumerate(kinds)]
        state = play_game(game, bots, seed).state
        assert isinstance(state, ExpressState)
        wins += state.winner() == seat
    assert wins >= 21  # 70 %; about 93 % over 1,000 games
