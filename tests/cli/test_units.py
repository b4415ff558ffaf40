"""Direct tests of the pieces behind ``lama``: prompt parsing, dice rendering, narration,
batch statistics and the view registry."""

from __future__ import annotations

import io

import pytest
from rich.console import Console

from lamagames.cli.session import interpret, winners_line
from lamagames.cli.views import GameView, get_view, view_ids
from lamagames.core.errors import LamaError, ParameterError
from lamagames.core.game import Game, State
from lamagames.core.records import SeatInfo
from lamagames.core.registry import make
from lamagames.dice import render
from lamagames.dice.actions import DISCARD_ID, QUIT, ROLL
from lamagames.dice.game import DiceGame
from lamagames.dice.state import DiceState
from lamagames.sim.runner import GameResult
from lamagames.sim.stats import Mean, Metric, StatsCollector, Total

NAMES = ["Ann", "Bob"]


def dealt(*hands: str, **params: object) -> DiceState:
    """A dice state after dealing ``hands`` (notation ``11235L``), ready for the first turn."""
    state = make("dice", num_players=len(hands), **params).new_initial_state()
    assert isinstance(state, DiceState)
    for hand in hands:
        state.apply_action(state.string_to_action(f"deal {hand}"))
    return state


def play(state: DiceState, *moves: str) -> list[str]:
    """Apply moves (player notation, or ``dice ...`` for the roll) and narrate each one."""
    lines: list[str] = []
    for move in moves:
        before = state.clone()
        player = state.current_player()
        action = state.string_to_action(move)
        state.apply_action(action)
        lines += render.narrate(before, player, action, state, NAMES)
    return lines


def text_of(renderable: object) -> str:
    console = Console(file=io.StringIO(), width=100, color_system=None)
    console.print(renderable)
    out = console.file
    assert isinstance(out, io.StringIO)
    return out.getvalue()


# ------------------------------------------------------------------ prompt parsing


def test_interpret_numbers_notation_and_commands() -> None:
    state = dealt("11235L", "2346LL")
    legal = state.legal_actions()
    assert legal == [ROLL, QUIT]
    assert interpret("1", state, 0, legal).action == ROLL
    assert interpret(" 2 ", state, 0, legal).action == QUIT
    assert interpret("ROLL", state, 0, legal).action == ROLL
    assert interpret("quit", state, 0, legal).action == QUIT  # quit the round, not the program
    assert interpret("q", state, 0, legal).command == "leave"
    assert interpret("?", state, 0, legal).command == "help"
    assert interpret("t", state, 0, legal).command == "table"
    assert interpret("rules", state, 0, legal).command == "rules"
    for bad in ("", "0", "3", "discard 9", "take 4"):
        reply = interpret(bad, state, 0, legal)
        assert reply.action is None and reply.command is None and reply.problem, bad


def test_interpret_enter_accepts_a_single_choice() -> None:
    state = dealt("11235L", "2346LL")
    play(state, "roll", "dice 4 6 4")  # Ann holds no 4 or 6: she must take one
    legal = state.legal_actions()
    assert len(legal) == 2
    assert interpret("", state, 0, legal).problem
    assert interpret("take 6", state, 0, legal).action == legal[1]
    assert interpret("", state, 0, legal[:1]).action == legal[0]


def test_interpret_discard_notation_both_spellings() -> None:
    state = dealt("33345L", "2346LL")
    play(state, "roll", "dice 3 L 3")
    legal = state.legal_actions()
    both = DISCARD_ID[(0, 0, 2, 0, 0, 0, 1)]
    assert interpret("discard 3 3 L", state, 0, legal).action == both
    assert interpret("discard 33l", state, 0, legal).action == both
    assert "not possible" in (interpret("discard 3 3 3", state, 0, legal).problem or "")


# ------------------------------------------------------------------ narration (D-8, D-9)


def test_roll_and_discard_told_together() -> None:
    state = dealt("33345L", "2346LL")
    assert play(state, "roll", "dice 3 5 L") == []
    assert play(state, "discard 3 5") == ["Ann rolls 3 5 L and discards 3 5."]


def test_take_and_three_llamas_and_quit() -> None:
    state = dealt("11235L", "2346LL")
    assert play(state, "roll", "dice 4 6 4", "take 4") == [
        "Ann rolls 4 6 4 and takes the 4 from the llama row (no match)."
    ]
    lines = play(state, "roll", "dice L L L")  # Bob has no chips: nothing happens (D-8.1)
    assert lines == ["Bob rolls L L L: three llamas, but no chips to give back."]
    assert play(state, "quit") == ["Ann quits with 25 points in the row."]


def test_bust_ends_the_round_with_points() -> None:
    """D-8.4: no match and no rolled symbol left in the llama row."""
    state = dealt("111222", "LLLLLL")
    play(state, "roll", "dice 5 5 3", "take 5")
    play(state, "roll", "dice 5 5 3", "take 3")
    play(state, "roll", "dice 6 6 4", "take 4")  # llama row: 1 2 6 L
    lines = play(state, "roll", "dice 5 5 4")
    assert lines == [
        "Bob rolls 5 5 4: no match and none of these is in the llama row, "
        "so Bob takes the whole llama row (bust)!",
        "Round 1 ends (Bob went bust). Points: Ann 12, Bob 22.",
        "Scores: Ann 12, Bob 22.",
    ]
    assert state.round == 2


def test_last_player_standing_busts() -> None:
    """D-8.5: with everyone else out, a roll without a match is a bust."""
    state = dealt("111222", "LLLLLL")
    play(state, "quit")
    lines = play(state, "roll", "dice 5 5 3")
    assert "the last player in a round may not take a single card" in lines[0]
    assert lines[1].startswith("Round 1 ends (Bob went bust)")


