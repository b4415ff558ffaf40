"""Helpers of the real-browser tests: Debian's chromium and a uvicorn server in a thread."""

from __future__ import annotations

import json
import socket
import threading
import time
import urllib.request
from pathlib import Path
from typing import Any

import pytest
import uvicorn

from lamagames.web import create_app
from lamagames.web.live import Settings
from lamagames.web.server import server_config

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]

#: Marks of every browser test module (``pytestmark = BROWSER_MARKS``).
#: On a developer machine without chromium they are left out at collection (said in the
#: summary: tests/web/conftest.py); in CI (CI=true, where .ci/run installs chromium) they
#: always run, so a missing browser fails loudly.
BROWSER_MARKS = [pytest.mark.e2e]


def free_port() -> int:
    """A free TCP port on 127.0.0.1."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


class ServerThread:
    """uvicorn serving an app in a daemon thread."""

    def __init__(
        self,
        db: Path,
        bot_delay: float,
        port: int | None = None,
        *,
        settings: Settings | None = None,
        **options: Any,
    ) -> None:
        # seeded test tables
        settings = settings or Settings(bot_delay=bot_delay, seeded_humans=True)
        app = create_app(f"sqlite:///{db}", settings=settings)
        self.port = port or free_port()
        # the configuration of `lama serve` (server.server_config); options: its keywords
        config = server_config(
            app, "127.0.0.1", self.port, log_level="warning", timeout_graceful_shutdown=2,
            **options,
        )
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    @property
    def url(self) -> str:
        """Base URL."""
        return f"http://127.0.0.1:{self.port}"

    def __enter__(self) -> ServerThread:
        self.thread.start()
        deadline = time.monotonic() + 15
        while not self.server.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise RuntimeError("uvicorn did not start")
            time.sleep(0.02)
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.should_exit = True
        self.thread.join(10)


HUMAN: dict[str, Any] = {"kind": "human"}


def post_json(server: ServerThread, path: str, body: dict[str, Any]) -> dict[str, Any]:
    """POST ``body`` as JSON to the live server; the JSON answer."""
    request = urllib.request.Request(
        f"{server.url}{path}", json.dumps(body).encode(), {"content-type": "application/json"}
    )
    with urllib.request.urlopen(request) as response:
        data: dict[str, Any] = json.loads(response.read())
        return data


def get_json(server: ServerThread, path: str) -> dict[str, Any]:
    """GET ``path`` from the live server; the JSON answer."""
    with urllib.request.urlopen(f"{server.url}{path}") as response:
        data: dict[str, Any] = json.loads(response.read())
        return data


def started_dice_table(server: ServerThread, **extra: Any) -> dict[str, Any]:
    """A playing two-person LAMA Dice table; seat 0 (which starts, D-5) acts first.
    ``extra``: further fields of the creation request (``hints=False``...)."""
    body = {"game": "dice", "seats": [HUMAN, HUMAN], **extra}
    table = post_json(server, "/api/tables", body)
    post_json(server, f"/api/tables/{table['code']}/start", {"host_token": table["host_token"]})
    return table
