"""The WebSocket checks ``Origin`` against the served host (issue 16: a WebSocket with
``Origin: http://evil.example`` was accepted)."""

from __future__ import annotations

import asyncio
from dataclasses import replace
from pathlib import Path

import pytest
from browser_helpers import ServerThread
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect
from web_helpers import FAST, create, make_client
from websockets.asyncio.client import connect
from websockets.exceptions import InvalidStatus

from lamagames.web.live import Settings
from lamagames.web.routes.play import origin_allowed

HUMANS = [{"kind": "human"}, {"kind": "human"}]


def hello(client: TestClient, code: str, origin: str | None) -> str:
    headers = {"origin": origin} if origin is not None else {}
    with client.websocket_connect(f"/ws/{code}", headers=headers) as ws:
        ws.send_json({"type": "hello", "token": None})
        kind: str = ws.receive_json()["type"]
        return kind


def test_a_foreign_origin_is_refused(client: TestClient) -> None:
    code = create(client, HUMANS)["code"]
    with pytest.raises(WebSocketDisconnect) as refused:
        hello(client, code, "http://evil.example")
    assert refused.value.code == 1008
    assert hello(client, code, "http://testserver") == "state"  # the served host
    assert hello(client, code, None) == "state"  # scripts send no Origin


def test_allowed_origins_are_accepted(db: Path) -> None:
    settings = replace(FAST, allowed_origins=("https://Lama.Example/",))
    with make_client(db, settings) as client:
        code = create(client, HUMANS)["code"]
        assert hello(client, code, "https://lama.example") == "state"
        with pytest.raises(WebSocketDisconnect):
            hello(client, code, "http://evil.example")


@pytest.mark.parametrize(
    ("origin", "host", "allowed"),
    [
        ("http://127.0.0.1:8000", "127.0.0.1:8000", True),
        ("https://lama.example", "lama.example", True),  # behind a TLS proxy
        ("https://lama.example", "lama.example:443", True),
        ("http://lama.example:80", "lama.example", True),
        ("http://127.0.0.1:8001", "127.0.0.1:8000", False),  # another port, another site
        ("http://evil.example", "lama.example", False),
        ("null", "lama.example", False),  # sandboxed frames, file: pages
        ("http://lama.example", None, False),
    ],
)
def test_origin_rule(origin: str, host: str | None, allowed: bool) -> None:
    assert origin_allowed(origin, host, Settings()) is allowed


def test_a_real_server_refuses_the_handshake(tmp_path: Path) -> None:
    with ServerThread(tmp_path / "a.sqlite3", 0.0) as server:
        url = f"ws://127.0.0.1:{server.port}/ws/ABCDEF"

        async def open_with(origin: str) -> int:
            try:
                async with connect(url, origin=origin):  # type: ignore[arg-type]
                    return 101  # accepted (the server then says there is no such table)
            except InvalidStatus as exc:
                return exc.response.status_code

        assert asyncio.run(open_with("http://evil.example")) == 403
        assert asyncio.run(open_with(server.url)) == 101
