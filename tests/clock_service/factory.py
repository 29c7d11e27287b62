"""Players, running games and sweeps for the clock's service tests, all at an injected time."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session, sessionmaker

from app.models import Game, GameEvent, GameOrder, Notification, Seat, User, WaitRow
from app.services.jobs import sweeper
from app.services.social import lobby

NOW = datetime(2026, 11, 30, 12, 0, tzinfo=UTC)  # a Monday, noon UTC
HOUR = timedelta(hours=1)


def make_user(session: Session, name: str, zone: str = "UTC") -> User:
    user = User(
        email=f"{name.lower()}@example.com",
        display_name=name,
        password_hash="-",
        time_zone=zone,
        language="en",
    )
    session.add(user)
    session.commit()
    return user


def make_users(session: Session, *names: str, zone: str = "UTC") -> list[User]:
    return [make_user(session, name, zone) for name in names]


def running_game(
    session: Session,
    users: Sequence[User],
    *,
    limit_hours: int | None = 24,
    now: datetime = NOW,
    absence: dict[str, Any] | None = None,
    game_type: str = "fake",
    options: dict[str, Any] | None = None,
) -> int:
    game = lobby.create_game(
        session,
        users[0],
        game_type=game_type,
        players=len(users),
        time_limit_hours=limit_hours,
        options=options,
        absence_options=absence,
        now=now,
    )
    for user in users[1:]:
        lobby.join_game(session, user, game.id, now)
    session.commit()
    return game.id


def seat_of(session: Session, game_id: int, user: User) -> int:
    number = session.scalar(select(Seat.number).where(Seat.game_id == game_id, Seat.user_id == user.id))
    session.commit()  # ends the read (SQLite: frees the writer lock) without expiring what was read
    assert number is not None
    return number


def waits(session: Session, game_id: int) -> dict[int, WaitRow]:
    """The game's wait rows by seat, read fresh (and the read ended, so SQLite's writer lock is free)."""
    query = select(WaitRow).where(WaitRow.game_id == game_id).execution_options(populate_existing=True)
    rows = session.scalars(query).all()
    result = {row.seat: row for row in rows}
    session.commit()  # ends the read (SQLite: frees the writer lock) without expiring what was read
    return result


def game(session: Session, game_id: int) -> Game:
    found = session.get(Game, game_id, populate_existing=True)
    assert found is not None
    for seat in found.seats:  # load them before the read ends
        _ = seat.user_id
    session.commit()  # ends the read (SQLite: frees the writer lock) without expiring what was read
    return found


def orders(session: Session, game_id: int, origin: str | None = None) -> list[GameOrder]:
    query = select(GameOrder).where(GameOrder.game_id == game_id).order_by(GameOrder.seq)
    if origin is not None:
        query = query.where(GameOrder.origin == origin)
    found = list(session.scalars(query))
    session.commit()  # ends the read (SQLite: frees the writer lock) without expiring what was read
    return found


def events(session: Session, game_id: int, kind: str) -> list[GameEvent]:
    found = list(
        session.scalars(select(GameEvent).where(GameEvent.game_id == game_id, GameEvent.kind == kind))
    )
    session.commit()  # ends the read (SQLite: frees the writer lock) without expiring what was read
    return found


def notifications(session: Session, user: User, kind: str) -> list[Notification]:
    query = select(Notification).where(Notification.user_id == user.id, Notification.kind == kind)
    found = list(session.scalars(query))
    session.commit()  # ends the read (SQLite: frees the writer lock) without expiring what was read
    return found


def sweep_at(sessions: sessionmaker[Session], now: datetime, **config: Any) -> sweeper.SweepReport:
    return sweeper.sweep(sessions, lambda: now, sweeper.SweepSettings(**config))


def seed_due_games(session: Session, games: int, players: int, due_at: datetime) -> int:
    """`games` running fake games whose `players` simultaneous waits all fall due at `due_at`, fast.

    Returns the number of waits. The rows are what `lobby` would have made, written in bulk.
    """
    from app.games import registry
    from app.models import SeatTenure

    rules = registry.get("fake")
    users = [make_user(session, f"Bulk{index}") for index in range(players)]
    started = due_at - timedelta(hours=24)
    state = rules.dump(rules.new_game(rules.Options(), players, 1))
    for _ in range(games):
        game_row = Game(
            game_type="fake",
            name="bulk",
            status="active",
            players=players,
            time_limit_hours=24,
            options={},
            seed=1,
            state=state,
            version=1,
            creator_id=users[0].id,
            created_at=started,
            started_at=started,
        )
        session.add(game_row)
        session.flush()
        for number, user in enumerate(users):
            seat = Seat(
                game_id=game_row.id, user_id=user.id, number=number, status="playing", joined_at=started
            )
            session.add(seat)
            session.flush()
            session.add(SeatTenure(seat_id=seat.id, user_id=user.id, started_at=started))
            session.add(
                WaitRow(
                    game_id=game_row.id,
                    seat=number,
                    phase="pick",
                    simultaneous=True,
                    since_version=1,
                    started_at=started,
                    deadline_at=due_at,
                    check_at=due_at,
                )
            )
    session.commit()
    return games * players
