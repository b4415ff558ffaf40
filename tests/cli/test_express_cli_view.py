"""The Lama Express terminal view: words (labels, headlines, narration), the table drawing,
the statistics hook, ``lama rules express`` and ``lama replay`` of Express records."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from typer.testing import Result

from lamagames.cli.views import GameView, get_view
from lamagames.core.records import SeatInfo
from lamagames.express import ExpressGame, ExpressState
from lamagames.express.actions import MOVE_A, MOVE_B, PASS, string_to_player_action
from lamagames.express.narration import action_label, headline, narrate
from lamagames.express.render import board_lines
from lamagames.express.rules import Phase
from lamagames.express.stats import ExpressStats
from lamagames.express.table import table_lines
from lamagames.sim.stats import Mean, Total

Lama = Callable[..., Result]
NAMES2 = ["Ann", "Bob"]
NAMES4 = ["Ann", "Bob", "Cleo", "Dan"]
ROLL = {letter: index for index, letter in enumerate("ROYGBP")}
#: 20 spaces; purple, red or blue from the setup position blocks both trains (E-6).
TINY_BOARD: dict[str, Any] = json.loads(
    (Path(__file__).resolve().parents[1] / "data" / "tiny_board.json").read_text("utf-8")
)


def act(state: ExpressState, text: str) -> tuple[ExpressState, int, int, ExpressState]:
    """Apply ``roll X`` or the current seat's action in notation to a copy:
    ``(before, player, action, after)``."""
    if text.startswith("roll"):
        player, action = -1, ROLL[text.split()[1]]
    else:
        player, action = state.current_player(), string_to_player_action(text)
    return state, player, action, state.child(action)


def two_arrows() -> ExpressState:
    """Four players; Cleo's (green) llamas in A1 on arrow 6 and B1 on arrow 18; Bob to roll."""
    game = ExpressGame(num_players=4)
    cars = {"A1": 2, "B1": 2, "A4": 1, "B4": 3}
    return game.build_state(trains={"A": 9, "B": 21}, cars=cars, active=1)


# ------------------------------------------------------------------ narration (E-6 .. E-11)


def test_roll_with_no_train_able_to_move() -> None:
    state = ExpressGame(num_players=2, board=TINY_BOARD).new_initial_state()
    before, player, action, after = act(state, "roll P")
    lines = narrate(before, player, action, after, NAMES2)
    assert lines == [
        "Ann (yellow) rolls purple (P).",
        "Neither train can move with that colour; the turn ends.",
    ]


def test_turn_limit_reached_is_told() -> None:
    game = ExpressGame(num_players=2, board=TINY_BOARD, turn_limit=1)
    before, player, action, after = act(game.new_initial_state(), "roll P")
    lines = narrate(before, player, action, after, NAMES2)
    assert lines[-1] == "The turn limit of 1 roll is reached: the game stops without a winner."


def test_forced_move_and_chosen_move() -> None:
    game = ExpressGame(num_players=2)
    blocked_a = game.build_state(trains={"A": 0, "B": 10})
    lines = narrate(*act(blocked_a, "roll R"), NAMES2)
    assert lines[1] == "Only train B can move: tip 10 -> 16, 6 spaces."
    state = game.new_initial_state().child(ROLL["G"])
    lines = narrate(*act(state, "move A"), NAMES2)
    assert lines == [
        "Ann (yellow) moves train A: tip 0 -> 3, 3 spaces.",
        "Chances after the move: Ann (yellow): board car A1.",
    ]


def test_free_actions_and_passes_name_whose_llama() -> None:
    state = two_arrows().child(ROLL["O"])
    assert state.current_player() == 1
    lines = narrate(*act(state, "pass"), NAMES4)
    assert lines == [
        "Bob (pink) lets the chance pass (send the llama in car A1 on a detour, "
        "send the llama in car B1 on a detour)."
    ]
    after_pass = state.child(PASS)
    assert after_pass.current_player() == 3
    lines = narrate(*act(after_pass, "detour A1"), NAMES4)
    assert lines == [
        "Dan (blue): Cleo's green llama leaves car A1 for the footpath, back to space 3."
    ]


