"""Every game passes the public protocol conformance check (:mod:`lamagames.core.testing`):
random playthroughs with the current player acting, and with any acting seat acting (Lama
Express windows, E-9), over every seat count the game supports."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from lamagames.core import make
from lamagames.core.errors import LamaError
from lamagames.core.game import CHANCE_PLAYER
from lamagames.core.spec import BUILTIN_SPECS
from lamagames.core.testing import ProtocolViolation, check_chance_player, check_random_playthrough

#: Every game: the built-in ones and Toy Race (tests/toygame, registered by a fixture).
GAMES = [*BUILTIN_SPECS, "toy"]
#: Parameters that keep a random game short (Lama Express: a turn limit, E-11).
SHORT: dict[str, dict[str, Any]] = {"express": {"turn_limit": 40}}
FAST = settings(
    max_examples=4, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
THOROUGH = settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)


def _game(game_id: str, data: st.DataObject) -> Any:
    info = make(game_id, **SHORT.get(game_id, {})).info
    players = data.draw(st.integers(info.min_players, info.max_players), label="players")
    return make(game_id, **SHORT.get(game_id, {}), num_players=players)


@pytest.mark.parametrize("game_id", GAMES)
@pytest.mark.parametrize("any_seat", [False, True], ids=["current-player", "any-acting-seat"])
@FAST
@given(seed=st.integers(0, 2**32), data=st.data())
def test_game_conforms_to_the_protocol(
    registered: None, game_id: str, any_seat: bool, seed: int, data: st.DataObject
) -> None:
    state = check_random_playthrough(_game(game_id, data), seed, any_seat=any_seat)
    assert state.is_terminal()


@pytest.mark.slow
@pytest.mark.parametrize("game_id", GAMES)
@pytest.mark.parametrize("any_seat", [False, True], ids=["current-player", "any-acting-seat"])
@THOROUGH
@given(seed=st.integers(0, 2**32), data=st.data())
def test_game_conforms_to_the_protocol_thoroughly(
    registered: None, game_id: str, any_seat: bool, seed: int, data: st.DataObject
) -> None:
    assert check_random_playthrough(_game(game_id, data), seed, any_seat=any_seat).is_terminal()


def test_express_windows_let_other_seats_act_in_the_any_seat_run(registered: None) -> None:
    """E-9: the any-seat run really lets a seat other than the current player act."""
    game = make("express", num_players=4, turn_limit=40)
    state = check_random_playthrough(game, 3, any_seat=True)
    history = state.history()
    assert any(
        player >= 0 and player != prev.current_player()
        for prev, (player, _) in _states_before(game, history)
    )


def _states_before(game: Any, history: list[tuple[int, int]]) -> Any:
    state = game.new_initial_state()
    for player, action in history:
        yield state.clone(), (player, action)
        state.apply_action(action, None if player < 0 else player)


def test_a_broken_game_is_caught(registered: None, monkeypatch: pytest.MonkeyPatch) -> None:
    from tests.toygame.game import ToyState

    monkeypatch.setattr(ToyState, "legal_actions", lambda self, player=None: [1, 0])
    with pytest.raises(ProtocolViolation, match="not ascending"):
        check_random_playthrough(make("toy"), 1)


# ---------------------------------------------------------------- the chance player's rule
def _chance_and_decision_states(game_id: str) -> tuple[Any, Any]:
    """The first chance node and the first seat decision of a seeded random game."""
    state = make(game_id, **SHORT.get(game_id, {})).new_initial_state()
    rng = random.Random(5)
    chance = decision = None
    while chance is None or decision is None:
        assert not state.is_terminal()
        if state.is_chance_node():
            chance = chance or state.clone()
            state.apply_action(state.sample_chance_outcome(rng))
        else:
            decision = decision or state.clone()
            state.apply_action(rng.choice(state.legal_actions()))
    return chance, decision


@pytest.mark.parametrize("game_id", GAMES)
def test_chance_player_gets_the_outcomes_at_a_chance_node(registered: None, game_id: str) -> None:
    """OpenSpiel's rule: legal_actions(CHANCE_PLAYER) == legal_actions() at a chance node,
    and apply_action / action_to_string accept the chance player for the same ids."""
    chance, _ = _chance_and_decision_states(game_id)
    outcomes = sorted(a for a, _ in chance.chance_outcomes())
    assert chance.legal_actions(CHANCE_PLAYER) == outcomes == chance.legal_actions()
    mask = chance.legal_actions_mask(CHANCE_PLAYER)
    assert mask.shape == (chance.game.info.max_chance_outcomes,)
    assert list(np.flatnonzero(mask)) == outcomes
    action = outcomes[-1]
    text = chance.action_to_string(action, CHANCE_PLAYER)
    assert text == chance.action_to_string(action)
    assert chance.string_to_action(text, CHANCE_PLAYER) == action
    assert chance.child(action, CHANCE_PLAYER) == chance.child(action)
    check_chance_player(chance)


@pytest.mark.parametrize("game_id", GAMES)
def test_chance_player_has_nothing_at_a_decision(registered: None, game_id: str) -> None:
    _, state = _chance_and_decision_states(game_id)
    assert state.legal_actions(CHANCE_PLAYER) == []
    assert not state.legal_actions_mask(CHANCE_PLAYER).any()
    before = state.to_dict()
    with pytest.raises(LamaError):
        state.apply_action(0, CHANCE_PLAYER)
    assert state.to_dict() == before
    check_chance_player(state)


def test_a_game_that_refuses_the_chance_player_is_caught(
    registered: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The old Toy Race behaviour (``[]`` for the chance player at a chance node) fails."""
    from tests.toygame.game import ToyState

    original = ToyState.legal_actions

    def old_rule(self: ToyState, player: int | None = None) -> list[int]:
        return [] if player == CHANCE_PLAYER else original(self, player)

    monkeypatch.setattr(ToyState, "legal_actions", old_rule)
    with pytest.raises(ProtocolViolation, match="CHANCE_PLAYER"):
        check_random_playthrough(make("toy"), 1)
