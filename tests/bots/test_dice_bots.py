"""LAMA Dice bots: the benchmark policy exactly as specified, and the heuristic's sanity."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lamagames.bots.base import make_bot
from lamagames.core import IllegalActionError, make
from lamagames.dice.actions import (
    DISCARD_BASE,
    DISCARDS,
    GIVE_BLACK,
    GIVE_WHITE,
    QUIT,
    ROLL,
    TAKE_BASE,
    string_to_chance,
    string_to_player_action,
)
from lamagames.dice.game import DiceGame, DiceState
from lamagames.sim.runner import play_game


def _position(
    rows: list[str], dice: str | None = None, scores: list[int] | None = None
) -> DiceState:
    """Seat 0 to act with the given rows (symbols), after rolling ``dice`` if given."""
    game = DiceGame(num_players=len(rows))
    state = game.new_initial_state()
    for row in rows:
        state.apply_action(string_to_chance(f"deal {row}"))
    if scores:
        data = state.to_dict()
        data["scores"] = scores
        state = game.state_from_dict(data)
    if dice is not None:
        state.apply_action(ROLL)
        state.apply_action(string_to_chance(f"dice {dice}"))
    return state


def test_benchmark_quits_at_six_or_less_and_rolls_above() -> None:
    game = make("dice", num_players=2)
    bot = make_bot("benchmark", game, 0)
    assert bot.step(_position(["111222", "4455LL"])) == QUIT  # 1 + 2 = 3 points
    assert bot.step(_position(["111555", "4455LL"])) == QUIT  # 1 + 5 = 6 points
    assert bot.step(_position(["111333", "4455LL"])) == QUIT  # 4 points
    assert bot.step(_position(["111665", "4455LL"])) == ROLL  # 12 points


def test_benchmark_discards_as_many_as_the_dice_allow() -> None:
    # docs/rules.md D-8.2 example: dice 3 3 L, row 3 3 3 L 5 -> two 3s and the L.
    state = _position(["333L55", "111222"], dice="3 L 3")
    action = make_bot("benchmark", state.game, 0).step(state)
    assert action >= DISCARD_BASE
    assert state.action_to_string(action) == "discard 3 3 L"
    assert sum(DISCARDS[action - DISCARD_BASE]) == 3


def test_benchmark_takes_lowest_number_before_llama() -> None:
    state = _position(["111222", "4455LL"], dice="L 5 4")
    assert state.legal_actions() == [TAKE_BASE + 3, TAKE_BASE + 4, TAKE_BASE + 6]
    assert state.action_to_string(make_bot("benchmark", state.game, 0).step(state)) == "take 4"


def test_benchmark_gives_black_before_white() -> None:
    state = _position(["111222", "4455LL"], dice="L L L", scores=[13, 0])
    assert make_bot("benchmark", state.game, 0).step(state) == GIVE_BLACK
    state = _position(["111222", "4455LL"], dice="L L L", scores=[7, 0])
    assert make_bot("benchmark", state.game, 0).step(state) == GIVE_WHITE


def test_heuristic_takes_the_cheapest_card_on_no_match() -> None:
    # No match; the llama row offers 3, 4 and L: the 3 adds the fewest minus points.
    state = _position(["111222", "444555"], dice="3 L 4")
    action = make_bot("heuristic", state.game, 0).step(state)
    assert state.action_to_string(action) == "take 3"


def test_heuristic_empties_a_symbol_when_the_dice_allow() -> None:
    # Row 6 6 1 1 2 2, dice 6 6 1: discarding both 6s saves 6 points; keeping one saves none.
    state = _position(["661122", "444555"], dice="6 6 1")
    action = make_bot("heuristic", state.game, 0).step(state)
    text = state.action_to_string(action)
    assert text.startswith("discard") and text.count("6") == 2


def test_bots_refuse_a_foreign_state() -> None:
    game = make("dice", num_players=2)
    other = make("dice", num_players=2)
    bot = make_bot("benchmark", game, 0)
    assert bot.step(
        other.new_initial_state()
        .child(string_to_chance("deal 111222"))
        .child(string_to_chance("deal 333444"))
    ) in (ROLL, QUIT)
    with pytest.raises(IllegalActionError):
        make_bot("heuristic", game, 0).step(object())  # type: ignore[arg-type]


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10**9), players=st.integers(2, 6))
def test_every_bot_only_plays_legal_actions(seed: int, players: int) -> None:
    game = make("dice", num_players=players)
    kinds = ["heuristic", "benchmark", "random"]
    bots = [make_bot(kinds[s % 3], game, s, seed) for s in range(players)]
    state = play_game(game, bots, seed).state  # apply_action validates every move
    assert isinstance(state, DiceState)
    assert state.is_terminal()
    assert max(state.scores) >= 40


def test_give_actions_are_black_white_none_in_that_order() -> None:
    assert string_to_player_action("give black") < string_to_player_action("give white")
    assert string_to_player_action("give white") < string_to_player_action("give none")


def test_heuristic_bots_share_their_memo_without_changing_a_move() -> None:
    """Heuristic bots of games with the same dice share one memo of roll values (a web
    server runs hundreds at once); a game played with a warm memo is the same game as with
    a cold one, and the memo starts again past its size limit."""
    from lamagames.bots import dice as dice_bots

    game = make("dice", num_players=3)

    def moves() -> list[tuple[int, int]]:
        bots = [make_bot("heuristic", game, s, 7) for s in range(3)]
        assert all(b._memo is bots[0]._memo for b in bots)  # type: ignore[attr-defined]
        return list(play_game(game, bots, 11).state.history())

    dice_bots._SHARED_MEMO.clear()
    cold = moves()
    memo = next(iter(dice_bots._SHARED_MEMO.values()))
    assert memo  # warmed by that game
    assert moves() == cold
    memo.update({((i,), (), False, 0): 0.0 for i in range(dice_bots._MEMO_LIMIT + 1)})
    make_bot("heuristic", game, 0, 7)
    assert not memo  # past the limit: cleared by the next bot made
    assert moves() == cold
