"""Run the web app: ``serve(host, port, db_url)`` (the CLI's ``lama serve`` calls this)."""

from __future__ import annotations

import os

import uvicorn
from fastapi import FastAPI

from lamagames.web.app import create_app
from lamagames.web.store import Store

__all__ = ["create_app", "serve"]

#: uvicorn's hard WebSocket frame limit, bytes; the app refuses messages over 4 KiB itself.
WS_MAX_SIZE = 64 * 1024


#: Environment variables that hand ``serve``'s arguments to worker processes.
DB_ENV = "LAMA_SERVE_DB"
BOT_DELAY_ENV = "LAMA_SERVE_BOT_DELAY"


def worker_app() -> FastAPI:
    """The app of one worker process of ``serve(workers=N)`` (uvicorn imports this factory
    in every worker; the database URL and bot delay come from :data:`DB_ENV` and
    :data:`BOT_DELAY_ENV`)."""
    return create_app(os.environ[DB_ENV], bot_delay=float(os.environ.get(BOT_DELAY_ENV, "1.2")))


def serve(
    host: str = "127.0.0.1",
    port: int = 8000,
    db_url: str | None = None,
    *,
    bot_delay: float = 1.2,
    log_level: str = "info",
    workers: int = 1,
) -> None:
    """Serve the web app until interrupted.

    Args:
        host: interface to bind; ``127.0.0.1`` keeps it on this machine.
        port: TCP port.
        db_url: SQLAlchemy URL; ``None`` is an SQLite file in the user's data directory.
        bot_delay: seconds a bot waits before each decision.
        log_level: uvicorn log level.
        workers: processes sharing the port (uvicorn's workers, restarted when one dies);
            more than one needs PostgreSQL, where they form a cluster
            (:mod:`lamagames.web.cluster`).

    Raises:
        OSError: the port cannot be bound.
        ValueError: several workers on a database other than PostgreSQL.
    """
    if workers > 1:
        url = db_url or ""
        if not url.startswith("postgres"):
            raise ValueError(f"{workers} workers need PostgreSQL; SQLite serves one process")
        Store(url).close()  # the schema, made once before the workers start at the same time
        os.environ[DB_ENV] = url
        os.environ[BOT_DELAY_ENV] = repr(bot_delay)
        uvicorn.run(
            "lamagames.web.server:worker_app",
            factory=True,
            host=host,
            port=port,
            workers=workers,
            ws_max_size=WS_MAX_SIZE,
            log_level=log_level,
        )
        return
    app = create_app(db_url, bot_delay=bot_delay)
    uvicorn.run(app, host=host, port=port, ws_max_size=WS_MAX_SIZE, log_level=log_level)
