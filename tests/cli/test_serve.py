"""``lama serve``: clear errors for a taken port or a bad database URL (no traceback)."""

from __future__ import annotations

import socket
from collections.abc import Callable

import pytest
from typer.testing import Result

Lama = Callable[..., Result]


def test_serve_refuses_a_taken_port(lama: Lama) -> None:
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        result = lama("serve", "--port", str(port), "--db", "sqlite://")
    assert result.exit_code == 2
    assert f"cannot listen on 127.0.0.1:{port}" in result.output
    assert "Traceback" not in result.output


def test_serve_refuses_a_bad_database_url(lama: Lama) -> None:
    with socket.socket() as free:
        free.bind(("127.0.0.1", 0))
        port = free.getsockname()[1]
    result = lama("serve", "--port", str(port), "--db", "nope://nowhere")
    assert result.exit_code == 2
    assert "cannot open the database 'nope://nowhere'" in result.output
    assert "in your browser" not in result.output  # nothing announced before the failure


def test_serve_checks_its_options(lama: Lama) -> None:
    result = lama("serve", "--port", "70000")
    assert result.exit_code == 2
    assert "--port" in result.output


def test_serve_refuses_several_workers_on_sqlite(lama: Lama) -> None:
    """Issue 16: more than one process needs PostgreSQL (one line, nothing started)."""
    result = lama("serve", "--workers", "2", "--db", "sqlite://")
    assert result.exit_code == 2
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert len(lines) == 1
    assert "--workers 2 needs a PostgreSQL database" in lines[0]
    assert "SQLite serves one process only" in lines[0]
    assert "in your browser" not in result.output
    assert lama("serve", "--workers", "0").exit_code == 2  # at least one


def test_serve_with_workers_refuses_sqlite_too() -> None:
    from lamagames.web.server import serve

    with pytest.raises(ValueError, match="PostgreSQL"):
        serve(db_url="sqlite://", workers=2)
