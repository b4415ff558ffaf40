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


def test_serve_never_prints_the_database_password(lama: Lama) -> None:
    """The URL shown at start and in a failed connection's one line has ``***`` for the
    password (it was printed in clear, and SQLAlchemy's "Background" link made it two lines)."""
    from lamagames.cli.serve import database_error, shown_url

    with socket.socket() as free:
        free.bind(("127.0.0.1", 0))
        port = free.getsockname()[1]
    url = f"postgresql+psycopg://lama:s3cretpw@127.0.0.1:{port}/nowhere"  # nothing listens
    result = lama("serve", "--port", str(port), "--db", url)
    assert result.exit_code == 2
    assert "s3cretpw" not in result.output
    assert "lama:***@127.0.0.1" in result.output
    assert len([line for line in result.output.splitlines() if line.strip()]) == 1
    assert shown_url("postgresql://u:pw@h/db") == "postgresql://u:***@h/db"
    assert shown_url("sqlite:///tables.sqlite3") == "sqlite:///tables.sqlite3"
    error = RuntimeError("failed for pw\n(Background on this error at: https://x)")
    assert database_error(error, "postgresql://u:pw@h/db") == "failed for ***"


def test_serve_checks_its_options(lama: Lama) -> None:
    result = lama("serve", "--port", "70000")
    assert result.exit_code == 2
    assert "--port" in result.output


def _free_port() -> str:
    """A port nobody listens on now: ``lama serve`` checks that its port is free before it
    starts, so a fixed one fails the tests while another server uses it."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return str(probe.getsockname()[1])


def test_serve_passes_the_proxy_options(lama: Lama, monkeypatch: pytest.MonkeyPatch) -> None:
    seen: dict[str, Any] = {}

    def fake_serve(*args: Any, **kwargs: Any) -> None:
        seen.update(kwargs)

    monkeypatch.setattr("lamagames.web.server.serve", fake_serve)
    port = _free_port()
    result = lama("serve", "--port", port, "--db", "sqlite://")
    assert result.exit_code == 0, result.output
    assert seen["proxy_headers"] is False and seen["forwarded_allow_ips"] is None
    result = lama("serve", "--port", port, "--db", "sqlite://", "--forwarded-allow-ips", "10.1.2.3")
    assert result.exit_code == 0, result.output
    assert seen["forwarded_allow_ips"] == "10.1.2.3"


def test_serve_passes_the_allowed_origins(lama: Lama, monkeypatch: pytest.MonkeyPatch) -> None:
    seen: dict[str, Any] = {}
    monkeypatch.setattr("lamagames.web.server.serve", lambda *a, **kw: seen.update(kw))
    args = ["serve", "--port", _free_port(), "--db", "sqlite://"]
    assert lama(*args).exit_code == 0
    assert seen["allowed_origins"] == ()
    more = ["--allowed-origin", "https://a.example", "--allowed-origin", "https://b.example"]
    assert lama(*args, *more).exit_code == 0
    assert seen["allowed_origins"] == ("https://a.example", "https://b.example")


def run_serve(
    lama: Lama, monkeypatch: pytest.MonkeyPatch, *args: str
) -> tuple[Result, dict[str, Any]]:
    """``lama serve ARGS`` with the server replaced: its result and what the server got."""
    seen: dict[str, Any] = {}

    def fake_serve(*positional: Any, **kwargs: Any) -> None:
        seen.update(zip(("host", "port", "db"), positional, strict=False))
        seen.update(kwargs)

    monkeypatch.setattr("lamagames.web.server.serve", fake_serve)
    return lama("serve", *args), seen


def test_serve_takes_settings_from_the_environment(
    lama: Lama, monkeypatch: pytest.MonkeyPatch
) -> None:
    with socket.socket() as free:
        free.bind(("127.0.0.1", 0))
        port = free.getsockname()[1]
    monkeypatch.setenv("LAMA_PORT", str(port))
    monkeypatch.setenv("LAMA_DB", "sqlite://")
    monkeypatch.setenv("LAMA_BOT_DELAY", "0.5")
    monkeypatch.setenv("LAMA_PROXY_HEADERS", "true")
    monkeypatch.setenv("LAMA_ALLOWED_ORIGINS", "https://a.example, https://b.example")
    monkeypatch.setenv("LAMA_HEADER_TIMEOUT", "3")
    result, seen = run_serve(lama, monkeypatch)
    assert result.exit_code == 0, result.output
    assert (seen["port"], seen["db"], seen["bot_delay"]) == (port, "sqlite://", 0.5)
    assert seen["proxy_headers"] is True and seen["header_timeout"] == 3.0
    assert seen["allowed_origins"] == ("https://a.example", "https://b.example")
    # flags win over the environment
    result, seen = run_serve(
        lama,
        monkeypatch,
        "--bot-delay",
        "0",
        "--no-proxy-headers",
        "--allowed-origin",
        "https://c.example",
    )
    assert result.exit_code == 0, result.output
    assert (seen["bot_delay"], seen["proxy_headers"]) == (0.0, False)
    assert seen["allowed_origins"] == ("https://c.example",)
    assert seen["port"] == port  # not given as a flag: the environment's
    assert seen["workers"] == 1


def test_serve_refuses_a_bad_environment_value(lama: Lama, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LAMA_PORT", "eighty")
    result, seen = run_serve(lama, monkeypatch, "--db", "sqlite://")
    assert result.exit_code == 2
    assert "--port / LAMA_PORT: Input should be a valid integer" in result.output
    assert "Traceback" not in result.output and not seen
    monkeypatch.setenv("LAMA_PORT", "70000")
    result, _ = run_serve(lama, monkeypatch, "--db", "sqlite://")
    assert result.exit_code == 2 and "LAMA_PORT" in result.output


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


def test_serve_ws_compression_from_flag_and_environment(
    lama: Lama, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 16: WebSocket compression is a setting (on by default), ``LAMA_WS_COMPRESSION``
    or ``--no-ws-compression``, and reaches uvicorn's ``ws_per_message_deflate``."""
    from lamagames.web.server import server_config

    with socket.socket() as free:
        free.bind(("127.0.0.1", 0))
        port = free.getsockname()[1]
    monkeypatch.setenv("LAMA_PORT", str(port))
    result, seen = run_serve(lama, monkeypatch, "--db", "sqlite://")
    assert result.exit_code == 0, result.output
    assert seen["ws_compression"] is True
    monkeypatch.setenv("LAMA_WS_COMPRESSION", "false")
    result, seen = run_serve(lama, monkeypatch, "--db", "sqlite://")
    assert result.exit_code == 0, result.output
    assert seen["ws_compression"] is False
    result, seen = run_serve(lama, monkeypatch, "--db", "sqlite://", "--ws-compression")
    assert seen["ws_compression"] is True  # the flag wins
    assert server_config("x:y", ws_compression=False).ws_per_message_deflate is False
    assert server_config("x:y").ws_per_message_deflate is True


