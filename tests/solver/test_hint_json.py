"""``lama hint --json`` (issue 20): every legal action with its value, exact or estimate."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner, Result

from lamagames import __version__
from lamagames.cli.hint import HINT_JSON_FORMAT, HINT_JSON_VERSION
from lamagames.cli.main import app
from lamagames.dice.hints import BASIS_ESTIMATE, BASIS_LAST, BASIS_NOTES, BASIS_TWO, hints
from lamagames.dice.rules import Phase
from lamagames.dice.solver import LastStandingSolver
from lamagames.dice.state import DiceState
from tests.dice.helpers import make_state

FIELDS = {
    "action", "notation", "value", "expected_points", "margin", "bust_chance", "exact",
    "estimate", "basis", "basis_note", "standard_error", "best",
}  # fmt: skip


def _hint(tmp_path: Path, state: DiceState, *args: str) -> Result:
    path = tmp_path / "position.json"
    path.write_text(json.dumps(state.to_dict()))
    return CliRunner().invoke(app, ["hint", str(path), "--json", *args])


def _document(result: Result) -> dict[str, Any]:
    assert result.exit_code == 0, result.output
    document = json.loads(result.stdout)  # the whole output is one JSON document
    assert isinstance(document, dict)
    return document


def _check_against_hints(document: dict[str, Any], state: DiceState) -> None:
    expected = hints(state, state.current_player())
    actions = document["actions"]
    assert [a["action"] for a in actions] == state.legal_actions()  # every legal action
    for a, h in zip(actions, expected, strict=True):
        assert set(a) == FIELDS
        assert a["notation"] == h.notation and a["expected_points"] == h.expected_points
        assert a["margin"] == h.margin and a["bust_chance"] == h.bust_chance
        assert a["exact"] is h.exact and a["estimate"] is (not h.exact)
        assert a["basis"] == h.basis and a["basis_note"] == BASIS_NOTES[h.basis]
        assert a["standard_error"] is None  # no LAMA Dice hint is a sampled estimate
        assert a["best"] is h.best
    assert [a["action"] for a in actions if a["best"]] == [document["best"]]


def test_d8_5_last_standing_json_is_exact_and_ranked_by_points(
    tmp_path: Path, solver: LastStandingSolver
) -> None:
    state = make_state(["33L", "6"], llama_row="12", quit=[False, True])
    document = _document(_hint(tmp_path, state))
    assert document["format"] == HINT_JSON_FORMAT
    assert document["format_version"] == HINT_JSON_VERSION
    assert document["lamagames_version"] == __version__
    assert document["game"] == "dice" and document["where"] == "position file"
    assert document["player"] == 0 and document["player_name"] == "Player 1"
    assert document["objective"] == "points"
    _check_against_hints(document, state)
    by_name = {a["notation"]: a for a in document["actions"]}
    assert by_name["quit"]["value"] == 13.0  # D-10: 3 + 10
    assert by_name["roll"]["basis"] == BASIS_LAST and by_name["roll"]["exact"]
    assert 0.0 <= by_name["roll"]["bust_chance"] <= 1.0
    best = min(document["actions"], key=lambda a: a["value"])
    assert best["best"] and best["action"] == document["best"]


def test_estimates_are_labelled_in_json(tmp_path: Path, solver: LastStandingSolver) -> None:
    state = make_state(["3", "5", "6"], llama_row="123456L")
    document = _document(_hint(tmp_path, state))
    _check_against_hints(document, state)
    roll = next(a for a in document["actions"] if a["notation"] == "roll")
    assert roll["estimate"] and not roll["exact"] and roll["basis"] == BASIS_ESTIMATE
    assert roll["value"] == roll["expected_points"]


def test_two_player_json_ranks_by_margin(tmp_path: Path, solver: LastStandingSolver) -> None:
    state = make_state(["3", "5"], llama_row="1L")
    document = _document(_hint(tmp_path, state))
    assert document["objective"] == "margin"
    _check_against_hints(document, state)
    for a in document["actions"]:
        assert a["value"] == a["margin"] and a["basis"] == BASIS_TWO
    best = max(document["actions"], key=lambda a: a["value"])
    assert best["action"] == document["best"]


@pytest.mark.parametrize(
    ("args", "message"),
    [(["--at", "1"], "--at applies to game records"), ([], "no seat has a decision")],
)
def test_json_errors_are_one_line_on_stderr(
    tmp_path: Path, args: list[str], message: str
) -> None:
    if args:  # --at with a position file
        state = make_state(["3", "5"], llama_row="1L")
    else:  # chance acts next (the dice are rolled): no seat has a decision
        state = make_state(["3", "5"], llama_row="1L", phase=Phase.DICE)
    result = _hint(tmp_path, state, *args)
    assert result.exit_code == 2
    assert result.stdout == ""  # nothing half-written for a program to parse
    assert message in result.stderr and len(result.stderr.strip().splitlines()) == 1
