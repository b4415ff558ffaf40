"""Where a web server's event loop stalls (a diagnostic of ``load_web.py --probe``, not a test).

Installed in a server process, it records, with ``time.perf_counter`` seconds:

* the event loop's lag: a heartbeat callback is scheduled every ``period`` seconds
  (``loop.call_later``); how late it runs is the time the loop spent on other work in one
  go. A lag over ``stall`` seconds is a *stall*; with it, the CPU time the loop's thread
  spent meanwhile (``time.thread_time``: on a busy machine a stall may also be the process
  waiting for a core, with little CPU of its own);
* samples of the loop thread's Python stack, taken every ``period`` seconds by a watchdog
  thread (``sys._current_frames``): during a stall they say what the loop was doing (the
  watchdog needs the interpreter lock, so the sampling rate in a stall is about one per
  ``sys.getswitchinterval()``);
* every garbage collection (``gc.callbacks``): its start, duration, generation.

:func:`summarize` attributes each stall's duration to causes: the collections inside it,
then the rest shared out in proportion to the stack samples taken in it, each sample
classified by :data:`CAUSES` (the innermost frame that matches a rule). The figures are
the stalls' summed milliseconds per cause; a loaded machine makes stalls longer but the
shares stay comparable.
"""

from __future__ import annotations

import asyncio
import gc
import json
import signal
import statistics
import sys
import threading
import time
from collections import Counter
from pathlib import Path
from typing import Any

#: (cause, path fragment, function names or () for any): the first rule, innermost frame
#: first, that matches a sample's stack names its cause.
CAUSES: list[tuple[str, str, tuple[str, ...]]] = [
    ("compression (zlib)", "permessage_deflate", ()),
    ("bot decision", "lamagames/bots/", ()),
    ("state message", "lamagames/web/live.py", ("state_json", "state_message", "out")),
    ("state message", "pydantic/", ()),
    ("schemas", "lamagames/web/schemas.py", ()),
    ("engine plan/commit", "lamagames/web/engine.py", ()),
    ("game rules", "lamagames/games/", ()),
    ("game rules", "lamagames/core/", ()),
    ("store thread handoff", "lamagames/web/store.py", ()),
    ("group commit", "lamagames/web/writer.py", ()),
    ("ws send", "websockets/", ("send", "write", "send_frames", "write_frame", "serialize")),
    ("ws send", "uvicorn/protocols/websockets", ("asgi_send", "send", "_send_to_transport")),
    ("ws receive", "websockets/", ()),
    ("ws receive", "uvicorn/protocols/websockets", ()),
    ("ws route", "lamagames/web/routes/play.py", ()),
    ("connection queue", "lamagames/web/connections.py", ()),
    ("bot driver", "lamagames/web/driver.py", ()),
    ("live table", "lamagames/web/live.py", ()),
    ("asyncio", "asyncio/", ()),
    ("starlette", "starlette/", ()),
]


def classify(stack: tuple[str, ...]) -> str:
    """The cause of one sample: ``stack`` is innermost first, entries ``"path:function"``.
    No Python frame above the runner's: the loop is in its C code (polling, or waiting for
    the interpreter lock that another thread holds)."""
    if stack and stack[0].endswith("asyncio/runners.py:run"):
        return "loop C code / waiting for the GIL"
    for entry in stack:
        path, _, func = entry.rpartition(":")
        for cause, fragment, funcs in CAUSES:
            if fragment in path and (not funcs or func in funcs):
                return cause
    return "other: " + (stack[0] if stack else "?")


