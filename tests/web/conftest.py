"""Fixtures of the web tests."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from browser_helpers import CHROMIUM, CHROMIUM_ARGS
from db_helpers import BACKENDS, database_url
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
