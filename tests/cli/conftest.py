"""Shared fixtures for the terminal tests."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from typer.testing import CliRunner, Result

from lamagames.cli.main import app

Invoke = Callable[..., Result]


@pytest.fixture
def lama() -> Invoke:
    """``lama(*args, input=None)`` runs the ``lama`` command and returns Click's result."""
    runner = CliRunner()

    def run(*args: str, input: str | None = None) -> Result:
        return runner.invoke(app, list(args), input=input)

    return run
