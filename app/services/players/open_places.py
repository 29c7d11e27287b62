"""The places to sit of the Open tab, sorted, filtered, counted and cut into pages by the database.

A place is a game still forming (no seat number) or an open seat of a running game waiting for a
replacement. A `Sieve` is one viewer's view of them: the few games the viewer may not sit at are read
first (their own, those of the players they may not meet, those they held a seat of), then each list is
one query that filters, sorts (by the rating distance for a player) and cuts out the page shown; so a page
costs the same with twenty games or twenty thousand. Why a hidden place is hidden is then told by
`matchmaking.Standing.obstacles`, on the page's hidden places only.
"""

from __future__ import annotations

from collections.abc import Mapping, Set
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from sqlalchemy import (
    ColumnElement,
    Select,
    Subquery,
    and_,
    case,
    cast,
    false,
    func,
    literal,
    null,
    or_,
    select,
    true,
    union_all,
)
from sqlalchemy.orm import Session

from app.models import Game, Rating, Seat, SeatTenure
from app.models.records import UserFacts
from app.services.paging import Page
from app.services.players import matchmaking, ratings
from app.services.players.matchmaking import UNFINISHED

PRIOR_MEAN = ratings.MODEL.mu  # the skill mean counted for a player not rated yet


@dataclass(frozen=True)
class Place:
    """A place to sit, read as plain values: `seat` None for a forming game."""

    game_id: int
    game_type: str
    gate: int | None  # the creator's reliability gate, a percentage
    since: datetime  # when the game was made, or the seat opened
    seat: int | None
    opened_at: datetime | None
    offered_to: int | None  # a named replacement...
    offered_until: datetime | None  # ...until then
    distance: float | None = None  # from the viewer's skill mean to the average of the table's players

    def reserved_for_another(self, user_id: int | None, now: datetime) -> bool:
        offered = self.offered_to is not None and self.offered_until is not None and now < self.offered_until
        return offered and self.offered_to != user_id

    def nearest_first(self) -> tuple[float, datetime, int, int]:
        """The players' order of the lists (the SQL's, in `Sieve._read`)."""
        return (self.distance or 0.0, self.since, self.game_id, -1 if self.seat is None else self.seat)

    @property
    def key(self) -> tuple[int, int | None]:
        return (self.game_id, self.seat)


@dataclass(frozen=True)
class GameListing:
    """What the Open tab shows of a game, read as plain values."""

    id: int
    game_type: str
    name: str
    status: str
    players: int
    seats_taken: int
    time_limit_hours: int | None
    version: int
    created_at: datetime
    min_reliability: int | None
    options: dict[str, Any]  # the rules' options, which the list says when they differ from the rules
    bot_seats: int = 0  # seats a bot plays: the game is unrated, which the list says before anyone joins


@dataclass(frozen=True)
class Counts:
    games: int  # forming games shown
    seats: int  # open seats shown
    hidden: int  # places of both kinds hidden from the viewer


def _vacant() -> Select[*tuple[Any, ...]]:
    """The open seats of running games."""
    return (
        select(
            Game.id.label("game_id"),
            Game.game_type.label("game_type"),
            Game.min_reliability.label("gate"),
            func.coalesce(Seat.opened_at, Game.created_at).label("since"),
            Seat.number.label("seat"),
            Seat.opened_at.label("opened_at"),
            Seat.offered_to.label("offered_to"),
            Seat.offered_until.label("offered_until"),
        )
        .select_from(Seat)
        .join(Game, Game.id == Seat.game_id)
        .where(Seat.status == "open", Game.status == "active", Seat.number.is_not(None))
    )


def _forming() -> Select[*tuple[Any, ...]]:
    """The games still forming, with the same columns (the seat's are NULL, typed for Postgres)."""
    no_seat = {
        "seat": Seat.number,
        "opened_at": Seat.opened_at,
        "offered_to": Seat.offered_to,
        "offered_until": Seat.offered_until,
    }
    return select(
        Game.id.label("game_id"),
        Game.game_type.label("game_type"),
        Game.min_reliability.label("gate"),
        Game.created_at.label("since"),
        *(cast(null(), column.type).label(name) for name, column in no_seat.items()),
    ).where(Game.status == "open")


