"""How long a web table's first bot move waits after the person's move, on a cold install
(issue 19; ``first_bot_move.py`` measures the terminal).

Usage: python benchmarks/first_web_bot_move.py [--kind exact] [--think 0,10] [--runs 1]
                                               [--cache DIR] [--bot-delay 1.2] [--players 2]

Each run starts ``lama serve`` (``python -m lamagames serve``, a child process, a temporary
SQLite database) with a new, empty ``NUMBA_CACHE_DIR`` (cold: nothing compiled is cached)
unless ``--cache`` names one to reuse (warm after the first run). Once the server answers,
the person waits ``--think`` seconds (the time between starting the server and a first
move: opening the page, creating the table), creates a LAMA Dice table of ``--players``
seats (default 2: the person and ``--kind`` bots), starts it (the person first,
``starting_seat`` 0) and, over the table's WebSocket, always takes the first legal action.
Measured (the first bot is seat 1):

* ``wait_s``: wall-clock seconds from the person's last action before the bot's first one
  (the one that hands the turn over) to the ``state`` message whose log shows the bot's
  action. It includes the table's bot pause (``--bot-delay``, ``lama serve``'s default 1.2 s).
* ``stall_max_s``: the longest a ``GET /api/games`` waited for its answer during that wait
  (one every 50 ms from another thread): how long the server's event loop stood still, that
  is every other table.
* ``preparing_seen``: whether a ``state`` message of the table said ``preparing`` (the
  browser then says "Preparing the fast engine (first run only)…").
* ``cpu_server_s`` and ``cpu_helpers_s``: CPU seconds of the server process (all threads)
  and of its reaped children (the warm-up's helper processes) from the server's start to the
  bot's move (``/proc``).

To compare with another version of the code, put its ``src`` first:
``PYTHONPATH=/path/to/other/src python benchmarks/first_web_bot_move.py ...`` (the server is
a child process that inherits the environment). Figures depend on the machine's load (a
compile is CPU-bound): report them with it (``/proc/loadavg`` is printed).

Measured on the shared 2-core machine (others working: load 8-10), ``exact`` bot, cold
cache, 2026-12-03, before (the code before the server's warm-up of compiled kinds, through
``PYTHONPATH``) and after, one run each:

* ``--think 0``: before wait 27.7 s, event loop stood still 26.4 s, server CPU 14.1 s;
  after wait 26.6 s, longest stall 0.62 s, server CPU 11.0 s + helpers 7.4 s.
* ``--think 10``: before 14.8 s (stall 13.4 s, CPU 15.7 s) and 11.6 s (stall 10.4 s, CPU
  14.5 s); after 23.6 s (stall 0.52 s, CPU 11.0 + 7.1 s), 30.6 s (load 10.7, search helper
  niced; stall 0.66 s) and 17.8 s (stall 0.69 s, CPU 10.6 + 7.4 s).

* After the fresh-clone trial's fixes (Numba imported in one thread before serving; the
  table told ``preparing`` from the start), ``--think 0``, 2026-12-03 10:35-10:40: 14.7,
  13.5, 10.3 s at load 4.7-4.9 (stall at most 0.66 s, server CPU 9.9-10.9 s, helpers
  6.6-7.7 s) and 9.5 s, 10.8 s at load 1.7-4.0 (``preparing_seen`` true); no hang in five
  starts (the trial's server had hung in 3 of 4).

So the server no longer stops every table for the compile, but on a busy machine the first
``exact`` move waits as long or longer: the helper starts Python and imports Numba (about
1.5 CPU s) and compiles the whole solver alone (about 5 CPU s; ``lama play`` splits it
between the helper and its own process), while the server alone compiled it before.

* ``--players``, and issue 19's 3 s (2026-12-03 19:20-19:52, ``--think 0``; the wait
  includes the 1.2 s bot pause). Before (``3071f84``, load 3.2-3.7, two runs each):
  ``exact`` two seats 8.2, 5.0 s; six ``search`` seats 2.9, 5.1 s; six ``exact`` seats 11.4,
  5.2 s; ``search`` two seats 1.3 s. py-spy showed why: a table made at once could find no
  warm-up yet (its bot compiled on a worker thread); the ``exact`` warm-up compiled
  ``search`` a second time; the heuristic's in-process compile held Numba's compiler lock
  5-19 s while the warm-ups' first looks waited for it. Interleaved with ``3071f84`` (load
  3.8-5.5): ``exact`` two seats 6.9, 9.3 s before, 1.35, 1.26 s after; six ``search``
  seats 7.4, 15.8 s before, 1.29, 1.28 s after. Final code (``6f19906``, load 3.5-5.3, three
  runs each): ``exact`` two seats 1.26-1.27 s, six ``search`` 1.30-1.42 s, six ``exact``
  1.34-1.39 s, ``search`` two seats 1.24-1.30 s; the event loop stood still at most 0.14 s.
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path
from typing import Any

from websockets.sync.client import connect

TICKS = os.sysconf("SC_CLK_TCK")


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def _cpu(pid: int) -> tuple[float, float]:
    """(own, reaped children's) CPU seconds of process ``pid`` (``/proc/<pid>/stat``)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    own = int(fields[11]) + int(fields[12])
    children = int(fields[13]) + int(fields[14])
    return own / TICKS, children / TICKS


def _post(url: str, body: dict[str, Any]) -> dict[str, Any]:
    request = urllib.request.Request(
        url, json.dumps(body).encode(), {"content-type": "application/json"}
    )
    with urllib.request.urlopen(request, timeout=120) as response:
        data: dict[str, Any] = json.loads(response.read())
        return data


class StallProbe:
    """``GET /api/games`` every 50 ms in a thread; the longest answer while ``measuring``."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.measuring = False
        self.longest = 0.0
        self.stop = False
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self) -> None:
        while not self.stop:
            started = time.perf_counter()
            with urllib.request.urlopen(f"{self.url}/api/games", timeout=120) as response:
                response.read()
            took = time.perf_counter() - started
            if self.measuring:
                self.longest = max(self.longest, took)
            time.sleep(0.05)


def run_once(
    kind: str, think: float, cache: str | None, bot_delay: float, players: int = 2
) -> dict[str, Any]:
    """One server start and one first bot move (see the module docstring)."""
    work = Path(tempfile.mkdtemp(prefix="lama-web-first-"))
    env = dict(os.environ, NUMBA_CACHE_DIR=cache or str(work / "numba-cache"))
    port = _free_port()
    url = f"http://127.0.0.1:{port}"
    command = [sys.executable, "-m", "lamagames", "serve", "--port", str(port)]
    command += ["--db", f"sqlite:///{work / 'web.sqlite3'}", "--bot-delay", str(bot_delay)]
    server = subprocess.Popen(
        command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    try:
        started = time.monotonic()
        while True:
            try:
                urllib.request.urlopen(f"{url}/api/games", timeout=5).read()
                break
            except OSError:
                if server.poll() is not None or time.monotonic() - started > 120:
                    raise RuntimeError("the server did not start") from None
                time.sleep(0.05)
        up = time.monotonic() - started
        probe = StallProbe(url)
        time.sleep(think)
        seats: list[dict[str, str]] = [{"kind": "human", "name": "Ada"}]
        seats += [{"kind": "bot", "bot_kind": kind}] * (players - 1)
        table = _post(
            f"{url}/api/tables", {"game": "dice", "params": {"starting_seat": 0}, "seats": seats}
        )
        code = table["code"]
        _post(f"{url}/api/tables/{code}/start", {"host_token": table["host_token"]})
        with connect(f"ws://127.0.0.1:{port}/ws/{code}", max_size=None) as ws:
            ws.send(json.dumps({"type": "hello", "token": table["seats"][0]["token"]}))
            sent_at = 0.0
            preparing = False
            while True:
                message = json.loads(ws.recv(timeout=300))
                if message["type"] != "state":
                    continue
                preparing = preparing or bool(message.get("preparing"))
                if any(event["player"] == 1 for event in message["events"]):
                    waited = time.perf_counter() - sent_at
                    break
                if 0 in message["acting"] and message["legal"]:
                    action = message["legal"][0]["action"]
                    ws.send(
                        json.dumps(
                            {"type": "action", "version": message["version"], "action": action}
                        )
                    )
                    sent_at = time.perf_counter()
                    probe.longest = 0.0
                    probe.measuring = True
        probe.measuring = False
        own, children = _cpu(server.pid)
        probe.stop = True
        return {
            "kind": kind,
            "players": players,
            "think_s": think,
            "server_up_s": round(up, 2),
            "wait_s": round(waited, 2),
            "stall_max_s": round(probe.longest, 2),
            "preparing_seen": preparing,
            "cpu_server_s": round(own, 2),
            "cpu_helpers_s": round(children, 2),
            "load": Path("/proc/loadavg").read_text().split()[:3],
        }
    finally:
        server.terminate()
        try:
            server.wait(20)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()


def main() -> None:
    """Run the measurements the arguments ask for; one JSON line per run."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--kind", default="exact")
    parser.add_argument("--think", default="0", help="comma-separated seconds")
    parser.add_argument("--runs", type=int, default=1)
    parser.add_argument("--cache", default=None, help="a NUMBA_CACHE_DIR to reuse")
    parser.add_argument("--bot-delay", type=float, default=1.2)
    parser.add_argument("--players", type=int, default=2, help="seats: one person, bots")
    args = parser.parse_args()
    if not 2 <= args.players <= 6:
        parser.error(f"--players must be 2 to 6, got {args.players}")
    for think in (float(x) for x in args.think.split(",")):
        for _ in range(args.runs):
            result = run_once(args.kind, think, args.cache, args.bot_delay, args.players)
            print(json.dumps(result), flush=True)


if __name__ == "__main__":
    main()
