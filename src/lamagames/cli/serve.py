"""``lama serve``: run the web app (imported only when the command runs).

Every option can also come from a ``LAMA_*`` environment variable
(:class:`lamagames.web.config.ServeSettings`); a flag given on the command line wins.
"""

from __future__ import annotations

import re
from typing import Annotated

import typer

from lamagames.cli.common import fail, stdout


def serve(
    host: Annotated[
        str | None,
        typer.Option(help="Interface to listen on (env LAMA_HOST; default: 127.0.0.1)."),
    ] = None,
    port: Annotated[
        int | None,
        typer.Option(min=1, max=65535, help="TCP port (env LAMA_PORT; default: 8000)."),
    ] = None,
    db: Annotated[
        str | None,
        typer.Option(
            "--db",
            metavar="URL",
            help="SQLAlchemy database URL (env LAMA_DB; default: an SQLite file in your "
            "data folder).",
        ),
    ] = None,
    bot_delay: Annotated[
        float | None,
        typer.Option(
            min=0.0,
            max=10.0,
            help="Seconds a bot waits before it acts at a table of normal bot pace "
            "(slow tables wait twice as long, fast ones half) (env LAMA_BOT_DELAY; "
            "default: 1.2).",
        ),
    ] = None,
    proxy_headers: Annotated[
        bool | None,
        typer.Option(
            "--proxy-headers/--no-proxy-headers",
            help="Trust X-Forwarded-For/-Proto from the addresses of --forwarded-allow-ips "
            "(default 127.0.0.1,::1): run behind a reverse proxy. Off: the client address "
            "is the TCP peer's (env LAMA_PROXY_HEADERS; default: off).",
            show_default=False,
        ),
    ] = None,
    forwarded_allow_ips: Annotated[
        str | None,
        typer.Option(
            "--forwarded-allow-ips",
            metavar="IPS",
            help="Comma-separated proxy addresses or networks whose X-Forwarded-* headers "
            "are trusted (implies --proxy-headers) (env LAMA_FORWARDED_ALLOW_IPS).",
        ),
    ] = None,
    allowed_origin: Annotated[
        list[str] | None,
        typer.Option(
            "--allowed-origin",
            metavar="ORIGIN",
            help="Another origin (scheme://host[:port]) whose pages may open the game "
            "WebSocket, besides this server's own host; repeat for more (env "
            "LAMA_ALLOWED_ORIGINS, comma-separated).",
        ),
    ] = None,
    ws_compression: Annotated[
        bool | None,
        typer.Option(
            "--ws-compression/--no-ws-compression",
            help="Compress the game WebSocket messages (permessage-deflate) when the "
            "browser offers it: about a fortieth of the bytes for some CPU per message "
            "(env LAMA_WS_COMPRESSION; default: on).",
            show_default=False,
        ),
    ] = None,
    workers: Annotated[
        int | None,
        typer.Option(
            min=1,
            max=64,
            help="Server processes sharing the port (more than one needs PostgreSQL; "
            "each serves every table, see docs/deploy.md) (env LAMA_WORKERS; default: 1).",
            show_default=False,
        ),
    ] = None,
) -> None:
    """Run the web app: play both games in the browser, with friends and bots.

    Each option may also be set by an environment variable (LAMA_HOST, LAMA_PORT, LAMA_DB,
    ...); a flag on the command line wins over the environment.
    """
    import socket

    from pydantic import ValidationError
    from sqlalchemy.exc import SQLAlchemyError

    from lamagames.web.config import ServeSettings, settings_error
    from lamagames.web.server import serve as run_server
    from lamagames.web.store import default_db_url

    try:
        settings = ServeSettings.from_flags(
            host=host,
            port=port,
            db=db,
            bot_delay=bot_delay,
            proxy_headers=proxy_headers,
            forwarded_allow_ips=forwarded_allow_ips,
            allowed_origins=tuple(allowed_origin) if allowed_origin else None,
            workers=workers,
            ws_compression=ws_compression,
        )
    except ValidationError as exc:
        fail(f"bad setting: {settings_error(exc)}")
    host, port = settings.host, settings.port
    url = settings.db or default_db_url()
    if settings.workers > 1 and not url.startswith("postgres"):
        fail(
            f"--workers {settings.workers} needs a PostgreSQL database (--db postgresql://...): "
            "SQLite serves one process only"
        )
    try:  # fail early and clearly if the port is taken
        with socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            probe.bind((host, port))
    except OSError as exc:
        fail(f"cannot listen on {host}:{port}: {exc.strerror or exc}")
    try:  # open the database before announcing anything
        from sqlalchemy import create_engine

        engine = create_engine(url)
        engine.connect().close()
        engine.dispose()
    except (ValueError, SQLAlchemyError) as exc:
        fail(f"cannot open the database {shown_url(url)!r}: {database_error(exc, url)}")
    except ImportError as exc:  # the database's driver is not installed
        fail(f"cannot open the database {shown_url(url)!r}: {missing_driver(exc)}")
    shown = f"[{host}]" if ":" in host else host
    out = stdout()
    out.print(f"lamagames web app: open [bold]http://{shown}:{port}/[/bold] in your browser")
    out.print(f"database: {shown_url(url)}")
    out.print("Ctrl-C stops the server; open tables resume on the next start.")
    try:
        run_server(
            host,
            port,
            url,
            bot_delay=settings.bot_delay,
            log_level="warning",
            proxy_headers=settings.proxy_headers,
            forwarded_allow_ips=settings.forwarded_allow_ips,
            allowed_origins=settings.allowed_origins,
            header_timeout=settings.header_timeout,
            max_header_bytes=settings.max_header_bytes,
            workers=settings.workers,
            ws_compression=settings.ws_compression,
        )
    except (ValueError, SQLAlchemyError) as exc:  # a bad database URL or an unreachable server
        fail(f"cannot open the database {shown_url(url)!r}: {database_error(exc, url)}")


def shown_url(url: str) -> str:
    """A database URL fit to print: its password replaced by ``***``
    (``postgresql://lama:***@host/db``); a URL SQLAlchemy cannot read is masked by pattern."""
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import ArgumentError

    try:
        return make_url(url).render_as_string(hide_password=True)
    except (ArgumentError, ValueError):
        return re.sub(r"(://[^:/@]*:)[^@/]*@", r"\1***@", url)


def database_error(exc: BaseException, url: str) -> str:
    """The driver's reason for a failed connection on one line, without SQLAlchemy's
    "Background on this error" link and without the URL's password."""
    reason = getattr(exc, "orig", None) or exc
    text = " ".join(line.strip() for line in str(reason).splitlines() if line.strip())
    text = text.split("(Background on this error at:")[0].strip()
    password = _password(url)
    if not password:
        return text
    # the password where it stands alone (in a URL or a conninfo), not inside other words:
    # a password "lama" must not turn database "lamagames" into "***games"
    return re.sub(rf"(?<![\w]){re.escape(password)}(?![\w])", "***", text)


def missing_driver(exc: ImportError) -> str:
    """One line for a database driver that is not installed (``exc``: its import error),
    naming the extra that installs it (PostgreSQL: ``psycopg``, the ``postgres`` extra)."""
    name = exc.name or str(exc)
    if name.split(".")[0] in {"psycopg", "psycopg2"}:
        return (
            f"its driver is not installed (no module {name!r}): install the postgres extra, "
            "pip install -e '.[postgres]' in a clone of the repository"
        )
    return f"its driver is not installed ({exc})"


def _password(url: str) -> str | None:
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import ArgumentError

    try:
        password = make_url(url).password
        return None if password is None else str(password)
    except (ArgumentError, ValueError):
        return None
