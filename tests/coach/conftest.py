"""Review tests use a temporary solver disk cache (never the user's)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from lamagames.dice.solver.cache import CACHE_ENV

# ``lama hint`` and ``lama review`` follow the locale: these tests read English words
# whatever the machine's locale (the terminal tests' fixture).
from tests.cli.conftest import english_terminal  # noqa: F401


@pytest.fixture(scope="session", autouse=True)
def solver_cache(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """A temporary disk-cache directory, set through ``LAMAGAMES_SOLVER_CACHE``."""
    path = tmp_path_factory.mktemp("solver_cache")
    mp = pytest.MonkeyPatch()
    mp.setenv(CACHE_ENV, str(path))
    yield path
    mp.undo()
