"""A trade market remembers when the clock told the rules that its embargo was over.

Revision ID: b7e4c2a9d315
Revises: 3e9b7c1d2a58
Create Date: 2026-12-02 08:00:00.000000
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "b7e4c2a9d315"
down_revision: str | None = "3e9b7c1d2a58"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("market_windows", schema=None) as batch_op:
        batch_op.add_column(sa.Column("embargo_signalled_at", sa.DateTime(timezone=True), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("market_windows", schema=None) as batch_op:
        batch_op.drop_column("embargo_signalled_at")
