"""Hypothesis properties of random Lama Express play (turn-by-turn and live windows, E-9)."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from lamagames.core import IllegalActionError, InvalidActionError, record_from_state, replay
from lamagames.express import ExpressGame, ExpressState
from lamagames.express.actions import NUM_DISTINCT_ACTIONS
from lamagames.express.board import LLAMAS_PER_PLAYER
from lamagames.express.material import PASSENGER_CARS, TRAIN_SPACES

from .conftest import TINY_BOARD

GAMES = st.builds(
    ExpressGame,
    num_players=st.integers(2, 4),
    starting_seat=st.just(0),
    llamas_to_win=st.sampled_from([3, 4]),
    board=st.sampled_from([None, TINY_BOARD]),
    turn_limit=st.integers(1, 150),
)


def check_invariants(state: ExpressState) -> None:
    game = state.game
    board = state.board
    n = game.num_players
    # E-1: every llama is somewhere: station, car, footpath or house; 4 per player, <= 16
    counts = [state.waiting_llamas(s) + state.house_llamas(s) for s in range(n)]
    for train in range(2):
        for car in range(1, PASSENGER_CARS + 1):
            llama = state.car_llama(train, car)  # a car holds at most one llama
            if llama is not None:
                owner, progress = llama
                counts[owner] += 1
                home = game.home_boarding[owner]
                assert (progress - (state.car_space(train, car) - home)) % board.length == 0
    for index, footpath in enumerate(board.footpaths):
        llamas = state.footpath_llamas(index)
        assert len(llamas) <= footpath.length
        for owner, progress in llamas:
            counts[owner] += 1
            assert (progress - (footpath.reboard - game.home_boarding[owner])) % board.length == 0
    assert counts == [LLAMAS_PER_PLAYER] * n and sum(counts) <= 16
    # E-2, E-6: trains never overlap
    spaces = state.train_spaces(0) + state.train_spaces(1)
    assert len(set(spaces)) == 2 * TRAIN_SPACES
    # E-10: a winner iff someone has enough llamas home
    at_home = [s for s in range(n) if state.house_llamas(s) >= game.llamas_to_win]
    assert at_home == ([] if state.winner() is None else [state.winner()])


def check_round_trips(state: ExpressState, rng: random.Random) -> None:
    data = state.to_dict()
    again = state.game.state_from_dict(json.loads(json.dumps(data)))
    assert again == state
    assert again.acting_players() == state.acting_players()
    assert again.current_player() == state.current_player()
    players: list[int | None] = [None, *state.acting_players()]
    for player in players:
        for action in state.legal_actions(player):
            text = state.action_to_string(action, player)
            assert state.string_to_action(text, player) == action
    # a random action that is not legal for a random seat leaves the state unchanged
    seat = rng.randrange(state.game.num_players)
    illegal = [a for a in range(NUM_DISTINCT_ACTIONS) if a not in state.legal_actions(seat)]
    if illegal and not state.is_chance_node():
        with pytest.raises((IllegalActionError, InvalidActionError)):
            state.apply_action(rng.choice(illegal), seat)
        assert state.to_dict() == data


def play_random(game: ExpressGame, seed: int, live: bool, checks: bool) -> ExpressState:
    rng = random.Random(seed)
    state = game.new_initial_state()
    steps = 0
    while not state.is_terminal():
        if checks:
            check_invariants(state)
            if steps % 7 == 0:
                check_round_trips(state, rng)
        if state.is_chance_node():
            state.apply_action(state.sample_chance_outcome(rng))
        else:
            acting = state.acting_players()
            assert state.current_player() in acting
            seat = rng.choice(acting) if live else state.current_player()
            legal = state.legal_actions(seat)
            assert legal
            state.apply_action(rng.choice(legal), seat)
        steps += 1
    if checks:
        check_invariants(state)
    return state


def check_game(game: ExpressGame, seed: int, live: bool) -> None:
    state = play_random(game, seed, live, checks=True)
    limit = game.turn_limit
    assert state.is_truncated() or state.winner() is not None
    if state.is_truncated():
        assert limit is not None and state.rolls() == limit
        assert state.returns() == [0.0] * game.num_players
    else:
        assert sorted(state.returns()) == [0.0] * (game.num_players - 1) + [1.0]
    seats: list[Any] = [(f"s{i}", "random") for i in range(game.num_players)]
    record = record_from_state(state, seats, seed=seed)
    again = replay(record)
    assert again == state and again.history() == state.history()


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(game=GAMES, seed=st.integers(0, 2**32 - 1), live=st.booleans())
def test_e1_e6_e9_e10_random_play_properties(game: ExpressGame, seed: int, live: bool) -> None:
    check_game(game, seed, live)


@pytest.mark.slow
@settings(max_examples=1500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(game=GAMES, seed=st.integers(0, 2**32 - 1), live=st.booleans())
def test_e1_e6_e9_e10_random_play_properties_thorough(
    game: ExpressGame, seed: int, live: bool
) -> None:
    check_game(game, seed, live)


def test_e10_random_games_end_with_a_winner_without_limit() -> None:
    for seed in range(5):
        game = ExpressGame(num_players=2 + seed % 3)
        state = play_random(game, seed, live=bool(seed % 2), checks=False)
        assert state.winner() is not None and not state.is_truncated()
