"""Ordered parallel map over local worker processes that stops promptly on Ctrl-C.

Used by ``lama simulate`` (chunks of games) and ``lama ladder`` (single games). Results
come back in job order whatever the number of workers, so a run's totals never depend on
it. Workers ignore SIGINT: the parent receives Ctrl-C, cancels the queued jobs, lets the
running ones finish (a chunk or a game: seconds at most) and only terminates a worker that
is still busy after :data:`STOP_GRACE_SECONDS`.
"""

from __future__ import annotations

import contextlib
import signal
from collections.abc import Callable, Sequence
from concurrent.futures import Future, ProcessPoolExecutor, wait
from typing import Any, Final, TypeVar

#: Seconds a running job may take to finish after Ctrl-C before its worker is terminated.
STOP_GRACE_SECONDS: Final = 10.0

T = TypeVar("T")


def ordered_map(
    function: Callable[..., T],
    jobs: Sequence[tuple[Any, ...]],
    workers: int,
    done: Callable[[int, T], None] | None = None,
) -> list[T]:
    """``[function(*job) for job in jobs]``, on ``workers`` processes when ``workers > 1``.

    Args:
        function: a module-level (picklable) function.
        jobs: argument tuples.
        workers: processes (1: in this process, no pool).
        done: called in job order with ``(job index, result)`` as results arrive.

    Raises:
        Whatever a job raises (re-raised in the parent; the other jobs are stopped), and
        ``KeyboardInterrupt`` on Ctrl-C after the pool has been stopped.
    """
    if workers <= 1:
        out = []
        for index, job in enumerate(jobs):
            out.append(function(*job))
            if done is not None:
                done(index, out[-1])
        return out
    pool = ProcessPoolExecutor(max_workers=workers, initializer=_ignore_interrupts)
    futures = [pool.submit(function, *job) for job in jobs]
    try:
        results = []
        for index, future in enumerate(futures):
            results.append(future.result())
            if done is not None:
                done(index, results[-1])
    except BaseException:  # Ctrl-C (or a failed job): stop now, not after the queue
        stop_pool(pool, futures)
        raise
    pool.shutdown(wait=True)
    return results


def _ignore_interrupts() -> None:
    """Worker initializer: Ctrl-C goes to the parent, which stops the workers."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def stop_pool(pool: ProcessPoolExecutor, futures: Sequence[Future[Any]]) -> None:
    """Cancel the queued jobs, let the running ones finish, then end the pool.

    Waiting for a running job is the prompt stop when jobs are short. Killing a worker
    instead can leave the pool's result pipe holding half a message, and then the
    executor's manager thread (which the interpreter joins at exit) waits for the rest
    forever. Only a worker still busy after :data:`STOP_GRACE_SECONDS` is terminated.
    """
    for future in futures:
        future.cancel()  # false for the jobs already handed to a worker
    _, late = wait([f for f in futures if not f.cancelled()], timeout=STOP_GRACE_SECONDS)
    if not late:
        pool.shutdown(wait=True, cancel_futures=True)  # joins the manager thread cleanly
        return
    # ProcessPoolExecutor has no public way to end running workers before Python 3.14
    # (terminate_workers); its process table is the documented-by-use fallback.
    processes = list((getattr(pool, "_processes", None) or {}).values())
    pool.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        with contextlib.suppress(Exception):
            process.terminate()
    for process in processes:
        with contextlib.suppress(Exception):
            process.join(timeout=2)


__all__ = ["STOP_GRACE_SECONDS", "ordered_map", "stop_pool"]
