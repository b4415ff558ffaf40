"""The ``exact`` LAMA Dice bot plays the solver's policy where it is exact."""

from __future__ import annotations

from typing import Any

import pytest

from lamagames.bots.base import bot_kinds, make_bot
from lamagames.bots.dice_exact import DiceExactBot
from lamagames.bots.dice_search import DiceSearchBot
from lamagames.dice.game import DiceGame
from lamagames.dice.hints import hints
from lamagames.dice.rules import Phase
from tests.dice.helpers import make_state


def test_exact_is_a_dice_bot_kind() -> None:
    state = make_state(["3", "5"], llama_row="1L")
    assert "exact" in bot_kinds("dice")
    assert isinstance(make_bot("exact", state.game, 0), DiceExactBot)


@pytest.mark.parametrize(
    ("rows", "llama_row", "phase", "dice", "scores"),
    [
        (["33L", "6"], "12", None, None, [0, 0]),  # D-8.5 roll or quit
        (["335L", "6"], "12", Phase.DISCARD, "33L", [0, 0]),  # D-8.2 which cards
        (["5L", "6"], "1", Phase.GIVE_LLAMAS, "LLL", [11, 0]),  # D-8.1 which chip
    ],
)
def test_last_standing_bot_takes_the_best_hint(
    rows: list[str], llama_row: str, phase: int | None, dice: str | None, scores: list[int]
) -> None:
    extra: dict[str, Any] = {} if phase is None else {"phase": phase, "dice": dice}
    state = make_state(rows, llama_row=llama_row, quit=[False, True], scores=scores, **extra)
    bot = DiceExactBot(state.game, 0)
    best = [h for h in hints(state, 0) if h.best]
    assert bot.step(state) == best[0].action
    assert bot.last_basis == "exact"


def test_two_player_bot_maximises_the_exact_margin() -> None:
    state = make_state(["3", "5"], llama_row="1L")
    bot = DiceExactBot(state.game, 0)
    out = hints(state, 0)
    assert bot.step(state) == max(out, key=lambda h: h.margin or 0.0).action
    assert bot.last_basis == "exact"


def test_many_players_fall_back_to_the_search_bot() -> None:
    state = make_state(["3L", "5", "6"], llama_row="12L")
    bot = DiceExactBot(state.game, 0, seed=4)
    assert bot.step(state) == DiceSearchBot(state.game, 0, seed=4).step(state)
    assert bot.last_basis == "search"


def test_last_standing_beyond_the_size_budget_falls_back_to_search() -> None:
    # end_score may be up to 10000: a last-standing table for score 9995 would need 10000
    # score levels (about 3.6 GB, a MemoryError before); the bot plays the search bot's move.
    game = DiceGame(num_players=2, end_score=10_000)
    state = game.build_state(rows=["3 3 L", "6"], llama_row="1 2", scores=[9995, 0], quit_seats=[1])
    bot = DiceExactBot(game, 0, seed=4)
    assert bot.step(state) == DiceSearchBot(game, 0, seed=4).step(state)
    assert bot.last_basis == "search"
    # Within the budget (score 95 < 100 levels) the same position stays exact.
    exact = game.build_state(rows=["3 3 L", "6"], llama_row="1 2", scores=[95, 0], quit_seats=[1])
    assert bot.step(exact) == next(h.action for h in hints(exact, 0) if h.best)
    assert bot.last_basis == "exact"
