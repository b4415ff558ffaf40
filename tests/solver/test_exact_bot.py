"""The ``exact`` LAMA Dice bot plays the solver's policy where it is exact."""

from __future__ import annotations

from typing import Any

import pytest

from lamagames.bots.base import bot_kinds, make_bot
from lamagames.bots.dice_exact import DiceExactBot
from lamagames.bots.dice_search import DiceSearchBot
from lamagames.core import make
from lamagames.core.errors import IllegalActionError
from lamagames.core.rng import make_rng
from lamagames.dice.game import DiceGame
from lamagames.dice.hints import hints
from lamagames.dice.rules import Phase
from lamagames.dice.solver.last_standing import LastStandingSolver
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


def test_last_standing_beyond_the_size_budget_falls_back_to_search(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # end_score may be up to 10000: at score 9995 the table of the seat's own rows has 1005
    # score levels (the greedy chain) of 6 rows, well within the budget, so the bot stays
    # exact (the one-player tables stop at score 99); a table over the budget (here made
    # tiny) plays the search bot's move.
    from lamagames.dice.solver import seat_table

    game = DiceGame(num_players=2, end_score=10_000)
    state = game.build_state(rows=["3 3 L", "6"], llama_row="1 2", scores=[9995, 0], quit_seats=[1])
    at_95 = game.build_state(rows=["3 3 L", "6"], llama_row="1 2", scores=[95, 0], quit_seats=[1])
    bot = DiceExactBot(game, 0, seed=4)
    # only a tenth black chip back in one round tells 9995 from 95: the same choice
    assert bot.step(state) == next(h.action for h in hints(at_95, 0) if h.best)
    assert bot.last_basis == "exact"
    monkeypatch.setattr(seat_table, "MAX_SEAT_WORK", 6 * 1005 - 1)
    over = DiceExactBot(game, 0, seed=4)
    assert over.step(state) == DiceSearchBot(game, 0, seed=4).step(state)
    assert over.last_basis == "search"


# ---------------------------------------------------------------- solving ahead (issue 18)
def _play_rounds(seed: int, mode: str, rounds: int) -> list[tuple[int, int]]:
    """Moves of ``exact`` (seat 0) against ``heuristic`` over the first ``rounds`` rounds
    of a seeded two-player game. ``mode``: ``"plain"`` (no prepare), ``"eager"`` (prepare
    at every position, step at once: it waits for the background solve) or ``"settled"``
    (prepare, then let the background solve finish before anything else)."""
    game = DiceGame(num_players=2)
    exact = DiceExactBot(game, 0, seed)
    other = make_bot("heuristic", game, 1, seed)
    rng = make_rng(seed, "chance")
    state = game.new_initial_state()
    moves: list[tuple[int, int]] = []
    while not state.is_terminal() and state.round < rounds:
        player = state.current_player()
        if player < 0:
            state.apply_action(state.sample_chance_outcome(rng))
            continue
        if mode != "plain":
            exact.prepare(state)
            if mode == "settled" and exact._ahead is not None:
                exact._ahead.join()
        action = (exact if player == 0 else other).step(state)
        moves.append((player, action))
        state.apply_action(action)
    return moves


def test_prepare_does_not_change_the_moves() -> None:
    plain = _play_rounds(5, "plain", rounds=1)
    assert plain == _play_rounds(5, "eager", rounds=1)
    assert plain == _play_rounds(5, "settled", rounds=1)


@pytest.mark.slow
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_prepare_does_not_change_the_moves_over_rounds(seed: int) -> None:
    plain = _play_rounds(seed, "plain", rounds=3)
    assert plain == _play_rounds(seed, "eager", rounds=3)
    assert plain == _play_rounds(seed, "settled", rounds=3)


@pytest.mark.parametrize("actor", [0, 1])
def test_prepare_solves_the_round_start_table_that_step_then_uses(actor: int) -> None:
    # A fresh deal, own seat or the opponent to act first: prepare solves the table rooted
    # there in the background; step's decisions of the round need no second solve.
    state = make_state(["123456", "1123LL"], llama_row="4", player=actor)
    bot = DiceExactBot(state.game, 0)
    bot.prepare(state)
    assert bot.preparing() or bot._two.tables
    assert bot._ahead is not None
    bot._ahead.join()
    assert not bot.preparing()
    (table,) = bot._two.tables
    assert table.find(*bot._key(state, actor)) is not None
    bot.prepare(state)  # already solved: no second thread
    assert bot._ahead is None or not bot._ahead.is_alive()
    if actor == 0:
        bot.step(state)
        assert bot.last_basis == "exact"
        assert bot._two.tables == [table]
    else:
        # Seat 0's own position (same rows, its turn: after three llamas kept, D-8.1) read
        # from the table rooted at seat 1's turn equals, bit for bit, a solve rooted there.
        own = bot._key(state, 0)
        fresh = bot._new_two_player()
        assert bot._two.roll_outcome(own) == fresh.roll_outcome(own)
        assert bot._two.quit_outcome(own) == fresh.quit_outcome(own)
        assert len(fresh.tables) == 1 and fresh.tables[0] is not table


def test_prepare_does_nothing_where_no_two_player_solve_is_needed() -> None:
    many = make_state(["3L", "5", "6"], llama_row="12L")
    bot = DiceExactBot(many.game, 0)
    bot.prepare(many)  # three players: the search bot decides
    assert bot._ahead is None
    other = make_state(["33L", "6"], llama_row="12", quit=[True, False], player=1)
    bot = DiceExactBot(other.game, 0)
    bot.prepare(other)  # D-8.5: the bot's own seat has quit, it has nothing left to decide
    assert bot._ahead is None and not bot.preparing()


@pytest.mark.parametrize("phase", [None, Phase.DISCARD, Phase.GIVE_LLAMAS])
def test_prepare_leaves_the_last_player_standing_to_step(phase: Phase | None) -> None:
    # D-8.5: once every other seat has quit, step solves a table of the seat's own rows in
    # well under a millisecond, so prepare starts nothing (it used to solve a one-player
    # table of the llama row, 0.5-2.7 s); the move is the one-player table's best.
    extra: dict[str, Any] = {} if phase is None else {"phase": phase, "dice": "LLL"}
    if phase == Phase.DISCARD:
        extra["dice"] = "33L"
    alone = make_state(["335L", "6"], llama_row="12", quit=[False, True], scores=[23, 4], **extra)
    bot = DiceExactBot(alone.game, 0)
    bot.prepare(alone)
    assert bot._ahead is None and not bot.preparing()
    assert bot.step(alone) == next(h.action for h in hints(alone, 0) if h.best)
    assert bot.last_basis == "exact"


def test_has_table_answers_only_what_is_in_memory() -> None:
    solver = LastStandingSolver(use_disk_cache=False)
    assert not solver.has_table(0b11, 5)
    solver.table(0b11, 5)  # levels rounded up to a block: scores 0 .. block - 1
    assert solver.has_table(0b11, 0) and solver.has_table(0b11, 5)
    assert not solver.has_table(0b11, 10_000) and not solver.has_table(0b101, 5)
    assert not solver.has_table(0, 5) and not solver.has_table("x", 5)  # type: ignore[arg-type]
    assert not solver.has_table(0b11, -1)


def test_prepare_refuses_another_games_state() -> None:
    state = make_state(["3", "5"], llama_row="1L")
    bot = DiceExactBot(state.game, 0)
    express = make("express", num_players=2).new_initial_state()
    with pytest.raises(IllegalActionError, match="LAMA Dice state is needed"):
        bot.prepare(express)
    assert bot._ahead is None


def test_prepare_solves_again_when_a_roll_needs_a_level_pair_the_table_lacks() -> None:
    # D-8.1: the table rooted at scores 21/0 keeps 21/0 and one give-back below (11/0); a
    # roll at 11/0 may need 1/0 after a second give-back, which it lacks: prepare solves
    # from there (step would have, in front of the player).
    first = make_state(["35", "56"], llama_row="1L", scores=[21, 0])
    bot = DiceExactBot(first.game, 0)
    bot.prepare(first)
    assert bot._ahead is not None
    bot._ahead.join()
    later = make_state(["35", "56"], llama_row="1L", scores=[11, 0])
    (table,) = bot._two.tables
    assert table.find(*bot._key(later, 0)) is not None
    bot.prepare(later)
    assert bot._ahead is not None
    bot._ahead.join()
    assert len(bot._two.tables) == 2
    bot.step(later)
    assert len(bot._two.tables) == 2  # the decision needed no solve of its own


def test_prepare_after_its_own_roll_solves_what_step_would_in_the_same_order() -> None:
    # D-8.2: after a match the queries are the positions each discard leaves; prepare runs
    # them ahead (the turn's table may have been over the budget), step then solves nothing.
    state = make_state(["335L", "6"], llama_row="12", phase=Phase.DISCARD, dice="33L")
    plain = DiceExactBot(state.game, 0)
    ahead = DiceExactBot(state.game, 0)
    ahead.prepare(state)
    assert ahead._ahead is not None
    ahead._ahead.join()
    solved = ahead._two.tables
    assert solved
    assert ahead.step(state) == plain.step(state)
    assert ahead._two.tables == solved  # nothing solved in front of the player
    roots = [(t.space.a0, t.space.b0, t.space.mask0, t.scores) for t in plain._two.tables]
    assert [(t.space.a0, t.space.b0, t.space.mask0, t.scores) for t in solved] == roots