def test_board_and_a_winning_exit() -> None:
    game = ExpressGame(num_players=2)
    state = game.new_initial_state().child(ROLL["G"]).child(MOVE_A)
    lines = narrate(*act(state, "board A1"), NAMES2)
    assert lines[0] == "Ann (yellow): a yellow llama gets into car 1 of train A."
    home = game.build_state(trains={"A": 2}, cars={"A1": 0}, houses=[3, 0]).child(ROLL["O"])
    assert action_label(home, string_to_player_action("exit A1"), 0, NAMES2) == (
        "your llama in car A1 gets off into your house (4 of 4 home): you win!"
    )
    lines = narrate(*act(home, "exit A1"), NAMES2)
    assert lines == [
        "Ann (yellow): the yellow llama in car A1 goes home, 4 of 4.",
        "Ann (yellow) has all 4 llamas home and wins!",
    ]


# ------------------------------------------------------------------ menu labels, headlines


def test_train_menu_tells_where_each_train_goes_and_what_follows() -> None:
    state = ExpressGame(num_players=2).new_initial_state().child(ROLL["G"])
    assert state.legal_actions() == [MOVE_A, MOVE_B]
    assert action_label(state, MOVE_A, 0, NAMES2) == (
        "tip 0 -> 3, 3 spaces; then you: board car A1"
    )
    assert action_label(state, MOVE_B, 0, NAMES2) == (
        "tip 24 -> 25, 1 space; no chance for anyone after it"
    )
    assert headline(state, NAMES2, 0) == "Ann (yellow): your turn, choose a train · die green (G)"


def test_window_labels_and_headline() -> None:
    state = two_arrows().child(ROLL["O"])
    assert headline(state, NAMES4, 1) == "Bob (pink): a chance after your roll · die orange (O)"
    assert headline(state, NAMES4, 0) == "Ann (yellow): a chance after Bob's roll · die orange (O)"
    labels = [action_label(state, a, 1, NAMES4) for a in state.legal_actions(1)]
    assert labels[0].startswith("let this chance pass")
    assert labels[1] == (
        "Cleo's green llama goes from car A1 to the footpath at arrow 6 (re-boards at 3)"
    )
    board = ExpressGame(num_players=2).new_initial_state().child(ROLL["G"]).child(MOVE_A)
    assert action_label(board, string_to_player_action("board A1"), 0, NAMES2) == (
        "your llama gets into car 1 of train A (3 more waiting)"
    )


# ------------------------------------------------------------------ the table


def test_table_shows_names_window_chances_and_laps() -> None:
    game = ExpressGame(num_players=3)
    state = game.build_state(
        trains={"A": 9, "B": 21}, cars={"A1": 2, "B1": 1, "A3": (0, 52)}, footpaths={1: [0]}
    ).child(ROLL["O"])
    names = ["Anna", "Bert", "A very long player name"]
    lines = table_lines(state, names, viewer=0)
    text = "\n".join(lines)
    assert lines[0].startswith("R@  0 O   1")
    assert "Turn: Anna (yellow) · roll #1 · die O orange" in text
    assert "Chances: Anna (yellow): detour A1, detour B1, reboard B4" in text
    assert "After the roll: asking Anna (yellow)" in text
    assert "Window" not in text and "window" not in text  # one word: chances
    assert "Anna (you)" in text and "A very long pla~" in text and "(nobody)" in text
    assert "A3:y*" in text  # the lap is done (E-8)
    assert "Your llamas: A3 lap done; ^18 path #1, 30 to go" in text
    assert max(len(line) for line in lines) <= 80
    spectator = "\n".join(table_lines(state, names))
    assert "(you)" not in spectator and "Your llamas" not in spectator
    narrow = table_lines(state, names, viewer=0, width=60)  # the track in rows, then the rest
    assert max(len(line) for line in narrow) <= 60 and "A3:y*" in "\n".join(narrow)
    with pytest.raises(ValueError, match="2 names for 3 seats"):
        table_lines(state, names[:2])


def test_view_adapts_the_express_modules() -> None:
    view = get_view("express")
    assert isinstance(view, GameView) and view.live_board
    assert view.bots_only_params() == {"turn_limit": 2000}
    state = ExpressGame(num_players=2).new_initial_state().child(ROLL["G"])
    seats = [SeatInfo(name="Ann", kind="human"), SeatInfo(name="Bob", kind="benchmark")]
    assert view.headline(state, seats, 0).startswith("Ann (yellow): your turn")
    assert view.action_label(state, MOVE_A, 0).startswith("tip 0 -> 3")
    assert "Seat 1" in view.action_label(state, MOVE_A, 1)  # without names: seat numbers
    assert "Answering a prompt" in view.help_text()


