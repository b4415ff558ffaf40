"""DiceGame.build_state: the documented position builder, and the read-only accessors."""

from __future__ import annotations

import pytest

from lamagames.core.errors import ParameterError, RecordError
from lamagames.dice import DiceGame
from lamagames.dice.rules import Phase

from .helpers import counts


def test_build_state_example_of_docs_dice_md() -> None:
    state = DiceGame(num_players=3).build_state(
        rows=["1 1 4", "2 6 L", "3 3"],
        llama_row="1 2 4 6 L",
        scores=[12, 0, 31],
        quit_seats=[2],
        current=1,
    )
    assert state.current_player() == 1 and state.phase == Phase.TURN
    assert state.rows == [counts("114"), counts("26L"), counts("33")]
    assert state.llama_row == counts("1246L")
    assert state.scores == [12, 0, 31] and state.quit == [False, False, True]
    assert state.chips(2) == (3, 1)  # D-4
    # D-3: the 43 cards are all somewhere.
    places = [*state.rows, state.llama_row, state.setaside, state.discards]
    total = [sum(place[s] for place in places) for s in range(7)]
    assert total == [6, 6, 6, 6, 6, 6, 7]
    assert state.game.state_from_dict(state.to_dict()) == state


def test_build_state_with_a_roll_shown_d8_2() -> None:
    state = DiceGame(num_players=2).build_state(
        rows=["3 3 5", "1 2"], phase=Phase.DISCARD, dice="3 L 3"
    )
    assert state.action_to_string(state.legal_actions()[-1]) == "discard 3 3"


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"rows": ["L L L L L L", "L L"]}, "cards not conserved: 9 cards L"),  # D-3: 7 llamas
        ({"rows": ["1 2", "3"], "llama_row": "1 1"}, "llama_row: each symbol"),
        ({"rows": ["1 2"]}, "rows: need one row per seat"),
        ({"rows": ["1 2", "3 X"]}, "rows\\[1\\]: 'X' is not a card"),
        ({"rows": ["1 2", "3"], "current": 2}, "current: 2 is not a seat"),
        ({"rows": ["1 2", "3"], "quit_seats": [5]}, "quit_seats: 5 is not a seat"),
        ({"rows": ["1 2", "3"], "scores": [3]}, "scores: need one score per seat"),
        ({"rows": ["1 2", "3"], "scores": [3, -1]}, "scores\\[1\\]"),
        ({"rows": ["1 2", "3"], "dice": "3 3"}, "dice"),
    ],
)
def test_build_state_rejects_malformed_input(kwargs: dict[str, object], message: str) -> None:
    with pytest.raises(ParameterError, match=message):
        DiceGame(num_players=2).build_state(**kwargs)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"quit_seats": [0], "current": 0}, "quit: seat 0 has quit but is to act"),  # D-7
        ({"phase": Phase.TAKE, "dice": "3 L 3"}, "phase take does not follow"),  # D-8.2
        ({"phase": Phase.DISCARD}, "dice None: a roll is shown exactly"),
    ],
)
def test_build_state_rejects_positions_play_cannot_reach(
    kwargs: dict[str, object], message: str
) -> None:
    with pytest.raises(RecordError, match=message):
        DiceGame(num_players=2).build_state(rows=["3 3 5", "1 2"], **kwargs)  # type: ignore[arg-type]


def test_accessors_return_copies_the_state_is_unchanged() -> None:
    state = DiceGame(num_players=2).build_state(rows=["3 3 5", "1 2"], scores=[4, 7])
    before = state.to_dict()
    state.scores[0] = 99
    state.rows[0][0] = 5
    state.quit[1] = True
    state.llama_row[0] = 0
    assert state.to_dict() == before
    assert state.score(0) == 4 and state.row(1) == tuple(counts("12")) and not state.has_quit(1)


def test_saved_data_names_the_bad_field() -> None:
    data = DiceGame(num_players=2).build_state(rows=["3 3 5", "1 2"]).to_dict()
    data["rows"][1][6] = "1"
    with pytest.raises(RecordError, match=r"state\.rows\.1\.6: Input should be a valid integer"):
        DiceGame(num_players=2).state_from_dict(data)
