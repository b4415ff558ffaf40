"""Pretend optional packages are not installed, as after ``pip install .`` without extras.

Every availability check of the project (``lamagames.core.extras``) asks
``importlib.util.find_spec``; the packages themselves are installed in the test
environment, so tests hide them instead of uninstalling them.
"""

from __future__ import annotations

import importlib.util
from typing import Any

import pytest


def hide(monkeypatch: pytest.MonkeyPatch, *modules: str) -> None:
    """Make ``find_spec`` answer ``None`` for ``modules`` (top-level names) and their
    submodules, for the rest of the test."""
    real = importlib.util.find_spec

    def find_spec(name: str, package: str | None = None) -> Any:
        if name.split(".")[0] in modules:
            return None
        return real(name, package)

    monkeypatch.setattr(importlib.util, "find_spec", find_spec)
