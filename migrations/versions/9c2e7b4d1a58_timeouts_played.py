"""Each deadline the sweeper acts on is recorded with its lateness (the "resolved on time" figure).

Revision ID: 9c2e7b4d1a58
Revises: 7e2b4d9c1a58
Create Date: 2026-12-02 03:00:00.000000
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "9c2e7b4d1a58"
down_revision: str | None = "7e2b4d9c1a58"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "timeouts_played",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("deadline_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("played_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("late_seconds", sa.Float(), nullable=False),
        sa.ForeignKeyConstraint(
            ["game_id"], ["games.id"], name=op.f("fk_timeouts_played_game_id_games"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_timeouts_played")),
    )
    with op.batch_alter_table("timeouts_played", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_timeouts_played_game_id"), ["game_id"], unique=False)
        batch_op.create_index("ix_timeouts_played_played_at", ["played_at"], unique=False)


def downgrade() -> None:
    with op.batch_alter_table("timeouts_played", schema=None) as batch_op:
        batch_op.drop_index("ix_timeouts_played_played_at")
        batch_op.drop_index(batch_op.f("ix_timeouts_played_game_id"))
    op.drop_table("timeouts_played")
