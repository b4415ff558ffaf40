"""Bad input to the LAMA Dice engine: the right error class, a message naming the culprit,
and the state left exactly as it was."""

from __future__ import annotations

import random
from typing import Any

import pytest

from lamagames.core.errors import (
    IllegalActionError,
    InvalidActionError,
    LamaError,
    ParameterError,
)
from lamagames.core.registry import make
from lamagames.dice import DiceGame
from lamagames.dice.rules import Phase
from lamagames.dice.state import DiceState
from tests.dice.helpers import act, make_state

NUM_ACTIONS = DiceGame().info.num_distinct_actions
NUM_OUTCOMES = DiceGame().info.max_chance_outcomes


def turn_state() -> DiceState:
    return make_state(["1 2", "3 3 L", "5"], scores=[12, 3, 0], player=1)


def positions() -> dict[str, DiceState]:
    """One position per phase; each maps to a freshly built state."""
    out = {
        "turn": turn_state(),
        "dice": act(turn_state(), "roll"),
        "discard": act(turn_state(), "roll", "dice 3 L 3"),
        "take": act(turn_state(), "roll", "dice 4 5 4"),
        "give_llamas": act(turn_state(), "roll", "dice L L L"),
        "give_empty": act(
            make_state(["3", "1"], scores=[15, 0]), "roll", "dice 3 1 1", "discard 3"
        ),
        "deal": DiceGame(num_players=3).new_initial_state(),
        "over": act(make_state(["6", "1"], quit=[False, True], scores=[39, 0]), "quit"),
    }
    expected = {
        "turn": Phase.TURN,
        "dice": Phase.DICE,
        "discard": Phase.DISCARD,
        "take": Phase.TAKE,
        "give_llamas": Phase.GIVE_LLAMAS,
        "give_empty": Phase.GIVE_EMPTY,
        "deal": Phase.DEAL,
        "over": Phase.OVER,
    }
    for name, state in out.items():
        assert state.phase == expected[name], name
    return out


PHASES = list(positions())
SEAT_PHASES = ["turn", "discard", "take", "give_llamas", "give_empty"]
CHANCE_PHASES = ["dice", "deal"]

#: A well-formed but illegal player action for each phase where a seat acts.
ILLEGAL = {
    "turn": ["take 3", "discard 3", "give none", "give black"],
    "discard": ["roll", "quit", "take 1", "discard 3 3 3", "discard 1", "give none"],
    "take": ["quit", "take 3", "take L", "discard 4", "give none"],
    "give_llamas": ["roll", "discard L", "take 1"],
    "give_empty": ["roll", "quit", "discard 3"],
    "over": ["roll", "quit", "give none"],
}

MALFORMED_IDS: list[Any] = [-1, NUM_ACTIONS, 10**9, 1.0, 0.0, True, False, "roll", None, [0]]
MALFORMED_OUTCOMES: list[Any] = [-1, NUM_OUTCOMES, 2.0, True, False, "dice 3 1 1", None]


def test_error_classes_are_value_errors() -> None:
    for cls in (IllegalActionError, InvalidActionError, ParameterError):
        assert issubclass(cls, LamaError)
        assert issubclass(cls, ValueError)


# ------------------------------------------------------------------------------ illegal actions


@pytest.mark.parametrize(
    ("phase", "notation"), [(p, a) for p, actions in ILLEGAL.items() for a in actions]
)
def test_illegal_action_is_refused_and_named(phase: str, notation: str) -> None:
    state = positions()[phase]
    before = state.to_dict()
    action = state.string_to_action(notation)
    with pytest.raises(IllegalActionError) as info:
        state.apply_action(action)
    assert notation in str(info.value)
    assert state.to_dict() == before


@pytest.mark.parametrize("phase", CHANCE_PHASES)
def test_impossible_chance_outcome_is_refused_and_named(phase: str) -> None:
    state = positions()[phase]
    before = state.to_dict()
    bad = "dice 1 1 1" if phase == "dice" else "dice 3 1 1"  # die A has no 1; a deal is due
    with pytest.raises(IllegalActionError, match=bad):
        state.apply_action(state.string_to_action(bad))
    assert state.to_dict() == before


