"""Two indexes off the hot path: a game's notifications (deleting a game) and a seat's timeouts (records).

Revision ID: 3e9b7c1d2a58
Revises: 9c2e7b4d1a58
Create Date: 2026-12-02 03:00:00.000000
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "3e9b7c1d2a58"
down_revision: str | None = "9c2e7b4d1a58"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

TIMEOUTS_ONLY = sa.text("origin = 'timeout'")


def upgrade() -> None:
    with op.batch_alter_table("notifications", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_notifications_game_id"), ["game_id"], unique=False)
    with op.batch_alter_table("game_orders", schema=None) as batch_op:
        batch_op.create_index(
            "ix_game_orders_timeouts",
            ["game_id", "seat", "created_at"],
            unique=False,
            postgresql_where=TIMEOUTS_ONLY,
            sqlite_where=TIMEOUTS_ONLY,
        )


def downgrade() -> None:
    with op.batch_alter_table("game_orders", schema=None) as batch_op:
        batch_op.drop_index("ix_game_orders_timeouts")
    with op.batch_alter_table("notifications", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_notifications_game_id"))
