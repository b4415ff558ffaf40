"""Every game passes the public protocol conformance check (:mod:`lamagames.core.testing`):
random playthroughs with the current player acting, and with any acting seat acting (Lama
Express windows, E-9), over every seat count the game supports."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from lamagames.core import make
from lamagames.core.spec import BUILTIN_SPECS
from lamagames.core.testing import ProtocolViolation, check_random_playthrough

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
