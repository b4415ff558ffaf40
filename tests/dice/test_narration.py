"""LAMA Dice move-log lines come from events (lamagames.dice.render.describe_events)."""

from __future__ import annotations

from lamagames.dice.events import events
from lamagames.dice.render import describe_events, narrate

from .helpers import make_state

NAMES = ["Ann", "Bob"]


def test_d10_issue8_scores_are_told_again_after_an_empty_row_give_back() -> None:
    state = make_state(["3", "1 2"], scores=[4, 0], end_score=100)
    for notation in ("roll", "dice 3 5 L"):
        state.apply_action(state.string_to_action(notation))
    before = state.clone()
    discard = state.string_to_action("discard 3")
    state.apply_action(discard)
    assert narrate(before, 0, discard, state, NAMES) == [
        "Ann rolls 3 5 L and discards 3.",
        "Round 1 ends (Ann emptied the row). Points: Ann 0, Bob 3.",
        "Scores: Ann 4, Bob 3.",
    ]
    before = state.clone()
    give = state.string_to_action("give white")
    state.apply_action(give)
    assert describe_events(events(before, give, 0, state), NAMES) == [
        "Ann gives back a white chip (-1) for emptying the row.",
        "Scores: Ann 3, Bob 3.",
    ]


def test_d8_5_bust_of_the_last_player_standing_is_explained() -> None:
    state = make_state(["2 2", "3"], quit=[False, True], end_score=100)
    state.apply_action(state.string_to_action("roll"))
    before = state.clone()
    roll = state.string_to_action("dice 5 6 L")
    state.apply_action(roll)
    lines = narrate(before, -1, roll, state, NAMES)
    assert lines[0] == (
        "Ann rolls 5 6 L: no match and the last player in a round may not take a single "
        "card, so Ann takes the whole llama row (bust)!"
    )
