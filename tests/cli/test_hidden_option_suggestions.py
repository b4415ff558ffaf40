"""A mistyped option is never answered with a hidden option (issue 19).

Click suggests the close matches among all of a command's option names, hidden ones
included: ``lama play dice --player-nam x`` answered "Possible options: --param,
--player-names, --players-names", the two hidden spellings kept for old scripts.
"""

from __future__ import annotations

import subprocess
import sys
from typing import Annotated, Any

import pytest
import typer
from typer.main import get_command
from typer.testing import CliRunner

from lamagames.cli.main import app

HIDDEN_PLAY = ("--player-names", "--players-names")


def _error_text(output: str) -> str:
    """The output with Rich's error box and line breaks taken out."""
    return " ".join(output.replace("│", " ").split())


@pytest.mark.parametrize(
    "typo", ["--player-nam", "--players-name", "--playernames", "--player", "--playr-names"]
)
def test_play_suggests_names_not_its_hidden_spellings_issue_19(typo: str) -> None:
    result = CliRunner().invoke(app, ["play", "dice", "--seats", "random,random", typo, "x"])
    text = _error_text(result.output)
    assert result.exit_code == 2, result.output
    assert "No such option" in text, text
    assert not any(hidden in text for hidden in HIDDEN_PLAY), text
    assert "--names" in text, text  # the visible option they stand for


def test_lama_prints_the_suggestion_on_one_line_without_hidden_names_issue_19() -> None:
    """The installed program's own error line (``lamagames.cli.main.run``)."""
    result = subprocess.run(
        [sys.executable, "-m", "lamagames", "play", "dice", "--player-nam", "x"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert result.returncode == 2
    assert result.stderr.startswith("Error: No such option: --player-nam (Possible options: ")
    assert "--names" in result.stderr
    assert not any(hidden in result.stderr for hidden in HIDDEN_PLAY), result.stderr


def _hidden_option_names(command: Any) -> list[tuple[list[str], str]]:
    """``(command path, hidden long option name)`` for every command of ``command``."""
    found: list[tuple[list[str], str]] = []
    stack: list[tuple[list[str], Any]] = [([], command)]
    while stack:
        path, node = stack.pop()
        for param in node.params:
            if getattr(param, "hidden", False):
                names = [*param.opts, *param.secondary_opts]
                found += [(path, name) for name in names if name.startswith("--")]
        for name, sub in getattr(node, "commands", {}).items():
            stack.append(([*path, name], sub))
    return found


def test_no_command_of_lama_suggests_a_hidden_option_issue_19() -> None:
    """Every hidden option of every ``lama`` command, mistyped by one letter, is not
    suggested back (today: ``play``'s two; the test covers those added later)."""
    hidden = _hidden_option_names(get_command(app))
    assert ([["play"], "--player-names"]) in [[p, n] for p, n in hidden]
    runner = CliRunner()
    for path, name in hidden:
        args = [*path, "dice"] if path == ["play"] else path
        result = runner.invoke(app, [*args, name[:-1], "x"])
        text = _error_text(result.output)
        assert result.exit_code == 2 and "No such option" in text, (path, name, text)
        assert not any(h in text for p, h in hidden if p == path), (path, name, text)


def test_any_typer_command_drops_hidden_options_from_its_suggestions_issue_19() -> None:
    """The hook works for every command, not only ``lama``'s: a hidden option without a
    visible stand-in is left out, the visible close matches stay."""
    toy = typer.Typer()

    @toy.command()
    def paint(
        colour: Annotated[str, typer.Option("--colour")] = "",
        colours: Annotated[str, typer.Option("--colours")] = "",
        color: Annotated[str, typer.Option("--color", "--colors", hidden=True)] = "",
    ) -> None:
        """Paint."""
        print(colour or colours or color)

    result = CliRunner().invoke(toy, ["--colr", "red"])
    text = _error_text(result.output)
    assert result.exit_code == 2 and "No such option: --colr" in text, text
    assert "--colour" in text and "--color," not in text and "--color)" not in text, text
    assert "--colors" not in text, text
    assert CliRunner().invoke(toy, ["--color", "red"]).output == "red\n"  # still works


@pytest.mark.parametrize(
    ("args", "typo", "offered", "not_offered"),
    [
        (["dice", "--seats", "random,random"], "--shrt", ["--seats"], ["--short"]),
        (["dice", "--seats", "random,random"], "--bord", ["--record"], ["--board"]),
        (["dice", "--seats", "random,random"], "--colour=", [], ["--colours", "--colors"]),
        (["DICE", "--seats", "random,random"], "--turn-limt", [], ["--turn-limit"]),
        (["express", "--seats", "random,random"], "--end-scor", ["--record"], ["--end-score"]),
        (["express", "--seats", "random,random"], "--shrt", ["--short"], []),
        (["express", "--seats", "random,random"], "--colrs=", ["--colours"], []),
        (["--seats", "random,random", "dice"], "--shrt", ["--seats"], ["--short"]),
        (["dice"], "--starting-sea", ["--starting-seat"], []),
    ],
)
def test_play_suggests_only_the_games_options_issue_19(
    args: list[str], typo: str, offered: list[str], not_offered: list[str]
) -> None:
    """A mistyped option of ``lama play GAME`` is answered with that game's options only
    (``lama play dice --shrt`` suggested Lama Express's ``--short``, the family table's
    trial); the typo may come before or after the game, with or without a value."""
    given = [*args, typo + "x"] if typo.endswith("=") else [*args, typo]
    result = CliRunner().invoke(app, ["play", *given])
    text = _error_text(result.output)
    assert result.exit_code == 2 and f"No such option: {typo.rstrip('=')}" in text, text
    for name in offered:
        assert name in text, (name, text)
    for name in not_offered:
        assert f"{name}," not in text and f"{name})" not in text, (name, text)


def test_play_without_a_known_game_suggests_every_games_options_issue_19() -> None:
    """No known game (a typo in it too, or none given): every game's options may be meant."""
    for args in (["dise", "--shrt"], ["--shrt"]):
        text = _error_text(CliRunner().invoke(app, ["play", *args]).output)
        assert "No such option: --shrt" in text and "--short" in text, (args, text)
