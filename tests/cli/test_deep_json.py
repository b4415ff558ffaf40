"""JSON nested too deeply for Python's parser (a RecursionError inside :func:`json.loads`)
is bad input like any other: one ``Error:`` line naming the file, exit 2, no traceback."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from lamagames.cli.main import app
from lamagames.core.errors import RecordError
from lamagames.core.files import parse_json, read_json_file

runner = CliRunner()

DEPTH = 100_000


@pytest.fixture
def deep(tmp_path: Path) -> Path:
    """A file of 100,000 nested arrays."""
    path = tmp_path / "deep.json"
    path.write_text("[" * DEPTH + "]" * DEPTH, encoding="utf-8")
    return path


def test_the_library_raises_its_own_error_not_recursion_error(deep: Path) -> None:
    with pytest.raises(RecordError, match=r"^not JSON: nested too deeply$"):
        read_json_file(deep, RecordError)
    with pytest.raises(RecordError, match=r"^not JSON: nested too deeply$"):
        parse_json('{"a":' * DEPTH, RecordError)


@pytest.mark.parametrize(
    "command",
    [
        ["hint", "{}"],
        ["replay", "{}"],
        ["board", "validate", "{}"],
        ["play", "express", "--seats", "benchmark,benchmark", "--board", "{}"],
        ["simulate", "dice", "--games", "1", "--variant", "{}"],
    ],
)
def test_commands_reading_a_json_file_refuse_it_in_one_line(command: list[str], deep: Path) -> None:
    args = [str(deep) if arg == "{}" else arg for arg in command]
    result = runner.invoke(app, args)
    assert result.exit_code == 2, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    text = " ".join(result.output.split())
    assert text.startswith("Error: ") and "not JSON: nested too deeply" in text
    assert str(deep.name) in text


@pytest.mark.parametrize(
    "command", [["play", "dice", "--seats", "random,random"], ["simulate", "dice"]]
)
def test_a_deeply_nested_param_value_is_kept_as_text(command: list[str]) -> None:
    """--param end_score=[[[...: the value is text, which the game then refuses."""
    result = runner.invoke(app, [*command, "--games", "1", "--param", "end_score=" + "[" * DEPTH])
    assert result.exit_code == 2, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert "end_score" in result.output or "end-score" in result.output
