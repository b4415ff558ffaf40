"""Load benchmark of the web server (not a test).

Plays N tables at once on one or several server processes: each table has one simulated
human, who connects over a WebSocket and always takes the first legal action, and bots for
the other seats. Reports the applied actions per second over all tables (chance outcomes and
bot moves included), the p50/p99 latency of the humans' actions (send -> ack), and the CPU
(per cent of one core) and peak RSS (MiB) of every server process. Traffic stays on this
machine; the run stops by itself after ``--seconds``.

By default it starts ``--processes`` servers itself (uvicorn, own processes, no rate limits)
on ``--db`` (default: a temporary SQLite file; more than one process needs PostgreSQL).
Tables are created round-robin over the servers, and each human plays through the server
that created its table (``--cross``: through the next one, so every action is forwarded to
the owner). ``--urls`` drives servers that are already running instead (``--pids`` names
their process ids for the CPU and RSS figures).

    PYTHONPATH=src python benchmarks/load_web.py --tables 50 --seconds 20 --bot-delay 0.2
    PYTHONPATH=src python benchmarks/load_web.py --tables 200 --seconds 20 --bot-delay 0.2 \\
        --processes 2 --db postgresql+psycopg://lama:lama@127.0.0.1:5432/lamagames
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

TICKS = os.sysconf("SC_CLK_TCK")


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


def cpu_seconds(pid: int) -> float:
    """User + system CPU seconds of process ``pid`` (Linux ``/proc``)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS


def rss_mib(pid: int) -> float:
    """Peak resident set size of ``pid`` in MiB (``VmHWM``)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return 0.0


async def human(base: str, code: str, token: str, latencies: list[float], stop: float) -> bool:
    """Play the seat of ``token`` until the game ends or ``stop``; True if it finished."""
    uri = base.replace("http", "ws") + f"/ws/{code}"
    try:
        # one timeout for the whole game (asyncio.wait_for per message costs a task each)
        async with asyncio.timeout(max(0.01, stop - time.monotonic())):
            return await _play(uri, token, latencies)
    except TimeoutError:
        return False


async def _play(uri: str, token: str, latencies: list[float]) -> bool:
    async with connect(uri, max_size=2**20) as ws:
        await ws.send(json.dumps({"type": "hello", "token": token}))
        sent_at: float | None = None
        latest: dict[str, Any] | None = None
        async for raw in ws:
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


async def run(
    bases: list[str], tables: int, seconds: float, players: int, pids: list[int], cross: bool
) -> dict[str, Any]:
    """Create and play ``tables`` tables concurrently; return the figures."""
    created = []
    for number in range(tables):
        seats = [{"kind": "human", "name": "Sim"}] + [
            {"kind": "bot", "bot_kind": "heuristic"} for _ in range(players - 1)
        ]
        base = bases[number % len(bases)]
        table = http(base, "/api/tables", {"game": "dice", "seats": seats, "away_timeout": 600})
        created.append((number, base, table))
    latencies: list[float] = []
    cpu_before = [cpu_seconds(pid) for pid in pids]
    start = time.monotonic()
    stop = start + seconds
    for _number, base, table in created:
        http(base, f"/api/tables/{table['code']}/start", {"host_token": table["host_token"]})
    results = await asyncio.gather(
        *(
            human(
                bases[(number + cross) % len(bases)],
                t["code"],
                t["seats"][0]["token"],
                latencies,
                stop,
            )
            for number, _base, t in created
        )
    )
    elapsed = time.monotonic() - start
    cpu = [
        round(100 * (cpu_seconds(pid) - before) / elapsed, 1)
        for pid, before in zip(pids, cpu_before, strict=True)
    ]
    actions = sum(http(base, f"/api/tables/{t['code']}")["version"] for _n, base, t in created)
    latencies.sort()
    return {
        "processes": len(bases),
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
        "server_cpu_percent": cpu,
        "server_cpu_ms_per_action": round(10 * sum(cpu) * elapsed / max(actions, 1), 3),
        "server_peak_rss_mib": [round(rss_mib(pid), 1) for pid in pids],
    }


def wait_up(base: str, process: subprocess.Popen[bytes] | None) -> None:
    """Wait until the server at ``base`` answers (20 s at most)."""
    deadline = time.monotonic() + 20
    while True:
        try:
            http(base, "/api/games")
            return
        except OSError:
            if time.monotonic() > deadline or (process is not None and process.poll() is not None):
                raise RuntimeError(f"server {base} did not start") from None
            time.sleep(0.1)


def main() -> None:
    """Parse arguments, start the server processes, run, print the figures as JSON."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=30.0, help="stop after this long")
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--bot-delay", type=float, default=0.0, help="seconds before each bot move")
    parser.add_argument("--processes", type=int, default=1, help="server processes to start")
    parser.add_argument("--db", default=None, help="database URL (default: temporary SQLite)")
    parser.add_argument("--urls", nargs="+", default=None, help="drive running servers")
    parser.add_argument("--pids", nargs="*", type=int, default=[], help="their process ids")
    parser.add_argument(
        "--cross", action="store_true", help="play each table through another server"
    )
    args = parser.parse_args()
    if args.urls:
        for base in args.urls:
            wait_up(base, None)
        figures = asyncio.run(
            run(args.urls, args.tables, args.seconds, args.players, args.pids, args.cross)
        )
        print(json.dumps(figures, indent=1))
        return
    with tempfile.TemporaryDirectory() as folder:
        db = args.db or f"sqlite:///{Path(folder) / 'load.sqlite3'}"
        servers: list[subprocess.Popen[bytes]] = []
        bases = []
        try:
            for _ in range(args.processes):  # one after the other: the first makes the schema
                port = free_port()
                command = [sys.executable, "-c", SERVER, db, str(port), str(args.bot_delay)]
                servers.append(subprocess.Popen(command, env=dict(os.environ)))
                bases.append(f"http://127.0.0.1:{port}")
                wait_up(bases[-1], servers[-1])
            pids = [server.pid for server in servers]
            figures = asyncio.run(
                run(bases, args.tables, args.seconds, args.players, pids, args.cross)
            )
        finally:
            for server in servers:
                server.terminate()
            for server in servers:
                server.wait(10)
    print(json.dumps(figures, indent=1))


if __name__ == "__main__":
    main()
