"""kill -9 durability (issue 8): ``python -m lamagames serve`` as a real server process on
SQLite and on PostgreSQL; a person plays over the WebSocket, the server is killed with
SIGKILL right after an acknowledgement (with one more action in flight), restarted on the
same database, and every acknowledged action is in the table's record at its place; the
table resumes and takes the next action."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from websockets.sync.client import ClientConnection, connect

import lamagames
from lamagames.core.records import parse_record

SRC = str(Path(lamagames.__file__).resolve().parent.parent)
ACKED_ACTIONS = 12  # acknowledged person's actions before the kill


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def _http(base: str, path: str, body: dict[str, Any] | None = None) -> Any:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(
        base + path, data=data, headers={"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.loads(response.read())


@contextmanager
def server(db_url: str) -> Iterator[tuple[subprocess.Popen[bytes], str]]:
    """``python -m lamagames serve`` on a free port; yields the process and its base URL."""
    port = _free_port()
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([SRC, os.environ.get("PYTHONPATH", "")])}
    command = [sys.executable, "-m", "lamagames", "serve", "--port", str(port)]
    command += ["--db", db_url, "--bot-delay", "0"]
    process = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                _http(base, "/api/games")
                break
            except OSError:
                if process.poll() is not None or time.monotonic() > deadline:
                    stderr = process.stderr.read().decode() if process.stderr else ""
                    raise AssertionError(f"server did not start: {stderr}") from None
                time.sleep(0.1)
        yield process, base
    finally:
        if process.poll() is None:
            process.kill()
        process.wait(10)
        if process.stderr is not None:
            process.stderr.close()


def _next_turn(ws: ClientConnection) -> dict[str, Any]:
    """The next state in which seat 0 may act (or the final state)."""
    while True:
        message: dict[str, Any] = json.loads(ws.recv(timeout=30))
        if message["type"] == "state" and (
            message["status"] == "finished" or (0 in message["acting"] and message["legal"])
        ):
            return message


def _act(ws: ClientConnection, state: dict[str, Any], ref: str) -> str:
    action: str = state["legal"][0]["action"]
    ws.send(
        json.dumps({"type": "action", "version": state["version"], "action": action, "ref": ref})
    )
    return action


def test_kill_9_loses_no_acknowledged_action(db_url: str) -> None:
    acked: dict[int, str] = {}  # index of the action -> its notation
    with server(db_url) as (process, base):
        table = _http(
            base,
            "/api/tables",
            {"game": "dice", "seats": [{"kind": "human"}, {"kind": "bot", "bot_kind": "random"}]},
        )
        code, token = table["code"], table["seats"][0]["token"]
        _http(base, f"/api/tables/{code}/start", {"host_token": table["host_token"]})
        with connect(base.replace("http", "ws") + f"/ws/{code}") as ws:
            ws.send(json.dumps({"type": "hello", "token": token}))
            state = _next_turn(ws)
            while len(acked) < ACKED_ACTIONS and state["status"] != "finished":
                action = _act(ws, state, ref=f"a{len(acked)}")
                while (reply := json.loads(ws.recv(timeout=30)))["type"] not in ("ack", "error"):
                    pass
                assert reply["type"] == "ack", reply
                acked[reply["version"] - 1] = action
                state = _next_turn(ws)
            if state["status"] != "finished":
                _act(ws, state, ref="in-flight")  # may or may not be stored
            process.send_signal(signal.SIGKILL)
            process.wait(10)
    assert len(acked) >= 3
    with server(db_url) as (_process, base):
        # the resumed table may apply a chance outcome or a bot move between two requests:
        # the record counts when the version is the same before and after reading it
        for _attempt in range(20):
            before = _http(base, f"/api/tables/{code}")["version"]
            record = parse_record(json.dumps(_http(base, f"/api/tables/{code}/record")))
            info = _http(base, f"/api/tables/{code}")
            if before == info["version"]:
                break
        for index, action in acked.items():
            assert index < len(record.actions), f"acknowledged action {index} lost"
            assert (record.actions[index].player, record.actions[index].action) == (0, action)
        assert info["version"] == len(record.actions)
        if info["status"] == "playing":  # the table resumed: it takes the next action
            with connect(base.replace("http", "ws") + f"/ws/{code}") as ws:
                ws.send(json.dumps({"type": "hello", "token": token}))
                state = _next_turn(ws)
                if state["status"] != "finished":
                    _act(ws, state, ref="after-restart")
                    while (reply := json.loads(ws.recv(timeout=30)))["type"] not in (
                        "ack",
                        "error",
                    ):
                        pass
                    assert reply["type"] == "ack", reply


@pytest.fixture(autouse=True)
def _no_proxy(monkeypatch: pytest.MonkeyPatch) -> None:
    """Local requests never go through a proxy from the environment."""
    for name in ("http_proxy", "HTTP_PROXY", "all_proxy", "ALL_PROXY"):
        monkeypatch.delenv(name, raising=False)
