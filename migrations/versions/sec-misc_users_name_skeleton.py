"""Look-alike display names are refused: `users.name_skeleton` and `users.name_folded_skeleton` (Unicode
TR39 skeletons, case folded after and before), indexed.

Filled for the existing users. Not unique: names taken before the rule keep their owners.

Revision ID: 3f6d1b8e2c47
Revises: b7e4c2a9d315
Create Date: 2026-12-07 18:30:00.000000
"""

from collections.abc import Sequence

import icu
import sqlalchemy as sa
from alembic import op

revision: str = "3f6d1b8e2c47"
down_revision: str | None = "b7e4c2a9d315"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

COLUMNS = ("name_skeleton", "name_folded_skeleton")
_CHECKER = icu.SpoofChecker()


def _skeleton(text: str) -> str:
    return str(_CHECKER.getSkeleton(0, text))


def _skeletons(name: str) -> tuple[str, str]:  # as app.models.users.name_skeletons at this revision
    shown = " ".join(name.split())
    return _skeleton(_skeleton(shown).casefold()), _skeleton(shown.casefold()).casefold()


def upgrade() -> None:
    with op.batch_alter_table("users", schema=None) as batch_op:
        for column in COLUMNS:
            batch_op.add_column(sa.Column(column, sa.String(), nullable=False, server_default=""))
    users = sa.table(
        "users", sa.column("id", sa.Integer), sa.column("display_name"), *map(sa.column, COLUMNS)
    )
    connection = op.get_bind()
    for user_id, name in connection.execute(sa.select(users.c.id, users.c.display_name)).all():
        values = dict(zip(COLUMNS, _skeletons(name), strict=True))
        connection.execute(sa.update(users).where(users.c.id == user_id).values(**values))
    with op.batch_alter_table("users", schema=None) as batch_op:
        for column in COLUMNS:
            batch_op.alter_column(column, server_default=None)
            batch_op.create_index(batch_op.f(f"ix_users_{column}"), [column], unique=False)


def downgrade() -> None:
    with op.batch_alter_table("users", schema=None) as batch_op:
        for column in COLUMNS:
            batch_op.drop_index(batch_op.f(f"ix_users_{column}"))
            batch_op.drop_column(column)
