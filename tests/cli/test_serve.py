"""``lama serve``: clear errors for a taken port or a bad database URL (no traceback)."""

from __future__ import annotations

import socket
from collections.abc import Callable
from typing import Any

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


def test_serve_passes_the_proxy_options(lama: Lama, monkeypatch: pytest.MonkeyPatch) -> None:
    seen: dict[str, Any] = {}

    def fake_serve(*args: Any, **kwargs: Any) -> None:
        seen.update(kwargs)

    monkeypatch.setattr("lamagames.web.server.serve", fake_serve)
    result = lama("serve", "--port", "8765", "--db", "sqlite://")
    assert result.exit_code == 0, result.output
    assert seen["proxy_headers"] is False and seen["forwarded_allow_ips"] is None
    result = lama(
        "serve", "--port", "8765", "--db", "sqlite://", "--forwarded-allow-ips", "10.1.2.3"
    )
    assert result.exit_code == 0, result.output
    assert seen["forwarded_allow_ips"] == "10.1.2.3"


def test_serve_passes_the_allowed_origins(lama: Lama, monkeypatch: pytest.MonkeyPatch) -> None:
    seen: dict[str, Any] = {}
    monkeypatch.setattr("lamagames.web.server.serve", lambda *a, **kw: seen.update(kw))
    args = ["serve", "--port", "8765", "--db", "sqlite://"]
    assert lama(*args).exit_code == 0
    assert seen["allowed_origins"] == ()
    more = ["--allowed-origin", "https://a.example", "--allowed-origin", "https://b.example"]
    assert lama(*args, *more).exit_code == 0
    assert seen["allowed_origins"] == ("https://a.example", "https://b.example")