# Made once (a subquery builds its column proxies on first use, which costs more than the queries).
VACANT = _vacant().subquery("vacant")
FORMING = _forming().subquery("forming")
EVERY = union_all(_vacant(), _forming()).subquery("places")


@dataclass(frozen=True)
class Sieve:
    """One viewer's view of the places: what the lists show and hide, what may be recommended, in what
    order. `user_id` None: a visitor, who sees every place and no recommendation."""

    now: datetime
    user_id: int | None = None
    mine: frozenset[int] = frozenset()  # unfinished games the viewer holds a seat of: in no list
    with_avoided: frozenset[int] = frozenset()  # ...where someone sits whom the viewer may not meet
    played: frozenset[int] = frozenset()  # running games the viewer held a seat of before
    reliability: int | None = None  # the viewer's percentage (None: no history yet)
    means: Mapping[str, float] = field(default_factory=dict)  # the viewer's skill mean per game type

    def counts(self, session: Session) -> Counts:
        forming = EVERY.c.seat.is_(None)
        listed = self._listed(EVERY)
        query = select(
            func.count(case((and_(listed, forming), 1))),
            func.count(case((and_(listed, ~forming), 1))),
            func.count(case((self._hidden(EVERY), 1))),
        ).select_from(EVERY)
        games, seats, hidden = session.execute(query).one()
        return Counts(games, seats, hidden)

    def games(self, session: Session, page: Page) -> list[Place]:
        return self._read(session, FORMING, self._listed(FORMING), page, newest_first=True)

    def seats(self, session: Session, page: Page) -> list[Place]:
        return self._read(session, VACANT, self._listed(VACANT), page)

    def hidden(self, session: Session, page: Page) -> list[Place]:
        return self._read(session, EVERY, self._hidden(EVERY), page)

    def nearest_game(self, session: Session) -> Place | None:
        return next(iter(self.games(session, Page(1, 1, 1))), None)

    def nearest_free_seat(self, session: Session) -> Place | None:
        """The nearest open seat shown that is not offered to another player for now."""
        free = and_(self._listed(VACANT), ~self._offered_to_another(VACANT))
        return next(iter(self._read(session, VACANT, free, Page(1, 1, 1))), None)

    def _read(
        self,
        session: Session,
        places: Subquery,
        where: ColumnElement[bool],
        page: Page,
        newest_first: bool = False,
    ) -> list[Place]:
        """One page of these places, nearest first for a player; for a visitor the newest forming games
        first, the longest open seats first."""
        since, game_id, seat = places.c.since, places.c.game_id, places.c.seat
        order: tuple[ColumnElement[Any], ...]
        if self.user_id is None:
            distance: ColumnElement[Any] = null().label("distance")
            order = (since.desc(), game_id.desc()) if newest_first else (since, game_id, seat)
        else:
            distance = self._distance(places).label("distance")
            order = (distance, since, game_id, seat)
        query = select(*places.c, distance).where(where).order_by(*order)
        rows = session.execute(query.offset(page.offset).limit(page.size))
        return [Place(**row._mapping) for row in rows]

    def _listed(self, places: Subquery) -> ColumnElement[bool]:
        return and_(_not_in(places.c.game_id, self.mine), ~self._barred(places))

    def _hidden(self, places: Subquery) -> ColumnElement[bool]:
        return and_(_not_in(places.c.game_id, self.mine), self._barred(places))

    def _barred(self, places: Subquery) -> ColumnElement[bool]:
        """Something stands in the viewer's way (`matchmaking.Standing.obstacles` tells what)."""
        played_seat = and_(places.c.seat.is_not(None), _in(places.c.game_id, self.played))
        return or_(_in(places.c.game_id, self.with_avoided), self._gated(places), played_seat)

    def _gated(self, places: Subquery) -> ColumnElement[bool]:
        """The creator's reliability gate keeps the viewer out (a viewer with no history yet passes; a seat
        offered to the viewer by its quitting holder has no gate)."""
        if self.reliability is None:
            return false()
        offered_to_me = and_(places.c.offered_to.is_not(None), places.c.offered_to == self.user_id)
        return and_(places.c.gate.is_not(None), places.c.gate > self.reliability, ~offered_to_me)

    def _offered_to_another(self, places: Subquery) -> ColumnElement[bool]:
        """A seat its quitting holder offered to another player, for now (`Place.reserved_for_another`)."""
        offered_to, until = places.c.offered_to, places.c.offered_until
        return and_(offered_to.is_not(None), offered_to != self.user_id, until.is_not(None), until > self.now)

    def _distance(self, places: Subquery) -> ColumnElement[float]:
        """How far the table's players' average skill mean is from the viewer's (0 at an empty table)."""
        mine: ColumnElement[float] = (
            case(dict(self.means), value=places.c.game_type, else_=PRIOR_MEAN)
            if self.means
            else literal(PRIOR_MEAN)
        )
        table = (
            select(func.avg(func.coalesce(Rating.mu, PRIOR_MEAN)))
            .select_from(Seat)
            .outerjoin(Rating, and_(Rating.user_id == Seat.user_id, Rating.game_type == places.c.game_type))
            .where(Seat.game_id == places.c.game_id, Seat.status == "playing", Seat.user_id.is_not(None))
            .scalar_subquery()
        )
        return func.abs(func.coalesce(table, mine) - mine)


