"""Load benchmark of the web server (not a test).

Plays N tables at once on one or several server processes: each table has one simulated
human, who connects over a WebSocket and always takes the first legal action, and bots for
the other seats. Reports the applied actions per second over all tables (chance outcomes and
bot moves included), the p50/p99 latency of the humans' actions (send -> ack), the CPU
(per cent of one core) and peak RSS (MiB) of every server process, and the CPU the load
client itself spent per applied action (on a small machine the client competes with the
servers for the cores), and the CPU of every local ``postgres`` process (0 on SQLite).
Traffic stays on this machine; the run stops by itself after ``--seconds``.

The humans are driven by ``--clients`` client processes (tables dealt round-robin), each
parsing only what it needs: a state message is decoded only when the human's seat has legal
actions in it. ``--idle-sockets N`` opens N more WebSocket connections before the play
starts, spectators of tables that never start (hello, one state message, then silence), to
see whether many open sockets slow a playing table (compare the p99 with ``--idle-sockets
0``).

By default it starts ``--processes`` servers itself (uvicorn, own processes, no rate limits)
on ``--db`` (default: a temporary SQLite file; more than one process needs PostgreSQL).
Tables are created round-robin over the servers, and each human plays through the server
that created its table (``--cross``: through the next one, so every action is forwarded to
the owner). ``--urls`` drives servers that are already running instead (``--pids`` names
their process ids for the CPU and RSS figures). On an SQLite file the size of its WAL file
(``-wal``) is sampled every 50 ms during the play and its maximum reported (``wal_max_mib``).

A server it starts warms its bots and freezes the garbage collector's view in a background
thread after start (as ``lama serve`` does); the play starts only once that is over
(``warm_up_waited_s``: how long the benchmark waited for it), so neither falls inside the
measured window. ``--probe`` records in each server where its event loop stalls and how
long each phase of a person's action took (:mod:`stall_probe`; adds some CPU), reported
under ``probe``.

``--server-cpus F`` caps each server it starts at ``F`` of one core (its own cgroup with a
CFS quota of ``F`` x 10 ms per 10 ms period; needs write access to the cgroup v1 ``cpu``
controller or cgroup v2, as root): on a small machine the load client and PostgreSQL share
the cores with the servers, so two uncapped servers run out of machine before they run out
of server; with every server capped alike, one and two servers are compared with the
servers as the bottleneck, as on a machine with a core of its own per server.

    PYTHONPATH=src python benchmarks/load_web.py --tables 50 --seconds 20 --bot-delay 0.2
    PYTHONPATH=src python benchmarks/load_web.py --tables 200 --seconds 20 --bot-delay 0.2 \\
        --processes 2 --db postgresql+psycopg://lama:lama@127.0.0.1:5432/lamagames
    PYTHONPATH=src python benchmarks/load_web.py --tables 50 --seconds 20 --bot-delay 0.2 \\
        --idle-sockets 1000 --clients 2
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import multiprocessing
import os
import resource
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path
from typing import Any

from websockets.asyncio.client import connect

SERVER = """
import gc, os, resource, sys, threading, time, uvicorn
from pathlib import Path
from lamagames.web.app import create_app
from lamagames.web.live import Settings
from lamagames.web.server import server_config
_soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))  # --idle-sockets
ready = Path(sys.argv[5])
def _say_ready():  # the bots are warm once the warm-up thread froze the collector's view
    while gc.get_freeze_count() == 0:
        time.sleep(0.05)
    ready.write_text("ready")
threading.Thread(target=_say_ready, daemon=True).start()
probe = None
if os.environ.get("LAMA_STALL_PROBE"):  # --probe: where the event loop stalls
    sys.path.insert(0, os.environ["LAMA_STALL_PROBE_PATH"])
    import stall_probe
    probe = stall_probe.Probe()
    stall_probe.instrument(probe)
    stall_probe.time_calls(probe)
if os.environ.get("LAMA_SWITCH_INTERVAL"):  # the GIL's switch interval, seconds
    sys.setswitchinterval(float(os.environ["LAMA_SWITCH_INTERVAL"]))
