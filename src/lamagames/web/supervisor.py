"""The supervisor of ``lama serve --workers N``: uvicorn's multiprocess supervisor, telling
the operator what happens to its workers.

uvicorn's :class:`~uvicorn.supervisors.Multiprocess` restarts a worker that dies and
replaces every worker on ``SIGHUP`` (a rolling restart), but it says so at ``info`` level
on ``uvicorn.error`` only, which ``lama serve`` (log level ``warning``) does not show, and
without the exit code or the replacement. :class:`Supervisor` logs, on the
``lamagames.supervisor`` logger (to standard error, whatever uvicorn's level):

* ``worker 4242 started`` for each first worker;
* ``worker 4242 died (signal SIGKILL); worker 4250 replaces it``;
* ``rolling restart (SIGHUP): replacing 2 workers: 4242, 4243``, then
  ``rolling restart 1/2: worker 4242 stopped (signal SIGTERM); worker 4250 replaces it``
  for each step, and ``rolling restart done: workers 4250, 4251`` (or ``... stopped after
  1 of 2 steps`` when a new worker did not become ready and uvicorn kept the old one).

Both uvicorn's restart of a dead worker and its rolling restart put the new worker in place
with ``processes[index] = new``; :class:`_Workers` reports each such replacement, so the
messages follow whichever order the installed uvicorn uses (0.55 starts the new worker and
waits until it serves before it stops the old one; 0.50 stopped the old one first).
"""

from __future__ import annotations

import logging
import math
import os
import signal
import sys
from collections.abc import Callable
from typing import Any, SupportsIndex

from uvicorn.supervisors import Multiprocess

__all__ = ["Supervisor", "describe_exit", "log"]

#: The supervisor's logger (its own handler on standard error: see :func:`_handler`).
log = logging.getLogger("lamagames.supervisor")


def describe_exit(exitcode: int | None) -> str:
    """A process's end in words: ``exit code 3``, ``signal SIGKILL`` (a negative
    ``multiprocessing`` exit code is the signal's number; a worker stopped gracefully by
    SIGTERM ends with ``signal SIGTERM``, as uvicorn raises it again after its shutdown) or
    ``still running``."""
    if exitcode is None:
        return "still running"
    if exitcode < 0:
        try:
            return f"signal {signal.Signals(-exitcode).name}"
        except ValueError:
            return f"signal {-exitcode}"
    return f"exit code {exitcode}"


def _handler() -> None:
    """Give :data:`log` one handler on standard error at ``INFO`` (once), not propagated:
    these lines show whatever level uvicorn's own loggers are set to."""
    if log.handlers:
        return
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(logging.Formatter("%(asctime)s lama serve: %(message)s"))
    log.addHandler(handler)
    log.setLevel(logging.INFO)
    log.propagate = False


class _Workers(list[Any]):
    """The supervisor's list of worker processes, calling ``on_replace(index, old, new)``
    whenever a worker is replaced by another (``workers[index] = new``)."""

    def __init__(self, on_replace: Callable[[int, Any, Any], None]) -> None:
        super().__init__()
        self.on_replace = on_replace

    def __setitem__(self, index: Any, value: Any) -> None:
        if not isinstance(index, SupportsIndex):  # a slice: not used by uvicorn
            super().__setitem__(index, value)
            return
        old = self[index]
        super().__setitem__(index, value)
        if old is not value:
            self.on_replace(int(index), old, value)


class Supervisor(Multiprocess):
    """uvicorn's multiprocess supervisor with a log line for every worker started, dead,
    replaced, and for each step of a rolling restart (``kill -HUP``).

    A rolling restart waits up to ``ready_timeout`` seconds for each new worker to serve
    (uvicorn's own wait is ``timeout_worker_healthcheck``, 5 s by default, shorter than a
    worker's start: its warm-up of the compiled bots takes longer, so uvicorn gave up the
    restart at its first step and kept the old workers).

    Args:
        config: the uvicorn configuration (``workers`` of them are started).
        sockets: the listening sockets the workers share.
        ready_timeout: seconds a rolling restart waits for a new worker to serve before it
            keeps the old one and stops (uvicorn 0.55 and later).
        options: further arguments of :class:`~uvicorn.supervisors.Multiprocess`
            (``target`` before uvicorn 0.36).
    """

    def __init__(
        self, config: Any, sockets: Any, *, ready_timeout: float = 120.0, **options: Any
    ) -> None:
        super().__init__(config, sockets=sockets, **options)
        self.ready_timeout = ready_timeout
        _handler()
        self.processes = _Workers(self._replaced)
        #: During a rolling restart: (steps done, workers to replace); ``None`` otherwise.
        self._rolling: tuple[int, int] | None = None

    def init_processes(self) -> None:
        """Start the first workers and name them."""
        super().init_processes()
        for process in self.processes:
            log.info("worker %s started (supervisor %s)", process.pid, os.getpid())

    def _replaced(self, index: int, old: Any, new: Any) -> None:
        end = describe_exit(old.exitcode)
        if self._rolling is None:
            log.warning("worker %s died (%s); worker %s replaces it", old.pid, end, new.pid)
            return
        done, total = self._rolling
        self._rolling = (done + 1, total)
        log.info(
            "rolling restart %d/%d: worker %s stopped (%s); worker %s replaces it",
            done + 1,
            total,
            old.pid,
            end,
            new.pid,
        )

    def restart_all(self) -> None:
        """Replace every worker, one at a time (uvicorn's order), with a line at the start,
        at each step and at the end."""
        pids = [process.pid for process in self.processes]
        log.info(
            "rolling restart (SIGHUP): replacing %d workers: %s",
            len(pids),
            ", ".join(map(str, pids)),
        )
        self._rolling = (0, len(pids))
        health = self.config.timeout_worker_healthcheck
        self.config.timeout_worker_healthcheck = max(health, math.ceil(self.ready_timeout))
        try:
            super().restart_all()
        finally:
            self.config.timeout_worker_healthcheck = health
            done, total = self._rolling or (0, len(pids))
            self._rolling = None
        now = ", ".join(str(process.pid) for process in self.processes)
        if done == total:
            log.info("rolling restart done: workers %s", now)
        else:
            log.warning(
                "rolling restart stopped after %d of %d steps: workers %s", done, total, now
            )
