"""Measure failover: two ``lama serve`` processes on one PostgreSQL database; a person on B
plays a table owned by A; A is killed with SIGKILL; the time until the person's next
action (sent right
after the kill) is acknowledged, B then holding the table's lease (checked in ``pg_locks``).

    python scripts/failover_time.py postgresql://lama:lama@127.0.0.1:5432/lama_ops --rounds 5
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from typing import Any

from websockets.sync.client import connect

from lamagames.web.cluster import lease_holder
from lamagames.web.store import normalise_url


def _http(base: str, path: str, body: dict[str, Any] | None = None) -> Any:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(
        base + path, data=data, headers={"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.loads(response.read())


def _server(url: str) -> tuple[subprocess.Popen[bytes], str]:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    command = [
        sys.executable,
        "-m",
        "lamagames",
        "serve",
        "--port",
        str(port),
        "--db",
        url,
        "--bot-delay",
        "0",
    ]
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 90
    while True:
        try:
            _http(base, "/api/games")
            return process, base
        except OSError:
            if time.monotonic() > deadline or process.poll() is not None:
                raise SystemExit(f"{base} did not start") from None
            time.sleep(0.1)


def _turn(ws: Any) -> dict[str, Any]:
    while True:
        message: dict[str, Any] = json.loads(ws.recv(timeout=60))
        if message["type"] == "state" and 0 in message["acting"] and message["legal"]:
            return message


def one_round(url: str) -> float:
    a, a_base = _server(url)
    b, b_base = _server(url)
    try:
        body = {
            "game": "dice",
            "params": {"end_score": 1000},
            "away_timeout": 600,
            "seats": [{"kind": "human"}, {"kind": "bot", "bot_kind": "random"}],
        }
        table = _http(a_base, "/api/tables", body)
        code, token = table["code"], table["seats"][0]["token"]
        _http(a_base, f"/api/tables/{code}/start", {"host_token": table["host_token"]})
        with connect(b_base.replace("http", "ws") + f"/ws/{code}") as ws:
            ws.send(json.dumps({"type": "hello", "token": token}))
            state = _turn(ws)
            os.kill(a.pid, signal.SIGKILL)
            killed = time.monotonic()
            a.wait(10)
            action = state["legal"][0]["action"]
            ws.send(
                json.dumps(
                    {"type": "action", "version": state["version"], "action": action, "ref": "f1"}
                )
            )
            while (reply := json.loads(ws.recv(timeout=60)))["type"] not in ("ack", "error"):
                pass
            acked = time.monotonic() - killed
            assert reply["type"] == "ack", reply
            holder = lease_holder(normalise_url(url), code)
            assert holder is not None and holder.worker_pid == b.pid, holder
        return acked
    finally:
        for process in (a, b):
            if process.poll() is None:
                process.send_signal(signal.SIGTERM)
                process.wait(30)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("url")
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    acks = []
    for number in range(args.rounds):
        acked = one_round(args.url)
        acks.append(acked)
        print(
            f"round {number + 1}: action acknowledged {acked:.2f} s after the kill "
            "(B holds the lease)"
        )
    acks.sort()
    print(
        f"acknowledged after the kill: min {acks[0]:.2f} s, "
        f"median {acks[len(acks) // 2]:.2f} s, max {acks[-1]:.2f} s"
    )


if __name__ == "__main__":
    main()
