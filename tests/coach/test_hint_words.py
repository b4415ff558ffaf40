"""Hints in plain words (issue 18): ``lama hint`` and ``hint`` at the prompt say what each
move is worth in a sentence; the table is behind ``--details`` / ``hint details``."""

from __future__ import annotations

import json
from pathlib import Path

from rich.console import Console
from typer.testing import CliRunner

from lamagames.cli.hint import MORE_BY_FLAG, MORE_BY_WORD, hint_renderable
from lamagames.cli.main import app
from lamagames.dice.hints import ActionHint, hints
from lamagames.dice.rules import Phase
from lamagames.dice.words import amount, hint_words, move_name, outcome
from tests.dice.helpers import make_state


def _hint(notation: str, points: float, *, best: bool = False, margin: float | None = None,
          exact: bool = True) -> ActionHint:  # fmt: skip
    return ActionHint(0, notation, points, margin, None, exact, "x", best)


def test_the_best_move_keeps_the_llama_letter() -> None:
    """The llama symbol is ``L`` in every line, also after "Best:" (it read "discard 2 l")."""
    words = hint_words([_hint("discard 2 L", 3.0, best=True), _hint("discard 2", 5.0)])
    assert "Discard 2 L: " in words[0]
    assert words[-1].startswith("Best: discard 2 L")


def test_the_issue_example_reads_as_written() -> None:
    words = hint_words([_hint("roll", 7.8, best=True), _hint("quit", 28.0)])
    assert words[0] == "Roll: about 8 points expected this round · Quit now: 28 points"
    assert words[1] == "Best: roll."


def test_d7_d10_numbers_are_the_hints_own_rounded() -> None:
    assert amount(7.8) == "8" and amount(0.44) == "0.4" and amount(-3.2) == "3"
    assert outcome(_hint("quit", 13.0)) == "13 points"  # D-7: the row is final
    assert outcome(_hint("roll", -3.2)) == "about 3 points back expected this round"
    assert move_name("give black") == "Give back a black chip"
    assert move_name("discard 3 3") == "Discard 3 3"
    estimated = hint_words([_hint("roll", 5.0, exact=False, best=True), _hint("quit", 6.0)])
    assert estimated[-1] == "Some of these are estimates."


def test_two_player_best_by_margin_is_explained() -> None:
    words = hint_words([_hint("discard 3 5", 4.458, margin=1.41),
                        _hint("discard 1 3 5", 4.532, margin=1.975, best=True)])  # fmt: skip
    assert words[-1] == ("Best: discard 1 3 5 (it costs your opponent more than it costs you).")


def test_lama_hint_prints_plain_words_and_the_table_only_with_details(tmp_path: Path) -> None:
    state = make_state(["33L", "6"], llama_row="12", quit=[False, True])
    path = tmp_path / "p.json"
    path.write_text(json.dumps(state.to_dict()))
    runner = CliRunner()
    plain = runner.invoke(app, ["hint", str(path)])
    assert plain.exit_code == 0, plain.output
    assert "Quit now: 13 points" in plain.stdout and MORE_BY_FLAG in plain.stdout
    assert "Hint: what each move is worth" not in plain.stdout
    detailed = runner.invoke(app, ["hint", str(path), "--details"])
    assert "Quit now: 13 points" in detailed.stdout and "13.000" in detailed.stdout
    assert "Hint: what each move is worth" in detailed.stdout


def test_hint_at_the_prompt_is_plain_words_with_the_way_to_the_table() -> None:
    state = make_state(["135L", "6"], llama_row="12", phase=Phase.DISCARD, dice="351")
    console = Console(width=100, record=True)
    console.print(hint_renderable("dice", state, 0))
    text = console.export_text()
    best = next(h for h in hints(state, 0) if h.best)
    assert f"Best: {best.notation}" in text and MORE_BY_WORD in text
    assert "basis" not in text
    console = Console(width=100, record=True)
    console.print(hint_renderable("dice", state, 0, details=True))
    assert "basis" in console.export_text()