def test_deal_of_cards_not_left_in_the_deck_is_refused() -> None:
    state = DiceGame(num_players=2).new_initial_state()
    act(state, "deal 111112")
    before = state.to_dict()
    with pytest.raises(IllegalActionError, match="deal 111111"):
        act(state, "deal 111111")  # six 1s were never in the deck; one is already dealt
    with pytest.raises(IllegalActionError, match="deal 11111L"):
        act(state, "deal 1 1 1 1 1 L")  # five 1s, but only four are left
    assert state.to_dict() == before


# ------------------------------------------------------------------------------ wrong seat


@pytest.mark.parametrize("phase", SEAT_PHASES)
def test_wrong_seat_is_refused_and_named(phase: str) -> None:
    state = positions()[phase]
    before = state.to_dict()
    seat = state.current_player()
    other = (seat + 1) % state.game.num_players
    action = state.legal_actions()[0]
    notation = state.action_to_string(action)
    assert state.legal_actions(other) == []
    assert not state.legal_actions_mask(other).any()
    with pytest.raises(IllegalActionError) as info:
        state.apply_action(action, other)
    message = str(info.value)
    assert notation in message
    assert str(other) in message
    assert state.to_dict() == before
    state.apply_action(action, seat)  # the right seat may


@pytest.mark.parametrize("phase", CHANCE_PHASES)
def test_seat_cannot_act_at_a_chance_node(phase: str) -> None:
    state = positions()[phase]
    before = state.to_dict()
    with pytest.raises(IllegalActionError) as info:
        state.apply_action(0, 1)
    assert "roll" in str(info.value)
    assert state.legal_actions(1) == []
    assert state.to_dict() == before


@pytest.mark.parametrize("seat", [-1, 3, 17])
def test_no_such_seat(seat: int) -> None:
    state = turn_state()
    before = state.to_dict()
    with pytest.raises(IllegalActionError, match="roll"):
        state.apply_action(0, seat)
    assert state.legal_actions(seat) == []
    assert state.to_dict() == before


@pytest.mark.parametrize("seat", [-1, 3, "0", None, 1.0])
def test_observation_of_no_such_seat(seat: Any) -> None:
    state = turn_state()
    with pytest.raises(IllegalActionError):
        state.observation(seat)
    with pytest.raises(IllegalActionError):
        state.observation_tensor(seat)


@pytest.mark.parametrize("phase", [*SEAT_PHASES, "over"])
def test_chance_outcomes_outside_a_chance_node(phase: str) -> None:
    state = positions()[phase]
    with pytest.raises(IllegalActionError):
        state.chance_outcomes()
    with pytest.raises(IllegalActionError):
        state.sample_chance_outcome(random.Random(0))


# ------------------------------------------------------------------------------ malformed ids


@pytest.mark.parametrize("phase", [*SEAT_PHASES, "over"])
@pytest.mark.parametrize("bad", MALFORMED_IDS, ids=repr)
def test_malformed_action_id(phase: str, bad: Any) -> None:
    state = positions()[phase]
    before = state.to_dict()
    with pytest.raises(InvalidActionError) as info:
        state.apply_action(bad)
    assert repr(bad) in str(info.value)
    assert state.to_dict() == before
    with pytest.raises(InvalidActionError, match=repr(bad).replace("[", r"\[")):
        state.action_to_string(bad)


@pytest.mark.parametrize("phase", CHANCE_PHASES)
@pytest.mark.parametrize("bad", MALFORMED_OUTCOMES, ids=repr)
def test_malformed_chance_outcome(phase: str, bad: Any) -> None:
    state = positions()[phase]
    before = state.to_dict()
    with pytest.raises(InvalidActionError) as info:
        state.apply_action(bad)
    assert repr(bad) in str(info.value)
    assert state.to_dict() == before


@pytest.mark.parametrize("bad", [True, 1.0], ids=repr)
def test_bool_and_float_ids_are_not_silently_recorded(bad: Any) -> None:
    # True == 1 == QUIT and 1.0 == QUIT: neither may be applied as a quit.
    state = turn_state()
    with pytest.raises(InvalidActionError):
        state.apply_action(bad)
    assert state.history() == []
    assert state.quit == [False, False, False]


# ------------------------------------------------------------------------------ notation