def _in(column: ColumnElement[int], values: Set[int]) -> ColumnElement[bool]:
    return column.in_(sorted(values)) if values else false()


def _not_in(column: ColumnElement[int], values: Set[int]) -> ColumnElement[bool]:
    return column.not_in(sorted(values)) if values else true()


def player_sieve(session: Session, user: UserFacts, standing: matchmaking.Standing, now: datetime) -> Sieve:
    """A player's own games are left out; a place with an obstacle is hidden; the others are listed nearest
    first (by distance), the older first on ties."""
    return Sieve(
        now,
        user.id,
        mine=_unfinished_games_of(session, {user.id}),
        with_avoided=_unfinished_games_of(session, standing.blocked | standing.capped),
        played=_running_games_held_before(session, user.id),
        reliability=standing.reliability.percent,
        means=ratings.skill_means_of(session, user.id),
    )


def _unfinished_games_of(session: Session, user_ids: Set[int]) -> frozenset[int]:
    """The forming and running games where one of these users holds a seat now."""
    if not user_ids:
        return frozenset()
    query = (
        select(Seat.game_id)
        .join(Game, Game.id == Seat.game_id)
        .where(Seat.user_id.in_(sorted(user_ids)), Seat.status == "playing", Game.status.in_(UNFINISHED))
    )
    return frozenset(session.scalars(query))


def _running_games_held_before(session: Session, user_id: int) -> frozenset[int]:
    """The running games the user held a seat of (they may not come back as a replacement)."""
    query = (
        select(Seat.game_id)
        .join(SeatTenure, SeatTenure.seat_id == Seat.id)
        .join(Game, Game.id == Seat.game_id)
        .where(SeatTenure.user_id == user_id, Game.status == "active")
    )
    return frozenset(session.scalars(query))


def listings(session: Session, game_ids: Set[int]) -> dict[int, GameListing]:
    """These games as the Open tab shows them."""
    if not game_ids:
        return {}
    taken = select(func.count()).where(Seat.game_id == Game.id).correlate(Game).scalar_subquery()
    query = select(
        Game.id,
        Game.game_type,
        Game.name,
        Game.status,
        Game.players,
        taken,
        Game.time_limit_hours,
        Game.version,
        Game.created_at,
        Game.min_reliability,
        Game.options,
        Game.bot_seats,
    ).where(Game.id.in_(sorted(game_ids)))
    return {row[0]: GameListing(*row) for row in session.execute(query)}
