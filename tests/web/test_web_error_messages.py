"""Error answers found by a fresh-user tester read as documented (docs/web.md, "HTTP API"):
unparseable bodies are ``bad_json``, every error body is the same compact JSON, refusals echo
a readable ``ref``, echoes of user input are truncated, validation messages carry no
pydantic prefix."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient
from web_helpers import Peer, create

from lamagames.web.schemas import MAX_ECHO

HUMAN = {"kind": "human"}
BOT = {"kind": "bot", "bot_kind": "random"}


@pytest.mark.parametrize(
    "body",
    ["[" * 5000 + "]" * 5000, '{"a":' * 1000 + "1" + "}" * 1000],
    ids=["lists", "objects"],
)
def test_deeply_nested_body_is_bad_json(client: TestClient, body: str) -> None:
    response = client.post(
        "/api/tables", content=body, headers={"content-type": "application/json"}
    )
    assert response.status_code == 422, response.text
    assert response.json()["error"] == "bad_json"


def test_empty_body_is_bad_json(client: TestClient) -> None:
    response = client.post("/api/tables", content=b"", headers={"content-type": "application/json"})
    assert response.status_code == 422, response.text
    assert response.json() == {
        "error": "bad_json",
        "message": "the body is empty; send a JSON object",
    }


def test_too_large_body_is_compact_json(client: TestClient) -> None:
    response = client.post(
        "/api/tables", content=b"x" * 70_000, headers={"content-type": "application/json"}
    )
    assert response.status_code == 413
    assert response.content.startswith(b'{"error":"too_large","message":')


def test_long_ref_is_echoed_truncated(client: TestClient) -> None:
    table = create(client, [HUMAN, HUMAN])
    with client.websocket_connect(f"/ws/{table['code']}") as ws:
        peer = Peer(ws)
        peer.hello(None)
        peer.send({"type": "action", "version": 0, "action": "roll", "ref": "r" * 40})
        error = peer.error()
        assert (error["code"], error["ref"]) == ("invalid", "r" * 32)


def test_unknown_code_echo_is_truncated(client: TestClient) -> None:
    response = client.get("/api/tables/" + "Z" * 5000)
    assert response.status_code == 404
    message: str = response.json()["message"]
    assert "Z" * (MAX_ECHO + 1) not in message
    assert "Z" * (MAX_ECHO - 1) + "…" in message


def test_validation_message_has_no_pydantic_prefix(client: TestClient) -> None:
    seats: list[dict[str, Any]] = [{"kind": "human", "name": "a\u202eb"}, BOT]
    response = client.post("/api/tables", json={"game": "dice", "seats": seats})
    assert response.status_code == 422, response.text
    message: str = response.json()["message"]
    assert "Value error" not in message
    assert message.startswith("seats.0.name: ")