MALFORMED_PLAYER_NOTATION = [
    "jump",
    "roll 3",
    "quit now",
    "take",
    "take 7",
    "take 33",
    "take x",
    "give",
    "give gold",
    "discard",
    "discard 3 3 3 3",
    "discard 9",
    "discard 3 x",
    "dice 3 5 L",
    "deal 11235L",
]
MALFORMED_CHANCE_NOTATION = [
    "roll",
    "dice",
    "dice 3 5",
    "dice 3 5 L 1",
    "dice 7 1 1",
    "dice 3 x 1",
    "deal",
    "deal 1123",
    "deal 1123456",
    "deal 11x345",
    "throw 3 5 L",
]


@pytest.mark.parametrize("text", MALFORMED_PLAYER_NOTATION)
def test_malformed_player_notation(text: str) -> None:
    state = turn_state()
    before = state.to_dict()
    with pytest.raises(InvalidActionError) as info:
        state.string_to_action(text)
    assert text in str(info.value)
    assert state.to_dict() == before


@pytest.mark.parametrize("text", MALFORMED_CHANCE_NOTATION)
def test_malformed_chance_notation(text: str) -> None:
    state = positions()["dice"]
    with pytest.raises(InvalidActionError) as info:
        state.string_to_action(text)
    assert text in str(info.value)


@pytest.mark.parametrize("phase", ["turn", "dice"])
@pytest.mark.parametrize("text", ["", "   "])
def test_empty_notation(phase: str, text: str) -> None:
    with pytest.raises(InvalidActionError, match="empty"):
        positions()[phase].string_to_action(text)


@pytest.mark.parametrize("bad", [5, None, b"roll", ["roll"]], ids=repr)
def test_notation_must_be_text(bad: Any) -> None:
    with pytest.raises(InvalidActionError, match=type(bad).__name__):
        turn_state().string_to_action(bad)


def test_notation_is_forgiving_about_case_and_spacing() -> None:
    state = act(turn_state(), "roll", "dice 3 L 3")
    assert state.string_to_action("  Discard   3 l ") == state.string_to_action("discard 3 L")
    assert state.string_to_action("discard 3L") == state.string_to_action("discard 3 L")
    dice = positions()["dice"]
    assert dice.string_to_action("DICE 3l3") == dice.string_to_action("dice 3 L 3")


# ------------------------------------------------------------------------------ parameters


@pytest.mark.parametrize(
    ("params", "name"),
    [
        ({"num_players": 1}, "num_players"),
        ({"num_players": 7}, "num_players"),
        ({"num_players": 0}, "num_players"),
        ({"num_players": "3"}, "num_players"),
        ({"num_players": 3.0}, "num_players"),
        ({"num_players": True}, "num_players"),
        ({"num_players": None}, "num_players"),
        ({"end_score": 0}, "end_score"),
        ({"end_score": -40}, "end_score"),
        ({"end_score": 40.0}, "end_score"),
        ({"end_score": True}, "end_score"),
        ({"end_score": "40"}, "end_score"),
        ({"starting_seat": -1}, "starting_seat"),
        ({"starting_seat": 3}, "starting_seat"),
        ({"num_players": 2, "starting_seat": 2}, "starting_seat"),
        ({"starting_seat": 1.0}, "starting_seat"),
        ({"starting_seat": None}, "starting_seat"),
        ({"dice": ["LL3456", "12LL56", "1234L5"]}, "dice"),
        ({"dice": None}, "dice"),
    ],
)
def test_bad_parameters(params: dict[str, Any], name: str) -> None:
    with pytest.raises(ParameterError, match=name):
        DiceGame(**params)
    with pytest.raises(ParameterError, match=name):
        make("dice", **params)


def test_unknown_parameter_and_game() -> None:
    with pytest.raises(ParameterError, match="players"):
        make("dice", players=3)
    with pytest.raises(ParameterError, match="unknown game"):
        make("lama-dice")


def test_make_builds_the_same_game() -> None:
    game = make("dice", num_players=4, end_score=30, starting_seat=2)
    assert isinstance(game, DiceGame)
    assert game.params == DiceGame(4, end_score=30, starting_seat=2).params
    assert game.info.num_players == 4
