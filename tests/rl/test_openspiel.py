"""OpenSpiel adapter: pyspiel's own random simulation test, MCTS games, chance, observers."""

from __future__ import annotations

import json
import math

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import mcts
from pyspiel import State as SpielState

from lamagames.core.errors import IllegalActionError, InvalidActionError
from lamagames.dice import rl as dice_rl
from lamagames.dice.rules import Phase
from lamagames.dice.state import DiceState
from lamagames.express.rules import Phase as ExpressPhase
from lamagames.rl import openspiel


def _play_to_decision(state: SpielState, rng: np.random.RandomState) -> None:
    """Resolve chance nodes with ``rng`` until a seat must decide (or the game ends)."""
    while state.is_chance_node():
        outcomes, probabilities = zip(*state.chance_outcomes(), strict=True)
        state.apply_action(int(rng.choice(outcomes, p=probabilities)))


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_random_sim_test_dice(players: int) -> None:
    game = pyspiel.load_game(f"python_lama_dice(players={players})")
    assert game.num_players() == players
    pyspiel.random_sim_test(game, num_sims=2, serialize=players == 3, verbose=False)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_sim_test_express(players: int) -> None:
    # E-4: 2 to 4 seats. A turn limit of 60 rolls (E-11) keeps the simulation short.
    game = pyspiel.load_game(f"python_lama_express(players={players},turn_limit=60)")
    assert game.num_players() == players
    pyspiel.random_sim_test(game, num_sims=1, serialize=players == 2, verbose=False)


def test_random_sim_test_express_default_parameters() -> None:
    game = pyspiel.load_game("python_lama_express")
    assert game.num_players() == 2
    assert game.get_parameters()["turn_limit"] == 1000
    pyspiel.random_sim_test(game, num_sims=1, serialize=False, verbose=False)


@pytest.mark.parametrize(
    "name", ["python_lama_dice(players=2,end_score=15)", "python_lama_express(turn_limit=24)"]
)
def test_mcts_bots_play_a_full_game(name: str) -> None:
    game = pyspiel.load_game(name)
    rng = np.random.RandomState(7)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    bots = [
        mcts.MCTSBot(game, uct_c=2.0, max_simulations=5, evaluator=evaluator, random_state=rng)
        for _ in range(game.num_players())
    ]
    state = game.new_initial_state()
    decisions = 0
    while not state.is_terminal():
        _play_to_decision(state, rng)
        if state.is_terminal():
            break
        action = bots[state.current_player()].step(state)
        assert action in state.legal_actions()
        state.apply_action(action)
        decisions += 1
    assert decisions > 0
    assert len(state.returns()) == game.num_players()
    assert all(r in (0.0, 1.0) for r in state.returns())