class Probe:
    """The recorder (see the module docstring); ``start_loop`` on the running loop."""

    def __init__(self, period: float = 0.002, stall: float = 0.020) -> None:
        self.period = period
        self.stall = stall
        self.main = threading.main_thread().ident
        self.lags: list[tuple[float, float]] = []  # time, lag
        #: ``SIGUSR1`` times: the first two bound the measured window (load_web.py).
        self.marks: list[float] = []
        self.stalls: list[tuple[float, float, float, float]] = []  # end, lag, loop CPU, all
        #: human action phases (seconds): name -> list of (end time, duration)
        self.phases: dict[str, list[tuple[float, float]]] = {}
        self.samples: list[tuple[float, tuple[str, ...]]] = []
        self.gcs: list[tuple[float, float, int]] = []  # start, duration, generation
        self._gc_start = 0.0
        self._stop = threading.Event()
        self._due = 0.0
        self._cpu = 0.0
        self._pcpu = 0.0
        self._loop: asyncio.AbstractEventLoop | None = None
        gc.callbacks.append(self._on_gc)
        signal.signal(signal.SIGUSR1, lambda _n, _f: self.marks.append(time.perf_counter()))
        threading.Thread(target=self._watch, name="stall-probe", daemon=True).start()

    def _on_gc(self, phase: str, info: dict[str, Any]) -> None:
        now = time.perf_counter()
        if phase == "start":
            self._gc_start = now
        else:
            self.gcs.append((self._gc_start, now - self._gc_start, int(info["generation"])))

    def start_loop(self) -> None:
        """Start the heartbeat on the running event loop."""
        self._loop = asyncio.get_running_loop()
        self._due = time.perf_counter() + self.period
        self._cpu = time.thread_time()
        self._pcpu = time.process_time()
        self._loop.call_later(self.period, self._beat)

    def _beat(self) -> None:
        now = time.perf_counter()
        cpu = time.thread_time()
        pcpu = time.process_time()
        lag = now - self._due
        self.lags.append((now, lag))
        if lag > self.stall:
            self.stalls.append((now, lag, cpu - self._cpu, pcpu - self._pcpu))
        self._cpu = cpu
        self._pcpu = pcpu
        self._due = now + self.period
        assert self._loop is not None
        self._loop.call_later(self.period, self._beat)

    def _watch(self) -> None:
        frames = sys._current_frames
        while not self._stop.wait(self.period):
            frame = frames().get(self.main)  # type: ignore[arg-type]
            stack = []
            while frame is not None:
                code = frame.f_code
                stack.append(f"{code.co_filename}:{code.co_name}")
                frame = frame.f_back
            self.samples.append((time.perf_counter(), tuple(stack)))

    def dump(self, path: Path) -> None:
        """Stop sampling and write :func:`summarize`'s figures to ``path`` (JSON)."""
        self._stop.set()
        path.write_text(json.dumps(summarize(self), indent=1))


