"""LAMA Dice events: one test per event kind (with the ruling it tells) and a Hypothesis
property that the events of random games agree with the state changes."""

from __future__ import annotations

import json
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from lamagames.core.events import Event
from lamagames.core.game import Termination
from lamagames.dice import DiceGame, DiceState
from lamagames.dice.events import (
    Bust,
    Chip,
    ChipGiven,
    Dealt,
    DiceEventKind,
    Discarded,
    GameEnded,
    GiveReason,
    Quit,
    Rolled,
    RoundEnded,
    RoundStarted,
    Took,
    events,
)
from lamagames.dice.rules import RollResult, RoundEndReason

from .helpers import make_state


def step(state: DiceState, notation: str) -> list[Event]:
    """Apply one action in notation to ``state`` (in place) and return its events."""
    action = state.string_to_action(notation)
    player = None if state.is_chance_node() else state.current_player()
    before = state.clone()
    state.apply_action(action, player)
    return events(before, action, player, state)


def test_d5_deal_events_and_round_start() -> None:
    state = DiceGame(num_players=2, starting_seat=1).new_initial_state()
    first = step(state, "deal 11235L")
    assert first == [Dealt(1, 0, ("1", "1", "2", "3", "5", "L"))]
    second = step(state, "deal 2346LL")
    assert second == [Dealt(1, 1, ("2", "3", "4", "6", "L", "L")), RoundStarted(1, 1)]


def test_d6_roll_decision_has_no_event_the_dice_tell_it() -> None:
    state = make_state(["3 3 5", "1 2"])
    assert step(state, "roll") == []


def test_d8_2_match_roll_and_discard() -> None:
    state = make_state(["3 3 5", "1 2"])
    step(state, "roll")
    assert step(state, "dice 3 L 3") == [Rolled(0, ("3", "L", "3"), RollResult.MATCH, True)]
    assert step(state, "discard 3 3") == [Discarded(0, ("3", "3"), ("3", "L", "3"), False)]


def test_d8_3_take_a_llama_row_card() -> None:
    state = make_state(["1 2", "3"])
    step(state, "roll")
    assert step(state, "dice 5 6 L") == [Rolled(0, ("5", "6", "L"), RollResult.TAKE, True)]
    assert step(state, "take 5") == [Took(0, "5", ("5", "6", "L"))]


def test_d8_4_bust_takes_the_llama_row_and_ends_the_round() -> None:
    state = make_state(["2 2", "3"], llama_row="1 4", end_score=100)
    step(state, "roll")
    got = step(state, "dice 5 6 L")
    assert got == [
        Rolled(0, ("5", "6", "L"), RollResult.BUST, False),
        Bust(0, ("1", "4"), False),
        RoundEnded(1, RoundEndReason.BUST, 0, (7, 3), (7, 3)),
    ]


def test_d8_5_last_player_standing_goes_bust_although_the_llama_row_has_the_symbol() -> None:
    state = make_state(["2 2", "3"], quit=[False, True], end_score=100)
    step(state, "roll")
    got = step(state, "dice 5 6 L")
    assert got[0] == Rolled(0, ("5", "6", "L"), RollResult.BUST, False)
    assert got[1] == Bust(0, ("1", "2", "3", "4", "5", "6", "L"), True)
    assert isinstance(got[2], RoundEnded) and got[2].reason == RoundEndReason.BUST


def test_d8_1_three_llamas_with_a_chip_to_give_back() -> None:
    state = make_state(["2 2", "3"], scores=[12, 0])
    step(state, "roll")
    assert step(state, "dice L L L") == [Rolled(0, ("L", "L", "L"), RollResult.THREE_LLAMAS, True)]
    assert step(state, "give black") == [
        ChipGiven(0, Chip.BLACK, GiveReason.THREE_LLAMAS, -10, (2, 0))
    ]


def test_d8_1_three_llamas_without_chips_no_choice_follows() -> None:
    state = make_state(["2 2", "3"])
    step(state, "roll")
    assert step(state, "dice L L L") == [Rolled(0, ("L", "L", "L"), RollResult.THREE_LLAMAS, False)]


def test_d7_quit_tells_the_row_points() -> None:
    state = make_state(["2 2 L", "3"])
    assert step(state, "quit") == [Quit(0, 12)]


def test_d9_all_quit_ends_the_round_with_points_per_seat() -> None:
    state = make_state(["2 2 L", "3 4"], quit=[False, True], scores=[5, 7], end_score=100)
    assert step(state, "quit") == [
        Quit(0, 12),
        RoundEnded(1, RoundEndReason.ALL_QUIT, 0, (12, 7), (17, 14)),
    ]


