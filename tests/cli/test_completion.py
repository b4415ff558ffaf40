"""Shell completion of ``lama`` (issue 20): Typer's --show-completion / --install-completion."""

from __future__ import annotations

import os
import subprocess
import sys


def _lama(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "lamagames", *args],
        capture_output=True, text=True, timeout=120, env={**os.environ, **(env or {})},
    )  # fmt: skip


def test_show_completion_prints_a_bash_script() -> None:
    """As typed in a shell: Typer detects the shell (the bash that runs the tests) and prints
    its script, which calls ``lama`` back with ``_LAMA_COMPLETE`` set."""
    # run from bash (Typer looks for the shell among the parent processes; under another
    # parent, e.g. a job runner, it finds none); "; true" keeps bash from exec'ing python
    result = subprocess.run(
        ["bash", "-c", '"$0" -m lamagames --show-completion; true', sys.executable],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert "Shell  not supported" not in result.stderr, result.stderr
    assert "_LAMA_COMPLETE=complete_" in result.stdout and "lama" in result.stdout
    help_text = _lama("--help").stdout
    assert "--install-completion" in help_text and "--show-completion" in help_text


def test_show_completion_for_a_named_shell() -> None:
    """With shell detection off (Typer's switch), --show-completion takes the shell's name."""
    named = {"_TYPER_COMPLETE_TEST_DISABLE_SHELL_DETECTION": "1"}
    bash = _lama("--show-completion", "bash", env=named)
    assert bash.returncode == 0, bash.stderr
    assert "complete -o default -F _lama_completion lama" in bash.stdout
    assert "_LAMA_COMPLETE=complete_bash" in bash.stdout
    zsh = _lama("--show-completion", "zsh", env=named)
    assert zsh.returncode == 0 and zsh.stdout.startswith("#compdef lama")
    fish = _lama("--show-completion", "fish", env=named)
    assert fish.returncode == 0 and "complete --command lama" in fish.stdout
    bad = _lama("--show-completion", "cmd", env=named)
    assert bad.returncode == 2 and "cmd" in bad.stderr


def test_the_script_completes_commands() -> None:
    """What the bash script asks for: the commands that start with the typed word."""
    env = {"_LAMA_COMPLETE": "complete_bash", "COMP_WORDS": "lama si", "COMP_CWORD": "1"}
    result = _lama(env=env)
    assert result.returncode == 0
    assert result.stdout.split() == ["simulate"]
    env["COMP_WORDS"], env["COMP_CWORD"] = "lama r", "1"
    assert sorted(_lama(env=env).stdout.split()) == ["replay", "review", "rules"]


def test_the_script_completes_game_names() -> None:
    """The GAME argument of play, rules, simulate, tutorial and ladder completes to the
    known games (it offered nothing, found by a fresh-clone trial)."""
    for words, expected in [
        ("lama play ", ["dice", "express"]),
        ("lama rules e", ["express"]),
        ("lama simulate d", ["dice"]),
        ("lama tutorial ", ["dice", "express"]),
        ("lama ladder ex", ["express"]),
    ]:
        cword = str(len(words.split()) - (0 if words.endswith(" ") else 1))
        env = {"_LAMA_COMPLETE": "complete_bash", "COMP_WORDS": words, "COMP_CWORD": cword}
        result = _lama(env=env)
        assert result.returncode == 0, result.stderr
        assert sorted(result.stdout.split()) == expected, words
