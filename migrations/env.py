"""Alembic environment: the URL comes from the caller's config or from the app settings."""

from __future__ import annotations

from typing import Any, Literal

import sqlalchemy as sa
from alembic import context
from sqlalchemy import Connection

import app.models  # noqa: F401  (registers the tables)
from app.db import Base, UTCDateTime, make_engine
from app.settings import Settings

config = context.config
target_metadata = Base.metadata


def render_item(kind: str, obj: Any, autogen_context: Any) -> str | Literal[False]:
    """Write the app's column types as plain SQLAlchemy types, so migrations never import the app."""
    if kind != "type":
        return False
    if isinstance(obj, UTCDateTime):
        return "sa.DateTime(timezone=True)"
    if isinstance(obj, sa.JSON):
        autogen_context.imports.add("from sqlalchemy.dialects import postgresql")
        return "sa.JSON().with_variant(postgresql.JSONB(), 'postgresql')"
    return False


def run(connection: Connection) -> None:
    context.configure(
        connection=connection,
        target_metadata=target_metadata,
        render_as_batch=connection.dialect.name == "sqlite",
        compare_type=True,
        render_item=render_item,
    )
    with context.begin_transaction():
        context.run_migrations()


connection = config.attributes.get("connection")
if connection is not None:
    run(connection)
else:
    url = config.get_main_option("sqlalchemy.url") or Settings().sqlalchemy_url
    engine = make_engine(url)
    with engine.connect() as new_connection:
        run(new_connection)
    engine.dispose()