# ------------------------------------------------------------------ statistics hook


def test_stats_hook_counts_turns_of_won_games_and_truncations() -> None:
    hook = ExpressStats()
    game = ExpressGame(num_players=2)
    won = game.build_state(trains={"A": 2}, cars={"A1": 0}, houses=[3, 0], rolls=7)
    won = won.child(ROLL["O"]).child(string_to_player_action("exit A1"))
    assert won.winner() == 0
    assert hook.game_metrics(won) == {"turns_per_game": Mean(8, 1.0), "truncated": Total(0)}
    cut = ExpressGame(num_players=2, board=TINY_BOARD, turn_limit=1).new_initial_state()
    cut = cut.child(ROLL["P"])
    assert cut.is_truncated()
    assert hook.game_metrics(cut) == {"turns_per_game": Mean(0, 0.0), "truncated": Total(1)}
    assert hook.seat_metrics(won, 0) == {"mean_llamas_home": Mean(4)}
    assert hook.seat_labels(game, 1) == {"colour": "green"}


# ------------------------------------------------------------------ rules and replay


def test_rules_express(lama: Lama) -> None:
    result = lama("rules", "express")
    assert result.exit_code == 0, result.output
    out = result.stdout
    for words in (
        "Lama Express",
        "E-6 A turn",
        "Board:",
        "Exit:",
        "Detour:",
        "Re-board:",
        "after each roll",
        "E-8 Once round the track",
        "short variant",
        "have no limit",
    ):
        assert words in out, words


@pytest.fixture
def express_record(lama: Lama, tmp_path: Path) -> Path:
    """A finished bot game's record."""
    path = tmp_path / "express.lamarec.json"
    result = lama(
        "play", "express", "--seats", "heuristic,benchmark,benchmark", "--seed", "9",
        "--quiet", "--record", str(path),
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    return path


def test_replay_an_express_record(lama: Lama, express_record: Path) -> None:
    total = len(json.loads(express_record.read_text())["actions"])
    final = lama("replay", str(express_record), "--final")
    assert final.exit_code == 0, final.output
    assert f"Step {total}/{total}" in final.stdout
    assert "Game over:" in final.stdout and "Winner: " in final.stdout
    first = lama("replay", str(express_record), "--to", "1")
    assert "chance: the die shows " in first.stdout and "Bot 1 (yellow) rolls" in first.stdout
    stepped = lama("replay", str(express_record), input="n\nn\ne\nq\n")
    assert stepped.exit_code == 0, stepped.output
    for step in (0, 1, 2, total):
        assert f"Step {step}/{total}" in stepped.stdout


def test_tampered_express_record_names_the_entry(lama: Lama, express_record: Path) -> None:
    data = json.loads(express_record.read_text())
    index = next(i for i, a in enumerate(data["actions"]) if a["action"].startswith("move"))
    data["actions"][index]["action"] = "exit A1"
    express_record.write_text(json.dumps(data))
    result = lama("replay", str(express_record))
    assert result.exit_code == 2
    assert f"actions[{index}]" in result.output and "Traceback" not in result.output


def test_between_turns_the_die_is_the_last_roll_of_the_previous_player() -> None:
    """After a turn the die still shows the last roll: it is shown as that roll, by the
    player who made it, never as the next player's die."""
    game = ExpressGame(num_players=3)
    state = game.new_initial_state()
    assert state.last_roller() is None
    names = ["Anna", "Bert", "Cleo"]
    assert "die -" in "\n".join(table_lines(state, names))
    state.apply_action(ROLL["O"])
    assert state.last_roller() == 0
    while state.phase() != Phase.ROLL:  # Anna's turn: first legal choices until it ends
        state.apply_action(state.legal_actions()[0])
    assert state.active_player() == 1 and state.rolls() == 1
    assert state.last_roller() == 0
    text = "\n".join(table_lines(state, names))
    assert "Turn: Bert (pink) · next roll #2 · last roll O orange by Anna" in text
    assert "die O" not in text and "Bert (pink) rolls the die next." in text
    assert "Last roll: O orange (seat 0)" in "\n".join(board_lines(state))  # engine view
    state.apply_action(ROLL["R"])
    assert state.last_roller() == 1
    assert "Turn: Bert (pink) · roll #2 · die R red" in "\n".join(table_lines(state, names))
