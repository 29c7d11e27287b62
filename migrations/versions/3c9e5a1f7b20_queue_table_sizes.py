"""A queued player may say the table sizes they accept; the queue makes games of the size its players accept.

Revision ID: 3c9e5a1f7b20
Revises: 5d1f0c2a9e47
Create Date: 2026-12-02 03:30:00.000000
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "3c9e5a1f7b20"
down_revision: str | None = "5d1f0c2a9e47"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("queue_entries", schema=None) as batch_op:
        batch_op.add_column(sa.Column("min_players", sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column("max_players", sa.Integer(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("queue_entries", schema=None) as batch_op:
        batch_op.drop_column("max_players")
        batch_op.drop_column("min_players")
