"""Hostile input to the web app answers the documented JSON errors (issue 8): non-ASCII
tokens, deeply nested WebSocket messages, oversized and chunked bodies, refusals that echo
the action's ``ref``."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from hypothesis import given
from hypothesis import strategies as st
from web_helpers import Peer, create, make_client, start

from lamagames.web.live import Settings
from lamagames.web.middleware import MAX_BODY_BYTES
from lamagames.web.schemas import nesting_depth

HUMAN = {"kind": "human"}
BOT = {"kind": "bot", "bot_kind": "random"}
ODD_TOKENS = ["éééééééé", "ab cd ef gh", "🦙🦙🦙🦙🦙🦙🦙🦙"]


def _paths(table: dict[str, Any]) -> dict[str, tuple[str, str]]:
    code = table["code"]
    return {
        "start": (f"/api/tables/{code}/start", "host_token"),
        "join": (f"/api/tables/{code}/join", "token"),
        "rematch": (f"/api/tables/{code}/rematch", "token"),
    }


@pytest.mark.parametrize("route", ["start", "join", "rematch"])
@pytest.mark.parametrize("token", ODD_TOKENS)
def test_odd_tokens_over_http_are_refused_as_invalid(
    client: TestClient, route: str, token: str
) -> None:
    table = create(client, [HUMAN, BOT])
    path, field = _paths(table)[route]
    response = client.post(path, json={field: token})
    assert response.status_code == 422, response.text
    body = response.json()
    assert body["error"] == "invalid"
    assert body["message"].startswith(field)
    # nothing changed: the table still waits
    assert client.get(f"/api/tables/{table['code']}").json()["status"] == "waiting"


@pytest.mark.parametrize("token", ODD_TOKENS)
def test_odd_token_in_hello_is_invalid_and_keeps_the_socket(
    client: TestClient, token: str
) -> None:
    table = create(client, [HUMAN, BOT])
    with client.websocket_connect(f"/ws/{table['code']}") as ws:
        peer = Peer(ws)
        peer.send({"type": "hello", "token": token})
        error = peer.error()
        assert error["code"] == "invalid"
        assert "token" in error["message"]
        state = peer.hello(table["seats"][0]["token"])  # the socket is still open
        assert state["seat"] == 0


def _post_chunked(app: Any, chunks: Iterator[bytes]) -> tuple[int, bytes, int]:
    """POST ``chunks`` to ``/api/tables`` straight through the ASGI interface, as a server
    passes a chunked body (no Content-Length), pulling chunks only when the app asks.

    Returns:
        The answer's status, its body and how many bytes the app pulled.
    """
    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "POST",
        "scheme": "http",
        "path": "/api/tables",
        "raw_path": b"/api/tables",
        "query_string": b"",
        "root_path": "",
        "headers": [(b"content-type", b"application/json"), (b"transfer-encoding", b"chunked")],
        "client": ("127.0.0.1", 5000),
        "server": ("127.0.0.1", 8000),
    }
    pulled = 0
    sent: list[dict[str, Any]] = []

    async def receive() -> dict[str, Any]:
        nonlocal pulled
        chunk = next(chunks, None)
        if chunk is None:
            return {"type": "http.request", "body": b"", "more_body": False}
        pulled += len(chunk)
        return {"type": "http.request", "body": chunk, "more_body": True}

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    asyncio.run(app(scope, receive, send))
    status = next(m["status"] for m in sent if m["type"] == "http.response.start")
    body = b"".join(m.get("body", b"") for m in sent if m["type"] == "http.response.body")
    return status, body, pulled


def test_chunked_body_stops_at_the_limit(client: TestClient) -> None:
    """A body without Content-Length (chunked) is read only up to the 64 KiB limit: of a
    150 MB body the app pulls at most one chunk past the limit and answers 413."""
    chunk = b" " * 16_384
    chunks = (chunk for _ in range(150_000_000 // len(chunk)))  # lazily: never in memory
    status, body, pulled = _post_chunked(client.app, chunks)
    assert status == 413
    assert json.loads(body)["error"] == "too_large"
    assert pulled <= MAX_BODY_BYTES + len(chunk)
    assert client.get("/api/tables").status_code == 200  # the server carries on


def test_chunked_body_under_the_limit_passes(client: TestClient) -> None:
    raw = json.dumps({"game": "dice", "seats": [HUMAN, BOT], "params": {}}).encode()
    status, body, pulled = _post_chunked(
        client.app, (raw[i : i + 7] for i in range(0, len(raw), 7))
    )
    assert status == 201, body
    assert pulled == len(raw)
    assert json.loads(body)["code"]


def test_content_length_over_the_limit_is_refused_unread(client: TestClient) -> None:
    response = client.post(
        "/api/tables", content=b"x" * 70_000, headers={"content-type": "application/json"}
    )
    assert response.status_code == 413
    assert response.json() == {
        "error": "too_large",
        "message": f"request body too large (limit {MAX_BODY_BYTES} bytes)",
    }


DEEP = "[" * 1000 + "]" * 1000


@pytest.mark.parametrize(
    "payload",
    [
        DEEP,
        "{" * 3000,  # not even JSON: still a clear answer
        json.dumps({"type": "hello", "token": None, "x": json.loads("[" * 40 + "]" * 40)}),
    ],
    ids=["brackets", "open-braces", "nested-field"],
)
def test_deeply_nested_messages_are_invalid_and_keep_the_socket(
    client: TestClient, payload: str
) -> None:
    table = create(client, [HUMAN, BOT])
    with client.websocket_connect(f"/ws/{table['code']}") as ws:
        peer = Peer(ws)
        ws.send_text(payload)
        error = peer.error()
        assert error["code"] == "invalid"
        assert "nested" in error["message"]
        assert peer.hello(None)["type"] == "state"  # the socket is still open


def _depth(value: Any) -> int:
    if isinstance(value, list):
        return 1 + max((_depth(v) for v in value), default=0)
    if isinstance(value, dict):
        return 1 + max((_depth(v) for v in value.values()), default=0)
    return 0


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(alphabet='[]{}"\\ab,:'),
    lambda inner: st.lists(inner, max_size=3)
    | st.dictionaries(st.text(alphabet='[]{}"\\a', max_size=4), inner, max_size=3),
    max_leaves=20,
)


@given(JSON_VALUES)
def test_nesting_depth_counts_brackets_outside_strings(value: Any) -> None:
    text = json.dumps(value)
    assert nesting_depth(text, limit=10_000) == _depth(value)


def test_rate_limited_echoes_the_actions_ref(db: Path) -> None:
    settings = Settings(bot_delay=0, rate_per_second=0.01, rate_burst=2)
    with make_client(db, settings) as client:
        table = create(client, [HUMAN, HUMAN])
        start(client, table)
        with client.websocket_connect(f"/ws/{table['code']}") as ws:
            peer = Peer(ws)
            state = peer.hello(table["seats"][1]["token"])  # hello takes one
            peer.send({"type": "action", "version": state["version"], "action": "x", "ref": "a1"})
            peer.send({"type": "action", "version": state["version"], "action": "x", "ref": "a2"})
            first, second = peer.error(), peer.error()
            assert first["code"] != "rate_limited" and first["ref"] == "a1"
            assert (second["code"], second["ref"]) == ("rate_limited", "a2")


def test_invalid_actions_echo_a_readable_ref(client: TestClient) -> None:
    table = create(client, [HUMAN, HUMAN])
    with client.websocket_connect(f"/ws/{table['code']}") as ws:
        peer = Peer(ws)
        peer.hello(None)
        peer.send({"type": "action", "version": -1, "action": "roll", "ref": "r9"})
        error = peer.error()
        assert (error["code"], error["ref"]) == ("invalid", "r9")
        assert error["message"].startswith("action.version")
