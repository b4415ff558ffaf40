"""One or more tests per LAMA Dice ruling D-1 .. D-11 of docs/rules.md (test names carry the id).

Dice notation is ``dice A B C`` in die order; with the standard set (D-1) die A shows
``L L 3 4 5 6``, die B ``1 2 L L 5 6`` and die C ``1 2 3 4 L L``.
"""

from __future__ import annotations

import math
import random

import pytest

from lamagames.core.errors import IllegalActionError, ParameterError
from lamagames.core.game import CHANCE_PLAYER, TERMINAL_PLAYER
from lamagames.dice import STANDARD_DICE, DiceGame, row_score
from lamagames.dice.rules import Phase
from lamagames.dice.state import DiceState
from tests.dice.helpers import (
    DECK_COPIES,
    act,
    counts,
    deal_round,
    legal,
    make_state,
    row_text,
)

GIVE_ALL = {"give black", "give white", "give none"}


def cards_everywhere(state: DiceState) -> list[int]:
    """Per-symbol card count over llama row, rows, discard pile and set-aside deck."""
    return [
        state.llama_row[s] + state.setaside[s] + state.discards[s] + sum(r[s] for r in state.rows)
        for s in range(7)
    ]


def roll_probability(game: DiceGame, dice: str) -> float:
    state = make_state(["1"] * game.num_players, game=game, phase=Phase.DICE)
    probabilities = dict(state.chance_outcomes())
    return probabilities.get(state.string_to_action(dice), 0.0)


# ------------------------------------------------------------------------------ D-1 dice


def test_d1_standard_dice_are_the_default() -> None:
    game = DiceGame()
    assert game.params["dice"] == ["LL3456", "12LL56", "1234LL"]
    assert tuple(game.params["dice"]) == STANDARD_DICE
    state = make_state(["1", "1", "1"], phase=Phase.DICE)
    outcomes = state.chance_outcomes()
    assert len(outcomes) == 5 * 5 * 5  # each die shows 4 numbers or a llama
    assert math.isclose(sum(p for _, p in outcomes), 1.0)
    # Two llama faces per die: three llamas with probability (2/6)^3.
    assert math.isclose(roll_probability(game, "dice L L L"), 1 / 27)
    assert math.isclose(roll_probability(game, "dice 3 1 1"), 1 / 216)
    # Die A has no 1 or 2, die B no 3 or 4, die C no 5 or 6.
    for impossible in ("dice 1 1 1", "dice 3 3 3", "dice 5 5 5"):
        assert roll_probability(game, impossible) == 0.0


def test_d1_every_number_on_exactly_two_dice_in_the_standard_set() -> None:
    game = DiceGame()
    for number in "123456":
        on = sum(1 for die in game.params["dice"] if number in die)
        assert on == 2, number
    assert all(die.count("L") == 2 for die in game.params["dice"])


@pytest.mark.parametrize(
    "dice",
    [
        ("2345LL", "1346LL", "1256LL"),  # another partition of 1..6 into missing pairs
        ("LL1256", "LL3456", "LL1234"),  # llamas first on every die
        ("1234LL", "12LL56", "LL3456"),  # the standard dice in another order
        ("3l4l56", "L12L56", "4321ll"),  # faces in any order, lower-case llama
        ["LL3456", "12LL56", "1234LL"],  # a list works as well as a tuple
    ],
)
def test_d1_accepts_any_dice_meeting_the_constraint(dice: tuple[str, ...]) -> None:
    game = DiceGame(dice=dice)
    assert game.params["dice"] == [d.upper() for d in dice]
    state = make_state(["1", "1", "1"], game=game, phase=Phase.DICE)
    outcomes = state.chance_outcomes()
    assert len(outcomes) == 125
    assert math.isclose(sum(p for _, p in outcomes), 1.0)
    assert math.isclose(roll_probability(game, "dice L L L"), 1 / 27)


def test_d1_alternative_dice_change_the_possible_rolls() -> None:
    game = DiceGame(dice=("2345LL", "1346LL", "1256LL"))
    assert math.isclose(roll_probability(game, "dice 2 1 1"), 1 / 216)
    assert roll_probability(game, "dice 1 1 1") == 0.0  # die A has no 1
    state = make_state(["1", "1", "1"], game=game, phase=Phase.DICE)
    before = state.to_dict()
    with pytest.raises(IllegalActionError, match="dice 1 1 1"):
        state.apply_action(state.string_to_action("dice 1 1 1"))
    assert state.to_dict() == before


