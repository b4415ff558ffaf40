"""Alembic environment of the web store: runs on the connection :func:`upgrade` passes in
(``config.attributes["connection"]``), or on ``sqlalchemy.url`` / ``LAMA_DB`` when run by
the ``alembic`` command."""

from __future__ import annotations

import os

from alembic import context
from sqlalchemy import create_engine

from lamagames.web.store import Base, default_db_url, normalise_url

config = context.config


def run(connection: object) -> None:
    context.configure(
        connection=connection,  # type: ignore[arg-type]
        target_metadata=Base.metadata,
        render_as_batch=True,  # SQLite alters tables by copying them
        compare_type=True,
    )
    with context.begin_transaction():
        context.run_migrations()


given = config.attributes.get("connection")
if given is not None:
    run(given)
else:  # the alembic command line
    url = config.get_main_option("sqlalchemy.url") or os.environ.get("LAMA_DB")
    engine = create_engine(normalise_url(url or default_db_url()))
    with engine.begin() as connection:
        run(connection)
    engine.dispose()
