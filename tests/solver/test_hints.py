"""``lamagames.dice.hints.hints``, ``lama hint`` and ``hint`` at the terminal prompt."""

from __future__ import annotations

import json
import math
import random
import re
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from rich.console import Console
from typer.testing import CliRunner, Result

from lamagames.bots.dice_exact import DiceExactBot
from lamagames.cli.hint import BEST_BY_MARGIN, BEST_BY_POINTS, fixed, hint_renderable
from lamagames.cli.main import app
from lamagames.cli.session import interpret
from lamagames.core.errors import IllegalActionError
from lamagames.core.registry import make
from lamagames.dice.game import DiceGame
from lamagames.dice.hints import (
    BASIS_CAPPED,
    BASIS_ESTIMATE,
    BASIS_FINAL,
    BASIS_LAST,
    BASIS_NOTES,
    BASIS_TWO,
    hints,
)
from lamagames.dice.rules import Phase
from lamagames.dice.solver import LastStandingSolver, bust_chance, get_solver
from lamagames.dice.solver.last_standing import MAX_LEVELS
from lamagames.dice.solver.two_player import TwoPlayerSolver
from lamagames.dice.state import DiceState
from tests.dice.helpers import counts, make_state
from tests.missing_packages import hide
from tests.solver.test_solver_rulings import _last_standing_oracle

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


def test_d9_a_row_of_llamas_is_not_empty_for_the_hints() -> None:
    # D-9: a row holding only a llama is not empty, so the last player standing holding it
    # may quit for 10 points (D-10) or roll, valued by an oracle written from the rules text.
    state = make_state(["L", "6"], llama_row="6", quit=[False, True])
    got = {h.notation: h for h in hints(state, 0)}
    assert got["quit"].expected_points == 10.0
    assert got["roll"].expected_points == pytest.approx(
        _last_standing_oracle("L", "6", 0)[0], abs=1e-9
    )


def test_d8_2_two_dice_showing_3_allow_the_hint_to_discard_both_3s() -> None:
    # D-8.2: each die allows one card of its symbol; two dice show 3, so both 3s may go,
    # which empties the row: 0 points at score 0 (no chip to give back, D-9, D-10).
    state = make_state(
        ["33", "6"], llama_row="6", quit=[False, True], phase=Phase.DISCARD, dice="335"
    )
    got = {h.notation: h for h in hints(state, 0)}
    assert sorted(got) == ["discard 3", "discard 3 3"]
    assert got["discard 3 3"].expected_points == 0.0
    assert got["discard 3"].expected_points == pytest.approx(
        _last_standing_oracle("3", "6", 0)[0], abs=1e-9
    )