def summarize(probe: Probe) -> dict[str, Any]:
    """Stalls by cause (ms), loop lag percentiles, collections by generation, within the
    window between the first two marks (all of the run without them)."""
    low, high = (probe.marks[0], probe.marks[1]) if len(probe.marks) >= 2 else (0.0, 1e18)
    lags = sorted(lag for t, lag in probe.lags if low <= t <= high)
    by_cause: dict[str, float] = {}
    gc_in_stalls = 0.0
    samples = [(t, stack) for t, stack in probe.samples if low <= t <= high]
    gcs = [(s, d, g) for s, d, g in probe.gcs if low <= s <= high]
    stalls = [(e, lag, c, pc) for e, lag, c, pc in probe.stalls if low <= e <= high]
    cpu_total = pcpu_total = 0.0
    for end, lag, cpu, pcpu in stalls:
        begin = end - lag
        cpu_total += cpu
        pcpu_total += pcpu
        in_gc = sum(
            min(end, s + d) - max(begin, s) for s, d, _g in gcs if s < end and s + d > begin
        )
        gc_in_stalls += in_gc
        if in_gc > 0:
            by_cause["garbage collection"] = by_cause.get("garbage collection", 0.0) + in_gc
        inside = [classify(stack) for t, stack in samples if begin <= t <= end]
        rest = lag - in_gc
        if not inside:
            by_cause["(no sample)"] = by_cause.get("(no sample)", 0.0) + rest
            continue
        for cause, count in Counter(inside).items():
            by_cause[cause] = by_cause.get(cause, 0.0) + rest * count / len(inside)

    def _idle(stack: tuple[str, ...]) -> bool:
        return bool(stack) and stack[0].endswith("asyncio/runners.py:run")

    overall = Counter(classify(stack) for _t, stack in samples)
    idle = sum(1 for _t, stack in samples if _idle(stack))
    gens: dict[int, list[float]] = {}
    for _s, d, g in gcs:
        gens.setdefault(g, []).append(d)

    def pct(values: list[float], q: float) -> float:
        return round(1000 * values[int(q * (len(values) - 1))], 2) if values else 0.0

    return {
        "window_s": round(high - low, 2) if high < 1e18 else None,
        "beats": len(lags),
        "lag_p50_ms": pct(lags, 0.5),
        "lag_p99_ms": pct(lags, 0.99),
        "lag_max_ms": pct(lags, 1.0),
        "stalls": len(stalls),
        "stall_ms_total": round(1000 * sum(s[1] for s in stalls), 1),
        "stall_loop_thread_cpu_ms_total": round(1000 * cpu_total, 1),
        "stall_process_cpu_ms_total": round(1000 * pcpu_total, 1),
        "stalls_over_50ms": sum(1 for s in stalls if s[1] > 0.05),
        "stall_ms_list": sorted((round(1000 * s[1], 1) for s in stalls), reverse=True)[:30],
        "stall_ms_by_cause": {
            k: round(1000 * v, 1) for k, v in sorted(by_cause.items(), key=lambda kv: -kv[1])
        },
        "samples": len(samples),
        "sample_share_by_cause": {
            k: round(n / max(1, len(samples)), 3) for k, n in overall.most_common(25)
        },
        "idle_like_samples": idle,
        "gc_by_generation": {
            str(g): {
                "count": len(ds),
                "p50_ms": round(1000 * statistics.median(ds), 2),
                "max_ms": round(1000 * max(ds), 2),
                "total_ms": round(1000 * sum(ds), 1),
            }
            for g, ds in sorted(gens.items())
        },
        "gc_ms_in_stalls": round(1000 * gc_in_stalls, 1),
        "human_phases_ms": {
            name: {
                "count": len(ds),
                "p50": pct(ds, 0.5),
                "p90": pct(ds, 0.9),
                "p99": pct(ds, 0.99),
                "max": pct(ds, 1.0),
            }
            for name, values in probe.phases.items()
            if (ds := sorted(d for t, d in values if low <= t <= high))
        },
        "calls_total_ms": {
            name: round(1000 * sum(d for t, d in values if low <= t <= high), 1)
            for name, values in probe.phases.items()
            if name.startswith("calls:")
        },
    }


