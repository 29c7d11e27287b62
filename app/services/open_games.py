"""The Open tab as one player sees it (site F-C3, F-C4, F-C6).

- Tables: games still forming, and open seats of running games waiting for a replacement.
- The recommended table: the one whose players' average rating (their skill estimate, mu, in that game
  type; the prior's for a player not rated yet) is closest to the viewer's own. The other tables follow by
  that distance, nearest first; equal distances, the older first.
- Tables the viewer may not sit at are listed apart, each with its reasons: the anti-collusion cap (naming
  the player), a block (naming nobody), the creator's reliability gate, having been in that game before.
- The players the viewer already shares three unfinished games with, by name.
A visitor who is not logged in sees the tables newest first, with no recommendation.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime

from sqlalchemy import select
from sqlalchemy.orm import Session, defer

from app.models import Game, Seat, SeatTenure, User
from app.services import matchmaking, ratings
from app.services.matchmaking import Obstacle
from app.services.seats import OpenSeat

FORMING_LIMIT = 500  # forming games (newest first) and open seats looked at
SHOWN = 100  # tables of each kind shown


@dataclass(frozen=True)
class Place:
    """A place to sit, read as plain values (cheap for hundreds): `seat` None for a forming game."""

    game_id: int
    game_type: str
    gate: int | None
    since: datetime
    seat: int | None = None
    opened_at: datetime | None = None
    offered_to: int | None = None
    offered_until: datetime | None = None

    def reserved_for_another(self, user: User | None, now: datetime) -> bool:
        offered = self.offered_to is not None and self.offered_until is not None and now < self.offered_until
        return offered and (user is None or self.offered_to != user.id)

    @property
    def key(self) -> tuple[int, int | None]:
        return (self.game_id, self.seat)


@dataclass(frozen=True)
class Table:
    """A place to sit: a forming game (`seat` None) or an open seat of a running game."""

    game: Game
    seat: OpenSeat | None = None
    distance: float | None = None
    obstacles: list[Obstacle] = field(default_factory=list)

    @property
    def key(self) -> tuple[int, int | None]:
        return (self.game.id, self.seat.seat if self.seat else None)


@dataclass(frozen=True)
class OpenTables:
    recommended: Table | None
    games: list[Table]
    seats: list[Table]
    hidden: list[Table]
    capped_with: list[str]

    @property
    def open_seats(self) -> list[OpenSeat]:
        return [table.seat for table in self.seats if table.seat is not None]


@dataclass(frozen=True)
class _Measured:
    place: Place
    distance: float | None
    obstacles: list[Obstacle]


def open_tables(session: Session, user: User | None, now: datetime) -> OpenTables:
    places = _forming(session) + _vacancies(session)
    members = _members(session, {place.game_id for place in places})
    places = [p for p in places if user is None or user.id not in members.get(p.game_id, [])]
    if user is None:
        measured = [_Measured(place, None, []) for place in places]
        return _tables(session, None, now, measured, [])
    standing = matchmaking.standing_of(session, user.id)
    measured = _measure(session, user, standing, places, members)
    capped_with = sorted(matchmaking.names_of(session, standing.capped).values())
    return _tables(session, user, now, measured, capped_with)


def _forming(session: Session) -> list[Place]:
    query = (
        select(Game.id, Game.game_type, Game.min_reliability, Game.created_at)
        .where(Game.status == "open")
        .order_by(Game.created_at.desc(), Game.id.desc())
        .limit(FORMING_LIMIT)
    )
    return [Place(*row) for row in session.execute(query)]


def _vacancies(session: Session) -> list[Place]:
    """Open seats of running games, longest open first."""
    query = (
        select(
            Game.id,
            Game.game_type,
            Game.min_reliability,
            Game.created_at,
            Seat.number,
            Seat.opened_at,
            Seat.offered_to,
            Seat.offered_until,
        )
        .join(Seat, Seat.game_id == Game.id)
        .where(Seat.status == "open", Game.status == "active", Seat.number.is_not(None))
        .order_by(Seat.opened_at, Seat.id)
        .limit(FORMING_LIMIT)
    )
    return [
        Place(game_id, game_type, gate, opened_at or created_at, number, opened_at, offered_to, until)
        for game_id, game_type, gate, created_at, number, opened_at, offered_to, until in session.execute(
            query
        )
    ]


def _members(session: Session, game_ids: set[int]) -> dict[int, list[int]]:
    """The seat holders of each game."""
    found: dict[int, list[int]] = {}
    rows = session.execute(
        select(Seat.game_id, Seat.user_id).where(
            Seat.game_id.in_(list(game_ids)), Seat.status == "playing", Seat.user_id.is_not(None)
        )
    )
    for game_id, user_id in rows:
        if user_id is not None:
            found.setdefault(game_id, []).append(user_id)
    return found


def _measure(
    session: Session,
    user: User,
    standing: matchmaking.Standing,
    places: list[Place],
    members: dict[int, list[int]],
) -> list[_Measured]:
    """Each place with its rating distance from the user and what stands in the user's way."""
    means = _skill_means(
        session, [(p.game_type, m) for p in places for m in [*members.get(p.game_id, []), user.id]]
    )
    names = matchmaking.names_of(session, standing.capped)
    played = games_played(session, user.id, [p.game_id for p in places if p.seat is not None])
    measured = []
    for place in places:
        others = members.get(place.game_id, [])
        mine = means[(place.game_type, user.id)]
        average = sum(means[(place.game_type, m)] for m in others) / len(others) if others else mine
        gate = None if place.offered_to == user.id else place.gate
        obstacles = standing.obstacles(others, gate, names)
        if place.seat is not None and place.game_id in played:
            obstacles.append(Obstacle("played"))
        measured.append(_Measured(place, abs(average - mine), obstacles))
    return measured


