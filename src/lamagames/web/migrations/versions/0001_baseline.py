"""Baseline: the web store's schema as it was when migrations began (issue 16).

Brings any database made before migrations to it, in place: a fresh database gets the four
tables; a database of an older release keeps its tables and rows and gets what it lacks
(the ``bot_pace`` and ``hints`` columns of ``tables``, the ``retired_tokens`` table), as
the hand-written ``ALTER TABLE`` of the store did before. The definitions are frozen here:
later schema changes are later revisions, never edits of this one.

Revision ID: 0001_baseline
Revises:
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0001_baseline"
down_revision: str | None = None
branch_labels: str | None = None
depends_on: str | None = None


def _create_tables() -> None:
    op.create_table(
        "tables",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("code", sa.String(16), nullable=False),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("params", sa.JSON(), nullable=False),
        sa.Column("seed", sa.BigInteger(), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("host_token", sa.String(64), nullable=False),
        sa.Column("public", sa.Boolean(), nullable=False),
        sa.Column("turn_clock", sa.Float(), nullable=True),
        sa.Column("away_timeout", sa.Float(), nullable=False),
        sa.Column("alertness", sa.Float(), nullable=True),
        sa.Column("bot_pace", sa.String(8), server_default="normal", nullable=False),
        sa.Column("hints", sa.Boolean(), server_default=sa.true(), nullable=False),
        sa.Column("rematch_of", sa.String(16), nullable=True),
        sa.Column("rematch", sa.String(16), nullable=True),
        sa.Column("created", sa.String(32), nullable=False),
        sa.Column("updated", sa.String(32), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_tables_code", "tables", ["code"], unique=True)
    op.create_index("ix_tables_status", "tables", ["status"])


def _create_seats() -> None:
    op.create_table(
        "seats",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("table_id", sa.Integer(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("bot_kind", sa.String(32), nullable=True),
        sa.Column("token", sa.String(64), nullable=True),
        sa.Column("joined", sa.Boolean(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("table_id", "seat"),
        sa.ForeignKeyConstraint(["table_id"], ["tables.id"]),
        sa.UniqueConstraint("token"),
    )
    op.create_index("ix_seats_table_id", "seats", ["table_id"])


def _create_retired_tokens() -> None:
    op.create_table(
        "retired_tokens",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("table_id", sa.Integer(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("token", sa.String(64), nullable=False),
        sa.PrimaryKeyConstraint("id"),
        sa.ForeignKeyConstraint(["table_id"], ["tables.id"]),
        sa.UniqueConstraint("token"),
    )
    op.create_index("ix_retired_tokens_table_id", "retired_tokens", ["table_id"])


def _create_actions() -> None:
    op.create_table(
        "actions",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("table_id", sa.Integer(), nullable=False),
        sa.Column("idx", sa.Integer(), nullable=False),
        sa.Column("player", sa.Integer(), nullable=False),
        sa.Column("notation", sa.String(200), nullable=False),
        sa.Column("by", sa.String(16), nullable=False),
        sa.Column("created", sa.String(32), nullable=False),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("table_id", "idx"),
        sa.ForeignKeyConstraint(["table_id"], ["tables.id"]),
    )
    op.create_index("ix_actions_table_id", "actions", ["table_id"])


def _late_columns() -> list[sa.Column[object]]:
    """Columns of ``tables`` added by releases before migrations (older databases lack
    them)."""
    return [
        sa.Column("bot_pace", sa.String(8), server_default="normal", nullable=False),
        sa.Column("hints", sa.Boolean(), server_default=sa.true(), nullable=False),
    ]


def upgrade() -> None:
    existing = set(sa.inspect(op.get_bind()).get_table_names())
    if "tables" in existing:
        columns = {c["name"] for c in sa.inspect(op.get_bind()).get_columns("tables")}
        for column in _late_columns():
            if column.name not in columns:
                op.add_column("tables", column)
    else:
        _create_tables()
    for name, create in (
        ("seats", _create_seats),
        ("retired_tokens", _create_retired_tokens),
        ("actions", _create_actions),
    ):
        if name not in existing:
            create()


def downgrade() -> None:
    for name in ("actions", "retired_tokens", "seats", "tables"):
        op.drop_table(name)