settings = Settings(  # freeze_gc as lama serve
    bot_delay=float(sys.argv[3]),
    rate_per_second=1000,
    rate_burst=1000,
    create_per_minute=0,
    freeze_gc=True,
)
app = create_app(sys.argv[1], settings=settings)
# lama serve's uvicorn configuration (WebSocket compression included)
config = server_config(
    app, port=int(sys.argv[2]), log_level="warning", ws_compression=sys.argv[4] == "on"
)
server = uvicorn.Server(config)
if probe is not None:
    _startup = server.startup
    async def _startup_probed(sockets=None):
        probe.start_loop()
        await _startup(sockets)
    server.startup = _startup_probed
    _shutdown = server.shutdown
    async def _shutdown_probed(sockets=None):  # uvicorn then raises SIGTERM again: no atexit
        probe.dump(Path(os.environ["LAMA_STALL_PROBE"]))
        await _shutdown(sockets)
    server.shutdown = _shutdown_probed
server.run()
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


def postgres_cpu_seconds() -> float:
    """User + system CPU seconds of every process named ``postgres`` on this machine (the
    database server and its backends; 0 where none runs). Backends that exit between two
    readings drop out, so measure across a window in which the pools stay open."""
    total = 0.0
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            text = stat.read_text()
        except OSError:
            continue
        if "(postgres)" in text:
            fields = text.rsplit(")", 1)[1].split()
            total += (int(fields[11]) + int(fields[12])) / TICKS
    return total


def rss_mib(pid: int) -> float:
    """Peak resident set size of ``pid`` in MiB (``VmHWM``)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return 0.0


async def human(
    base: str, code: str, token: str, latencies: list[float], stop: float, stamp: bool = False
) -> bool:
    """Play the seat of ``token`` until the game ends or ``stop``; True if it finished.
    ``stamp``: each action's ``ref`` is ``t`` and its send time (``time.perf_counter``, the
    system's monotonic clock: the probed server times the way in, ``--probe``)."""
    uri = base.replace("http", "ws") + f"/ws/{code}"
    try:
        # one timeout for the whole game (asyncio.wait_for per message costs a task each)
        async with asyncio.timeout(max(0.01, stop - time.monotonic())):
            return await _play(uri, token, latencies, stamp)
    except TimeoutError:
        return False


def _status(raw: str) -> str:
    """The top-level ``status`` of a state message (it precedes ``view``, ``seats``...)."""
    at = raw.find('"status":"', 0, 200) + 10
    return raw[at : raw.index('"', at)]


async def _play(uri: str, token: str, latencies: list[float], stamp: bool) -> bool:
    async with connect(uri, max_size=2**20) as ws:
        await ws.send(json.dumps({"type": "hello", "token": token}))
        sent_at: float | None = None
        latest: dict[str, Any] | None = None
        async for raw in ws:
            assert isinstance(raw, str)
            head = raw[:20]
            if head.startswith('{"type":"ack"'):
                if sent_at is not None:
                    latencies.append(time.perf_counter() - sent_at)
                    sent_at = None
            elif head.startswith('{"type":"error"'):
                sent_at = None
            elif head.startswith('{"type":"state"'):
                if _status(raw) == "finished":
                    return True
                # decode only a state in which this seat may act (the rest is not read)
                latest = None if '"legal":[]' in raw else json.loads(raw)
            if latest is not None and sent_at is None:
                mine = latest["seat"] in latest["acting"] and latest["legal"]
                if mine:
                    sent_at = time.perf_counter()
                    action = latest["legal"][0]["action"]
                    version = latest["version"]
                    latest = None
                    message = {"type": "action", "version": version, "action": action}
                    if stamp:
                        message["ref"] = f"t{sent_at:.6f}"
                    await ws.send(json.dumps(message))
    return False


async def idle(uri: str, opened: list[int], done: asyncio.Event) -> None:
    """Hold a spectator's WebSocket open (hello, the first state) until ``done``."""
    with contextlib.suppress(OSError, TimeoutError, ConnectionError):
        async with connect(uri, max_size=2**20, open_timeout=60) as ws:
            await ws.send('{"type":"hello"}')
            await ws.recv()
            opened.append(1)
            reader = asyncio.ensure_future(_drain(ws))
            await done.wait()
            reader.cancel()


async def _drain(ws: Any) -> None:
    async for _raw in ws:
        pass