@pytest.mark.parametrize(
    ("dice", "constraint"),
    [
        (("LL3456", "12LL56"), "exactly three dice"),
        (("LL3456", "12LL56", "1234LL", "1234LL"), "exactly three dice"),
        ("LL345612LL561234LL", "exactly three dice"),
        (None, "exactly three dice"),
        (5, "exactly three dice"),
        (("LL345", "12LL56", "1234LL"), "six faces"),
        (("LL3456", "12LL56", "1234LLL"), "six faces"),
        (("LL3456", "12LL56", None), "six faces"),
        (("LL3457", "12LL56", "1234LL"), "face '7'"),
        (("LL3456", "12XL56", "1234LL"), "face 'X'"),
        (("L33456", "12LL56", "1234LL"), "exactly two llama faces"),
        (("LL3456", "12LLL6", "1234LL"), "exactly two llama faces"),
        (("LL3356", "12LL56", "1234LL"), "repeats a number"),
        (("LL3456", "LL3456", "1234LL"), "every number must be on exactly two"),
        (("LL1234", "LL1234", "LL5656"), "repeats a number"),
        (("LL1234", "LL1256", "LL1234"), "number 1 is on 3 dice"),
    ],
)
def test_d1_refuses_dice_naming_the_failed_constraint(dice: object, constraint: str) -> None:
    with pytest.raises(ParameterError, match=constraint):
        DiceGame(dice=dice)  # type: ignore[arg-type]


def test_d1_dice_failure_names_the_die() -> None:
    with pytest.raises(ParameterError, match="die B"):
        DiceGame(dice=("LL3456", "12LL5", "1234LL"))
    with pytest.raises(ParameterError, match="number 1 is on 1 dice"):
        DiceGame(dice=("LL3456", "LL3456", "1234LL"))


# ------------------------------------------------------------------------------ D-2 values


@pytest.mark.parametrize(
    ("symbol", "value"),
    [("1", 1), ("2", 2), ("3", 3), ("4", 4), ("5", 5), ("6", 6), ("L", 10)],
)
def test_d2_symbol_values(symbol: str, value: int) -> None:
    assert row_score(counts(symbol)) == value
    # ... and the engine scores a row of that one card the same way at round end.
    state = make_state([symbol, "1"], quit=[False, True])
    act(state, "quit")
    assert state.round_points[-1] == [value, 1]
    assert state.scores == [value, 1]


# ------------------------------------------------------------------------------ D-3 cards


def test_d3_43_cards_llama_row_and_deck() -> None:
    state = DiceGame(num_players=2).new_initial_state()
    assert state.llama_row == [1, 1, 1, 1, 1, 1, 1]
    assert state.setaside == [5, 5, 5, 5, 5, 5, 6]
    assert sum(state.setaside) == 36
    assert cards_everywhere(state) == [6, 6, 6, 6, 6, 6, 7]
    assert sum(cards_everywhere(state)) == 43


@pytest.mark.parametrize("num_players", [2, 3, 4, 5, 6])
def test_d3_deal_keeps_43_cards_and_sets_the_rest_aside(num_players: int) -> None:
    state = deal_round(DiceGame(num_players=num_players).new_initial_state(), seed=num_players)
    assert all(sum(row) == 6 for row in state.rows)
    assert sum(state.setaside) == 36 - 6 * num_players
    assert state.llama_row == [1] * 7
    assert sum(cards_everywhere(state)) == 43


def test_d3_six_player_deal_uses_the_whole_deck() -> None:
    state = DiceGame(num_players=6).new_initial_state()
    rng = random.Random(3)
    for _ in range(5):
        state.apply_action(state.sample_chance_outcome(rng))
    # The sixth seat gets exactly the six cards that are left: one outcome, probability 1.
    outcomes = state.chance_outcomes()
    assert len(outcomes) == 1
    assert outcomes[0][1] == 1.0
    state.apply_action(outcomes[0][0])
    assert state.setaside == [0] * 7
    dealt = [sum(row[s] for row in state.rows) for s in range(7)]
    assert dealt == list(DECK_COPIES)
    assert state.current_player() == 0


