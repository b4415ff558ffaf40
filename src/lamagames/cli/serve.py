"""``lama serve``: run the web app (imported only when the command runs)."""

from __future__ import annotations

from typing import Annotated

import typer

from lamagames.cli.common import fail, stdout


def serve(
    host: Annotated[str, typer.Option(help="Interface to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(min=1, max=65535, help="TCP port.")] = 8000,
    db: Annotated[
        str | None,
        typer.Option(
            "--db",
            metavar="URL",
            help="SQLAlchemy database URL (default: an SQLite file in your data folder).",
        ),
    ] = None,
    bot_delay: Annotated[
        float,
        typer.Option(
            min=0.0,
            max=10.0,
            help="Seconds a bot waits before it acts at a table of normal bot pace "
            "(slow tables wait twice as long, fast ones half).",
        ),
    ] = 1.2,
    workers: Annotated[
        int,
        typer.Option(
            min=1,
            max=64,
            help="Server processes sharing the port (more than one needs PostgreSQL; "
            "each serves every table, see docs/deploy.md).",
        ),
    ] = 1,
) -> None:
    """Run the web app: play both games in the browser, with friends and bots."""
    import socket

    from sqlalchemy.exc import SQLAlchemyError

    from lamagames.web.server import serve as run_server
    from lamagames.web.store import default_db_url

    url = db or default_db_url()
    if workers > 1 and not url.startswith("postgres"):
        fail(
            f"--workers {workers} needs a PostgreSQL database (--db postgresql://...): "
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
        fail(f"cannot open the database {url!r}: {exc}")
    shown = f"[{host}]" if ":" in host else host
    out = stdout()
    out.print(f"lamagames web app: open [bold]http://{shown}:{port}/[/bold] in your browser")
    out.print(f"database: {url}")
    out.print("Ctrl-C stops the server; open tables resume on the next start.")
    try:
        run_server(host, port, url, bot_delay=bot_delay, log_level="warning", workers=workers)
    except (ValueError, SQLAlchemyError) as exc:  # a bad database URL or an unreachable server
        fail(f"cannot open the database {url!r}: {exc}")