async def client_main(
    conn: Any,
    humans: list[tuple[str, str, str]],
    idles: list[str],
    ready: Any,
    go: Any,
    start_at: Any,
    seconds: float,
    stamp: bool = False,
) -> None:
    """One client process: open the idle sockets, say ready, wait for go, play the humans
    ``(base, code, token)``; send latencies, finished games, idle sockets and CPU through
    ``conn``, then close the idle sockets (after the figures: closing is not measured)."""
    cpu0 = time.process_time()
    opened: list[int] = []
    done = asyncio.Event()
    idlers = [asyncio.ensure_future(idle(uri, opened, done)) for uri in idles]
    while len(opened) < len(idles) and not all(t.done() for t in idlers):
        await asyncio.sleep(0.05)
    ready.set()
    await asyncio.to_thread(go.wait)
    stop = start_at.value + seconds
    latencies: list[float] = []
    results = await asyncio.gather(
        *(human(base, code, token, latencies, stop, stamp) for base, code, token in humans)
    )
    conn.send(
        {
            "latencies": latencies,
            "finished": sum(results),
            "idle_open": len(opened),
            "cpu": time.process_time() - cpu0,
        }
    )
    conn.close()
    done.set()
    await asyncio.gather(*idlers)


def client_process(conn: Any, *args: Any) -> None:
    """Entry of a client process: run :func:`client_main`, send its figures back."""
    _soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    asyncio.run(client_main(conn, *args))


