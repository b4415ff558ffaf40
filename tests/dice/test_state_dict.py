"""DiceState.to_dict / DiceGame.state_from_dict: exact round trips, and malformed or
inconsistent data refused with a RecordError naming the field."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from typing import Any

import pytest

from lamagames.core.errors import RecordError
from lamagames.dice import DiceGame
from lamagames.dice.game import (
    PHASE_DEAL,
    PHASE_DICE,
    PHASE_DISCARD,
    PHASE_GIVE_LLAMAS,
    PHASE_TAKE,
    PHASE_TURN,
)
from tests.dice.helpers import act, deal_round, make_state

Edit = Callable[[dict[str, Any]], None]


def turn_data() -> dict[str, Any]:
    return make_state(["1 2", "3 L"], scores=[4, 12]).to_dict()


def test_round_trip_of_hand_built_positions() -> None:
    states = [
        make_state(["1 2", "3 L"], scores=[4, 12]),
        act(make_state(["3 3 3 L 5", "1"]), "roll", "dice 3 L 3"),
        act(make_state(["1 2 2", "1"]), "roll", "dice 3 5 4"),
        act(make_state(["1 2", "1"], scores=[15, 0]), "roll", "dice L L L"),
        act(make_state(["3", "1"], scores=[15, 0]), "roll", "dice 3 1 1", "discard 3"),
        deal_round(DiceGame(num_players=5).new_initial_state(), seed=4),
        DiceGame(num_players=2).new_initial_state(),
    ]
    for state in states:
        data = json.loads(json.dumps(state.to_dict()))
        again = state.game.state_from_dict(data)
        assert again == state
        assert again.legal_actions() == state.legal_actions()


def test_from_dict_state_is_independent_of_the_data() -> None:
    data = turn_data()
    state = DiceGame(num_players=2).state_from_dict(data)
    act(state, "roll", "dice 3 5 4", "take 3")
    assert data == turn_data()


@pytest.mark.parametrize(
    ("name", "edit", "fragment"),
    [
        ("missing field", lambda d: d.pop("scores"), "scores"),
        ("unknown field", lambda d: d.__setitem__("note", 1), "note"),
        ("score not int", lambda d: d.__setitem__("scores", ["4", 12]), "scores"),
        ("score bool", lambda d: d.__setitem__("scores", [True, 12]), "scores"),
        ("negative score", lambda d: d.__setitem__("scores", [-1, 12]), "scores"),
        ("too few seats", lambda d: d.__setitem__("scores", [4]), "scores"),
        ("quit not bool", lambda d: d.__setitem__("quit", ["no", "no"]), "quit"),
        ("quit int", lambda d: d.__setitem__("quit", [0, 0]), "quit"),
        ("phase out of range", lambda d: d.__setitem__("phase", 8), "phase"),
        ("player out of range", lambda d: d.__setitem__("player", 2), "player"),
        ("llama row count 2", lambda d: d["llama_row"].__setitem__(0, 2), "llama_row"),
        ("dice of two", lambda d: d.__setitem__("dice", [1, 2]), "dice"),
        ("chance id too large", lambda d: d.__setitem__("history", [[-1, 1267]]), "history"),
        ("seat action id too large", lambda d: d.__setitem__("history", [[0, 131]]), "history"),
        ("history entry not a pair", lambda d: d.__setitem__("history", [[0]]), "history"),
        ("cards not conserved", lambda d: d["rows"][0].__setitem__(0, 3), "D-3"),
        ("dice without a roll", lambda d: d.__setitem__("dice", [2, 6, 2]), "dice"),
        ("quit seat to act", lambda d: d.__setitem__("quit", [True, False]), "quit"),
    ],
)
def test_malformed_state_data(name: str, edit: Edit, fragment: str) -> None:
    data = turn_data()
    edit(data)
    with pytest.raises(RecordError, match=fragment):
        DiceGame(num_players=2).state_from_dict(data)


@pytest.mark.parametrize("phase", [PHASE_DISCARD, PHASE_TAKE, PHASE_GIVE_LLAMAS])
def test_roll_phase_without_dice(phase: int) -> None:
    data = turn_data()
    data["phase"] = phase
    with pytest.raises(RecordError, match="dice"):
        DiceGame(num_players=2).state_from_dict(data)


@pytest.mark.parametrize(
    ("phase", "dice"),
    [
        (PHASE_DISCARD, [4, 4, 4]),  # no die matches the row 1 2: nothing to discard
        (PHASE_TAKE, [0, 0, 1]),  # the dice match the row: no take
        (PHASE_GIVE_LLAMAS, [2, 2, 6]),  # not three llamas
    ],
)
def test_roll_phase_that_does_not_follow_from_the_dice(phase: int, dice: list[int]) -> None:
    data = turn_data()
    data["phase"] = phase
    data["dice"] = dice
    with pytest.raises(RecordError, match="phase"):
        DiceGame(num_players=2).state_from_dict(data)


@pytest.mark.parametrize("phase", [PHASE_TURN, PHASE_DICE])
def test_deal_seat_must_be_complete_outside_the_deal(phase: int) -> None:
    data = turn_data()
    data["phase"] = phase
    data["deal_seat"] = 1
    with pytest.raises(RecordError, match="deal_seat"):
        DiceGame(num_players=2).state_from_dict(data)


@pytest.mark.parametrize("bad", [None, [1, 2], "state", 5])
def test_not_a_mapping(bad: Any) -> None:
    with pytest.raises(RecordError):
        DiceGame(num_players=2).state_from_dict(bad)


def test_deal_phase_data_round_trips() -> None:
    state = DiceGame(num_players=3).new_initial_state()
    state.apply_action(state.string_to_action("deal 11235L"))
    data = copy.deepcopy(state.to_dict())
    assert data["phase"] == PHASE_DEAL
    assert state.game.state_from_dict(data) == state