def test_d9_llama_row_emptied_by_a_take() -> None:
    state = make_state(["2 2", "1"], llama_row="L", end_score=100)
    step(state, "roll")
    step(state, "dice L 1 3")
    got = step(state, "take L")
    assert got[0] == Took(0, "L", ("L", "1", "3"))
    assert got[1] == RoundEnded(1, RoundEndReason.LLAMA_ROW, 0, (12, 1), (12, 1))


def test_d10_emptied_row_then_chip_given_back_with_the_new_scores() -> None:
    state = make_state(["3", "1 2"], scores=[4, 0], end_score=100)
    step(state, "roll")
    step(state, "dice 3 5 L")
    got = step(state, "discard 3")
    assert got == [
        Discarded(0, ("3",), ("3", "5", "L"), True),
        RoundEnded(1, RoundEndReason.EMPTIED, 0, (0, 3), (4, 3)),
    ]
    assert step(state, "give white") == [ChipGiven(0, Chip.WHITE, GiveReason.EMPTY_ROW, -1, (3, 3))]


def test_d11_game_end_names_the_lowest_scores() -> None:
    state = make_state(["2 2", "3"], llama_row="1 4", end_score=5)
    step(state, "roll")
    got = step(state, "dice 5 6 L")
    assert got[-1] == GameEnded(Termination.END_SCORE, (1,), (7, 3))
    outcome = state.outcome()
    assert outcome is not None and outcome.winners == (1,)


def test_events_to_json_is_plain_json() -> None:
    state = make_state(["2 2", "3"], llama_row="1 4", end_score=5)
    step(state, "roll")
    got = [e.to_json() for e in step(state, "dice 5 6 L")]
    assert got[0] == {
        "kind": "roll",
        "seat": 0,
        "dice": ["5", "6", "L"],
        "result": "bust",
        "choice_follows": False,
    }
    assert got[1] == {"kind": "bust", "seat": 0, "cards": ["1", "4"], "last_standing": False}
    assert got[2]["kind"] == "round_end" and got[2]["reason"] == "bust"
    assert got[3] == {
        "kind": "game_end",
        "termination": "end_score",
        "winners": [1],
        "scores": [7, 3],
    }
    assert json.loads(json.dumps(got)) == got


def test_every_event_kind_has_an_event_class() -> None:
    classes: list[type[Event]] = [Dealt, RoundStarted, Rolled, Quit, Discarded, Took]
    classes += [ChipGiven, Bust, RoundEnded, GameEnded]
    assert {c.kind for c in classes} == set(DiceEventKind)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), num_players=st.integers(2, 6))
def test_events_of_random_games_agree_with_the_state_change(seed: int, num_players: int) -> None:
    """Points of RoundEnded plus chips of ChipGiven add up to each score change; a Rolled
    exactly at dice chance nodes, Dealt at deals; the game end names the winners."""
    rng = random.Random(seed)
    state = DiceGame(num_players=num_players, end_score=30).new_initial_state()
    for _ in range(5000):
        if state.is_terminal():
            break
        chance = state.is_chance_node()
        player = None if chance else state.current_player()
        action = state.sample_chance_outcome(rng) if chance else rng.choice(state.legal_actions())
        after = state.child(action, player)
        got = events(state, action, player, after)
        change = [0] * num_players
        for event in got:
            if isinstance(event, RoundEnded):
                change = [c + p for c, p in zip(change, event.points, strict=True)]
                assert list(event.scores) == after.scores
            elif isinstance(event, ChipGiven):
                change[event.seat] += event.points
        assert change == [x - y for x, y in zip(after.scores, state.scores, strict=True)]
        kinds = [e.kind for e in got]
        assert (DiceEventKind.ROLL in kinds) == (chance and state.phase.name == "DICE")
        assert (DiceEventKind.DEAL in kinds) == (chance and state.phase.name == "DEAL")
        assert (DiceEventKind.GAME_END in kinds) == after.is_terminal()
        for event in got:
            if isinstance(event, Took):
                seat = event.seat
                s = "123456L".index(event.card)
                assert after.rows[seat][s] == state.rows[seat][s] + 1
            if isinstance(event, GameEnded):
                assert list(event.winners) == after.winners()
            assert json.loads(json.dumps(event.to_json()))["kind"] == event.kind.value
        state = after
    assert state.is_terminal()
