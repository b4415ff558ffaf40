"""Fixtures of the web tests."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from web_helpers import TestClient, make_client


@pytest.fixture
def db(tmp_path: Path) -> Path:
    """Path of a fresh SQLite database file."""
    return tmp_path / "web.sqlite3"


@pytest.fixture
def client(db: Path) -> Iterator[TestClient]:
    """A running app with no bot delay."""
    with make_client(db) as c:
        yield c
