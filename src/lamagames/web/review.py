"""Game reviews of finished tables (issue 18): computed once in the background, stored.

A review is :func:`lamagames.coach.review.review_record` run on a finished table's game
(read through :meth:`Store.load <lamagames.web.store.Store.load>`), in a worker thread of
a small :class:`~concurrent.futures.ThreadPoolExecutor` so the event loop keeps serving the
tables. While it runs, its progress (actions replayed of the record's actions) is kept in
memory; when it is done, its JSON is stored in the ``reviews`` table (one row per reviewed
table, :class:`ReviewRow`), so every later request, from any seat or spectator, reads it
instead of computing it again.

The web result is the library's ``Review.to_json()`` plus ``title``, ``level_label``,
``names`` (one per seat), ``rollouts`` and, for every **marked** decision, the position for
"Learn from your mistakes": ``view`` (the deciding seat's view of the position before the
action, as the table showed it to that seat) and ``legal`` (the notations of its legal
actions there). A finished game hides nothing any more (its record has every action).

Schema: ``reviews(table_id INTEGER PRIMARY KEY REFERENCES tables(id) ON DELETE CASCADE,
rollouts INTEGER NULL, result JSON NOT NULL, created VARCHAR(32) NOT NULL)``, the model
:class:`~lamagames.web.store.ReviewRow`, made by the Alembic revision ``0002_reviews``.
"""

from __future__ import annotations

import logging
import threading
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Final, Literal

from sqlalchemy import insert, select
from sqlalchemy.exc import DBAPIError, IntegrityError

from lamagames.coach.review import load_reviewer, review_record
from lamagames.core.errors import LamaError
from lamagames.core.records import GameRecord, RecordedAction, SeatInfo, iter_replay
from lamagames.web.adapters import get_adapter
from lamagames.web.engine import TableError
from lamagames.web.limits import KeyedRateLimit, RateLimited
from lamagames.web.live import default_seat_name
from lamagames.web.schemas import echo
from lamagames.web.store import ReviewRow, Store, StoreUnavailable, TableData, is_transient

log = logging.getLogger("lamagames.web")

#: A review's state for clients: not asked for yet, being computed, stored, or failed.
ReviewStatus = Literal["none", "running", "done", "failed"]

#: Said when a review of an unfinished table is asked for (409 ``not_finished``).
NOT_FINISHED: Final = "the review opens when the game is over"


@dataclass
class ReviewSettings:
    """Knobs of the review service.

    Attributes:
        rollouts: simulations per action where values are estimated (``None``: the
            game's reviewer's default); a request may ask for fewer or more, up to
            ``max_rollouts``.
        max_rollouts: the most rollouts a request may ask for (larger asks are cut to it).
        workers: reviews computed at once (threads); more wait in line.
        starts_per_minute: review requests (POST) one client address may make a minute,
            after ``starts_burst`` at once; more are refused 429 ``rate_limited``; ``0``:
            no limit.
        starts_burst: POSTs one client address may make at once.
    """

    rollouts: int | None = None
    max_rollouts: int = 512
    workers: int = 1
    starts_per_minute: float = 6.0
    starts_burst: int = 6


@dataclass
class _Job:
    done: int = 0
    total: int = 0
    error: str | None = None
    result: dict[str, Any] | None = None


def table_record(data: TableData) -> GameRecord:
    """The game record of a stored table (seat names as the table shows them in English,
    seed only once finished), built from :meth:`Store.load`'s data.

    Raises:
        LamaError: the game or its parameters are unknown (a corrupt row).
    """
    adapter = get_adapter(data.game)
    game = adapter.make_game(data.params, len(data.seats))
    seats = [
        SeatInfo(
            name=s.name or default_seat_name(s.seat, s.bot_kind if s.kind == "bot" else None),
            kind=(s.bot_kind or "bot") if s.kind == "bot" else "human",
        )
        for s in data.seats
    ]
    return GameRecord(
        game=data.game,
        params=dict(game.params),
        seed=data.seed if data.status == "finished" else None,
        seats=seats,
        actions=[RecordedAction(player=a.player, action=a.notation) for a in data.actions],
    )


