"""Run the web app: ``serve(host, port, db_url)`` (the CLI's ``lama serve`` calls this).

:func:`server_config` is the one place where uvicorn is configured, so the tests run the
very server that ``lama serve`` runs. Proxy headers (``X-Forwarded-For``,
``X-Forwarded-Proto``) are ignored unless asked for: uvicorn trusts them from loopback by
default, which would let any local client pick the address the rate limits see. The HTTP
protocol is :class:`~lamagames.web.protocol.GuardedHttpProtocol`: a request head must be
complete within ``header_timeout`` seconds (408) and at most ``max_header_bytes`` long (431).
"""

from __future__ import annotations

import inspect
import json
import os
from collections.abc import Sequence
from typing import Any

import uvicorn
from fastapi import FastAPI

from lamagames.web.app import create_app
from lamagames.web.live import Settings
from lamagames.web.protocol import HEADER_TIMEOUT, MAX_HEADER_BYTES, GuardedConfig
from lamagames.web.store import Store

__all__ = ["create_app", "serve", "server_config"]

#: uvicorn's hard WebSocket frame limit, bytes; the app refuses messages over 4 KiB itself.
WS_MAX_SIZE = 64 * 1024


def server_config(
    app: FastAPI | str,
    host: str = "127.0.0.1",
    port: int = 8000,
    *,
    proxy_headers: bool = False,
    forwarded_allow_ips: str | None = None,
    header_timeout: float = HEADER_TIMEOUT,
    max_header_bytes: int = MAX_HEADER_BYTES,
    log_level: str = "info",
    ws_compression: bool = True,
    **extra: Any,
) -> uvicorn.Config:
    """The uvicorn configuration of ``lama serve``.

    Args:
        app: the app (:func:`~lamagames.web.app.create_app`), or the ``"module:attr"`` of
            an app factory (with ``factory=True``, for worker processes).
        host: interface to bind; ``127.0.0.1`` keeps it on this machine.
        port: TCP port.
        proxy_headers: trust ``X-Forwarded-For`` / ``X-Forwarded-Proto`` from the
            addresses in ``forwarded_allow_ips`` (a reverse proxy); off by default, so the
            client address is the TCP peer's.
        forwarded_allow_ips: comma-separated addresses (or networks, or ``*``) whose proxy
            headers are trusted; giving it turns ``proxy_headers`` on. Default with
            ``proxy_headers``: ``127.0.0.1,::1``.
        header_timeout: seconds a connection has to send a complete request head, from
            connecting or from the first byte of its next request (then 408 and closed).
        max_header_bytes: largest request head (request line and headers), bytes; a
            larger one is answered 431 and nothing more of it is read.
        log_level: uvicorn log level.
        ws_compression: accept a client's offer of WebSocket compression
            (permessage-deflate; browsers always offer it). Each connection compresses
            every message it is sent with its own zlib stream, which remembers the
            previous ones: a LAMA Dice state message of about 8.5 KB goes out as about
            0.2 KB, for about 0.1 ms of CPU and some memory per connection. Off: less CPU
            and memory, about 40 times the bytes on the wire (docs/web.md).
        extra: further :class:`uvicorn.Config` arguments (tests: ``timeout_graceful_shutdown``).

    Returns:
        The configuration (``uvicorn.Server(config).run()`` serves it).
    """
    trusted = forwarded_allow_ips if forwarded_allow_ips else "127.0.0.1,::1"
    return GuardedConfig(
        app,
        host=host,
        port=port,
        ws_max_size=WS_MAX_SIZE,
        ws_per_message_deflate=ws_compression,
        log_level=log_level,
        proxy_headers=proxy_headers or bool(forwarded_allow_ips),
        forwarded_allow_ips=trusted,
        header_timeout=header_timeout,
        max_header_bytes=max_header_bytes,
        **extra,
    )


#: Environment variable that hands ``serve``'s app settings to worker processes (JSON:
#: ``db_url``, ``bot_delay``, ``allowed_origins``).
WORKER_ENV = "LAMA_SERVE_WORKER"