def test_d3_first_deal_probabilities() -> None:
    state = DiceGame(num_players=3).new_initial_state()
    outcomes = dict(state.chance_outcomes())
    # 924 multisets of six symbols, minus six of one number (only five in the deck).
    assert len(outcomes) == 924 - 6
    assert math.isclose(sum(outcomes.values()), 1.0)
    assert math.isclose(outcomes[state.string_to_action("deal LLLLLL")], 1 / math.comb(36, 6))
    five_ones_and_a_llama = 6 / math.comb(36, 6)
    assert math.isclose(outcomes[state.string_to_action("deal 11111L")], five_ones_and_a_llama)


# ------------------------------------------------------------------------------ D-4 chips


@pytest.mark.parametrize(
    ("score", "chips", "options"),
    [
        (0, (0, 0), None),  # no chips: no decision (D-8.1)
        (1, (0, 1), {"give white", "give none"}),
        (9, (0, 9), {"give white", "give none"}),
        (10, (1, 0), {"give black", "give none"}),  # ten points: a black chip, no white
        (20, (2, 0), {"give black", "give none"}),
        (23, (2, 3), GIVE_ALL),
        (39, (3, 9), GIVE_ALL),
    ],
)
def test_d4_chips_follow_from_the_score(
    score: int, chips: tuple[int, int], options: set[str] | None
) -> None:
    state = make_state(["1 2", "3"], scores=[score, 0])
    assert state.chips(0) == chips
    assert state.observation(1)["chips"][0] == list(chips)
    act(state, "roll", "dice L L L")
    if options is None:
        assert state.phase == Phase.TURN
        assert state.current_player() == 1
    else:
        assert state.phase == Phase.GIVE_LLAMAS
        assert state.current_player() == 0
        assert legal(state) == options


