"""Hostile input to the web app answers the documented JSON errors (issue 8): non-ASCII
tokens, deeply nested WebSocket messages, oversized and chunked bodies."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient
from web_helpers import Peer, create

HUMAN = {"kind": "human"}
BOT = {"kind": "bot", "bot_kind": "random"}
ODD_TOKENS = ["éééééééé", "ééé", "token\u00a0with-nbsp", "ab cd ef gh", "🦙🦙🦙🦙🦙🦙🦙🦙"]


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
