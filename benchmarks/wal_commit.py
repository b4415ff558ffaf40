"""Commit time of the group commit's transactions on SQLite, checkpoints in the commit or
in the background thread (not a test; issue 16).

Writes ``--batches`` transactions of ``--batch`` actions (one per table, as the group
commit does) through :meth:`Store.append_batch`, one every ``--pace`` seconds, on a fresh
SQLite file, and reports the time of each transaction (p50, p99, max, ms), the largest
size of the ``-wal`` file (MiB, sampled after every commit) and the checkpointer's
counters. Modes, run alternately ``--pairs`` times:

- ``commit``: SQLite's automatic checkpoint inside the commit every 1,000 pages (the
  store before this change: ``wal_interval=None``, a cap of 1,000 pages);
- ``thread``: the store's defaults (:class:`~lamagames.web.checkpoint.WalCheckpointer`).

    PYTHONPATH=src python benchmarks/wal_commit.py --batches 2000 --batch 30 --pairs 2
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from lamagames.web.store import ActionData, Store


def run(mode: str, batches: int, batch: int, pace: float) -> dict[str, Any]:
    """One run on a fresh file; the figures."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "wal.sqlite3"
        url = f"sqlite:///{path}"
        if mode == "commit":
            store = Store(url, wal_interval=None, wal_cap=1000 * 4096)
        else:
            store = Store(url)
        wal = Path(str(path) + "-wal")
        tables = [
            store.create_table(
                game="dice",
                params={},
                seed=number,
                seats=[("human", "", None), ("bot", "", "heuristic")],
                public=False,
                turn_clock=None,
                away_timeout=30.0,
                alertness=None,
            )
            for number in range(batch)
        ]
        times: list[float] = []
        largest = 0
        cpu0 = time.process_time()
        start = time.monotonic()
        for idx in range(batches):
            items: list[tuple[int, ActionData, str | None]] = [
                (t.id, ActionData(idx, idx % 2, "keep 3 5 5 x" * 2, "human"), None) for t in tables
            ]
            begin = time.perf_counter()
            store.append_batch(items)
            times.append(time.perf_counter() - begin)
            largest = max(largest, wal.stat().st_size)
            wait = start + (idx + 1) * pace - time.monotonic()
            if wait > 0:
                time.sleep(wait)
        elapsed = time.monotonic() - start
        cpu = time.process_time() - cpu0
        checkpointer = store.checkpointer
        counters = (
            {
                "rounds": checkpointer.rounds,
                "passive": checkpointer.passive,
                "restarts": checkpointer.restarts,
                "truncations": checkpointer.truncations,
            }
            if checkpointer is not None
            else None
        )
        store.close()
    times.sort()
    return {
        "mode": mode,
        "commits_per_second": round(batches / elapsed, 1),
        "commit_p50_ms": round(1000 * statistics.median(times), 2),
        "commit_p99_ms": round(1000 * times[int(0.99 * (len(times) - 1))], 2),
        "commit_max_ms": round(1000 * times[-1], 2),
        "process_cpu_ms_per_commit": round(1000 * cpu / batches, 3),
        "wal_max_mib": round(largest / 2**20, 1),
        "checkpointer": counters,
        "load_average": [round(x, 2) for x in os.getloadavg()],
    }


def main() -> None:
    """Parse arguments, run the modes alternately, print one JSON line per run."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--batches", type=int, default=2000, help="transactions per run")
    parser.add_argument("--batch", type=int, default=30, help="actions (tables) per transaction")
    parser.add_argument("--pace", type=float, default=0.005, help="seconds between commits")
    parser.add_argument("--pairs", type=int, default=2)
    args = parser.parse_args()
    if args.batches < 1 or args.batch < 1 or args.pace < 0 or args.pairs < 1:
        parser.error("--batches, --batch and --pairs must be at least 1, --pace at least 0")
    for pair in range(args.pairs):
        modes = ("commit", "thread") if pair % 2 == 0 else ("thread", "commit")
        for mode in modes:
            print(json.dumps(run(mode, args.batches, args.batch, args.pace)), flush=True)


if __name__ == "__main__":
    main()
