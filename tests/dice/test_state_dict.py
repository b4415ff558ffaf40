"""DiceState.to_dict / DiceGame.state_from_dict: exact round trips, and malformed or
inconsistent data refused with a RecordError naming the field."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from lamagames.core.errors import RecordError
from lamagames.dice import DiceGame
from lamagames.dice.rules import Phase
from tests.dice.helpers import act, deal_round, make_state


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


def set_path(data: dict[str, Any], path: str, value: Any) -> None:
    """Set ``data[a][b]...`` for a dotted path such as ``"rows.0.0"``."""
    *parents, last = path.split(".")
    target: Any = data
    for part in parents:
        target = target[int(part)] if isinstance(target, list) else target[part]
    if isinstance(target, list):
        target[int(last)] = value
    else:
        target[last] = value


@pytest.mark.parametrize(
    ("path", "value", "fragment"),
    [
        ("note", 1, "note"),  # unknown field
        ("scores", ["4", 12], "scores"),
        ("scores", [True, 12], "scores"),
        ("scores", [-1, 12], "scores"),
        ("scores", [4], "scores"),  # too few seats
        ("quit", ["no", "no"], "quit"),
        ("quit", [0, 0], "quit"),
        ("phase", 8, "phase"),
        ("player", 2, "player"),
        ("llama_row.0", 2, "llama_row"),
        ("dice", [1, 2], "dice"),
        ("history", [[-1, 1267]], "history"),  # beyond the chance outcomes
        ("history", [[0, 131]], "history"),  # beyond the player actions
        ("history", [[0]], "history"),
        ("rows.0.0", 3, "cards not conserved"),  # two extra 1s (D-3)
        ("dice", [2, 6, 2], "dice"),  # a roll shown at a turn
        ("quit", [True, False], "quit"),  # seat 0 is to act but has quit
    ],
)
def test_malformed_state_data(path: str, value: Any, fragment: str) -> None:
    data = turn_data()
    set_path(data, path, value)
    with pytest.raises(RecordError, match=fragment):
        DiceGame(num_players=2).state_from_dict(data)


def test_missing_field() -> None:
    data = turn_data()
    del data["scores"]
    with pytest.raises(RecordError, match="scores"):
        DiceGame(num_players=2).state_from_dict(data)


@pytest.mark.parametrize("phase", [Phase.DISCARD, Phase.TAKE, Phase.GIVE_LLAMAS])
def test_roll_phase_without_dice(phase: int) -> None:
    data = turn_data()
    data["phase"] = phase
    with pytest.raises(RecordError, match="dice"):
        DiceGame(num_players=2).state_from_dict(data)


@pytest.mark.parametrize(
    ("phase", "dice"),
    [
        (Phase.DISCARD, [4, 4, 4]),  # no die matches the row 1 2: nothing to discard
        (Phase.TAKE, [0, 0, 1]),  # the dice match the row: no take
        (Phase.GIVE_LLAMAS, [2, 2, 6]),  # not three llamas
    ],
)
def test_roll_phase_that_does_not_follow_from_the_dice(phase: int, dice: list[int]) -> None:
    data = turn_data()
    data["phase"] = phase
    data["dice"] = dice
    with pytest.raises(RecordError, match="phase"):
        DiceGame(num_players=2).state_from_dict(data)


@pytest.mark.parametrize("phase", [Phase.TURN, Phase.DICE])
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
    assert data["phase"] == Phase.DEAL
    assert state.game.state_from_dict(data) == state


@pytest.mark.parametrize("scores", [[40, 0], [0, 150]])
def test_d11_no_round_in_progress_once_a_score_reaches_the_end(scores: list[int]) -> None:
    state = make_state(["3", "5"], llama_row="1L")
    data = state.to_dict()
    data["scores"] = scores
    seat = next(i for i, s in enumerate(scores) if s >= 40)
    with pytest.raises(RecordError, match=rf"state\.scores\.{seat}: .* end score 40"):
        DiceGame(num_players=2).state_from_dict(data)
    assert DiceGame(num_players=2, end_score=151).state_from_dict(data).scores == scores


def test_d11_the_finished_game_keeps_its_final_scores() -> None:
    state = make_state(["3", "5"], llama_row="1L")
    data = state.to_dict()
    data["scores"], data["phase"] = [42, 37], int(Phase.OVER)
    assert DiceGame(num_players=2).state_from_dict(data).scores == [42, 37]
