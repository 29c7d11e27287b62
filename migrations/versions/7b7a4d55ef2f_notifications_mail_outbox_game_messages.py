"""Notifications: outgoing mails, preferences, mail settings, presence; game messages.

Revision ID: 7b7a4d55ef2f
Revises: 6c3ee2186806
Create Date: 2026-11-30 11:33:00.890982
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "7b7a4d55ef2f"
down_revision: str | None = "6c3ee2186806"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "mail_settings",
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("quiet_start_minute", sa.Integer(), nullable=True),
        sa.Column("quiet_end_minute", sa.Integer(), nullable=True),
        sa.Column("digest_hour", sa.Integer(), nullable=False),
        sa.Column("your_turn_always", sa.Boolean(), nullable=False),
        sa.Column("next_digest_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("calendar_token", sa.String(length=64), nullable=True),
        sa.Column("verified_email", sa.String(length=254), nullable=True),
        sa.Column("verified_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("failing_since", sa.DateTime(timezone=True), nullable=True),
        sa.Column("failing_reason", sa.String(length=200), nullable=True),
        sa.ForeignKeyConstraint(
            ["user_id"], ["users.id"], name=op.f("fk_mail_settings_user_id_users"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("user_id", name=op.f("pk_mail_settings")),
        sa.UniqueConstraint("calendar_token", name=op.f("uq_mail_settings_calendar_token")),
    )
    with op.batch_alter_table("mail_settings", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_mail_settings_next_digest_at"), ["next_digest_at"], unique=False)

    op.create_table(
        "notification_preferences",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=32), nullable=False),
        sa.Column("mode", sa.String(length=16), nullable=False),
        sa.ForeignKeyConstraint(
            ["user_id"],
            ["users.id"],
            name=op.f("fk_notification_preferences_user_id_users"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_notification_preferences")),
        sa.UniqueConstraint("user_id", "kind", name="uq_notification_preferences_user_kind"),
    )
    op.create_table(
        "game_messages",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("audience", sa.String(length=64), nullable=True),
        sa.Column("from_seat", sa.Integer(), nullable=True),
        sa.Column("author_id", sa.Integer(), nullable=False),
        sa.Column("body", sa.Text(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["author_id"], ["users.id"], name=op.f("fk_game_messages_author_id_users"), ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(
            ["game_id"], ["games.id"], name=op.f("fk_game_messages_game_id_games"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_game_messages")),
    )
    with op.batch_alter_table("game_messages", schema=None) as batch_op:
        batch_op.create_index(
            "ix_game_messages_author_id_created_at", ["author_id", "created_at"], unique=False
        )
        batch_op.create_index("ix_game_messages_game_id_id", ["game_id", "id"], unique=False)

    op.create_table(
        "game_presence",
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("seen_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["game_id"], ["games.id"], name=op.f("fk_game_presence_game_id_games"), ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(
            ["user_id"], ["users.id"], name=op.f("fk_game_presence_user_id_users"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("user_id", "game_id", name=op.f("pk_game_presence")),
    )
    op.create_table(
        "outgoing_mails",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=True),
        sa.Column("game_id", sa.Integer(), nullable=True),
        sa.Column("kind", sa.String(length=32), nullable=False),
        sa.Column("to_address", sa.String(length=254), nullable=False),
        sa.Column("subject", sa.String(length=255), nullable=False),
        sa.Column("message_id", sa.String(length=255), nullable=False),
        sa.Column("raw", sa.Text(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("next_attempt_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("sent_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("dead_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("last_error", sa.String(length=500), nullable=True),
        sa.ForeignKeyConstraint(
            ["game_id"], ["games.id"], name=op.f("fk_outgoing_mails_game_id_games"), ondelete="SET NULL"
        ),
        sa.ForeignKeyConstraint(
            ["user_id"], ["users.id"], name=op.f("fk_outgoing_mails_user_id_users"), ondelete="SET NULL"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_outgoing_mails")),
        sa.UniqueConstraint("message_id", name=op.f("uq_outgoing_mails_message_id")),
    )
    with op.batch_alter_table("outgoing_mails", schema=None) as batch_op:
        batch_op.create_index(
            "ix_outgoing_mails_due", ["sent_at", "dead_at", "next_attempt_at"], unique=False
        )
        batch_op.create_index(
            "ix_outgoing_mails_recent", ["user_id", "game_id", "kind", "created_at"], unique=False
        )

    with op.batch_alter_table("notifications", schema=None) as batch_op:
        batch_op.add_column(sa.Column("due_at", sa.DateTime(timezone=True), nullable=True))
        batch_op.add_column(sa.Column("outcome", sa.String(length=16), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("notifications", schema=None) as batch_op:
        batch_op.drop_column("outcome")
        batch_op.drop_column("due_at")

    with op.batch_alter_table("outgoing_mails", schema=None) as batch_op:
        batch_op.drop_index("ix_outgoing_mails_recent")
        batch_op.drop_index("ix_outgoing_mails_due")

    op.drop_table("outgoing_mails")
    op.drop_table("game_presence")
    with op.batch_alter_table("game_messages", schema=None) as batch_op:
        batch_op.drop_index("ix_game_messages_game_id_id")
        batch_op.drop_index("ix_game_messages_author_id_created_at")

    op.drop_table("game_messages")
    op.drop_table("notification_preferences")
    with op.batch_alter_table("mail_settings", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_mail_settings_next_digest_at"))

    op.drop_table("mail_settings")
