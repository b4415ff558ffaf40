"""Load benchmark of the web server (not a test).

Starts the server (uvicorn, own process, temporary SQLite file, no bot delay) on 127.0.0.1
and plays N tables at once: each table has one simulated human, who connects over a
WebSocket and always takes the first legal action, and bots for the other seats. Reports
the applied actions per second over all tables (chance outcomes and bot moves included) and
the p50/p99 latency of the humans' actions (send -> ack). Traffic stays on this machine; the
run stops by itself after ``--seconds``.

    PYTHONPATH=src python benchmarks/load_web.py --tables 50 --seconds 30
    PYTHONPATH=src python benchmarks/load_web.py --tables 50 --seconds 20 --bot-delay 0.2
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

from websockets.asyncio.client import connect

SERVER = """
import sys, uvicorn
from lamagames.web.app import create_app
from lamagames.web.live import Settings
settings = Settings(
    bot_delay=float(sys.argv[3]), rate_per_second=1000, rate_burst=1000, create_per_minute=0
)
app = create_app(sys.argv[1], settings=settings)
uvicorn.run(app, host="127.0.0.1", port=int(sys.argv[2]), log_level="warning")
"""


def free_port() -> int:
    """A free TCP port on 127.0.0.1."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def http(base: str, path: str, body: dict[str, Any] | None = None) -> Any:
    """JSON over HTTP (GET, or POST with ``body``)."""
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(
        base + path, data=data, headers={"content-type": "application/json"}
    )
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.loads(response.read())


async def human(base: str, code: str, token: str, latencies: list[float], stop: float) -> bool:
    """Play the seat of ``token`` until the game ends or ``stop``; True if it finished."""
    uri = base.replace("http", "ws") + f"/ws/{code}"
    async with connect(uri, max_size=2**20) as ws:
        await ws.send(json.dumps({"type": "hello", "token": token}))
        sent_at: float | None = None
        latest: dict[str, Any] | None = None
        while time.monotonic() < stop:
            try:
                raw = await asyncio.wait_for(ws.recv(), max(0.01, stop - time.monotonic()))
            except TimeoutError:
                return False
            message = json.loads(raw)
            kind = message["type"]
            if kind == "ack" and sent_at is not None:
                latencies.append(time.perf_counter() - sent_at)
                sent_at = None
            elif kind == "error":
                sent_at = None
            elif kind == "state":
                if message["status"] == "finished":
                    return True
                latest = message
            if latest is not None and sent_at is None:
                mine = latest["seat"] in latest["acting"] and latest["legal"]
                if mine:
                    sent_at = time.perf_counter()
                    action = latest["legal"][0]["action"]
                    version = latest["version"]
                    latest = None
                    await ws.send(
                        json.dumps({"type": "action", "version": version, "action": action})
                    )
    return False


async def run(base: str, tables: int, seconds: float, players: int) -> dict[str, Any]:
    """Create and play ``tables`` tables concurrently; return the figures."""
    created = []
    for _ in range(tables):
        seats = [{"kind": "human", "name": "Sim"}] + [
            {"kind": "bot", "bot_kind": "heuristic"} for _ in range(players - 1)
        ]
        table = http(base, "/api/tables", {"game": "dice", "seats": seats, "away_timeout": 600})
        created.append(table)
    latencies: list[float] = []
    start = time.monotonic()
    stop = start + seconds
    for table in created:
        http(base, f"/api/tables/{table['code']}/start", {"host_token": table["host_token"]})
    results = await asyncio.gather(
        *(human(base, t["code"], t["seats"][0]["token"], latencies, stop) for t in created)
    )
    elapsed = time.monotonic() - start
    actions = sum(http(base, f"/api/tables/{t['code']}")["version"] for t in created)
    latencies.sort()
    return {
        "tables": tables,
        "players_per_table": players,
        "finished_games": sum(results),
        "seconds": round(elapsed, 2),
        "actions": actions,
        "actions_per_second": round(actions / elapsed, 1),
        "human_actions": len(latencies),
        "latency_p50_ms": round(1000 * statistics.median(latencies), 2) if latencies else None,
        "latency_p99_ms": (
            round(1000 * latencies[int(0.99 * (len(latencies) - 1))], 2) if latencies else None
        ),
    }


def main() -> None:
    """Parse arguments, start the server process, run, print the figures as JSON."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=30.0, help="stop after this long")
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--bot-delay", type=float, default=0.0, help="seconds before each bot move")
    args = parser.parse_args()
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    with tempfile.TemporaryDirectory() as folder:
        db = f"sqlite:///{Path(folder) / 'load.sqlite3'}"
        env = dict(os.environ)
        command = [sys.executable, "-c", SERVER, db, str(port), str(args.bot_delay)]
        server = subprocess.Popen(command, env=env)
        try:
            deadline = time.monotonic() + 20
            while True:
                try:
                    http(base, "/api/games")
                    break
                except OSError:
                    if time.monotonic() > deadline or server.poll() is not None:
                        raise RuntimeError("server did not start") from None
                    time.sleep(0.1)
            figures = asyncio.run(run(base, args.tables, args.seconds, args.players))
        finally:
            server.terminate()
            server.wait(10)
    print(json.dumps(figures, indent=1))


if __name__ == "__main__":
    main()