def test_parameters_reach_the_engine() -> None:
    game = pyspiel.load_game(
        "python_lama_dice(players=4,dice=1234LL/LL3456/12LL56,end_score=25,starting_seat=2)"
    )
    params = game.lama_game.params
    assert params["num_players"] == 4
    assert params["dice"] == ["1234LL", "LL3456", "12LL56"]
    assert params["end_score"] == 25
    assert params["starting_seat"] == 2
    express = pyspiel.load_game(
        "python_lama_express(players=3,colours=pink/green/blue,llamas_to_win=3,turn_limit=9)"
    )
    params = express.lama_game.params
    assert params["colours"] == ["pink", "green", "blue"]
    assert params["llamas_to_win"] == 3  # E-10 short game
    assert params["turn_limit"] == 9
    # lamagames.express.rl.decision_bound: 9 rolls, 3 seats, 3 llamas to win; detours and
    # re-boards at most min(per position 2*(9 + 2) = 22, per car P + 19) = 22 (the standard
    # board, E-3); free actions A = 4*3 + 3*2 + 1 + 22 = 41; 9 + 3*(41 + 2*9) = 186 decisions
    assert express.max_game_length() == 186


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("python_lama_dice(players=7)", "num_players must be 2..6"),
        ("python_lama_express(players=5)", "num_players must be 2..4"),
        ("python_lama_dice(dice=LL3456/12LL56)", "dice"),
        ("python_lama_dice(max_game_length=0)", "max_game_length"),
        ("python_lama_express(colours=red/green)", "colours"),
    ],
)
def test_bad_parameters_are_refused_by_name(name: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        pyspiel.load_game(name)


@pytest.mark.parametrize("name", ["python_lama_dice(players=3)", "python_lama_express"])
def test_chance_nodes_are_explicit_and_match_the_engine(name: str) -> None:
    game = pyspiel.load_game(name)
    state = game.new_initial_state()
    rng = np.random.RandomState(3)
    seen = 0
    for _ in range(60):
        if state.is_terminal():
            break
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            if _is_deal(state):  # dealt two cards at a time: 7a + b, a <= b (D-5)
                assert all(a // 7 <= a % 7 for a, _ in outcomes) and len(outcomes) <= 28
            else:
                assert outcomes == state.lama.chance_outcomes()
            assert all(0 <= a < game.max_chance_outcomes() for a, _ in outcomes)
            assert math.isclose(math.fsum(p for _, p in outcomes), 1.0)
            assert state.legal_actions() == [a for a, _ in outcomes]
            seen += 1
            _play_to_decision(state, rng)
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    assert seen >= 3


@pytest.mark.parametrize("name", ["python_lama_dice(players=3)", "python_lama_express(players=4)"])
def test_observation_tensor_and_information_state(name: str) -> None:
    game = pyspiel.load_game(name)
    state = game.new_initial_state()
    rng = np.random.RandomState(5)
    for _ in range(8):
        _play_to_decision(state, rng)
        state.apply_action(int(rng.choice(state.legal_actions())))
    _play_to_decision(state, rng)
    assert not state.is_terminal()
    assert game.observation_tensor_shape() == list(game.lama_game.info.observation_shape)
    for seat in range(game.num_players()):
        np.testing.assert_array_equal(
            np.asarray(state.observation_tensor(seat), np.float32),
            state.lama.observation_tensor(seat),
        )
        # perfect information: the information state is the history of action ids
        assert state.information_state_string(seat) == " ".join(map(str, state.history()))
        assert json.loads(state.observation_string(seat)) == state.lama.observation(seat)
    # issue 9: no information state tensor is provided, so asking for one is an error
    assert not game.get_type().provides_information_state_tensor
    with pytest.raises(pyspiel.SpielError, match="provides no information state tensor"):
        state.information_state_tensor(0)


def test_express_windows_follow_the_engine_asking_order() -> None:
    # E-9 turn by turn: pyspiel's current player is the seat the engine asks; the other
    # seats have no legal actions (OpenSpiel is turn-based).
    game = pyspiel.load_game("python_lama_express(players=4)")
    state = game.new_initial_state()
    rng = np.random.RandomState(11)
    windows = 0
    while not state.is_terminal() and windows < 20:
        _play_to_decision(state, rng)
        lama = state.lama
        assert state.current_player() == lama.current_player()
        if lama.phase() == ExpressPhase.WINDOW:
            windows += 1
            for seat in range(4):
                if seat != state.current_player():
                    assert state.legal_actions(seat) == []
        state.apply_action(int(rng.choice(state.legal_actions())))
    assert windows == 20


@pytest.mark.parametrize("name", ["python_lama_dice(players=2)", "python_lama_express"])
def test_illegal_action_is_refused_and_state_unchanged(name: str) -> None:
    game = pyspiel.load_game(name)
    state = game.new_initial_state()
    _play_to_decision(state, np.random.RandomState(1))
    before, history = str(state), state.history()
    illegal = next(a for a in range(game.num_distinct_actions()) if a not in state.legal_actions())
    with pytest.raises(IllegalActionError):
        state.apply_action(illegal)
    with pytest.raises(InvalidActionError):
        state.apply_action(game.num_distinct_actions())
    assert str(state) == before
    assert state.history() == history


def test_dice_max_game_length_truncates_with_no_winner() -> None:
    game = pyspiel.load_game("python_lama_dice(players=2,max_game_length=3)")
    state = game.new_initial_state()
    rng = np.random.RandomState(2)
    decisions = 0
    while not state.is_terminal():
        _play_to_decision(state, rng)
        if state.is_terminal():
            break
        state.apply_action(state.legal_actions()[0])  # always roll
        decisions += 1
    assert decisions == 3
    assert state.is_truncated()
    assert state.returns() == [0.0, 0.0]
    assert state.current_player() == pyspiel.PlayerId.TERMINAL


@pytest.mark.parametrize("name", ["python_lama_dice(players=5)", "python_lama_express(players=3)"])
def test_serialization_round_trips_and_clones_are_independent(name: str) -> None:
    game = pyspiel.load_game(name)
    state = game.new_initial_state()
    rng = np.random.RandomState(9)
    for _ in range(8):
        _play_to_decision(state, rng)
        state.apply_action(int(rng.choice(state.legal_actions())))
    _play_to_decision(state, rng)
    assert not state.is_terminal()
    text = pyspiel.serialize_game_and_state(game, state)
    _, restored = pyspiel.deserialize_game_and_state(text)
    assert str(restored) == str(state)
    assert restored.history() == state.history()
    clone = state.clone()
    _play_to_decision(clone, rng)
    clone.apply_action(clone.legal_actions()[0])
    assert clone.history() != state.history()
    # the seats' decisions are the engine's; chance may be split (LAMA Dice deals by card)
    decisions = [(item.player, item.action) for item in state.full_history() if item.player >= 0]
    assert [(p, a) for p, a in state.lama.history() if p >= 0] == decisions


def _is_deal(state: SpielState) -> bool:
    lama = state.lama
    return isinstance(lama, DiceState) and lama.phase == Phase.DEAL


def test_dice_deal_in_pairs_gives_the_engine_hand_distribution() -> None:
    # D-5: three draws of two cards without replacement, summed over the pair sequences,
    # are the multivariate hypergeometric hand probabilities of the engine's one deal node;
    # for the second seat too (a smaller deck).
    game = pyspiel.load_game("python_lama_dice(players=3)")
    split = dice_rl.DealInPairs()
    state = game.new_initial_state()
    rng = np.random.RandomState(0)
    for _ in range(2):  # the first deal, then the second (six cards fewer)
        lama = state.lama
        assert _is_deal(state)
        hands: dict[int, float] = {}
        level: dict[tuple[int, ...], float] = {(): 1.0}
        for _ in range(3):
            after: dict[tuple[int, ...], float] = {}
            for prefix, p in level.items():
                for step, q in split.step_outcomes(lama, prefix):
                    key = tuple(sorted((*prefix, step)))
                    after[key] = after.get(key, 0.0) + p * q
            level = after
        for prefix, p in level.items():
            outcome = split.outcome(lama, prefix)
            assert outcome is not None
            hands[outcome] = hands.get(outcome, 0.0) + p
        expected = dict(lama.chance_outcomes())
        assert hands.keys() == expected.keys()
        assert all(math.isclose(hands[h], expected[h]) for h in hands)
        for _ in range(3):  # deal this seat pair by pair through pyspiel
            outcomes, probabilities = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(outcomes, p=probabilities)))
    before = str(state)
    with pytest.raises(IllegalActionError, match="chance step 7 is not possible"):
        state.apply_action(7)  # 7a + b with a <= b: 7 is (1, 0)
    assert state.action_to_string(pyspiel.PlayerId.CHANCE, 6 * 7 + 6) == "cards L L"
    assert str(state) == before


