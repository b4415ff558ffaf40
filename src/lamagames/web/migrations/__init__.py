"""Alembic migrations of the web store's schema, shipped inside the package.

:func:`upgrade` brings any database to the newest schema (``Store`` calls it on start, so a
pip-installed ``lama serve`` migrates by itself): a fresh database gets every table, and a
database made before migrations existed (no ``alembic_version`` table; today's ``main`` or
older, without the ``bot_pace``/``hints`` columns) is brought to the baseline in place,
keeping its rows. New schema changes are new revisions in ``versions/``::

    alembic -c src/lamagames/web/migrations/alembic.ini revision -m "what changed"

(``alembic.ini`` points at this folder; set ``sqlalchemy.url`` or ``LAMA_DB`` for
``--autogenerate``). A test compares the migrated schema with the models
(:class:`lamagames.web.store.Base`), so a model change without a revision fails.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from types import ModuleType
from typing import Final

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from sqlalchemy import text
from sqlalchemy.engine import Engine

fcntl: ModuleType | None
try:
    import fcntl
except ImportError:  # pragma: no cover - Windows: no file lock (start one process at a time)
    fcntl = None

#: The folder of ``env.py`` and ``versions/``.
MIGRATIONS_DIR: Final = Path(__file__).resolve().parent

#: PostgreSQL advisory lock key held while migrating, so that processes starting together
#: on one database migrate one after another ("lama" in ASCII).
LOCK_KEY: Final = 0x6C616D61


def alembic_config() -> Config:
    """An :class:`alembic.config.Config` for this folder (no ``alembic.ini`` needed)."""
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS_DIR))
    return config


def upgrade(engine: Engine, revision: str = "head") -> None:
    """Migrate the database of ``engine`` to ``revision`` in one transaction, one process
    at a time: on PostgreSQL under an advisory lock, on an SQLite file under an exclusive
    lock of the file ``<database>.migrate-lock`` beside it (SQLite's own DDL is not
    transactional under Python's driver); concurrent starts wait for each other and find
    the schema made.

    Raises:
        sqlalchemy.exc.SQLAlchemyError: the database refused a statement (nothing of the
            migration is kept on PostgreSQL, whose DDL is transactional).
    """
    config = alembic_config()
    with _sqlite_file_lock(engine), engine.begin() as connection:
        if connection.dialect.name == "postgresql":
            connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": LOCK_KEY})
        config.attributes["connection"] = connection
        command.upgrade(config, revision)


@contextmanager
def _sqlite_file_lock(engine: Engine) -> Iterator[None]:
    """Hold an exclusive ``flock`` on ``<database>.migrate-lock`` (SQLite files on systems
    with ``fcntl``; nothing for in-memory databases and other servers)."""
    database = engine.url.database
    if engine.dialect.name != "sqlite" or not database or database == ":memory:" or not fcntl:
        yield
        return
    path = Path(database)
    with open(path.with_name(path.name + ".migrate-lock"), "a") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def current_revision(engine: Engine) -> str | None:
    """The revision the database is at (``None``: not under migrations yet)."""
    with engine.connect() as connection:
        return MigrationContext.configure(connection).get_current_revision()
