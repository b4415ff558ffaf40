"""Windows of free actions, E-9: when they open, who is asked in which order, live play."""

from __future__ import annotations

import pytest

from lamagames.core import IllegalActionError
from lamagames.express import ExpressGame, ExpressState
from lamagames.express.actions import MOVE_A, MOVE_B, PASS, string_to_player_action
from lamagames.express.rules import Phase

from .conftest import Runner

DETOUR_A1 = string_to_player_action("detour A1")
DETOUR_B1 = string_to_player_action("detour B1")


def two_arrows(game: ExpressGame) -> ExpressState:
    """Green (seat 2) llamas in A1 on arrow 6 and B1 on arrow 18; seat 1 to roll. Seats 0, 1
    and 3 may each detour both; green has no action. Cars A4 and B4 on the re-boarding spaces
    3 and 15 are taken (pink, blue), so a detoured llama cannot re-board at once."""
    cars = {"A1": 2, "B1": 2, "A4": 1, "B4": 3}
    return game.build_state(trains={"A": 9, "B": 21}, cars=cars, active=1)


def test_e9_no_window_when_nobody_has_an_action(std2: ExpressGame, run: Runner) -> None:
    state = std2.new_initial_state()
    run(state, "roll G")
    assert state.phase() == Phase.CHOOSE and state.window_stage() is None


def test_e9_window_after_the_move(std2: ExpressGame, run: Runner) -> None:
    state = std2.new_initial_state()
    run(state, "roll G", "move A")  # car A1 now on yellow's boarding space 0
    assert state.window_stage() == "after_move"
    assert state.current_player() == 0 and state.acting_players() == [0]
    run(state, "pass")
    assert state.is_chance_node() and state.active_player() == 1


def test_e9_window_after_the_roll_reopens_for_a_passed_chance(
    std2: ExpressGame, run: Runner
) -> None:
    state = std2.new_initial_state()
    run(state, "roll G", "move A", "pass")  # yellow lets the boarding pass
    run(state, "roll Y")  # green rolls: the chance is still there before the move
    assert state.window_stage() == "after_roll"
    assert state.current_player() == 0 and state.active_player() == 1


def test_e9_window_asking_order(std4: ExpressGame, run: Runner) -> None:
    state = two_arrows(std4)
    run(state, "roll O")
    assert state.window_stage() == "after_roll"
    asked = [state.current_player()]
    assert state.acting_players() == [1, 3, 0]  # from the active player; green not asked
    for step in ["pass", "detour A1", "pass", "pass", "pass"]:
        run(state, step)
        asked.append(state.current_player())
        if state.window_stage() is None:
            break
    # 1 passes, 3 acts, then 0, 1 and 3 (asked again) pass: the window closes
    assert asked[:5] == [1, 3, 0, 1, 3]
    assert state.window_stage() is None
    assert state.footpath_llamas(0) == [(2, 27)]
    assert state.car_llama(1, 1) == (2, 42)  # the chance on B1 was let pass


def test_e9_only_seats_with_an_action_may_act_or_pass(std4: ExpressGame, run: Runner) -> None:
    state = two_arrows(std4)
    run(state, "roll O")
    assert state.legal_actions(2) == []
    with pytest.raises(IllegalActionError):
        state.apply_action(PASS, 2)
    assert state.legal_actions(1) == [PASS, DETOUR_A1, DETOUR_B1]


def test_e9_live_mode_acting_out_of_order(std4: ExpressGame, run: Runner) -> None:
    state = two_arrows(std4)
    run(state, "roll O")
    assert state.current_player() == 1
    run(state, "0: detour B1")  # seat 0 acts before seat 1 is done
    assert state.footpath_llamas(1) == [(2, 39)]
    assert state.current_player() == 1  # asking goes on after the seat who acted
    assert state.acting_players() == [1, 3, 0]
    assert state.history()[-1] == (0, DETOUR_B1)


def test_e9_live_mode_passes_close_the_window(std4: ExpressGame, run: Runner) -> None:
    state = two_arrows(std4)
    run(state, "roll O")
    run(state, "3: pass")  # out of order: seat 1 is still the one asked
    assert state.current_player() == 1
    assert state.acting_players() == [1, 0]
    assert state.legal_actions(3) == []
    with pytest.raises(IllegalActionError):
        state.apply_action(DETOUR_A1, 3)  # passed since the last action
    run(state, "0: detour A1")  # an action resets the passes
    assert 3 in state.acting_players()
    run(state, "3: pass", "0: pass", "1: pass")
    assert state.window_stage() is None
    assert state.legal_actions() in ([MOVE_A, MOVE_B], [])
