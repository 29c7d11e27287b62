"""Bots at the table: a game's bot seats, whether a bot keeps an open seat, and the waits a bot answers.

Revision ID: e4b8d2a6c913
Revises: a1c9e3f5b7d2
Create Date: 2026-12-07 22:05:00.000000
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "e4b8d2a6c913"
down_revision: str | None = "a1c9e3f5b7d2"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("bot_seats", sa.Integer(), server_default="0", nullable=False))
        batch.add_column(sa.Column("bots_keep_seats", sa.Boolean(), server_default="0", nullable=False))
    with op.batch_alter_table("waits") as batch:
        batch.add_column(sa.Column("bot", sa.Boolean(), server_default="0", nullable=False))


def downgrade() -> None:
    with op.batch_alter_table("waits") as batch:
        batch.drop_column("bot")
    with op.batch_alter_table("games") as batch:
        batch.drop_column("bots_keep_seats")
        batch.drop_column("bot_seats")
