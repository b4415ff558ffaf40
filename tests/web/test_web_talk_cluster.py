"""Talk across processes (issue 19, item 3): a reaction or chat line sent to process B
reaches the seats and spectators connected to process A (and back), through the
cluster's NOTIFY channel. Real ``python -m lamagames serve`` processes on PostgreSQL;
skipped without ``LAMA_TEST_POSTGRES_URL``."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from db_helpers import postgres_base_url, postgres_schema
from test_web_cluster import Server, _http, _two
from websockets.sync.client import ClientConnection

#: PostgreSQL only (left out at collection without a server outside CI: conftest.py).
pytestmark = pytest.mark.postgres


@pytest.fixture
def pg_url() -> Iterator[str]:
    """A fresh PostgreSQL schema (skipped without ``LAMA_TEST_POSTGRES_URL``)."""
    with postgres_schema(postgres_base_url()) as url:
        yield url


@pytest.fixture
def servers(pg_url: str) -> Iterator[list[Server]]:
    """Started servers; every one is killed at the end."""
    started: list[Server] = []
    try:
        yield started
    finally:
        for server in started:
            if server.process.poll() is None:
                server.process.kill()
                server.process.wait(10)


def _hello(ws: ClientConnection, token: str | None) -> None:
    ws.send(json.dumps({"type": "hello", "token": token}))
    while json.loads(ws.recv(timeout=30))["type"] != "state":
        pass


def _next_talk(ws: ClientConnection) -> dict[str, Any]:
    while True:
        message: dict[str, Any] = json.loads(ws.recv(timeout=30))
        if message["type"] in ("reaction", "chat"):
            return message


def test_reactions_and_chat_cross_processes(servers: list[Server], pg_url: str) -> None:
    a, b = _two(servers, pg_url)
    people = [{"kind": "human"}, {"kind": "human"}]
    table = _http(a.base, "/api/tables", {"game": "dice", "seats": people, "chat": True})
    code = table["code"]
    _http(a.base, f"/api/tables/{code}/start", {"host_token": table["host_token"]})
    tokens = [seat["token"] for seat in table["seats"]]
    with (
        a.ws(code) as mum_on_a,
        a.ws(code) as watcher_on_a,
        b.ws(code) as kid_on_b,
        b.ws(code) as watcher_on_b,
    ):
        _hello(mum_on_a, tokens[0])
        _hello(watcher_on_a, None)
        _hello(kid_on_b, tokens[1])
        _hello(watcher_on_b, None)
        kid_on_b.send(json.dumps({"type": "react", "reaction": "thumbs_up"}))
        expected = {"type": "reaction", "seat": 1, "reaction": "thumbs_up"}
        for ws in (mum_on_a, watcher_on_a, kid_on_b, watcher_on_b):
            assert _next_talk(ws) == expected
        mum_on_a.send(json.dumps({"type": "say", "text": "Gut gemacht! 🦙"}))
        said = {"type": "chat", "seat": 0, "text": "Gut gemacht! 🦙"}
        for ws in (mum_on_a, watcher_on_a, kid_on_b, watcher_on_b):
            assert _next_talk(ws) == said
        kid_on_b.send(json.dumps({"type": "say", "text": "a\u0000b"}))
        while (reply := json.loads(kid_on_b.recv(timeout=30)))["type"] != "error":
            pass
        assert reply["code"] == "control_chars"
        kid_on_b.send(json.dumps({"type": "react", "reaction": "llama"}))
        # the refused line reached nobody on A: the next talk there is the llama
        assert _next_talk(watcher_on_a)["reaction"] == "llama"


def test_the_hosts_chat_switch_reaches_every_process(servers: list[Server], pg_url: str) -> None:
    a, b = _two(servers, pg_url)
    people = [{"kind": "human"}, {"kind": "human"}]
    table = _http(a.base, "/api/tables", {"game": "dice", "seats": people})
    code = table["code"]
    _http(a.base, f"/api/tables/{code}/start", {"host_token": table["host_token"]})
    with b.ws(code) as kid_on_b:
        _hello(kid_on_b, table["seats"][1]["token"])
        _http(a.base, f"/api/tables/{code}/chat", {"host_token": table["host_token"], "chat": True})
        while (m := json.loads(kid_on_b.recv(timeout=30)))["type"] != "state" or not m["chat"]:
            pass
        kid_on_b.send(json.dumps({"type": "say", "text": "hello from B"}))
        assert _next_talk(kid_on_b)["text"] == "hello from B"  # B took the switch too
    assert _http(b.base, f"/api/tables/{code}")["chat"] is True
