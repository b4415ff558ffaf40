"""``lamagames.dice.hints.hints``, ``lama hint`` and ``hint`` at the terminal prompt."""

from __future__ import annotations

import json
import random
import re
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from typer.testing import CliRunner, Result

from lamagames.bots.dice_exact import DiceExactBot
from lamagames.cli.main import app
from lamagames.cli.session import interpret
from lamagames.core.errors import IllegalActionError
from lamagames.core.registry import make
from lamagames.dice.game import PHASE_DICE, PHASE_DISCARD
from lamagames.dice.hints import BASIS_ESTIMATE, BASIS_LAST, BASIS_TWO, hints
from lamagames.dice.solver import LastStandingSolver, bust_chance
from lamagames.dice.solver.two_player import TwoPlayerSolver
from tests.dice.helpers import counts, make_state

Lama = Callable[..., Result]


@pytest.fixture
def lama() -> Lama:
    runner = CliRunner()
    return lambda *args, input=None: runner.invoke(app, list(args), input=input)


def test_d8_5_last_standing_turn_hints_are_exact(solver: LastStandingSolver) -> None:
    state = make_state(["33L", "6"], llama_row="12", quit=[False, True])
    got = {h.notation: h for h in hints(state, 0)}
    table = solver.table(counts("12"))
    assert got["quit"].expected_points == 13.0  # D-10: 3 + 10
    assert got["roll"].expected_points == pytest.approx(table.roll_value(counts("33L"), 0))
    assert got["roll"].bust_chance == bust_chance(solver.rolls, counts("33L"), counts("12"), True)
    assert all(h.exact for h in got.values()) and got["roll"].basis == BASIS_LAST
    best = [h for h in got.values() if h.best]
    assert len(best) == 1
    assert best[0].expected_points == min(h.expected_points or 0 for h in got.values())
    assert json.loads(json.dumps([h.to_json() for h in got.values()]))[0]["action"] == 0


def test_d8_2_discard_hints_follow_the_table(solver: LastStandingSolver) -> None:
    state = make_state(
        ["335L", "6"], llama_row="12", quit=[False, True], phase=PHASE_DISCARD, dice="33L"
    )
    out = hints(state, 0)
    assert [h.action for h in out] == state.legal_actions()
    table = solver.table(counts("12"))
    for h in out:
        after = state.child(h.action).rows[0]
        assert h.expected_points == table.after_discard_value(after, 0)


def test_two_player_hints_show_the_exact_margin(solver: LastStandingSolver) -> None:
    state = make_state(["3", "5"], llama_row="1L")
    out = {h.notation: h for h in hints(state, 0)}
    two = TwoPlayerSolver(solver)
    key = (tuple(counts("3")), tuple(counts("5")), 0b1000001, 0, 0)
    assert out["roll"].margin == pytest.approx(two.roll_outcome(key).margin)
    assert out["quit"].margin == pytest.approx(two.quit_outcome(key).margin)
    assert out["roll"].basis == BASIS_TWO and out["roll"].exact
    assert max(out.values(), key=lambda h: h.margin or 0).best


def test_three_players_with_others_in_get_labelled_estimates() -> None:
    state = make_state(["3", "5", "6"], llama_row="123456L")
    out = {h.notation: h for h in hints(state, 0)}
    assert out["quit"].exact and out["quit"].expected_points == 3.0  # D-7: the row is final
    assert not out["roll"].exact and out["roll"].basis == BASIS_ESTIMATE
    assert out["roll"].bust_chance == 0.0  # D-8.3: every symbol is still in the llama row


def test_roll_estimate_follows_the_engine_one_roll_deep() -> None:
    # With others in, rolling is valued roll by roll under the real rules (D-8.1 .. D-8.4),
    # each result as if the others quit right after: the estimates of the answers.
    state = make_state(["3L", "5", "6"], llama_row="12", scores=[4, 0, 0])
    roll = next(h for h in hints(state, 0) if h.notation == "roll")
    expected = 0.0
    for outcome, p in state.child(0).chance_outcomes():
        child = state.child(0).child(outcome)
        if child.round_points:  # D-8.4 bust: the round is over
            value = float(child.scores[0] - 4)
        else:  # discard, take or give (seat 0 holds chips): the best estimate
            assert child.current_player() == 0
            value = min(h.expected_points or 0.0 for h in hints(child, 0))
        expected += p * value
    assert roll.expected_points == pytest.approx(expected, abs=1e-9)
    assert not roll.exact


def test_hints_refuse_positions_without_a_decision() -> None:
    state = make_state(["3", "5"], llama_row="1L")
    with pytest.raises(IllegalActionError, match="no decision"):
        hints(state, 1)  # not seat 1's turn
    rolled = make_state(["3", "5"], llama_row="1L", phase=PHASE_DICE)
    with pytest.raises(IllegalActionError, match="no decision"):
        hints(rolled, 0)  # chance acts next
    express = make("express", num_players=2).new_initial_state()
    with pytest.raises(IllegalActionError, match="LAMA Dice"):
        hints(express, 0)


