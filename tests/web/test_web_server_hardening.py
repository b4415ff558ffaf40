"""The server as ``lama serve`` runs it (``server.server_config``), on 127.0.0.1: proxy
headers only when asked for, a deadline and a size cap for request heads (issue 16)."""

from __future__ import annotations

import contextlib
import http.client
import json
import socket
import time
from pathlib import Path
from typing import Any

import pytest
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


@pytest.mark.parametrize("proxy", [None, "127.0.0.1"])
def test_redirects_echo_neither_host_nor_scheme(tmp_path: Path, proxy: str | None) -> None:
    """``GET /static`` redirected to a Location built from Host and X-Forwarded-Proto."""
    with ServerThread(tmp_path / "a.sqlite3", 0.0, forwarded_allow_ips=proxy) as server:
        for path, wanted in [("/static", "/static/"), ("/api/games/?x=1", "/api/games?x=1")]:
            headers = {"Host": "evil.example", "X-Forwarded-Proto": "https"}
            answer = request(server, "GET", path, headers=headers)
            assert answer.status in (307, 308)
            assert answer.getheader("location") == wanted


def test_proxy_headers_when_asked_for(tmp_path: Path) -> None:
    with ServerThread(
        tmp_path / "a.sqlite3", 0.0, settings=ONE_TABLE, forwarded_allow_ips="127.0.0.1"
    ) as server:
        first = request(server, "POST", "/api/tables", BODY, {"X-Forwarded-For": "10.0.0.1"})
        second = request(server, "POST", "/api/tables", BODY, {"X-Forwarded-For": "10.0.0.2"})
        third = request(server, "POST", "/api/tables", BODY, {"X-Forwarded-For": "10.0.0.2"})
        assert (first.status, second.status, third.status) == (201, 201, 429)


def raw_connection(server: ServerThread) -> socket.socket:
    sock = socket.create_connection(("127.0.0.1", server.port), timeout=10)
    return sock


def read_all(sock: socket.socket, limit: float = 10.0) -> bytes:
    """Everything the server sends until it closes the connection (at most ``limit`` s)."""
    sock.settimeout(limit)
    chunks = []
    with contextlib.suppress(ConnectionResetError):
        while chunk := sock.recv(65536):
            chunks.append(chunk)
    return b"".join(chunks)


def test_slow_request_heads_are_closed(tmp_path: Path) -> None:
    """Issue 16: 300 connections that sent half a header stayed open for 20 s."""
    with ServerThread(tmp_path / "a.sqlite3", 0.0, header_timeout=0.5) as server:
        socks = [raw_connection(server) for _ in range(40)]
        for sock in socks[:30]:
            sock.sendall(b"GET /api/games HTTP/1.1\r\nHost: x\r\nX-Slow: ")
        started = time.monotonic()
        answers = [read_all(sock) for sock in socks]  # the last 10 sent nothing at all
        assert time.monotonic() - started < 5
        for answer in answers[:30]:
            assert answer.startswith(b"HTTP/1.1 408 "), answer[:80]
        assert b'"error":"timeout"' in answers[0]
        assert answers[30:] == [b""] * 10  # closed without a word
        for sock in socks:
            sock.close()
        # a complete request is still answered, and a keep-alive connection's next
        # request head gets its own deadline
        sock = raw_connection(server)
        sock.sendall(b"GET /api/games HTTP/1.1\r\nHost: x\r\n\r\n")
        first = sock.recv(65536)
        assert first.startswith(b"HTTP/1.1 200 ")
        sock.sendall(b"GET /api/games HTTP/1.1\r\nHost: x\r\n")
        assert b"HTTP/1.1 408 " in read_all(sock)
        sock.close()


@pytest.mark.parametrize("split", [False, True])
def test_large_request_heads_are_refused(tmp_path: Path, split: bool) -> None:
    """Issue 16: a 200 KB header was answered 200. In one piece or dribbled in, it is 431."""
    with ServerThread(tmp_path / "a.sqlite3", 0.0) as server:
        sock = raw_connection(server)
        head = b"GET /api/games HTTP/1.1\r\nHost: x\r\nX-Big: " + b"a" * 200_000 + b"\r\n\r\n"
        if split:
            with contextlib.suppress(OSError):  # the server may close before the last piece
                for start in range(0, len(head), 8192):
                    sock.sendall(head[start : start + 8192])
                    time.sleep(0.001)
        else:
            sock.sendall(head)
        answer = read_all(sock)
        assert answer.startswith(b"HTTP/1.1 431 "), answer[:80]
        assert b"limit 16384 bytes" in answer
        sock.close()
        # headers under the cap are fine
        fine = request(server, "GET", "/api/games", headers={"X-Mid": "a" * 10_000})
        assert fine.status == 200
