"""Shared fixtures for the terminal tests."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest
from typer.testing import CliRunner, Result

from lamagames.cli.i18n import set_language_before_command, use_language
from lamagames.cli.main import app

Invoke = Callable[..., Result]


@pytest.fixture
def lama() -> Invoke:
    """``lama(*args, input=None)`` runs the ``lama`` command and returns Click's result."""
    runner = CliRunner()

    def run(*args: str, input: str | None = None) -> Result:
        return runner.invoke(app, list(args), input=input)

    return run


@pytest.fixture(autouse=True)
def english_terminal(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The terminal speaks English in these tests whatever the machine's locale
    (``lama play`` and ``lama replay`` read LC_ALL / LC_MESSAGES / LANG), and a test that
    chose another language leaves English behind for the functions called directly."""
    for variable in ("LC_ALL", "LC_MESSAGES", "LANGUAGE"):
        monkeypatch.delenv(variable, raising=False)
    monkeypatch.setenv("LANG", "C")
    set_language_before_command(None)
    use_language("en")
    yield
    set_language_before_command(None)
    use_language("en")