def test_module_registers_both_games_once() -> None:
    names = pyspiel.registered_names()
    assert "python_lama_dice" in names
    assert "python_lama_express" in names
    assert openspiel.register("dice") == "python_lama_dice"  # again: no error


@pytest.mark.parametrize("name", ["python_lama_dice(players=4)", "python_lama_express(players=3)"])
def test_same_seed_same_game(name: str) -> None:
    # No hidden randomness in the adapter: chance and choices come from the caller's stream.
    def play(seed: int) -> tuple[list[int], list[float]]:
        game = pyspiel.load_game(name)
        state = game.new_initial_state()
        rng = np.random.RandomState(seed)
        while not state.is_terminal() and len(state.history()) < 400:
            _play_to_decision(state, rng)
            if not state.is_terminal():
                state.apply_action(int(rng.choice(state.legal_actions())))
        return state.history(), state.returns()

    assert play(4) == play(4)
    assert play(4)[0] != play(5)[0]


@pytest.mark.slow
@pytest.mark.parametrize(
    "name",
    [f"python_lama_dice(players={n})" for n in range(2, 7)]
    + [f"python_lama_express(players={n})" for n in range(2, 5)],
)
def test_random_sim_test_thorough(name: str) -> None:
    # Default parameters (Lama Express: turn_limit 1000), more games, serialisation on.
    pyspiel.random_sim_test(pyspiel.load_game(name), num_sims=5, serialize=True, verbose=False)


def test_openspiel_rl_environment_plays_a_game() -> None:
    # OpenSpiel's own RL loop (chance sampled inside, observation tensors as "info_state").
    from open_spiel.python import rl_environment

    game = pyspiel.load_game("python_lama_dice(players=3)")
    env = rl_environment.Environment(game, seed=1)
    step = env.reset()
    rng = np.random.RandomState(0)
    while not step.last():
        player = step.observations["current_player"]
        step = env.step([int(rng.choice(step.observations["legal_actions"][player]))])
    assert len(step.observations["info_state"][0]) == game.observation_tensor_size()
    assert sorted(step.rewards) in ([0.0, 0.0, 1.0], [0.0, 1.0, 1.0], [1.0, 1.0, 1.0])


@pytest.mark.parametrize("players", [2, 3, 4])
def test_express_games_stay_within_the_proven_bound(players: int) -> None:
    # lamagames.express.rl.decision_bound: random play and play that takes a free action
    # whenever it can (the most free actions) never exceed max_game_length, per game and
    # per roll.
    from lamagames.express.board import standard_board
    from lamagames.express.material import ROLE_ARROW, ROLE_REBOARD
    from lamagames.express.rl import cars_on_role, decision_bound, special_action_bound

    board = standard_board()
    assert cars_on_role(board, ROLE_ARROW) == cars_on_role(board, ROLE_REBOARD) == 1
    limit = 40
    game = pyspiel.load_game(f"python_lama_express(players={players},turn_limit={limit})")
    specials = special_action_bound(board, limit, players, 4)
    assert game.max_game_length() == decision_bound(players, 4, limit, specials)
    rng = np.random.RandomState(players)
    for greedy in (False, True):
        for _ in range(6):
            state = game.new_initial_state()
            decisions = 0
            while not state.is_terminal():
                _play_to_decision(state, rng)
                if state.is_terminal():
                    break
                legal = state.legal_actions()
                free = [a for a in legal if a >= 3]  # board, exit, detour, re-board ids
                state.apply_action(int(rng.choice(free if greedy and free else legal)))
                decisions += 1
            assert decisions <= game.max_game_length()