def _tables(
    session: Session, user: User | None, now: datetime, measured: list[_Measured], capped_with: list[str]
) -> OpenTables:
    """The nearest first (a visitor: newest forming games, longest open seats); Game rows for those shown."""
    visible = [m for m in measured if not m.obstacles]
    if user is not None:
        visible.sort(key=lambda m: (m.distance or 0.0, m.place.since, m.place.game_id))
    forming = [m for m in visible if m.place.seat is None][:SHOWN]
    vacant = [m for m in visible if m.place.seat is not None][:SHOWN]
    hidden = [m for m in measured if m.obstacles]
    games = _games(session, {m.place.game_id for m in [*forming, *vacant, *hidden]})
    tables = {m.place.key: _table(games[m.place.game_id], m, user, now) for m in [*forming, *vacant, *hidden]}
    choosable = [m for m in visible if not m.place.reserved_for_another(user, now)]
    recommended = tables.get(choosable[0].place.key) if user is not None and choosable else None
    return OpenTables(
        recommended=recommended,
        games=[tables[m.place.key] for m in forming],
        seats=[tables[m.place.key] for m in vacant],
        hidden=[tables[m.place.key] for m in hidden],
        capped_with=capped_with,
    )


def _games(session: Session, game_ids: set[int]) -> dict[int, Game]:
    query = select(Game).where(Game.id.in_(list(game_ids))).options(defer(Game.state), defer(Game.standings))
    return {game.id: game for game in session.scalars(query)}


def _table(game: Game, measured: _Measured, user: User | None, now: datetime) -> Table:
    place = measured.place
    if place.seat is None:
        return Table(game, None, measured.distance, measured.obstacles)
    mine = user is not None and place.offered_to == user.id
    seat = OpenSeat(game, place.seat, place.opened_at, mine, place.reserved_for_another(user, now))
    return Table(game, seat, measured.distance, measured.obstacles)


def _skill_means(session: Session, pairs: Iterable[tuple[str, int]]) -> dict[tuple[str, int], float]:
    by_type: dict[str, set[int]] = {}
    for game_type, user_id in pairs:
        by_type.setdefault(game_type, set()).add(user_id)
    found: dict[tuple[str, int], float] = {}
    for game_type, user_ids in by_type.items():
        for user_id, mean in ratings.skill_means(session, game_type, user_ids).items():
            found[(game_type, user_id)] = mean
    return found


def games_played(session: Session, user_id: int, game_ids: list[int]) -> set[int]:
    """Which of these games the user held a seat of before (they may not come back as a replacement)."""
    if not game_ids:
        return set()
    query = (
        select(Seat.game_id)
        .join(SeatTenure, SeatTenure.seat_id == Seat.id)
        .where(SeatTenure.user_id == user_id, Seat.game_id.in_(game_ids))
    )
    return set(session.scalars(query))
