"""Players are found by name without accents or case: `users.name_key`, indexed.

Revision ID: 7e2b4d9c1a58
Revises: 3c9e5a1f7b20
Create Date: 2026-12-02 03:40:00.000000
"""

import unicodedata
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "7e2b4d9c1a58"
down_revision: str | None = "3c9e5a1f7b20"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def _key(name: str) -> str:  # as app.models.users.name_key at the time of this revision
    decomposed = unicodedata.normalize("NFKD", name)
    bare = "".join(char for char in decomposed if not unicodedata.combining(char))
    return " ".join(bare.casefold().split())


def upgrade() -> None:
    with op.batch_alter_table("users", schema=None) as batch_op:
        batch_op.add_column(sa.Column("name_key", sa.String(length=40), nullable=False, server_default=""))
    users = sa.table("users", sa.column("id", sa.Integer), sa.column("display_name"), sa.column("name_key"))
    connection = op.get_bind()
    for user_id, name in connection.execute(sa.select(users.c.id, users.c.display_name)).all():
        connection.execute(sa.update(users).where(users.c.id == user_id).values(name_key=_key(name)))
    with op.batch_alter_table("users", schema=None) as batch_op:
        batch_op.alter_column("name_key", server_default=None)
        batch_op.create_index(batch_op.f("ix_users_name_key"), ["name_key"], unique=False)


def downgrade() -> None:
    with op.batch_alter_table("users", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_users_name_key"))
        batch_op.drop_column("name_key")
