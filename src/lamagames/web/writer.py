"""Group commit: the applied actions of all tables, written in shared transactions.

One transaction (and one fsync) per action limited a server to a few hundred actions per
second. :class:`GroupWriter` collects the actions that tables hand it while the previous
batch is being committed (plus an optional ``window`` of a few milliseconds), writes them
in one transaction (:meth:`~lamagames.web.store.Store.append_batch`) and only then
resolves each caller's wait, so an action is still acknowledged only after its own commit
(the kill -9 guarantee of issue 8 holds). If a batch fails (one action conflicts with a
stored one, or some other row error), the actions are written again one by one
(:meth:`~lamagames.web.store.Store.append_action`), so one bad action fails alone and its
neighbours are stored. When the database does not answer at all
(:class:`~lamagames.web.store.StoreUnavailable`), every action of the batch fails with it
(nothing was stored; the tables try again later).
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass

from lamagames.web.store import ActionData, Store, StoreUnavailable

__all__ = ["GroupWriter"]

log = logging.getLogger("lamagames.web")


@dataclass(slots=True)
class _Pending:
    table_id: int
    action: ActionData
    status: str | None
    done: asyncio.Future[None]


class GroupWriter:
    """Batches the applied actions of all tables into shared transactions.

    Args:
        store: the storage.
        window: seconds to wait for more actions after the first of a batch arrives
            (``0``: only what arrived while the previous batch was committing).
        max_batch: most actions per transaction.
    """

    def __init__(self, store: Store, *, window: float = 0.0, max_batch: int = 512) -> None:
        self.store = store
        self.window = window
        self.max_batch = max_batch
        self._queue: list[_Pending] = []
        self._wake: asyncio.Event | None = None
        self._task: asyncio.Task[None] | None = None
        #: Transactions committed and actions written (benchmarks and tests read them).
        self.batches = 0
        self.actions = 0
        #: Batches committed from the event loop itself, no worker thread
        #: (:meth:`Store.append_batch_now_async
        #: <lamagames.web.store.Store.append_batch_now_async>`).
        self.batches_now = 0

    async def append(self, table_id: int, action: ActionData, status: str | None = None) -> None:
        """Store one applied action (and optionally the table's new status); returns once
        its transaction committed.

        Raises:
            sqlalchemy.exc.IntegrityError: another action with that index is stored.
            StoreUnavailable: the database did not answer (nothing stored).
        """
        loop = asyncio.get_running_loop()
        pending = _Pending(table_id, action, status, loop.create_future())
        self._queue.append(pending)
        if self._wake is None:
            self._wake = asyncio.Event()
        self._wake.set()
        if self._task is None or self._task.done():
            self._task = asyncio.create_task(self._run())
        await pending.done

    async def _run(self) -> None:
        wake = self._wake
        assert wake is not None
        while True:
            await wake.wait()
            wake.clear()
            if self.window > 0:
                await asyncio.sleep(self.window)
            while self._queue:
                batch = self._queue[: self.max_batch]
                del self._queue[: self.max_batch]
                await self._write(batch)

    async def _write(self, batch: list[_Pending]) -> None:
        store = self.store
        items = [(p.table_id, p.action, p.status) for p in batch]
        try:
            if await store.append_batch_now_async(items):
                self.batches_now += 1
            else:
                await store.call(store.append_batch, items)
        except StoreUnavailable as exc:
            for pending in batch:
                _fail(pending, exc)
            return
        except Exception as exc:  # one row failed the batch: each on its own
            if len(batch) > 1:
                log.info("group commit of %d actions failed (%s); one by one", len(batch), exc)
            await self._one_by_one(batch, first=exc)
            return
        # Committed: wake the callers, the people's actions first (``by == "human"``), the
        # rest (bots, chance, clocks: paced anyway, nobody waits for their acknowledgement)
        # one event-loop step later, so the people's acknowledgements and states are queued,
        # and their senders run, before the bots' and chance outcomes' next steps. Woken in
        # batch order, a person's acknowledgement waited behind every table of the batch
        # (issue 16).
        self.batches += 1
        self.actions += len(batch)
        later = []
        for pending in batch:
            if pending.action.by == "human":
                _succeed(pending)
            else:
                later.append(pending)
        if later:
            asyncio.get_running_loop().call_soon(_succeed_all, later)

    async def _one_by_one(self, batch: list[_Pending], first: Exception) -> None:
        store = self.store
        if len(batch) == 1:  # nothing to separate: the batch's own error is the answer
            pending = batch[0]
            try:  # unless an earlier attempt of the batch did store it (answer lost)
                stored = await store.call(store.stored, pending.table_id, pending.action)
            except Exception:
                stored = False
            if stored:
                self._count(pending)
            else:
                _fail(pending, first)
            return
        for pending in batch:
            try:
                await store.call(
                    store.append_action,
                    pending.table_id,
                    pending.action,
                    status=pending.status,
                    maybe_stored=True,
                )
            except Exception as exc:
                _fail(pending, exc)
                continue
            self._count(pending)

    def _count(self, pending: _Pending) -> None:
        self.batches += 1
        self.actions += 1
        if not pending.done.done():
            pending.done.set_result(None)

    def close(self) -> None:
        """Stop the writer task (server shutdown); waiting callers are cancelled."""
        if self._task is not None:
            self._task.cancel()
        for pending in self._queue:
            pending.done.cancel()
        self._queue.clear()


def _succeed(pending: _Pending) -> None:
    if not pending.done.done():
        pending.done.set_result(None)


def _succeed_all(batch: list[_Pending]) -> None:
    for pending in batch:
        _succeed(pending)


def _fail(pending: _Pending, exc: BaseException) -> None:
    if not pending.done.done():
        pending.done.set_exception(exc)