def test_emptying_the_row_ends_the_round() -> None:
    state = dealt("12LLLL", "2346LL", end_score=100)
    play(state, "roll", "dice L 1 L", "discard 1 L L")
    play(state, "quit")
    lines = play(state, "roll", "dice L 2 L")
    assert lines == []
    lines = play(state, "discard 2 L L")
    assert lines[0] == "Ann rolls L 2 L and discards 2 L L."
    assert "Round 1 ends (Ann emptied the row)" in lines[1]


def test_chip_give_backs_are_told() -> None:
    """D-8.1 (three llamas) and D-10 (empty row) give-backs."""
    # A position built with a score (states are changed only by actions).
    state = DiceGame(num_players=2, end_score=100).build_state(
        rows=["12LLLL", "2346LL"], scores=[23, 0]
    )
    assert play(state, "roll", "dice L L L") == []
    assert render.action_label(state, state.legal_actions()[0]).startswith("give back a black")
    assert play(state, "give black") == [
        "Ann rolls L L L, three llamas, and gives back a black chip (-10)."
    ]
    play(state, "quit")
    play(state, "roll", "dice L 1 L", "discard 1 L L")
    lines = play(state, "roll", "dice L 2 L", "discard 2 L L")
    assert "Round 1 ends (Ann emptied the row)" in lines[1]
    # Issue 8: the scores are told again after a give-back (the round-end line is stale).
    assert play(state, "give white") == [
        "Ann gives back a white chip (-1) for emptying the row.",
        "Scores: Ann 12, Bob 25.",
    ]
    assert state.scores[0] == 12


# ------------------------------------------------------------------ table and labels


def test_table_shows_rows_chips_dice_and_turn() -> None:
    state = dealt("11235L", "2346LL")
    play(state, "roll", "dice 3 5 L")
    text = text_of(render.render_table(state, NAMES, kinds=["human", "random"], viewer=0))
    assert "Round 1" in text and "Ann (you)" in text and "Bob [random]" in text
    assert "1 1 2 3 5 L" in text and "2 3 4 6 L L" in text
    assert "Dice       3 5 L" in text
    assert "to play" in text
    assert "Llama row  1 2 3 4 5 6 L" in text


def test_chips_drawn_per_chip() -> None:
    state = DiceGame(num_players=2).build_state(rows=["11235L", "2346LL"], scores=[0, 23])
    # D-4: 2 black, 3 white
    assert text_of(render.chips_text(state, 1)).strip() == "●● ○○○"
    assert text_of(render.chips_text(state, 0)).strip() == "-"


def test_action_labels_show_the_resulting_row() -> None:
    state = dealt("33345L", "2346LL")
    assert render.action_label(state, QUIT) == "sit out this round; your row scores 22"
    play(state, "roll", "dice 3 L 3")
    label = render.action_label(state, DISCARD_ID[(0, 0, 2, 0, 0, 0, 0)])
    assert label == "row becomes 3 4 5 L, 22 points"


# ------------------------------------------------------------------ views


def test_view_registry() -> None:
    ids = view_ids()  # other tests may have registered games of their own
    assert ids == sorted(ids) and {"dice", "express"} <= set(ids)
    view = get_view("dice")
    assert isinstance(view, GameView)
    assert "LAMA Dice" in view.rules_text()
    assert isinstance(get_view("express"), GameView)
    with pytest.raises(ParameterError, match="games: dice, express"):
        get_view("nope")


def test_winners_line() -> None:
    state = dealt("11235L", "2346LL")
    seats = [SeatInfo(name=n, kind="human") for n in NAMES]
    assert winners_line(state, seats) == "The game was not finished."


# ------------------------------------------------------------------ statistics


class _Hook:
    """Weights one seat's figure by a per-game count, adds a total."""

    def game_metrics(self, state: State) -> dict[str, Metric]:
        return {"count": Total(2.0), "per_game": Mean(4.0)}

    def seat_metrics(self, state: State, seat: int) -> dict[str, Metric]:
        return {"rate": Mean(float(seat + 1), weight=2.0)}

    def seat_labels(self, game: Game, seat: int) -> dict[str, str]:
        return {"colour": ["yellow", "green"][seat]}


def _result(game: Game) -> GameResult:
    return GameResult(state=game.new_initial_state(), decisions=3, chance_events=1)


def test_collector_sums_means_and_totals() -> None:
    game = make("dice", num_players=2)
    collector = StatsCollector(game, ["random", "benchmark"], _Hook())
    for _ in range(3):
        collector.add(_result(game))
    data = collector.summary(1.5, seed=7).to_dict()
    assert data["games"] == 3 and data["decisions"] == 9 and data["seed"] == 7
    assert data["count"] == 6.0 and data["per_game"] == 4.0
    assert [s["colour"] for s in data["seats"]] == ["yellow", "green"]
    assert [s["rate"] for s in data["seats"]] == [0.5, 1.0]
    assert [s["win_share"] for s in data["seats"]] == [0.0, 0.0]  # unfinished games


def test_collector_rejects_mixed_metric_kinds_and_wrong_seats() -> None:
    game = make("dice", num_players=2)
    with pytest.raises(LamaError):
        StatsCollector(game, ["random"])

    class Flip(_Hook):
        calls = 0

        def game_metrics(self, state: State) -> dict[str, Metric]:
            Flip.calls += 1
            return {"x": Mean(1.0) if Flip.calls == 1 else Total(1.0)}

    collector = StatsCollector(game, ["random", "random"], Flip())
    collector.add(_result(game))
    with pytest.raises(LamaError, match="'x'"):
        collector.add(_result(game))