def run(
    bases: list[str],
    tables: int,
    seconds: float,
    players: int,
    pids: list[int],
    cross: bool,
    clients: int = 1,
    idle_sockets: int = 0,
    end_score: int | None = None,
    marks: tuple[int, ...] = (),
) -> dict[str, Any]:
    """Create and play ``tables`` tables concurrently; return the figures. ``end_score``:
    the LAMA Dice game's end score (D-11), e.g. 1000 so that no game ends during the run
    and every table stays busy (by default most games end within 20 s, and the finished
    tables no longer add actions). ``marks``: server processes sent ``SIGUSR1`` when the
    measured window starts and when it ends (``--probe``)."""
    created = []
    extra: dict[str, Any] = {} if end_score is None else {"params": {"end_score": end_score}}
    seats = [{"kind": "human", "name": "Sim"}] + [
        {"kind": "bot", "bot_kind": "heuristic"} for _ in range(players - 1)
    ]
    for number in range(tables):
        base = bases[number % len(bases)]
        table = http(
            base, "/api/tables", {"game": "dice", "seats": seats, "away_timeout": 600, **extra}
        )
        created.append((number, base, table))
    idle_uris = []
    if idle_sockets:  # spectators of tables that never start, about 100 per table
        for number in range(max(1, (idle_sockets + 99) // 100)):
            base = bases[number % len(bases)]
            table = http(base, "/api/tables", {"game": "dice", "seats": seats})
            idle_uris.append(base.replace("http", "ws") + f"/ws/{table['code']}")
    context = multiprocessing.get_context("fork")
    ready = [context.Event() for _ in range(clients)]
    go = context.Event()
    start_at = context.Value("d", 0.0)
    pipes, procs = [], []
    for k in range(clients):
        humans = [
            (bases[(number + cross) % len(bases)], t["code"], t["seats"][0]["token"])
            for number, _base, t in created
            if number % clients == k
        ]
        idles = [idle_uris[i % len(idle_uris)] for i in range(k, idle_sockets, clients)]
        mine, theirs = context.Pipe(duplex=False)
        proc = context.Process(
            target=client_process,
            args=(theirs, humans, idles, ready[k], go, start_at, seconds, bool(marks)),
        )
        proc.start()
        pipes.append(mine)
        procs.append(proc)
    for event in ready:
        event.wait(120)
    for pid in marks:  # --probe: the measured window starts
        os.kill(pid, signal.SIGUSR1)
    cpu_before = [cpu_seconds(pid) for pid in pids]
    pg_before = postgres_cpu_seconds()
    start = time.monotonic()
    for _number, base, table in created:
        http(base, f"/api/tables/{table['code']}/start", {"host_token": table["host_token"]})
    start_at.value = start
    go.set()
    outs = [pipe.recv() for pipe in pipes]
    elapsed = time.monotonic() - start
    pg_cpu = postgres_cpu_seconds() - pg_before
    for pid in marks:  # --probe: and ends
        os.kill(pid, signal.SIGUSR1)
    cpu = [
        round(100 * (cpu_seconds(pid) - before) / elapsed, 1)
        for pid, before in zip(pids, cpu_before, strict=True)
    ]
    actions = sum(http(base, f"/api/tables/{t['code']}")["version"] for _n, base, t in created)
    for proc in procs:
        proc.join(30)
    latencies = sorted(x for out in outs for x in out["latencies"])
    client_cpu = sum(out["cpu"] for out in outs)
    return {
        "processes": len(bases),
        "tables": tables,
        "players_per_table": players,
        "end_score": end_score,
        "finished_games": sum(out["finished"] for out in outs),
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
        "clients": clients,
        "client_cpu_percent": round(100 * client_cpu / elapsed, 1),
        "client_cpu_ms_per_action": round(1000 * client_cpu / max(actions, 1), 3),
        "postgres_cpu_percent": round(100 * pg_cpu / elapsed, 1),
        "postgres_cpu_ms_per_action": round(1000 * pg_cpu / max(actions, 1), 3),
        "idle_sockets": sum(out["idle_open"] for out in outs),
        "load_average": [round(x, 2) for x in os.getloadavg()],
    }


class WalSampler:
    """Samples the size of an SQLite database's WAL file (``<file>-wal``) every ``period``
    seconds in a thread until :meth:`stop`; ``max_bytes`` is the largest size seen (0 when
    the file never existed)."""

    def __init__(self, path: Path, period: float = 0.05) -> None:
        self.path = Path(str(path) + "-wal")
        self.period = period
        self.max_bytes = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while not self._stop.is_set():
            with contextlib.suppress(OSError):
                self.max_bytes = max(self.max_bytes, self.path.stat().st_size)
            self._stop.wait(self.period)

    def stop(self) -> float:
        """Stop sampling; the largest size seen in MiB."""
        self._stop.set()
        self._thread.join(5)
        return round(self.max_bytes / 2**20, 1)


def sqlite_file(url: str) -> Path | None:
    """The file of an ``sqlite:///path`` URL, or None (another database, or in memory)."""
    if not url.startswith("sqlite:///") or url.endswith(":memory:"):
        return None
    return Path(url.removeprefix("sqlite:///").split("?", 1)[0])


CGROUP_V1 = Path("/sys/fs/cgroup/cpu")
CGROUP_V2 = Path("/sys/fs/cgroup")
#: CFS period of ``--server-cpus``, microseconds (short, so a capped server waits at most
#: this long when its quota is spent).
CPU_PERIOD_US = 10_000


class CpuCap:
    """Caps processes at ``cpus`` of one core each, every process in a cgroup of its own
    (``lama-load-<pid>``), removed by :meth:`close`.

    Raises:
        SystemExit: no writable cgroup ``cpu`` controller (message names what is missing).
    """

    def __init__(self, cpus: float) -> None:
        self.quota = max(1000, round(cpus * CPU_PERIOD_US))
        v2 = CGROUP_V2 / "cgroup.controllers"
        if (CGROUP_V1 / "cpu.cfs_quota_us").exists():
            self.root, self.v2 = CGROUP_V1, False
        elif v2.exists() and "cpu" in v2.read_text().split():
            self.root, self.v2 = CGROUP_V2, True
        else:
            raise SystemExit("--server-cpus: no cgroup cpu controller under /sys/fs/cgroup")
        self.groups: list[Path] = []

    def cap(self, pid: int) -> None:
        """Move process ``pid`` (all its threads, and the children it starts later) into a
        capped cgroup of its own."""
        group = self.root / f"lama-load-{pid}"
        try:
            group.mkdir(exist_ok=True)
            self.groups.append(group)
            if self.v2:
                (group / "cpu.max").write_text(f"{self.quota} {CPU_PERIOD_US}")
            else:
                (group / "cpu.cfs_period_us").write_text(str(CPU_PERIOD_US))
                (group / "cpu.cfs_quota_us").write_text(str(self.quota))
            (group / "cgroup.procs").write_text(str(pid))
        except OSError as exc:
            raise SystemExit(f"--server-cpus: cannot set up cgroup {group}: {exc}") from exc

    def close(self) -> None:
        """Remove the cgroups (once their processes have ended)."""
        for group in self.groups:
            with contextlib.suppress(OSError):
                group.rmdir()


def wait_ready(path: Path, process: subprocess.Popen[bytes], timeout: float = 300.0) -> float:
    """Wait until the server says its warm-up is over (it writes ``path`` once the bots are
    warm and the garbage collector's view frozen, as ``lama serve`` does after start);
    return the seconds waited.

    Raises:
        RuntimeError: the server died or ``timeout`` seconds passed.
    """
    began = time.monotonic()
    while not path.exists():
        if time.monotonic() - began > timeout or process.poll() is not None:
            raise RuntimeError("server did not finish its warm-up")
        time.sleep(0.05)
    return time.monotonic() - began


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
    parser.add_argument("--clients", type=int, default=1, help="client processes (humans)")
    parser.add_argument(
        "--idle-sockets", type=int, default=0, help="extra spectator sockets held open"
    )
    parser.add_argument(
        "--no-compression", action="store_true", help="servers without WebSocket compression"
    )
    parser.add_argument(
        "--probe",
        action="store_true",
        help="record where each server's event loop stalls (benchmarks/stall_probe.py)",
    )
    parser.add_argument(
        "--end-score",
        type=int,
        default=None,
        help="the games' end score (e.g. 1000: no game ends, every table stays busy)",
    )
    parser.add_argument(
        "--server-cpus",
        type=float,
        default=None,
        help="cap each server started at this fraction of one core (cgroup; root)",
    )
    args = parser.parse_args()
    if args.server_cpus is not None and not 0.05 <= args.server_cpus <= 64:
        parser.error("--server-cpus must be between 0.05 and 64 (cores)")
    if args.server_cpus is not None and args.urls:
        parser.error("--server-cpus caps servers this benchmark starts, not --urls")
    if args.clients < 1 or args.idle_sockets < 0:
        parser.error("--clients must be at least 1 and --idle-sockets at least 0")
    options = (args.cross, args.clients, args.idle_sockets)
    if args.urls:
        for base in args.urls:
            wait_up(base, None)
        figures = run(
            args.urls, args.tables, args.seconds, args.players, args.pids, *options,
            end_score=args.end_score,
        )  # fmt: skip
        print(json.dumps(figures, indent=1))
        return
    with tempfile.TemporaryDirectory() as folder:
        db = args.db or f"sqlite:///{Path(folder) / 'load.sqlite3'}"
        servers: list[subprocess.Popen[bytes]] = []
        bases = []
        capped = CpuCap(args.server_cpus) if args.server_cpus is not None else None
        probes = [Path(folder) / f"probe{k}.json" for k in range(args.processes)]
        try:
            waited = 0.0
            for number in range(args.processes):  # in turn: the first makes the schema
                port = free_port()
                compression = "off" if args.no_compression else "on"
                ready = Path(folder) / f"ready{number}"
                command = [
                    sys.executable,
                    "-c",
                    SERVER,
                    db,
                    str(port),
                    str(args.bot_delay),
                    compression,
                    str(ready),
                ]
                env = dict(os.environ)
                if args.probe:
                    env["LAMA_STALL_PROBE"] = str(probes[number])
                    env["LAMA_STALL_PROBE_PATH"] = str(Path(__file__).parent)
                servers.append(subprocess.Popen(command, env=env))
                if capped is not None:
                    capped.cap(servers[-1].pid)
                bases.append(f"http://127.0.0.1:{port}")
                wait_up(bases[-1], servers[-1])
                waited += wait_ready(ready, servers[-1])
            pids = [server.pid for server in servers]
            path = sqlite_file(db)
            sampler = WalSampler(path) if path is not None else None
            try:
                figures = run(
                    bases, args.tables, args.seconds, args.players, pids, *options,
                    end_score=args.end_score, marks=tuple(pids) if args.probe else (),
                )  # fmt: skip
            finally:
                wal_max = sampler.stop() if sampler is not None else None
            figures["warm_up_waited_s"] = round(waited, 2)
            figures["server_cpus_cap"] = args.server_cpus
            if wal_max is not None:
                figures["wal_max_mib"] = wal_max
        finally:
            for server in servers:
                server.terminate()
            for server in servers:
                server.wait(30)
            if capped is not None:
                capped.close()
        if args.probe:
            figures["probe"] = [json.loads(p.read_text()) for p in probes if p.exists()]
    print(json.dumps(figures, indent=1))


if __name__ == "__main__":
    main()
