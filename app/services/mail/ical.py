"""The calendar feed: each user's current deadlines as RFC 5545 text, behind a secret, regenerable URL.

One VEVENT per current wait of the user's seats. Its UID names the wait (game, seat and the version at
which the wait began), so a calendar that polls the feed sees the same event move when a pause or an
availability window moves the deadline, and a new event when a new wait begins.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from sqlalchemy import select
from sqlalchemy.orm import Session

from app.models import Game, Seat, User, WaitRow

LINE_OCTETS = 75
REFRESH = "PT15M"


@dataclass(frozen=True)
class Deadline:
    game_id: int
    game_name: str
    game_type: str
    seat: int
    phase: str
    since_version: int
    deadline_at: datetime


def deadlines_of(session: Session, user: User) -> list[Deadline]:
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
    lines = [
        "BEGIN:VCALENDAR",
        "VERSION:2.0",
        "PRODID:-//Ostraca//Deadlines//EN",
        "CALSCALE:GREGORIAN",
        "METHOD:PUBLISH",
        f"X-WR-CALNAME:{escape_text(name)}",
        f"REFRESH-INTERVAL;VALUE=DURATION:{REFRESH}",
        f"X-PUBLISHED-TTL:{REFRESH}",
    ]
    for entry in entries:
        lines += _event(entry, now)
    lines.append("END:VCALENDAR")
    return "".join(fold(line) + "\r\n" for line in lines)


def _event(entry: Entry, now: datetime) -> list[str]:
    return [
        "BEGIN:VEVENT",
        f"UID:{entry.uid}",
        f"DTSTAMP:{utc_stamp(now)}",
        f"DTSTART:{utc_stamp(entry.start)}",
        f"DTEND:{utc_stamp(entry.start + timedelta(minutes=1))}",
        f"SUMMARY:{escape_text(entry.summary)}",
        f"DESCRIPTION:{escape_text(entry.description)}",
        f"URL:{entry.url}",
        "TRANSP:TRANSPARENT",
        "BEGIN:VALARM",
        "ACTION:DISPLAY",
        "TRIGGER:-PT1H",
        f"DESCRIPTION:{escape_text(entry.alarm)}",
        "END:VALARM",
        "END:VEVENT",
    ]


def utc_stamp(moment: datetime) -> str:
    return moment.astimezone(UTC).strftime("%Y%m%dT%H%M%SZ")


def escape_text(value: str) -> str:
    """RFC 5545 TEXT: backslash, semicolon, comma and newlines escaped."""
    return (
        value.replace("\\", "\\\\")
        .replace(";", "\\;")
        .replace(",", "\\,")
        .replace("\r\n", "\\n")
        .replace("\n", "\\n")
        .replace("\r", "\\n")
    )


def fold(line: str) -> str:
    """Lines longer than 75 octets go on as continuation lines (CRLF + space), never inside a character."""
    encoded = line.encode()
    if len(encoded) <= LINE_OCTETS:
        return line
    parts: list[str] = []
    limit = LINE_OCTETS
    while encoded:
        cut = min(limit, len(encoded))
        while cut < len(encoded) and (encoded[cut] & 0xC0) == 0x80:  # not in the middle of a character
            cut -= 1
        parts.append(encoded[:cut].decode())
        encoded = encoded[cut:]
        limit = LINE_OCTETS - 1  # the leading space counts
    return "\r\n ".join(parts)