def review_json(
    data: TableData,
    *,
    rollouts: int | None,
    progress: Any = None,
) -> dict[str, Any]:
    """Review a finished table's game: the web result (see the module docstring).

    Args:
        data: the table as :meth:`Store.load` gives it.
        rollouts: simulations per action where values are estimated (``None``: default).
        progress: called with ``(done, total)`` actions as the review goes.

    Raises:
        LamaError: the game has no reviews on this server, or the stored actions do not
            replay (one line, shown to the client).
    """
    record = table_record(data)
    review = review_record(record, seed=data.seed, rollouts=rollouts, progress=progress)
    adapter = get_adapter(data.game)
    states = list(iter_replay(record))
    result = review.to_json()
    for decision in result["decisions"]:
        if decision["mark"] is None:
            continue
        state = states[decision["index"]]
        seat = decision["seat"]
        decision["view"] = adapter.view(state, seat)
        decision["legal"] = [state.action_to_string(a, seat) for a in state.legal_actions(seat)]
    result.update(
        title=review.title,
        level_label=review.level_label,
        names=review.names,
        rollouts=rollouts,
    )
    return result


class ReviewService:
    """Reviews of finished tables: start, progress, stored result (one per app).

    Args:
        store: the app's store (its engine holds the ``reviews`` table, made here).
        settings: see :class:`ReviewSettings`.

    Attributes:
        computed: how many reviews this process has started computing (tests: a stored
            review is never computed again).
    """

    def __init__(self, store: Store, settings: ReviewSettings | None = None) -> None:
        self.store = store
        self.settings = settings or ReviewSettings()
        self.limit = KeyedRateLimit(self.settings.starts_per_minute, self.settings.starts_burst)
        self.computed = 0
        self._jobs: dict[int, _Job] = {}
        self._saved: set[int] = set()  # ids of tables whose review this process stored
        self._lock = threading.Lock()
        self._executor: ThreadPoolExecutor | None = None

    def _pool(self) -> ThreadPoolExecutor:
        """The worker threads, made at the first review (again after :meth:`shutdown`, when
        the app starts once more)."""
        if self._executor is None:
            self._executor = ThreadPoolExecutor(
                max_workers=max(1, self.settings.workers), thread_name_prefix="lama-review"
            )
        return self._executor

    def shutdown(self) -> None:
        """Stop taking reviews; running ones finish in their threads (not waited for)."""
        if self._executor is not None:
            self._executor.shutdown(wait=False, cancel_futures=True)
            self._executor = None

    # ------------------------------------------------------------------ database
    def _stored(self, table_id: int) -> dict[str, Any] | None:
        try:
            with self.store.engine.connect() as connection:
                found = connection.execute(
                    select(ReviewRow.result).where(ReviewRow.table_id == table_id)
                ).scalar_one_or_none()
        except DBAPIError as exc:
            if is_transient(exc):
                raise StoreUnavailable(f"reading a review: {exc.orig or exc}") from exc
            raise
        return None if found is None else dict(found)

    def _save(self, table_id: int, rollouts: int | None, result: dict[str, Any]) -> None:
        row = {
            "table_id": table_id,
            "rollouts": rollouts,
            "result": result,
            "created": datetime.now(UTC).isoformat(timespec="seconds"),
        }
        try:
            with self.store.engine.begin() as connection:
                connection.execute(insert(ReviewRow).values(**row))
        except IntegrityError:  # another process stored the same review first: keep that one
            log.info("review of table %d was already stored", table_id)

    # ------------------------------------------------------------------ work
    def _run(self, data: TableData, rollouts: int | None, job: _Job) -> None:
        def progress(done: int, total: int) -> None:
            job.done, job.total = done, total

        try:
            result = review_json(data, rollouts=rollouts, progress=progress)
        except LamaError as exc:
            job.error = str(exc)
            return
        except Exception:  # a bug must not leave the review "running" forever
            log.exception("review of table %s failed", data.code)
            job.error = "the review could not be computed"
            return
        # Stored first, then announced: a client told "done" finds the review stored (a
        # test raced the insert when "done" came first, and the server could stop between).
        if self.store.closing:  # the server stopped meanwhile: its connections are gone
            job.result = result
            return
        try:
            self._save(data.id, rollouts, result)
        except Exception:  # kept in memory; stored by a later attempt of another process
            log.exception("review of table %s could not be stored", data.code)
            job.result = result
            return
        job.result = result
        with self._lock:
            self._saved.add(data.id)
            self._jobs.pop(data.id, None)

    # ------------------------------------------------------------------ API
    async def _finished(self, code: str) -> TableData:
        data = await self.store.call(self.store.load, code)
        if data is None:
            raise TableError("not_found", f"no table with code {echo(code)}", 404)
        if data.status != "finished":
            raise TableError("not_finished", NOT_FINISHED, 409)
        return data

    def _answer(self, stored: dict[str, Any] | None, job: _Job | None) -> dict[str, Any]:
        if stored is not None:
            return {"status": "done", "progress": 1.0, "result": stored}
        if job is None:
            return {"status": "none", "progress": 0.0, "result": None}
        if job.result is not None:
            return {"status": "done", "progress": 1.0, "result": job.result}
        if job.error is not None:
            return {"status": "failed", "progress": 0.0, "result": None, "message": job.error}
        share = job.done / job.total if job.total else 0.0
        return {"status": "running", "progress": share, "result": None}

    async def status(self, code: str) -> dict[str, Any]:
        """The review of table ``code``: ``{"status", "progress" (0..1), "result"}``
        (``status``: ``none``, ``running``, ``done`` with the result, or ``failed`` with a
        ``message``).

        Raises:
            TableError: no such table (404), the game is not over (409 ``not_finished``).
            StoreUnavailable: the database did not answer.
        """
        data = await self._finished(code)
        # The job first, then the store: a job leaves ``_jobs`` only after its row is
        # committed, so in this order a review finishing in between is found in the store
        # (read the other way round, it was in neither: "none" while it was done).
        with self._lock:
            job = self._jobs.get(data.id)
        stored = await self.store.call(self._stored, data.id)
        return self._answer(stored, job)

    async def start(self, code: str, client: str, rollouts: int | None) -> dict[str, Any]:
        """Start reviewing table ``code`` unless it is stored or running (then its state,
        as :meth:`status`); a failed review is tried again.

        Args:
            client: the client's address (rate limit key).
            rollouts: simulations per action (``None``: the settings'); cut to
                ``max_rollouts``.

        Raises:
            RateLimited: the client asked too often.
            TableError: no such table (404), the game is not over (409), the game has no
                reviews on this server (400 ``no_review``).
            StoreUnavailable: the database did not answer.
        """
        wait = self.limit.take(client)
        if wait > 0:
            raise RateLimited("too many review requests from this address; wait a little", wait)
        data = await self._finished(code)
        stored = await self.store.call(self._stored, data.id)
        if stored is not None:
            return self._answer(stored, None)
        try:
            load_reviewer(data.game)
        except LamaError as exc:
            raise TableError("no_review", str(exc)) from None
        wanted = self.settings.rollouts if rollouts is None else rollouts
        if wanted is not None:
            wanted = max(1, min(wanted, self.settings.max_rollouts))
        with self._lock:
            saved = data.id in self._saved  # stored since it was read above
            job = self._jobs.get(data.id)
            if not saved and (job is None or job.error is not None):
                job = self._jobs[data.id] = _Job(total=len(data.actions))
                self.computed += 1
                self._pool().submit(self._run, data, wanted, job)
        if saved:
            return self._answer(await self.store.call(self._stored, data.id), None)
        return self._answer(None, job)
