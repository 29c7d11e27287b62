"""The calendar feed: each user's current deadlines in iCalendar (RFC 5545), behind a secret, regenerable URL.

One VEVENT per current wait of the user's seats. Its UID names the wait (game, seat and the version at
which the wait began), so a calendar that polls the feed sees the same event move when a pause or an
availability window moves the deadline, and a new event when a new wait begins.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from icalendar import Alarm, Calendar, Event, vDuration, vText
from sqlalchemy import select
from sqlalchemy.orm import Session

from app.models import Game, Seat, WaitRow
from app.models.records import UserFacts

REFRESH = timedelta(minutes=15)  # how often a calendar application should fetch the feed again
ALARM_BEFORE = timedelta(hours=1)


@dataclass(frozen=True)
class Deadline:
    game_id: int
    game_name: str
    game_type: str
    seat: int
    phase: str
    since_version: int
    deadline_at: datetime


def deadlines_of(session: Session, user: UserFacts) -> list[Deadline]:
    """Every current wait of a seat the user holds in a running game, with a deadline, soonest first."""
    rows = session.execute(
        select(Game.id, Game.name, Game.game_type, WaitRow.seat, WaitRow.phase, WaitRow.since_version)
        .add_columns(WaitRow.deadline_at)
        .join(WaitRow, WaitRow.game_id == Game.id)
        .join(Seat, (Seat.game_id == Game.id) & (Seat.number == WaitRow.seat))
        .where(
            Seat.user_id == user.id,
            Seat.status == "playing",
            Game.status == "active",
            WaitRow.deadline_at.is_not(None),
        )
        .order_by(WaitRow.deadline_at, Game.id)
    )
    return [Deadline(*row) for row in rows]


@dataclass(frozen=True)
class Entry:
    """One event, its texts already in the user's language."""

    uid: str
    start: datetime
    summary: str
    description: str
    url: str
    alarm: str


def uid_of(deadline: Deadline, domain: str) -> str:
    return f"wait-{deadline.game_id}-{deadline.seat}-{deadline.since_version}@{domain}"


def feed(name: str, entries: Iterable[Entry], now: datetime) -> str:
    calendar = Calendar()
    calendar.add("version", "2.0")
    calendar.add("prodid", "-//Ostraca//Deadlines//EN")
    calendar.add("calscale", "GREGORIAN")
    calendar.add("method", "PUBLISH")
    calendar.add("x-wr-calname", vText(name))
    calendar.add("refresh-interval", vDuration(REFRESH), parameters={"VALUE": "DURATION"})
    calendar.add("x-published-ttl", vDuration(REFRESH))
    for entry in entries:
        calendar.add_component(_event(entry, now))
    return calendar.to_ical().decode()


def _event(entry: Entry, now: datetime) -> Event:
    event = Event()
    event.add("uid", entry.uid)
    event.add("dtstamp", now.astimezone(UTC))
    event.add("dtstart", entry.start.astimezone(UTC))
    event.add("dtend", entry.start.astimezone(UTC) + timedelta(minutes=1))
    event.add("summary", entry.summary)
    event.add("description", entry.description)
    event.add("url", entry.url)
    event.add("transp", "TRANSPARENT")
    alarm = Alarm()
    alarm.add("action", "DISPLAY")
    alarm.add("trigger", -ALARM_BEFORE)
    alarm.add("description", entry.alarm)
    event.add_component(alarm)
    return event
