"""Fixtures of the web tests."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from browser_helpers import CHROMIUM, CHROMIUM_ARGS
from db_helpers import BACKENDS, POSTGRES_ENV, database_url
from web_helpers import TestClient, make_client

if TYPE_CHECKING:
    from playwright.sync_api import Browser


@pytest.fixture
def db(tmp_path: Path) -> Path:
    """Path of a fresh SQLite database file."""
    return tmp_path / "web.sqlite3"


@pytest.fixture
def client(db: Path) -> Iterator[TestClient]:
    """A running app with no bot delay."""
    with make_client(db) as c:
        yield c


@pytest.fixture(params=BACKENDS)
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """URL of a fresh database, once on SQLite and once on PostgreSQL (skipped without
    ``LAMA_TEST_POSTGRES_URL``; see ``db_helpers``)."""
    with database_url(request.param, tmp_path) as url:
        yield url


@pytest.fixture
def browser() -> Iterator[Browser]:
    """Debian's chromium, headless (the browser tests)."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        launched = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield launched
        launched.close()


#: Tests left out at collection because what they need is not on this machine (outside CI):
#: (mark, what is missing, how many), reported at the end of the run.
_LEFT_OUT: list[tuple[str, str, int]] = []


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Outside CI, leave out the tests whose server or browser this machine does not have
    (``postgres``: no ``LAMA_TEST_POSTGRES_URL``; ``e2e``: no /usr/bin/chromium) instead of
    collecting them to skip: a skipped test checks nothing, and the run's summary says what
    was left out and how to include it. In CI (``CI=true``, where .ci/run starts PostgreSQL
    and installs chromium) every test is kept, so a missing server or browser fails."""
    if os.environ.get("CI") == "true":
        return
    missing = {}
    if not os.environ.get(POSTGRES_ENV, "").strip():
        missing["postgres"] = f"{POSTGRES_ENV} is not set"
    if not CHROMIUM.exists():
        missing["e2e"] = f"no chromium at {CHROMIUM} (apt-get install chromium)"
    kept: list[pytest.Item] = []
    left: dict[str, list[pytest.Item]] = {mark: [] for mark in missing}
    for item in items:
        mark = next((m for m in missing if item.get_closest_marker(m) is not None), None)
        (kept if mark is None else left[mark]).append(item)
    for mark, out in left.items():
        if out:
            config.hook.pytest_deselected(items=out)
            _LEFT_OUT.append((mark, missing[mark], len(out)))
    items[:] = kept


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """Say which tests were left out and why (:func:`pytest_collection_modifyitems`)."""
    for mark, why, count in _LEFT_OUT:
        terminalreporter.write_line(
            f"left out {count} '{mark}' tests: {why} (CI runs them all)", yellow=True
        )
