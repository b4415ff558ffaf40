"""LAMA Dice bots: the benchmark policy exactly as specified, and the heuristic's sanity."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tests.dice.helpers import golden_playthrough

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
from lamagames.dice.game import DiceGame
from lamagames.dice.state import DiceState
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


def _no_warm_up_running() -> None:
    """Wait for web servers' background warm-ups (they turn the compiled path on)."""
    import threading

    for thread in threading.enumerate():
        if thread.name == "lama-warm-bots":
            thread.join(120)


def _heuristic_positions(games: int, players: int, dice: list[str] | None) -> list[DiceState]:
    """Every position of ``games`` random games where a player decides (seeded)."""
    import random

    kwargs: dict[str, object] = {"num_players": players}
    if dice is not None:
        kwargs["dice"] = dice
    game = make("dice", **kwargs)
    rng = random.Random(players * 1000 + games)
    found: list[DiceState] = []
    for _ in range(games):
        state = game.new_initial_state()
        assert isinstance(state, DiceState)
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                actions = [a for a, _ in outcomes]
                state.apply_action(rng.choices(actions, [p for _, p in outcomes])[0])
                continue
            found.append(state.clone())
            state.apply_action(rng.choice(state.legal_actions(state.current_player())))
    return found


@pytest.mark.parametrize(
    ("players", "dice"), [(2, None), (3, None), (4, ["LL1234", "LL3456", "LL1256"])]
)
def test_compiled_heuristic_makes_the_python_heuristics_decisions_d8_d10(
    players: int, dice: list[str] | None
) -> None:
    """With numba, the heuristic's roll values come from the compiled
    ``batch_heuristic.roll_value`` (a web server's bots): on thousands of positions of
    random games (roll or quit D-7/D-8, discards D-8.2, takes D-8.3, last standing D-8.5,
    chips D-10) every decision and every roll value equals the Python lookahead's, float
    for float."""
    from lamagames.bots import dice as dice_bots

    _no_warm_up_running()
    positions = _heuristic_positions(90, players, dice)
    assert len(positions) > 1000
    firsts = {s.legal_actions(s.current_player())[0] for s in positions}
    assert ROLL in firsts and GIVE_BLACK in firsts  # turns and chips
    assert any(a >= DISCARD_BASE for a in firsts) and any(TAKE_BASE <= a < 9 for a in firsts)
    game = positions[0].game
    compiled = make_bot("heuristic", game, 0, 1)
    python = make_bot("heuristic", game, 0, 1)
    compiled._memo = {}  # type: ignore[attr-defined]
    python._memo = {}  # type: ignore[attr-defined]
    checked = 0
    try:
        for state in positions:
            seat = state.current_player()
            compiled.seat = python.seat = seat
            assert dice_bots.use_compiled_heuristic(True)
            fast = compiled.step(state)
            dice_bots.use_compiled_heuristic(False)
            assert python.step(state) == fast, state.to_dict()
            checked += 1
    finally:
        dice_bots.use_compiled_heuristic(False)
    assert checked == len(positions)
    fast_memo = compiled._memo  # type: ignore[attr-defined]
    slow_memo = python._memo  # type: ignore[attr-defined]
    assert len(fast_memo) > 500
    assert fast_memo == slow_memo  # the same keys, bit-identical values


def test_compiled_heuristic_is_used_once_warm(monkeypatch: pytest.MonkeyPatch) -> None:
    """``warm_compiled_heuristic`` turns the compiled path on (the Python lookahead is not
    called any more); ``use_compiled_heuristic(False)`` turns it off again."""
    from lamagames.bots import dice as dice_bots

    _no_warm_up_running()
    state = _position(["111665", "4455LL"])
    bot = make_bot("heuristic", state.game, 0, 1)
    bot._memo = {}  # type: ignore[attr-defined]
    calls: list[object] = []
    from lamagames.dice.rules import roll_result as original

    def counting(*args: Any, **kwargs: Any) -> Any:
        calls.append(args)
        return original(*args, **kwargs)

    monkeypatch.setattr(dice_bots, "roll_result", counting)
    try:
        assert dice_bots.warm_compiled_heuristic()
        assert dice_bots.warm_compiled_heuristic()  # again: at once
        bot.step(state)
        assert calls == []
        dice_bots.use_compiled_heuristic(False)
        bot._memo = {}  # type: ignore[attr-defined]
        bot.step(state)
        assert calls
    finally:
        dice_bots.use_compiled_heuristic(False)


def test_benchmark_bot_makes_every_choice_of_the_golden_playthrough() -> None:
    """The golden file was played by three ``benchmark`` bots: replayed through the scalar
    engine, the bot must choose the file's action at each of its 148 decisions (a broken
    rule primitive changes what it sees or may do, and this fails with it)."""
    params, steps, final_scores = golden_playthrough()
    game = DiceGame(**params)  # type: ignore[arg-type]
    state = game.new_initial_state()
    bots = [make_bot("benchmark", game, seat, 0) for seat in range(game.num_players)]
    for player, action, _ in steps:
        assert state.current_player() == player
        if player >= 0:
            assert bots[player].step(state) == action
        state.apply_action(action)
    assert state.is_terminal() and state.to_dict()["scores"] == final_scores


def test_in_kernel_benchmark_quits_at_the_bots_threshold() -> None:
    """The batch engine's benchmark policy keeps its own copy of the threshold (a compiled
    constant): it must be the bot's."""
    from lamagames.bots.dice import BENCHMARK_QUIT_AT
    from lamagames.dice.batch_kernel import QUIT_AT

    assert QUIT_AT == BENCHMARK_QUIT_AT
