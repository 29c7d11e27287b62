"""A new e-mail address waits for its check before it replaces the account's address.

Revision ID: 051c62322264
Revises: 19fe4e0050a3
Create Date: 2026-11-30 15:30:00.000000
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "051c62322264"
down_revision: str | None = "19fe4e0050a3"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("users") as batch:
        batch.add_column(sa.Column("pending_email", sa.String(length=254), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("users") as batch:
        batch.drop_column("pending_email")