def worker_app() -> FastAPI:
    """The app of one worker process of ``serve(workers=N)``: uvicorn imports this factory in
    every worker, which reads the database URL, bot delay and allowed origins from
    :data:`WORKER_ENV`.

    Raises:
        KeyError: :data:`WORKER_ENV` is not set (not started by :func:`serve`).
    """
    given = json.loads(os.environ[WORKER_ENV])
    settings = Settings(
        bot_delay=float(given["bot_delay"]),
        allowed_origins=tuple(given["allowed_origins"]),
        warm_compiled=True,
        freeze_gc=True,
    )
    return create_app(given["db_url"], settings=settings)


def serve(
    host: str = "127.0.0.1",
    port: int = 8000,
    db_url: str | None = None,
    *,
    bot_delay: float = 1.2,
    log_level: str = "info",
    proxy_headers: bool = False,
    forwarded_allow_ips: str | None = None,
    allowed_origins: Sequence[str] = (),
    header_timeout: float = HEADER_TIMEOUT,
    max_header_bytes: int = MAX_HEADER_BYTES,
    workers: int = 1,
    ws_compression: bool = True,
) -> None:
    """Serve the web app until interrupted.

    Args:
        host: interface to bind; ``127.0.0.1`` keeps it on this machine.
        port: TCP port.
        db_url: SQLAlchemy URL; ``None`` is an SQLite file in the user's data directory.
        bot_delay: seconds a bot waits before each decision.
        log_level: uvicorn log level.
        proxy_headers: trust proxy headers (see :func:`server_config`).
        forwarded_allow_ips: addresses whose proxy headers are trusted (see
            :func:`server_config`).
        allowed_origins: origins besides the served host whose pages may open the
            WebSocket (:attr:`~lamagames.web.live.Settings.allowed_origins`).
        header_timeout: seconds a connection has to send a complete request head.
        max_header_bytes: largest request head, bytes.
        workers: processes sharing the port (uvicorn's workers, restarted when one dies);
            more than one needs PostgreSQL, where they form a cluster
            (:mod:`lamagames.web.cluster`).
        ws_compression: WebSocket compression (see :func:`server_config`).

    Raises:
        OSError: the port cannot be bound.
        ValueError: several workers on a database other than PostgreSQL.
    """
    if workers > 1:
        url = db_url or ""
        if not url.startswith("postgres"):
            raise ValueError(f"{workers} workers need PostgreSQL; SQLite serves one process")
        Store(url).close()  # the schema, made once before the workers start at the same time
        os.environ[WORKER_ENV] = json.dumps(
            {"db_url": url, "bot_delay": bot_delay, "allowed_origins": list(allowed_origins)}
        )
        config = server_config(
            "lamagames.web.server:worker_app",
            host,
            port,
            proxy_headers=proxy_headers,
            forwarded_allow_ips=forwarded_allow_ips,
            header_timeout=header_timeout,
            max_header_bytes=max_header_bytes,
            log_level=log_level,
            ws_compression=ws_compression,
            factory=True,
            workers=workers,
        )
        # What uvicorn.run does for workers, with our configuration (its head limits), and
        # a log line for every worker started, dead or replaced (lamagames.web.supervisor).
        from uvicorn.supervisors import Multiprocess

        from lamagames.web.supervisor import Supervisor

        sock = config.bind_socket()
        options: dict[str, Any] = {}
        if "target" in inspect.signature(Multiprocess).parameters:  # uvicorn before 0.36
            options["target"] = uvicorn.Server(config).run
        Supervisor(config, [sock], **options).run()
        return
    settings = Settings(
        bot_delay=bot_delay,
        allowed_origins=tuple(allowed_origins),
        warm_compiled=True,
        freeze_gc=True,
    )
    app = create_app(db_url, settings=settings)
    config = server_config(
        app,
        host,
        port,
        proxy_headers=proxy_headers,
        forwarded_allow_ips=forwarded_allow_ips,
        header_timeout=header_timeout,
        max_header_bytes=max_header_bytes,
        log_level=log_level,
        ws_compression=ws_compression,
    )
    uvicorn.Server(config).run()
