"""A newcomer's first steps, as the home page lists them until they are done: confirm the address, get
into a game (the queue, the recommended table or any other), and read a game's rules."""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import select
from sqlalchemy.orm import Session

from app.models import QueueEntry, Seat, SeatTenure
from app.models.records import UserFacts
from app.services.mail import account_mail


@dataclass(frozen=True)
class FirstSteps:
    address_confirmed: bool
    queued_or_seated: bool
    rules_read: bool

    @property
    def done(self) -> bool:
        return self.address_confirmed and self.queued_or_seated and self.rules_read


def first_steps(session: Session, user: UserFacts, rules_read: bool) -> FirstSteps:
    """`rules_read`: whether the user opened a rules page (the caller remembers it); a player who has sat
    at a table is past that step too, each game's page linking its rules."""
    seated = _has_sat_at_a_table(session, user)
    queued = session.scalar(select(QueueEntry.id).where(QueueEntry.user_id == user.id).limit(1)) is not None
    return FirstSteps(
        address_confirmed=account_mail.is_verified(session, user),
        queued_or_seated=seated or queued,
        rules_read=rules_read or seated,
    )


def _has_sat_at_a_table(session: Session, user: UserFacts) -> bool:
    seat = select(Seat.id).where(Seat.user_id == user.id).limit(1)
    tenure = select(SeatTenure.id).where(SeatTenure.user_id == user.id).limit(1)
    return session.scalar(seat) is not None or session.scalar(tenure) is not None
