"""Alembic revisions of the web store, oldest first (``0001_baseline`` is the schema of
the last release without migrations)."""