def _position_file(tmp_path: Path, data: object) -> str:
    path = tmp_path / "position.json"
    path.write_text(json.dumps(data))
    return str(path)


def test_lama_hint_reads_bare_and_wrapped_position_files(lama: Lama, tmp_path: Path) -> None:
    state = make_state(["33L", "6"], llama_row="12", quit=[False, True])
    result = lama("hint", _position_file(tmp_path, state.to_dict()))
    assert result.exit_code == 0, result.output
    assert "roll" in result.stdout and "quit" in result.stdout and "13.000" in result.stdout
    wrapped = {"game": "dice", "params": {"num_players": 2}, "state": state.to_dict()}
    result = lama("hint", _position_file(tmp_path, wrapped))
    assert result.exit_code == 0, result.output
    assert "exact: last player standing" in result.stdout


def test_lama_hint_answers_for_a_record_position(lama: Lama, tmp_path: Path) -> None:
    rec = tmp_path / "g.lamarec.json"
    played = lama(
        "play", "dice", "--seats", "benchmark,benchmark,benchmark", "--seed", "5", "--quiet",
        "--record", str(rec),
    )  # fmt: skip
    assert played.exit_code == 0, played.output
    result = lama("hint", str(rec), "--at", "3")  # three deals, then seat 0 rolls or quits
    assert result.exit_code == 0, result.output
    assert "after 3 of" in result.stdout and "roll" in result.stdout
    result = lama("hint", str(rec), "--at", "2")
    assert result.exit_code == 2 and "chance acts next" in result.output
    result = lama("hint", str(rec), "--at", "100000")
    assert result.exit_code == 2 and "choose 0 to" in result.output


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("{not json", "not JSON"),
        ("[1, 2]", "JSON object"),
        ('{"rows": [[0,0,0,0,0,0,0]]}', "num_players"),
        ('{"state": {}, "extra": 1}', "unknown field"),
    ],
)
def test_lama_hint_malformed_input_gives_a_clear_error(
    lama: Lama, tmp_path: Path, content: str, message: str
) -> None:
    path = tmp_path / "bad.json"
    path.write_text(content)
    result = lama("hint", str(path))
    assert result.exit_code == 2
    assert message in result.output and "Traceback" not in result.output


def test_lama_hint_refuses_at_for_a_position_file(lama: Lama, tmp_path: Path) -> None:
    state = make_state(["3", "5"], llama_row="1L")
    result = lama("hint", _position_file(tmp_path, state.to_dict()), "--at", "1")
    assert result.exit_code == 2 and "--at applies to game records" in result.output


def test_hint_at_the_terminal_prompt(lama: Lama, tmp_path: Path) -> None:
    state = make_state(["3", "5"], llama_row="1L")
    assert interpret("hint", state, 0, state.legal_actions()).command == "hint"
    rec = tmp_path / "h.lamarec.json"
    result = lama(
        "play", "dice", "--seats", "human,benchmark,benchmark", "--seed", "3", "--delay", "0",
        "--record", str(rec), input="hint\n",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "Hint: expected further points" in result.stdout
    assert "estimate: as if the others quit after this" in result.stdout


def test_lama_hint_help_is_for_people(lama: Lama) -> None:
    result = lama("hint", "--help")
    assert result.exit_code == 0 and "--at" in result.output
    assert not re.search(r"\b[DE]-\d+\b", result.output)  # no ruling ids in help


def test_lama_hint_without_the_solver_extra_says_what_to_install(
    lama: Lama, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A base install has no numba: the hints module cannot be imported (None in sys.modules
    # makes the import fail as a missing package does).
    monkeypatch.setitem(sys.modules, "lamagames.dice.hints", None)
    state = make_state(["33L", "6"], llama_row="12", quit=[False, True])
    result = lama("hint", _position_file(tmp_path, state.to_dict()))
    assert result.exit_code == 2
    assert "Traceback" not in result.output and "lamagames.dice.hints" in result.output


def test_fresh_two_player_deal_gets_exact_hints_and_exact_play() -> None:
    # Issue 10: exact two-player values from a fresh deal (12 cards in rows, full llama row).
    game = make("dice", num_players=2)
    state = game.new_initial_state()
    rng = random.Random(4)
    while state.is_chance_node():
        state.apply_action(state.sample_chance_outcome(rng))
    seat = state.current_player()
    out = {h.notation: h for h in hints(state, seat)}
    assert set(out) == {"roll", "quit"}
    assert all(h.exact and h.basis == BASIS_TWO for h in out.values())
    assert out["roll"].margin is not None and out["quit"].margin is not None
    assert out["roll"].best == (out["roll"].margin > out["quit"].margin)
    bot = DiceExactBot(game, seat)
    chosen = bot.step(state)
    assert bot.last_basis == "exact"
    assert chosen == next(h.action for h in out.values() if h.best)
