"""The records the hot paths read with Core statements hold what the ORM rows hold."""

from __future__ import annotations

from dataclasses import fields

from app.models.records import (
    GAME_COLUMNS,
    SEAT_COLUMNS,
    USER_COLUMNS,
    USERS,
    WAIT_COLUMNS,
    WAITS,
    GameRecord,
    SeatRecord,
)


def test_a_game_record_has_a_field_for_every_column_and_then_its_seats() -> None:
    assert [field.name for field in fields(GameRecord)] == [*GAME_COLUMNS, "seats"]


def test_a_seat_record_has_a_field_for_every_column() -> None:
    assert [field.name for field in fields(SeatRecord)] == list(SEAT_COLUMNS)


def test_a_user_record_has_every_column_but_the_password_hash_and_the_search_key() -> None:
    assert set(USER_COLUMNS) == {column.name for column in USERS.columns} - {
        "password_hash",
        "name_key",
        "name_skeleton",
        "name_folded_skeleton",
        "deleted_at",  # a deleted account has no session, so no request reads it as a user
    }


def test_a_wait_record_holds_columns_of_the_waits() -> None:
    assert set(WAIT_COLUMNS) <= {column.name for column in WAITS.columns}
