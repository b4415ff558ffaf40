"""Game reviews of finished tables (issue 18): the ``reviews`` table.

One row per reviewed table: the review's JSON, computed once by
:class:`lamagames.web.review.ReviewService` and read by every later request.

Revision ID: 0002_reviews
Revises: 0001_baseline
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0002_reviews"
down_revision: str | None = "0001_baseline"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    """Create ``reviews`` (a database that has it already, from a development build that
    made it with ``create_all``, is left as it is)."""
    if sa.inspect(op.get_bind()).has_table("reviews"):
        return
    op.create_table(
        "reviews",
        sa.Column("table_id", sa.Integer(), nullable=False),
        sa.Column("rollouts", sa.Integer(), nullable=True),
        sa.Column("result", sa.JSON(), nullable=False),
        sa.Column("created", sa.String(32), nullable=False),
        sa.PrimaryKeyConstraint("table_id"),
        sa.ForeignKeyConstraint(["table_id"], ["tables.id"], ondelete="CASCADE"),
    )


def downgrade() -> None:
    """Drop ``reviews``."""
    op.drop_table("reviews")