def instrument(probe: Probe) -> None:
    """Time the phases of the people's actions in the server (monkeypatched wrappers):
    ``submit`` (the whole :meth:`LiveTable.submit`, acknowledgement queued), ``to_append``
    (from the submit to the group commit's queue: lock, judge, plan), ``batch_wait`` (in the
    queue until its batch is written: the batch before it commits), ``commit on the loop``
    (the batch's transaction from the event loop, :meth:`Store.append_batch_now_async`,
    when it went through there), else ``to_thread``, ``thread`` (the transaction in the
    worker thread) and ``from_thread`` (back on the loop), ``resume`` (the waiting task
    runs again), ``ack_out`` (queued until written to the socket), and ``batch_size``
    (actions per batch, as a "duration" in thousands)."""
    from lamagames.web import connections, live, store, writer

    now = time.perf_counter
    record = probe.phases.setdefault
    thread: dict[str, float] = {}
    entered: dict[tuple[int, int], float] = {}

    def add(name: str, begin: float, end: float) -> None:
        record(name, []).append((end, end - begin))

    original_submit = live.LiveTable.submit

    async def submit(self: Any, conn: Any, msg: Any) -> None:
        began = now()
        entered[(self.data.id, self.version)] = began
        ref = getattr(msg, "ref", None) or ""
        if ref.startswith("t"):  # load_web.py --probe: the client's send time
            add("inbound (client send to submit)", float(ref[1:]), began)
        await original_submit(self, conn, msg)
        add("submit", began, now())

    original_append = writer.GroupWriter.append

    async def append(self: Any, table_id: int, action: Any, status: Any = None) -> None:
        if action.by == "human":
            began = entered.pop((table_id, action.idx), None)
            if began is not None:
                add("to_append", began, now())
            action_queued = now()
            await original_append(self, table_id, action, status)
            add("batch_wait", action_queued, thread.get(f"sent{table_id}", action_queued))
            add("resume", thread.get(f"done{table_id}", action_queued), now())
            add("append_total", action_queued, now())
            return
        await original_append(self, table_id, action, status)

    original_write = writer.GroupWriter._write

    async def write(self: Any, batch: list[Any]) -> None:
        sent = now()
        for pending in batch:
            if pending.action.by == "human":
                thread[f"sent{pending.table_id}"] = sent
        thread.pop("start", None)
        thread.pop("end", None)
        on_loop = self.batches_now
        await original_write(self, batch)
        done = now()
        record("batch_size", []).append((done, len(batch) / 1000))
        for pending in batch:
            if pending.action.by == "human":
                thread[f"done{pending.table_id}"] = done
        if self.batches_now > on_loop:  # committed from the loop: no thread
            add("commit on the loop", sent, done)
            return
        add("to_thread", sent, thread.get("start", sent))
        add("thread", thread.get("start", sent), thread.get("end", sent))
        if thread.get("end", sent) - thread.get("start", sent) > 0.05:
            add(
                "long transaction at (s since 1st mark, as 'duration')",
                0.0,
                thread.get("start", sent) - (probe.marks[0] if probe.marks else 0.0),
            )
        add("from_thread", thread.get("end", done), done)

    original_batch = store.Store.append_batch

    def append_batch(self: Any, items: Any) -> None:
        thread["start"] = now()
        try:
            original_batch(self, items)
        finally:
            thread["end"] = now()

    original_send = connections.Connection.send

    def send(self: Any, message: Any) -> None:
        if type(message).__name__ == "AckMsg":
            self.__dict__["_ack_at"] = now()
        original_send(self, message)

    async def run_sender(self: Any) -> None:
        while True:
            text = await self.queue.get()
            if text is None:
                return
            await self.ws.send_text(text)
            if text.startswith('{"type":"ack"'):
                add("ack_out", self.__dict__.get("_ack_at", now()), now())

    from lamagames.web import checkpoint

    original_checkpoint = checkpoint.WalCheckpointer._checkpoint

    def timed_checkpoint(self: Any, conn: Any, mode: str) -> tuple[int, int, int]:
        began = now()
        try:
            return original_checkpoint(self, conn, mode)
        finally:
            add("checkpoint " + mode, began, now())
            if mode != "PASSIVE":
                add(
                    f"{mode} at (s since 1st mark)",
                    0.0,
                    began - (probe.marks[0] if probe.marks else 0.0),
                )

    checkpoint.WalCheckpointer._checkpoint = timed_checkpoint  # type: ignore[method-assign]
    live.LiveTable.submit = submit  # type: ignore[method-assign]
    writer.GroupWriter.append = append  # type: ignore[method-assign]
    writer.GroupWriter._write = write  # type: ignore[method-assign]
    store.Store.append_batch = append_batch  # type: ignore[method-assign]
    connections.Connection.send = send  # type: ignore[method-assign]
    connections.Connection.run_sender = run_sender  # type: ignore[method-assign]


def time_calls(probe: Probe) -> None:
    """Add the loop thread's wall time in a few functions to ``probe.phases`` under
    ``"calls:<name>"`` (one entry per call): the bots' decisions, the state messages, the
    engine's planning and the compression of WebSocket frames. Unlike the stack samples,
    these durations do not depend on when a sampler gets the interpreter lock."""
    from websockets.extensions import permessage_deflate

    from lamagames.bots import dice as dice_bots
    from lamagames.web import engine, live

    main = threading.main_thread().ident
    targets: list[tuple[Any, str, str]] = [
        (dice_bots.DiceHeuristicBot, "step", "bot step"),
        (live.LiveTable, "_send_local", "send_local (state messages)"),
        (live.LiveTable, "state_json", "state_json"),
        (engine.TableEngine, "plan", "engine plan"),
        (engine.TableEngine, "commit", "engine commit"),
        (permessage_deflate.PerMessageDeflate, "encode", "deflate encode"),
    ]
    for owner, attribute, name in targets:
        original = getattr(owner, attribute)
        bucket = probe.phases.setdefault("calls:" + name, [])

        def wrapped(
            *args: Any, _original: Any = original, _bucket: Any = bucket, **kwargs: Any
        ) -> Any:
            if threading.get_ident() != main:
                return _original(*args, **kwargs)
            began = time.perf_counter()
            try:
                return _original(*args, **kwargs)
            finally:
                end = time.perf_counter()
                _bucket.append((end, end - began))

        setattr(owner, attribute, wrapped)
