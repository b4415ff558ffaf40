"""Fixtures of the core tests: Toy Race (tests/toygame) registered beside the built-in games."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from lamagames.core.spec import register_spec, unregister_spec


@pytest.fixture
def registered() -> Iterator[None]:
    """Toy Race registered for one test."""
    from tests.toygame.spec import SPEC

    register_spec(SPEC)
    yield
    unregister_spec("toy")
