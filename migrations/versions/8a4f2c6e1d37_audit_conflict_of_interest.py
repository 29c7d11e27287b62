"""The audit log says when an administrator acted in their own game or on a report about themselves.

Revision ID: 8a4f2c6e1d37
Revises: 5d1e0a7c9b42
Create Date: 2026-12-02 00:05:00.000000
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "8a4f2c6e1d37"
down_revision: str | None = "5d1e0a7c9b42"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    # A plain ADD COLUMN (no table rebuild), so the append-only triggers on audit_log stay in place.
    op.add_column("audit_log", sa.Column("conflict", sa.String(length=16), nullable=True))


def downgrade() -> None:
    # ALTER TABLE ... DROP COLUMN on both (SQLite has it since 3.35): a batch rebuild would lose the triggers.
    op.execute("ALTER TABLE audit_log DROP COLUMN conflict")