def test_d8_2_discard_hints_follow_the_table(solver: LastStandingSolver) -> None:
    state = make_state(
        ["335L", "6"], llama_row="12", quit=[False, True], phase=Phase.DISCARD, dice="33L"
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
    rolled = make_state(["3", "5"], llama_row="1L", phase=Phase.DICE)
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
    result = lama("hint", _position_file(tmp_path, state.to_dict()), "--details")
    assert result.exit_code == 0, result.output
    assert "roll" in result.stdout and "quit" in result.stdout and "13.000" in result.stdout
    wrapped = {"game": "dice", "params": {"num_players": 2}, "state": state.to_dict()}
    result = lama("hint", _position_file(tmp_path, wrapped), "--details")
    assert result.exit_code == 0, result.output
    assert BASIS_LAST in result.stdout


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
    assert interpret(" Hint  details", state, 0, state.legal_actions()).command == "hint details"
    rec = tmp_path / "h.lamarec.json"
    result = lama(
        "play", "dice", "--seats", "human,benchmark,benchmark", "--seed", "3", "--delay", "0",
        "--record", str(rec), input="hint details\n",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "Hint: what each move is worth" in result.stdout
    # said before the (possibly slow) solve, so the prompt is not silent
    working = result.stdout.index("Working out the hint...")
    assert working < result.stdout.index("Hint: what each move is worth")
    flat = " ".join(result.stdout.split())
    assert BASIS_ESTIMATE in flat and BASIS_NOTES[BASIS_ESTIMATE] in flat
    assert BEST_BY_POINTS in flat  # three players: the fewest points are best


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


def test_lama_hint_reads_the_specs_requirement_before_importing(
    lama: Lama, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The spec says hints need numba (GameSpec.requires), as the web app checks: a missing
    # numba gives the pip command, in lama hint and at the terminal prompt.
    hide(monkeypatch, "numba")
    state = make_state(["33L", "6"], llama_row="12", quit=[False, True])
    result = lama("hint", _position_file(tmp_path, state.to_dict()))
    assert result.exit_code == 2
    flat = " ".join(result.output.split())
    assert "LAMA Dice hints need numba: pip install 'lamagames[solver]'" in flat
    console = Console(width=100, record=True)
    worked: list[bool] = []
    console.print(hint_renderable("dice", state, 0, working=lambda: worked.append(True)))
    assert "No hint: LAMA Dice hints need numba" in console.export_text()
    assert worked == []  # no "Working out the hint..." when there is none to work out


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


# ---------------------------------------------------------------- fresh-user findings


def _discard_135(quit_other: bool = False) -> DiceState:
    """Two players, seat 0 rolled 3 5 1 against row 1 3 5 L: discard which cards (D-8.2)."""
    return make_state(
        ["135L", "6"], llama_row="12", phase=Phase.DISCARD, dice="351", quit=[False, quit_other]
    )


def _print_hint(lama: Lama, tmp_path: Path, state: DiceState, **params: int) -> Result:
    data = {"game": "dice", "params": {"num_players": len(state.rows), **params}}
    return lama("hint", _position_file(tmp_path, {**data, "state": state.to_dict()}), "--details")


def test_two_player_best_is_by_margin_and_the_legend_says_so(lama: Lama, tmp_path: Path) -> None:
    # The best two-player move may cost more own points: the legend must say why it is best.
    out = hints(_discard_135(), 0)
    best = next(h for h in out if h.best)
    assert best.margin == max(h.margin or -math.inf for h in out)
    result = _print_hint(lama, tmp_path, _discard_135())
    assert result.exit_code == 0, result.output
    flat = " ".join(result.stdout.split())
    assert BEST_BY_MARGIN in flat and BEST_BY_POINTS not in flat
    assert "opponent's expected points minus yours" in flat
    alone = _print_hint(lama, tmp_path, _discard_135(quit_other=True))  # D-8.5: no margin
    assert BEST_BY_POINTS in " ".join(alone.stdout.split())


def test_hint_table_fits_80_columns(tmp_path: Path) -> None:
    runner = CliRunner()
    state = _discard_135()
    path = _position_file(tmp_path, state.to_dict())
    result = runner.invoke(app, ["hint", path, "--details"], env={"COLUMNS": "80"})
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert max(len(line) for line in lines) <= 80
    rows = [line for line in lines if "discard 1 3 5" in line and "│" in line]
    assert len(rows) == 1 and BASIS_TWO in rows[0]  # no cell wrapped onto a second line
    assert any("margin" in line and "basis" in line for line in lines)


def test_give_none_is_zero_not_negative_zero(lama: Lama, tmp_path: Path) -> None:
    # D-10: after emptying the row with 5 white chips: give white (-1) or none (0).
    rolled = make_state(
        ["3", "6"], llama_row="12", quit=[False, True], phase=Phase.DISCARD, dice="354",
        scores=[5, 0],
    )  # fmt: skip
    state = rolled.child(rolled.legal_actions()[0])
    assert state.phase == Phase.GIVE_EMPTY
    none = next(h for h in hints(state, 0) if h.notation == "give none")
    assert none.expected_points == 0.0 and math.copysign(1.0, none.expected_points) == 1.0
    assert none.basis == BASIS_FINAL
    result = _print_hint(lama, tmp_path, state)
    assert result.exit_code == 0, result.output
    assert "-0.000" not in result.stdout and "0.000" in result.stdout
    assert fixed(-0.0) == fixed(-0.0004) == fixed(-0.0004, signed=True) == "0.000"
    assert fixed(-1.0) == "-1.000" and fixed(1.41, signed=True) == "+1.410" and fixed(None) == "-"


def test_lama_hint_names_the_seat_from_1_and_shows_the_position(lama: Lama, tmp_path: Path) -> None:
    state = make_state(["3", "5L"], llama_row="12", player=1, starter=1)
    result = _print_hint(lama, tmp_path, state)
    assert result.exit_code == 0, result.output
    assert "position file): Player 2 (seat 2) to act" in result.stdout
    assert "seat 1 to act" not in result.stdout
    assert "Llama row" in result.stdout and "Round 1" in result.stdout  # the position itself
    assert result.stdout.index("Llama row") < result.stdout.index("Hint: what each move")
    rec = tmp_path / "g.lamarec.json"
    played = lama(
        "play", "dice", "--seats", "benchmark,benchmark", "--seed", "5", "--quiet",
        "--record", str(rec), "--names", "Ann,Bob",
    )  # fmt: skip
    assert played.exit_code == 0, played.output
    result = lama("hint", str(rec), "--at", "2")  # two deals, then the starter acts
    assert result.exit_code == 0, result.output
    assert re.search(
        r"after 2 of \d+ actions\): (Ann \(seat 1\)|Bob \(seat 2\)) to act", result.stdout
    )


def test_every_basis_label_is_explained_and_short() -> None:
    labels = {BASIS_LAST, BASIS_TWO, BASIS_FINAL, BASIS_ESTIMATE, BASIS_CAPPED}
    assert set(BASIS_NOTES) == labels
    assert max(len(label) for label in labels) <= 24  # the 80-column table


def _huge(n: int, quit_seats: list[int]) -> DiceState:
    """A position at score 9995 of a game to 10000 (end scores up to 10000 are valid)."""
    game = DiceGame(num_players=n, end_score=10_000)
    rows = ["3 3 L", "6", "4 5"][:n]
    scores = [9995, 9990, 9980][:n]
    return game.build_state(rows=rows, llama_row="1 2", scores=scores, quit_seats=quit_seats)


@pytest.mark.parametrize(("n", "quit_seats"), [(2, [1]), (2, []), (3, [2])])
def test_scores_beyond_the_size_budget_get_a_labelled_estimate_quickly(
    monkeypatch: pytest.MonkeyPatch, n: int, quit_seats: list[int]
) -> None:
    # Before: score 9995 asked for a 10000-level table (MemoryError); 1995 took 24 s and
    # 1.7 GB. Now nothing beyond the budget is solved: the capped score's table is used.
    solved: list[int] = []
    original = LastStandingSolver._solve

    def spy(self: LastStandingSolver, mask: int, levels: int) -> object:
        solved.append(levels)
        return original(self, mask, levels)

    monkeypatch.setattr(LastStandingSolver, "_solve", spy)
    state = _huge(n, quit_seats)
    start = time.perf_counter()
    out = {h.notation: h for h in hints(state, 0)}
    assert time.perf_counter() - start < 60
    assert all(levels <= MAX_LEVELS for levels in solved), solved
    assert out["roll"].basis == BASIS_CAPPED and not out["roll"].exact
    assert out["roll"].margin is None
    assert out["quit"].basis == BASIS_FINAL and out["quit"].expected_points == 13.0  # D-10
    assert sum(h.best for h in out.values()) == 1
    if not [i for i in range(n) if i and i not in quit_seats]:  # last standing: capped at 95
        table = get_solver().table(0b11, 95)
        assert out["roll"].expected_points == pytest.approx(
            table.roll_value(counts("33L"), 95), abs=1e-12
        )


def test_lama_hint_at_a_huge_end_score_answers_without_a_traceback(
    lama: Lama, tmp_path: Path
) -> None:
    result = _print_hint(lama, tmp_path, _huge(2, [1]), end_score=10_000)
    assert result.exit_code == 0, result.output
    assert "Traceback" not in result.output and BASIS_CAPPED in result.stdout
    assert "beyond the solver's budget" in " ".join(result.stdout.split())


# ---------------------------------------------------------------- values from the rules text

# Standard dice (D-1): A = L L 3 4 5 6, B = 1 2 L L 5 6, C = 1 2 3 4 L L.
_P_THREE_LLAMAS = (2 / 6) ** 3  # D-8.1
_P_A_SIX = 1 - (5 / 6) * (5 / 6)  # die A or B shows a 6, C has none


def test_d4_d10_give_back_hints_after_emptying_the_row_are_the_chip_points() -> None:
    # D-10: the row emptied, so the seat may give back one chip; with 23 points it holds two
    # black chips (10 points each) and three white ones (1 point each, D-4).
    rolled = make_state(
        ["3", "6"], llama_row="12", quit=[False, True], phase=Phase.DISCARD, dice="354",
        scores=[23, 0],
    )  # fmt: skip
    state = rolled.child(rolled.legal_actions()[0])
    assert state.phase == Phase.GIVE_EMPTY
    got = {h.notation: h.expected_points for h in hints(state, 0)}
    assert got == {"give black": -10.0, "give white": -1.0, "give none": 0.0}


def test_d8_4_d8_5_last_standing_roll_hint_counts_the_bust_with_the_llama_row() -> None:
    # Last standing (D-8.5) with the row 6 and the llama row L at score 0: a 6 on a die
    # (D-8.2) empties the row for 0 points (D-9); three llamas (D-8.1) give nothing back
    # and the seat then quits for 6; any other roll is a bust (D-8.5, D-8.4) that adds the
    # llama-row L: 6 + 10 = 16 points (D-10). Rolling is worth that expectation.
    state = make_state(["6", "5"], llama_row="L", quit=[False, True])
    got = {h.notation: h for h in hints(state, 0)}
    p_bust = 1 - _P_THREE_LLAMAS - _P_A_SIX
    assert got["quit"].expected_points == 6.0
    assert got["roll"].expected_points == pytest.approx(
        _P_THREE_LLAMAS * 6 + p_bust * 16, abs=1e-12
    )
    assert got["roll"].bust_chance == pytest.approx(p_bust, abs=1e-12)


def test_d8_4_roll_estimate_with_others_in_counts_the_bust_with_the_llama_row() -> None:
    # Three seats, all in: row 6, llama row L. A 6 empties the row (0); three llamas leave
    # the row as it is, valued as if the others quit (6, quitting beats rolling, see the
    # test above); a roll showing a llama takes the L (D-8.3, the llama row empties: 16,
    # D-9), and any other roll is a bust that adds the L (D-8.4: 16 points as well).
    state = make_state(["6", "5", "4"], llama_row="L")
    roll = next(h for h in hints(state, 0) if h.notation == "roll")
    p_rest = 1 - _P_THREE_LLAMAS - _P_A_SIX
    assert roll.expected_points == pytest.approx(_P_THREE_LLAMAS * 6 + p_rest * 16, abs=1e-12)
