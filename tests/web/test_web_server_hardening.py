"""The server as ``lama serve`` runs it (``server.server_config``), on 127.0.0.1: proxy
headers only when asked for (issue 16)."""

from __future__ import annotations

import http.client
import json
from pathlib import Path
from typing import Any

from browser_helpers import ServerThread

from lamagames.web.live import Settings

#: One table per client address, then none for a minute.
ONE_TABLE = Settings(bot_delay=0.0, create_per_minute=1, create_burst=1)
BODY = {"game": "dice", "seats": [{"kind": "human"}, {"kind": "human"}]}


def request(
    server: ServerThread,
    method: str,
    path: str,
    body: dict[str, Any] | None = None,
    headers: dict[str, str] | None = None,
) -> http.client.HTTPResponse:
    """One request on a fresh connection; the response, its body read."""
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
    data = json.dumps(body).encode() if body is not None else None
    sent = {"content-type": "application/json", **(headers or {})}
    conn.request(method, path, body=data, headers=sent)
    response = conn.getresponse()
    response.read()
    conn.close()
    return response


def test_forwarded_for_is_ignored_by_default(tmp_path: Path) -> None:
    """uvicorn's default trusts X-Forwarded-For from loopback: one header reset the
    creation limit. Without --proxy-headers the limit keys on the TCP peer."""
    with ServerThread(tmp_path / "a.sqlite3", 0.0, settings=ONE_TABLE) as server:
        first = request(server, "POST", "/api/tables", BODY, {"X-Forwarded-For": "10.0.0.1"})
        assert first.status == 201
        second = request(server, "POST", "/api/tables", BODY, {"X-Forwarded-For": "10.0.0.2"})
        assert second.status == 429


def test_forwarded_proto_does_not_build_redirects_by_default(tmp_path: Path) -> None:
    with ServerThread(tmp_path / "a.sqlite3", 0.0, settings=ONE_TABLE) as server:
        answer = request(server, "GET", "/static", headers={"X-Forwarded-Proto": "https"})
        assert answer.status in (307, 308)
        assert not (answer.getheader("location") or "").startswith("https:")


def test_proxy_headers_when_asked_for(tmp_path: Path) -> None:
    with ServerThread(
        tmp_path / "a.sqlite3", 0.0, settings=ONE_TABLE, forwarded_allow_ips="127.0.0.1"
    ) as server:
        first = request(server, "POST", "/api/tables", BODY, {"X-Forwarded-For": "10.0.0.1"})
        second = request(server, "POST", "/api/tables", BODY, {"X-Forwarded-For": "10.0.0.2"})
        third = request(server, "POST", "/api/tables", BODY, {"X-Forwarded-For": "10.0.0.2"})
        assert (first.status, second.status, third.status) == (201, 201, 429)
