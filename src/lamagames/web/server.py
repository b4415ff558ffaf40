"""Run the web app: ``serve(host, port, db_url)`` (the CLI's ``lama serve`` calls this)."""

from __future__ import annotations

import uvicorn

from lamagames.web.app import create_app

__all__ = ["create_app", "serve"]

#: uvicorn's hard WebSocket frame limit, bytes; the app refuses messages over 4 KiB itself.
WS_MAX_SIZE = 64 * 1024


def serve(
    host: str = "127.0.0.1",
    port: int = 8000,
    db_url: str | None = None,
    *,
    bot_delay: float = 1.2,
    log_level: str = "info",
) -> None:
    """Serve the web app until interrupted.

    Args:
        host: interface to bind; ``127.0.0.1`` keeps it on this machine.
        port: TCP port.
        db_url: SQLAlchemy URL; ``None`` is an SQLite file in the user's data directory.
        bot_delay: seconds a bot waits before each decision.
        log_level: uvicorn log level.

    Raises:
        OSError: the port cannot be bound.
    """
    app = create_app(db_url, bot_delay=bot_delay)
    uvicorn.run(app, host=host, port=port, ws_max_size=WS_MAX_SIZE, log_level=log_level)
