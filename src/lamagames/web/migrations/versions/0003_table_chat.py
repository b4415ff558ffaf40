"""The host's chat switch (issue 19): the ``chat`` column of ``tables``.

Off for every existing table (and by default): seated players may send quick reactions
at any table, short chat lines only where the host turned chat on.

Revision ID: 0003_table_chat
Revises: 0002_reviews
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0003_table_chat"
down_revision: str | None = "0002_reviews"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    """Add ``tables.chat`` (false); a database that has it already is left as it is."""
    columns = {c["name"] for c in sa.inspect(op.get_bind()).get_columns("tables")}
    if "chat" in columns:
        return
    op.add_column(
        "tables",
        sa.Column("chat", sa.Boolean(), nullable=False, server_default=sa.false()),
    )


def downgrade() -> None:
    """Drop ``tables.chat``."""
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("chat")