def test_serve_settings_and_app_emit_no_warning() -> None:
    """A fresh-clone trial reported a pydantic ``UnsupportedFieldAttributeWarning`` at every
    start: creating the settings (with the environment's values too), the command app and
    the web app must emit no warning at all (every warning is an error here)."""
    import warnings

    from lamagames.web.app import create_app
    from lamagames.web.config import ServeSettings

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        ServeSettings.from_flags(port=8123, allowed_origins=("http://a.example",), workers=2)
        ServeSettings.model_json_schema()
        create_app("sqlite://").openapi()


def test_the_password_is_masked_only_where_it_stands_alone() -> None:
    """Masking the password in a driver's message leaves other words alone: with the
    password ``lama`` (docs/deploy.md's), database ``lamagames_x`` stays readable (it was
    printed as ``***games_x``)."""
    from lamagames.cli.serve import database_error

    url = "postgresql://lama:lama@127.0.0.1:5432/lamagames_x"
    error = RuntimeError('FATAL:  database "lamagames_x" does not exist (password lama)')
    assert database_error(error, url) == (
        'FATAL:  database "lamagames_x" does not exist (password ***)'
    )
    assert database_error(RuntimeError("dsn user=x password=lama host=h"), url) == (
        "dsn user=x password=*** host=h"
    )


def test_serve_without_the_postgresql_driver_says_which_extra_installs_it(
    lama: Lama, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No psycopg installed: ``lama serve`` and ``lama lease`` on a PostgreSQL URL end with
    one line naming the ``postgres`` extra (serve printed a traceback)."""
    import sys

    monkeypatch.setitem(sys.modules, "psycopg", None)  # import psycopg -> ImportError
    url = "postgresql+psycopg://lama:pw@127.0.0.1:5432/lamagames"
    for args in (("serve", "--port", _free_port(), "--db", url), ("lease", "ABC123", "--db", url)):
        result = lama(*args)
        assert result.exit_code == 2, result.output
        assert "Traceback" not in result.output
        assert "driver is not installed" in result.output
        assert "'.[postgres]'" in result.output
        assert "pw@" not in result.output


@pytest.mark.parametrize(
    ("flag", "value", "named"),
    [
        ("--allowed-origin", "notanorigin", "--allowed-origin / LAMA_ALLOWED_ORIGINS"),
        ("--allowed-origin", "https://lama.example/path", "--allowed-origin"),
        ("--allowed-origin", "ftp://lama.example", "--allowed-origin"),
        ("--forwarded-allow-ips", "1.2.3.300", "--forwarded-allow-ips / LAMA_FORWARDED"),
        ("--forwarded-allow-ips", "127.0.0.1, proxy", "--forwarded-allow-ips"),
    ],
)
def test_serve_refuses_a_malformed_origin_or_proxy_address(
    lama: Lama, flag: str, value: str, named: str
) -> None:
    """An origin or proxy address that cannot match anything is refused in one line naming
    the flag and its variable (both were accepted silently)."""
    result = lama("serve", "--port", _free_port(), flag, value)
    assert result.exit_code == 2, result.output
    assert named in result.output
    assert "in your browser" not in result.output


def test_well_formed_origins_and_proxy_addresses_are_taken() -> None:
    from lamagames.web.config import ServeSettings

    settings = ServeSettings(
        allowed_origins=("https://lama.example/", "http://127.0.0.1:8000"),
        forwarded_allow_ips="127.0.0.1, 10.0.0.0/8, ::1",
    )
    assert settings.allowed_origins == ("https://lama.example", "http://127.0.0.1:8000")
    assert ServeSettings(forwarded_allow_ips="*").forwarded_allow_ips == "*"