@pytest.mark.parametrize(
    ("score", "give", "after"),
    [
        (23, "give black", 13),
        (23, "give white", 22),
        (23, "give none", 23),
        (11, "give white", 10),  # the bank is unlimited; 10 whites are a black
        (10, "give black", 0),
        (1, "give white", 0),
    ],
)
def test_d4_give_back_changes_the_score(score: int, give: str, after: int) -> None:
    state = make_state(["1 2", "3"], scores=[score, 5])
    act(state, "roll", "dice L L L", give)
    assert state.scores == [after, 5]
    assert state.chips(0) == (after // 10, after % 10)


@pytest.mark.parametrize(
    ("score", "refused"), [(10, "give white"), (20, "give white"), (7, "give black")]
)
def test_d4_cannot_give_a_chip_not_held(score: int, refused: str) -> None:
    state = make_state(["1 2", "3"], scores=[score, 0])
    act(state, "roll", "dice L L L")
    before = state.to_dict()
    with pytest.raises(IllegalActionError, match=refused):
        act(state, refused)
    assert state.to_dict() == before


# ------------------------------------------------------------------------------ D-5 round setup


@pytest.mark.parametrize(("num_players", "seat"), [(2, 0), (2, 1), (4, 0), (4, 3), (6, 5)])
def test_d5_first_round_starting_seat_is_a_parameter(num_players: int, seat: int) -> None:
    game = DiceGame(num_players=num_players, starting_seat=seat)
    assert game.params["starting_seat"] == seat
    state = game.new_initial_state()
    assert state.current_player() == CHANCE_PLAYER
    deal_round(state, seed=seat)
    assert state.phase == Phase.TURN
    assert state.current_player() == seat
    assert state.starter == seat


def test_d5_default_starting_seat_is_0() -> None:
    state = deal_round(DiceGame(num_players=4).new_initial_state())
    assert state.current_player() == 0


def test_d5_round_setup_llama_row_face_up_six_cards_each() -> None:
    state = deal_round(DiceGame(num_players=4).new_initial_state(), seed=11)
    observation = state.observation(2)
    assert observation["llama_row"] == list("123456L")
    assert [len(row) for row in observation["rows"]] == [6, 6, 6, 6]
    assert observation["setaside_count"] == 36 - 24
    assert observation["quit"] == [False] * 4


def next_round_starter(state: DiceState) -> int:
    """Deal the next round and return the seat that acts first in it."""
    deal_round(state)
    assert state.phase == Phase.TURN
    return state.current_player()


def test_d5_next_round_starter_after_row_emptied() -> None:
    # Seat 2 empties its row: it took the last roll, so it starts round 2.
    state = make_state(["1 2", "5 6", "3"], player=2, starter=0)
    act(state, "roll", "dice 3 1 1", "discard 3")
    assert state.round == 2 and state.phase == Phase.DEAL
    assert next_round_starter(state) == 2
    assert state.starter == 2


def test_d5_next_round_starter_after_llama_row_emptied_by_take() -> None:
    state = make_state(["1 2", "1 1", "5 6"], llama_row="4", player=1, starter=2)
    act(state, "roll", "dice 4 5 3", "take 4")
    assert state.round == 2
    assert next_round_starter(state) == 1


def test_d5_next_round_starter_after_bust() -> None:
    state = make_state(["1 2", "1 1", "5 6", "2"], llama_row="1 2 6", player=3, starter=0)
    act(state, "roll", "dice 4 5 3")
    assert state.round == 2
    assert next_round_starter(state) == 3


def test_d5_next_round_starter_after_all_quit() -> None:
    # The last to quit starts, not the seat after them and not the previous starter.
    state = make_state(["1 2", "1 1", "5 6", "2"], quit=[True, False, True, True], player=1)
    act(state, "quit")
    assert state.round == 2
    assert next_round_starter(state) == 1


def test_d5_next_round_starter_after_last_player_standing_busts() -> None:
    state = make_state(["1 2", "5 6", "6"], quit=[True, False, True], player=1, starter=2)
    act(state, "roll", "dice 3 1 4")
    assert state.round == 2
    assert next_round_starter(state) == 1


def test_d5_next_round_starter_after_empty_row_and_give_back() -> None:
    # The give-back (D-10) is not a roll or a quit: the seat that rolled still starts.
    state = make_state(["1 2", "5 6", "3"], scores=[4, 4, 15], player=2, starter=1)
    act(state, "roll", "dice 3 1 1", "discard 3")
    assert state.phase == Phase.GIVE_EMPTY
    act(state, "give black")
    assert next_round_starter(state) == 2


def test_d5_new_round_resets_rows_llama_row_and_quits() -> None:
    state = make_state(["1 2", "5 6", "3 4"], quit=[True, False, True], player=1)
    act(state, "quit")
    assert state.quit == [False, False, False]
    assert state.llama_row == [1] * 7
    assert state.setaside == [5, 5, 5, 5, 5, 5, 6]
    assert state.rows == [[0] * 7] * 3
    assert state.scores == [3, 11, 7]


# ------------------------------------------------------------------------------ D-6 turn


def test_d6_turn_is_roll_or_quit() -> None:
    state = make_state(["1 2", "5 6"])
    assert legal(state) == {"roll", "quit"}


def test_d6_clockwise_wrapping() -> None:
    state = make_state(["1 2", "5 6", "3 4", "2"], player=2)
    act(state, "roll", "dice L L L")  # no chips: nothing happens, next seat
    assert state.current_player() == 3
    act(state, "roll", "dice L L L")
    assert state.current_player() == 0  # wraps
    act(state, "roll", "dice 4 5 3", "take 4")
    assert state.current_player() == 1


def test_d6_skips_players_who_quit() -> None:
    state = make_state(["1 2", "5 6", "3 4", "2", "2 2"], quit=[False, True, True, False, True])
    act(state, "roll", "dice L L L")
    assert state.current_player() == 3
    act(state, "roll", "dice L L L")
    assert state.current_player() == 0
    act(state, "quit")
    assert state.current_player() == 3
    act(state, "roll", "dice L L L")
    assert state.current_player() == 3  # the only one left keeps rolling


def test_d6_quit_is_clockwise_too() -> None:
    state = make_state(["1 2", "5 6", "3 4"], player=2)
    act(state, "quit")
    assert state.current_player() == 0
    act(state, "quit")
    assert state.current_player() == 1
    act(state, "roll", "dice L L L")
    assert state.current_player() == 1  # seats 0 and 2 have quit


# ------------------------------------------------------------------------------ D-7 quit


def test_d7_quit_row_still_scores() -> None:
    state = make_state(["6 6 L", "1 2", "3 3 5"], quit=[True, True, False], player=2)
    assert state.observation(0)["quit"] == [True, True, False]
    act(state, "quit")
    assert state.round_points[-1] == [16, 3, 8]
    assert state.scores == [16, 3, 8]


def test_d7_quit_row_still_scores_when_another_seat_busts() -> None:
    state = make_state(["6 6 L", "1 2", "1"], quit=[True, False, False], player=1, llama_row="1 2")
    act(state, "roll", "dice 3 5 4")  # no match, nothing to take: bust
    assert state.round_points[-1] == [16, 3, 1]


def test_d7_quit_seat_takes_no_further_turn_and_keeps_its_row() -> None:
    state = make_state(["6 6 L", "1 2", "3"], player=0)
    act(state, "quit")
    for _ in range(4):
        assert state.current_player() in (1, 2)
        act(state, "roll", "dice L L L")
    assert row_text(state, 0) == "66L"
    assert state.legal_actions(0) == []


# ------------------------------------------------------------------------------ D-8.1 three llamas


def test_d8_1_three_llamas_no_discard_even_with_llamas_in_row() -> None:
    state = make_state(["L L 3", "5"], scores=[15, 0])
    act(state, "roll", "dice L L L")
    assert state.phase == Phase.GIVE_LLAMAS
    assert legal(state) == GIVE_ALL
    assert not any(a.startswith("discard") for a in legal(state))
    act(state, "give none")
    assert row_text(state, 0) == "3LL"
    assert state.current_player() == 1


def test_d8_1_three_llamas_no_discard_and_no_chips_nothing_happens() -> None:
    state = make_state(["L L 3", "5", "6"], scores=[0, 12, 3])
    before = state.to_dict()
    act(state, "roll", "dice L L L")
    # No decision is asked: the turn passes at once.
    assert state.phase == Phase.TURN
    assert state.current_player() == 1
    after = state.to_dict()
    for key in ("rows", "llama_row", "scores", "discards", "quit"):
        assert after[key] == before[key], key


def test_d8_1_three_llamas_takes_no_llama_row_card() -> None:
    # D-8.1 comes before D-8.3: no L in the row, an L in the llama row, still nothing taken.
    state = make_state(["1 2", "5"], scores=[0, 0])
    act(state, "roll", "dice L L L")
    assert state.llama_row == [1] * 7
    assert row_text(state, 0) == "12"


@pytest.mark.parametrize(
    ("give", "after"), [("give black", 5), ("give white", 14), ("give none", 15)]
)
def test_d8_1_three_llamas_give_back_choice(give: str, after: int) -> None:
    state = make_state(["L L 3", "5"], scores=[15, 20])
    act(state, "roll", "dice L L L", give)
    assert state.scores == [after, 20]
    assert state.phase == Phase.TURN
    assert state.current_player() == 1
    assert row_text(state, 0) == "3LL"


@pytest.mark.parametrize("score", [0, 12])
def test_d8_1_three_llamas_never_bust_for_last_player_standing(score: int) -> None:
    # Last player standing, no L in the row, L in the llama row: still not a bust (D-8.5).
    state = make_state(
        ["1 2", "3 3", "5"],
        quit=[True, False, True],
        player=1,
        llama_row="1 L",
        scores=[0, score, 0],
    )
    act(state, "roll", "dice L L L")
    if score:
        assert legal(state) == GIVE_ALL
        act(state, "give none")
    assert state.round == 1
    assert state.round_points == []
    assert row_text(state, 1) == "33"
    assert state.llama_row == counts("1L")
    assert state.phase == Phase.TURN
    assert state.current_player() == 1


# ------------------------------------------------------------------------------ D-8.2 match


def test_d8_2_example_exact_legal_discards() -> None:
    # the D-8.2 example of docs/rules.md: dice 3 3 L (die B cannot show a 3), row 3 3 3 L 5.
    state = make_state(["3 3 3 L 5", "1"])
    act(state, "roll", "dice 3 L 3")
    assert state.phase == Phase.DISCARD
    assert legal(state) == {
        "discard 3",
        "discard 3 3",
        "discard L",
        "discard 3 L",
        "discard 3 3 L",
    }


def test_d8_2_must_discard_at_least_one_card() -> None:
    state = make_state(["3 3 3 L 5", "1"])
    act(state, "roll", "dice 3 L 3")
    before = state.to_dict()
    for refused in ("roll", "quit", "give none", "take 1", "discard 3 3 3", "discard 5"):
        with pytest.raises(IllegalActionError, match=refused):
            act(state, refused)
        assert state.to_dict() == before


@pytest.mark.parametrize(
    ("row", "dice", "expected"),
    [
        ("5 5 5", "dice 5 5 1", {"discard 5", "discard 5 5"}),  # one card per die
        ("3", "dice 3 L 3", {"discard 3"}),  # two dice, but only one card in the row
        ("4 1", "dice 3 6 4", {"discard 4"}),  # a single die matches
        (
            "1 2 L",
            "dice L 2 1",
            {  # every die matches a different symbol
                "discard 1",
                "discard 2",
                "discard L",
                "discard 1 2",
                "discard 1 L",
                "discard 2 L",
                "discard 1 2 L",
            },
        ),
        (
            "6 6 L",
            "dice 6 6 L",
            {
                "discard 6",
                "discard 6 6",
                "discard L",
                "discard 6 L",
                "discard 6 6 L",
            },
        ),
    ],
)
def test_d8_2_each_die_allows_one_card_of_its_symbol(
    row: str, dice: str, expected: set[str]
) -> None:
    state = make_state([row, "2"])
    act(state, "roll", dice)
    assert legal(state) == expected


def test_d8_2_discard_removes_the_cards_and_passes_the_turn() -> None:
    state = make_state(["3 3 3 L 5", "1"])
    act(state, "roll", "dice 3 L 3", "discard 3 3")
    assert row_text(state, 0) == "35L"
    assert state.discards[2] >= 2
    assert state.current_player() == 1
    assert state.llama_row == [1] * 7


def test_d8_2_match_comes_before_taking_from_the_llama_row() -> None:
    state = make_state(["4 1", "2"])
    act(state, "roll", "dice 3 6 4")
    assert state.phase == Phase.DISCARD
    assert not any(a.startswith("take") for a in legal(state))


# ------------------------------------------------------------------------------ D-8.3 take


def test_d8_3_take_exactly_one_of_the_rolled_symbols() -> None:
    state = make_state(["1 2 2", "1"])
    act(state, "roll", "dice 3 5 4")
    assert state.phase == Phase.TAKE
    assert legal(state) == {"take 3", "take 4", "take 5"}
    act(state, "take 5")
    assert row_text(state, 0) == "1225"
    assert state.llama_row == counts("12346L")
    assert state.current_player() == 1
    assert state.round == 1


def test_d8_3_only_symbols_still_in_the_llama_row() -> None:
    state = make_state(["1 2 2", "1"], llama_row="1 2 4 6 L")
    act(state, "roll", "dice 3 5 4")
    assert legal(state) == {"take 4"}
    before = state.to_dict()
    with pytest.raises(IllegalActionError, match="take 3"):
        act(state, "take 3")
    assert state.to_dict() == before


def test_d8_3_rolled_llama_can_be_taken() -> None:
    state = make_state(["2 2", "1"], llama_row="5 L")
    act(state, "roll", "dice L 1 3")
    assert legal(state) == {"take L"}
    act(state, "take L")
    assert row_text(state, 0) == "22L"
    assert state.llama_row == counts("5")


def test_d8_3_doubled_symbol_still_one_card() -> None:
    state = make_state(["2 2", "1"])
    act(state, "roll", "dice 5 5 4")
    assert legal(state) == {"take 4", "take 5"}
    act(state, "take 5")
    assert row_text(state, 0) == "225"


# ------------------------------------------------------------------------------ D-8.4 bust


def test_d8_4_bust_takes_the_whole_llama_row_and_ends_the_round() -> None:
    state = make_state(["1 2", "3", "5 5"], llama_row="1 2 6 L", player=0)
    act(state, "roll", "dice 3 5 4")
    # Row 1 2 + llama row 1 2 6 L scores 1 + 2 + 6 + 10 = 19; seats 1 and 2 had no turn.
    assert state.round_points[-1] == [19, 3, 5]
    assert state.scores == [19, 3, 5]
    assert state.round == 2
    assert state.phase == Phase.DEAL


def test_d8_4_bust_cards_stay_accounted_for() -> None:
    state = make_state(["1 2", "3", "5 5"], llama_row="1 2 6 L", player=0)
    act(state, "roll", "dice 3 5 4")
    assert sum(cards_everywhere(state)) == 43


def test_d8_4_bust_final_state_when_game_ends() -> None:
    # With the game over the rows stay visible: the buster holds the llama row.
    state = make_state(["1 2", "3", "5 5"], llama_row="1 2 6 L", scores=[30, 0, 0])
    act(state, "roll", "dice 3 5 4")
    assert state.is_terminal()
    assert row_text(state, 0) == "11226L"
    assert state.llama_row == [0] * 7


# ------------------------------------------------------------------------------ D-8.5 last standing


def test_d8_5_last_player_standing_busts_even_if_llama_row_holds_a_rolled_symbol() -> None:
    state = make_state(["1 2", "5 6", "6"], quit=[True, False, True], player=1, scores=[0, 30, 0])
    act(state, "roll", "dice 3 1 4")
    # The whole llama row (1..6 and L) joins row 5 6: 1+2+3+4+5+6+10 = 31.
    assert state.round_points[-1] == [3, 31, 6]
    assert state.is_terminal()
    assert row_text(state, 1) == "12345566L"


def test_d8_5_last_player_standing_still_discards_on_a_match() -> None:
    state = make_state(["1 2", "5 6", "6"], quit=[True, False, True], player=1)
    act(state, "roll", "dice 5 1 4")
    assert legal(state) == {"discard 5"}


def test_d8_5_not_last_standing_takes_instead() -> None:
    state = make_state(["1 2", "5 6", "6"], quit=[True, False, False], player=1)
    act(state, "roll", "dice 3 1 4")
    assert legal(state) == {"take 1", "take 3", "take 4"}


def test_d8_5_applies_in_two_player_games() -> None:
    state = make_state(["1 2", "5 6"], quit=[False, True], player=0)
    act(state, "roll", "dice 3 5 4")
    assert state.round_points[-1] == [31, 11]


# ------------------------------------------------------------------------------ D-9 round end


def test_d9_round_ends_when_a_row_is_emptied() -> None:
    state = make_state(["3 L", "1", "2"], player=0)
    act(state, "roll", "dice 3 L 3", "discard 3 L")
    assert state.round_points == [[0, 1, 2]]
    assert state.round == 2


def test_d9_round_goes_on_while_the_row_holds_cards() -> None:
    state = make_state(["3 3 L", "1", "2"], player=0)
    act(state, "roll", "dice 3 L 3", "discard 3 L")
    assert state.round == 1
    assert state.current_player() == 1


def test_d9_round_ends_when_the_llama_row_is_emptied_by_taking_its_last_card() -> None:
    state = make_state(["1 1", "1", "2"], llama_row="4", player=0)
    act(state, "roll", "dice 4 5 3", "take 4")
    assert state.round_points == [[5, 1, 2]]
    assert state.round == 2


def test_d9_round_goes_on_after_a_take_that_leaves_cards() -> None:
    state = make_state(["1 1", "1", "2"], llama_row="4 6", player=0)
    act(state, "roll", "dice 4 5 3", "take 4")
    assert state.round == 1
    assert state.llama_row == counts("6")


def test_d9_round_ends_when_the_llama_row_is_emptied_by_a_bust() -> None:
    state = make_state(["1 1", "1", "2"], llama_row="6", player=0)
    act(state, "roll", "dice 4 5 3")
    assert state.round_points == [[7, 1, 2]]


def test_d9_round_ends_when_every_player_has_quit() -> None:
    state = make_state(["1 1", "1", "2"], quit=[True, False, True], player=1)
    act(state, "quit")
    assert state.round_points == [[1, 1, 2]]
    assert state.round == 2


def test_d9_round_goes_on_while_someone_has_not_quit() -> None:
    state = make_state(["1 1", "1", "2"], quit=[True, False, False], player=1)
    act(state, "quit")
    assert state.round == 1
    assert state.current_player() == 2


# ------------------------------------------------------------------------------ D-10 scoring


@pytest.mark.parametrize(
    ("row", "points"),
    [
        ("6 6 6 L L 2", 18),  # the D-10 example of docs/rules.md
        ("", 0),
        ("L", 10),
        ("L L L L L L L", 10),
        ("1 1 1 1 1", 1),
        ("1 2 3 4 5 6", 21),
        ("1 2 3 4 5 6 L", 31),
        ("3 3 5 L", 18),
    ],
)
def test_d10_row_scores_distinct_numbers_plus_10_for_llamas(row: str, points: int) -> None:
    assert row_score(counts(row)) == points


def test_d10_scoring_example_through_a_round() -> None:
    state = make_state(["6 6 6 L L 2", "1"], quit=[False, True], scores=[3, 0])
    assert state.row_score(0) == 18
    act(state, "quit")
    assert state.round_points == [[18, 1]]
    assert state.scores == [21, 1]


def test_d10_empty_row_scores_0_and_may_give_back_a_chip() -> None:
    state = make_state(["3", "1 5", "2"], scores=[15, 0, 0])
    act(state, "roll", "dice 3 1 1", "discard 3")
    assert state.round_points == [[0, 6, 2]]
    assert state.phase == Phase.GIVE_EMPTY
    assert state.current_player() == 0
    assert legal(state) == GIVE_ALL
    act(state, "give black")
    assert state.scores == [5, 6, 2]
    phase: Phase = state.phase  # read anew: mypy would keep the narrowing from before the act
    assert phase == Phase.DEAL


@pytest.mark.parametrize(
    ("score", "options"), [(10, {"give black", "give none"}), (4, {"give white", "give none"})]
)
def test_d10_empty_row_give_back_options_follow_d4(score: int, options: set[str]) -> None:
    state = make_state(["3", "1 5"], scores=[score, 0])
    act(state, "roll", "dice 3 1 1", "discard 3")
    assert legal(state) == options


def test_d10_empty_row_without_chips_asks_nothing() -> None:
    state = make_state(["3", "1 5", "2"], scores=[0, 7, 0])
    act(state, "roll", "dice 3 1 1", "discard 3")
    assert state.round_points == [[0, 6, 2]]
    assert state.phase == Phase.DEAL
    assert state.scores == [0, 13, 2]


# ------------------------------------------------------------------------------ D-11 game end


def test_d11_game_ends_when_a_score_reaches_40() -> None:
    state = make_state(["1", "6", "2"], quit=[True, False, True], player=1, scores=[5, 34, 9])
    act(state, "quit")
    assert state.scores == [6, 40, 11]
    assert state.is_terminal()
    assert state.current_player() == TERMINAL_PLAYER
    assert state.phase == Phase.OVER
    assert state.winners() == [0]
    assert state.returns() == [1.0, 0.0, 0.0]
    assert state.legal_actions() == []
    with pytest.raises(IllegalActionError):
        state.apply_action(0)


def test_d11_game_goes_on_below_the_threshold() -> None:
    state = make_state(["1", "5", "2"], quit=[True, False, True], player=1, scores=[5, 34, 9])
    act(state, "quit")
    assert state.scores == [6, 39, 11]
    assert not state.is_terminal()
    assert state.winners() == []
    assert state.returns() == [0.0, 0.0, 0.0]


@pytest.mark.parametrize(
    ("end_score", "before", "over"),
    [(10, 5, True), (11, 5, False), (39, 35, True), (40, 35, True), (41, 35, False)],
)
def test_d11_threshold_is_a_parameter(end_score: int, before: int, over: bool) -> None:
    # Scores below the end score while the round is on (a higher one is refused, D-11).
    state = make_state(
        ["1", "5", "2"], quit=[True, False, True], player=1, scores=[5, before, 1],
        end_score=end_score,
    )  # fmt: skip
    assert state.game.params["end_score"] == end_score
    act(state, "quit")
    assert state.scores == [6, before + 5, 3]
    assert state.is_terminal() is over


def test_d11_lowest_score_wins_and_ties_all_win() -> None:
    state = make_state(
        ["1", "6", "2", "L"], quit=[True, False, True, True], player=1, scores=[4, 34, 3, 0]
    )
    act(state, "quit")
    assert state.scores == [5, 40, 5, 10]
    assert state.winners() == [0, 2]
    assert state.returns() == [1.0, 0.0, 1.0, 0.0]


def test_d11_empty_row_give_back_comes_before_the_winners() -> None:
    # Seat 0 empties its row while seat 1 goes over 40: seat 0 may give back a chip first
    # (D-10 scoring), so the tie at 5 becomes a win for seat 0 alone.
    state = make_state(["3", "6 L", "2"], scores=[5, 30, 3], player=0)
    act(state, "roll", "dice 3 1 1", "discard 3")
    assert state.phase == Phase.GIVE_EMPTY
    assert not state.is_terminal()
    act(state, "give white")
    assert state.is_terminal()
    assert state.scores == [4, 46, 5]
    assert state.winners() == [0]


def test_d11_everyone_can_win_a_tie() -> None:
    state = make_state(["6", "6"], quit=[True, False], player=1, scores=[34, 34])
    act(state, "quit")
    assert state.winners() == [0, 1]
    assert state.returns() == [1.0, 1.0]
