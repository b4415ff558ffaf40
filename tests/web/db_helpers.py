"""Database helpers of the web tests: a fresh SQLite file or PostgreSQL schema per test, and
injected database faults.

PostgreSQL runs when ``LAMA_TEST_POSTGRES_URL`` names a server (``.ci/run`` starts Debian's
postgresql and sets it, e.g. ``postgresql+psycopg://lama:lama@127.0.0.1:5432/lamagames``).
Without it the PostgreSQL variants are skipped; with it set but unusable they fail.
"""

from __future__ import annotations

import os
import secrets
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
from sqlalchemy import create_engine, event, text
from sqlalchemy.engine import Engine

from lamagames.web.store import Store, normalise_url

#: Environment variable naming the PostgreSQL server of the tests.
POSTGRES_ENV = "LAMA_TEST_POSTGRES_URL"
#: The databases of the ``db_url`` fixture; the PostgreSQL one is marked ``postgres``
#: (left out at collection where no server is configured: see tests/web/conftest.py).
BACKENDS = ["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)]


def postgres_base_url() -> str:
    """The server URL from :data:`POSTGRES_ENV`; unset, the test fails (tests that need it
    carry the ``postgres`` mark, and outside CI they are left out at collection when it is
    unset: tests/web/conftest.py; in CI, where .ci/run starts PostgreSQL, they always run)."""
    url = os.environ.get(POSTGRES_ENV, "").strip()
    if not url:
        pytest.fail(f"no PostgreSQL server ({POSTGRES_ENV} is not set)")
    return normalise_url(url)


@contextmanager
def postgres_schema(base: str) -> Iterator[str]:
    """A fresh, empty schema on the server of ``base``; yields a URL whose connections use
    it (``search_path``), drops it afterwards. Fails (not skips) when the server cannot be
    used: a set URL must work."""
    schema = f"lama_test_{secrets.token_hex(6)}"
    admin = create_engine(base, isolation_level="AUTOCOMMIT", pool_pre_ping=True)
    try:
        with admin.connect() as conn:
            conn.execute(text(f'CREATE SCHEMA "{schema}"'))
    except Exception as exc:
        admin.dispose()
        pytest.fail(f"{POSTGRES_ENV} is set but PostgreSQL is not usable: {exc}")
    joiner = "&" if "?" in base else "?"
    try:
        # the connections of this schema carry its name, so the drop can end any left over
        yield (
            f"{base}{joiner}options={quote(f'-csearch_path={schema}')}&application_name={schema}"
        )
    finally:
        with admin.connect() as conn:
            # a connection still open here (a server process the test killed, a pool not
            # yet collected) would block the drop or deadlock with it: end them first
            conn.execute(
                text(
                    "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                    "WHERE application_name = :schema AND pid <> pg_backend_pid()"
                ),
                {"schema": schema},
            )
            conn.execute(text(f'DROP SCHEMA "{schema}" CASCADE'))
        admin.dispose()


@contextmanager
def database_url(backend: str, folder: Path) -> Iterator[str]:
    """A URL of a fresh database: an SQLite file in ``folder`` or a PostgreSQL schema."""
    if backend == "sqlite":
        yield f"sqlite:///{folder / 'web.sqlite3'}"
        return
    with postgres_schema(postgres_base_url()) as url:
        yield url


def terminate_other_connections(url: str) -> int:
    """Close every other server connection of this database user, as a PostgreSQL restart
    does (the pooled connections of the app die). Returns how many were closed."""
    engine = create_engine(url, isolation_level="AUTOCOMMIT")
    try:
        with engine.connect() as conn:
            rows = conn.execute(
                text(
                    "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                    "WHERE usename = current_user AND pid <> pg_backend_pid() "
                    "AND datname = current_database()"
                )
            ).all()
        return len(rows)
    finally:
        engine.dispose()


class Faults:
    """Make the next ``count`` statements that contain ``prefix`` fail with a transient
    error, as a locked SQLite file or a restarting server does (the driver's own
    ``OperationalError``, which SQLAlchemy wraps).

    ``engine`` is an engine or a :class:`~lamagames.web.store.Store`. Given a store, the
    group commit's attempt from the event loop on PostgreSQL (its own asyncio connection,
    outside the engine: :meth:`Store.append_batch_now_async
    <lamagames.web.store.Store.append_batch_now_async>`) fails too while faults are armed
    for its statements (one fault per attempt, as a failed insert there would be).
    """

    def __init__(self, engine: Engine | Store, prefix: str = "INSERT INTO actions") -> None:
        self.store = engine if isinstance(engine, Store) else None
        self.engine = engine.engine if isinstance(engine, Store) else engine
        self.prefix = prefix
        self.only: str | None = None
        self.left = 0
        self.raised = 0
        event.listen(self.engine, "before_cursor_execute", self._before)
        self._original: Any = None
        if self.store is not None and not self.store.url.startswith("sqlite"):
            store = self.store
            self._original = original = store.append_batch_now_async

            async def attempt(items: list[Any]) -> bool:
                statements = [sql for sql, _params in store._batch_statements_for(items)]
                if self._armed(statements, items):
                    return False  # the attempt gave way, nothing stored
                return await original(items)

            store.append_batch_now_async = attempt  # type: ignore[method-assign]

    def _armed(self, statements: list[str], parameters: Any) -> bool:
        """Consume one fault if one is armed for any of ``statements``."""
        if self.only is not None and self.only not in repr(parameters):
            return False
        if self.left > 0 and any(
            self.prefix.upper() in sql.upper() for sql in statements
        ):
            self.left -= 1
            self.raised += 1
            return True
        return False

    def fail_next(self, count: int, only: str | None = None) -> None:
        """Arm ``count`` failures (``only``: of statements with that parameter value)."""
        self.left = count
        self.only = only

    def _before(
        self, conn: Any, _cursor: Any, statement: str, parameters: Any, *_args: Any
    ) -> None:
        if self._armed([statement], parameters):
            module = conn.dialect.dbapi
            raise module.OperationalError("database is locked (injected by the test)")

    def remove(self) -> None:
        """Stop injecting."""
        event.remove(self.engine, "before_cursor_execute", self._before)
        if self._original is not None and self.store is not None:
            self.store.append_batch_now_async = self._original  # type: ignore[method-assign]
            self._original = None
