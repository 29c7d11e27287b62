"""A creator's friends are invited into a game, and seated only once they accept.

Revision ID: 5d1f0c2a9e47
Revises: 8a4f2c6e1d37
Create Date: 2026-12-02 00:20:00.000000
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "5d1f0c2a9e47"
down_revision: str | None = "8a4f2c6e1d37"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "game_invitations",
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("invited_by", sa.Integer(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["game_id"], ["games.id"], name=op.f("fk_game_invitations_game_id_games"), ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(
            ["user_id"], ["users.id"], name=op.f("fk_game_invitations_user_id_users"), ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(
            ["invited_by"],
            ["users.id"],
            name=op.f("fk_game_invitations_invited_by_users"),
            ondelete="SET NULL",
        ),
        sa.PrimaryKeyConstraint("game_id", "user_id", name=op.f("pk_game_invitations")),
    )
    with op.batch_alter_table("game_invitations", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_game_invitations_user_id"), ["user_id"], unique=False)


def downgrade() -> None:
    with op.batch_alter_table("game_invitations", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_game_invitations_user_id"))
    op.drop_table("game_invitations")
