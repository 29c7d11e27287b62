"""The Open tab as one player sees it (site F-C3, F-C4, F-C6).

- Tables: games still forming, and open seats of running games waiting for a replacement.
- The recommended table: the one whose players' average rating (their skill estimate, mu, in that game
  type; the prior's for a player not rated yet) is closest to the viewer's own. The other tables follow by
  that distance, nearest first; equal distances, the older first.
- Tables the viewer may not sit at are listed apart, each with its reasons: the anti-collusion cap (naming
  the player), a block (naming nobody), the creator's reliability gate, having been in that game before.
- The players the viewer already shares three unfinished games with, by name.
A visitor who is not logged in sees the tables newest first, with no recommendation.

Each list (forming games, open seats, hidden tables) is shown a page (PAGE_SIZE) at a time; the database
sorts, filters and counts them (`open_places`), so only the tables shown are read.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from datetime import datetime

from sqlalchemy import select
from sqlalchemy.orm import Session

from app.models import Seat, SeatTenure
from app.models.records import UserFacts
from app.services.paging import Page
from app.services.play.seats import OpenSeat
from app.services.players import matchmaking, open_places
from app.services.players.matchmaking import Obstacle
from app.services.players.open_places import GameListing, Place, Sieve

PAGE_SIZE = 20  # tables per page of each list


@dataclass(frozen=True)
class Pages:
    """The page wanted of each list (1-based; brought within the list)."""

    games: int = 1
    seats: int = 1
    hidden: int = 1


FIRST_PAGES = Pages()


@dataclass(frozen=True)
class Table:
    """A place to sit: a forming game (`seat` None) or an open seat of a running game."""

    game: GameListing
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
    games_page: Page
    seats_page: Page
    hidden_page: Page

    @property
    def open_seats(self) -> list[OpenSeat]:
        return [table.seat for table in self.seats if table.seat is not None]


def listed_count(session: Session, user: UserFacts | None, now: datetime) -> int:
    """How many tables the Open tab lists for this viewer (forming games and open seats), as its tab says."""
    if user is None:
        sieve = Sieve(now)
    else:
        sieve = open_places.player_sieve(session, user, _standing(session, user), now)
    counts = sieve.counts(session)
    return counts.games + counts.seats


def _standing(session: Session, user: UserFacts) -> matchmaking.Standing:
    return matchmaking.standing_of(session, user.id)


def open_tables(
    session: Session, user: UserFacts | None, now: datetime, wanted: Pages = FIRST_PAGES
) -> OpenTables:
    if user is None:
        return _tables(session, None, Sieve(now), wanted, capped_with=[])
    standing = _standing(session, user)
    sieve = open_places.player_sieve(session, user, standing, now)
    names = matchmaking.names_of(session, standing.capped)
    tables = _tables(session, user, sieve, wanted, capped_with=sorted(names.values()))
    return replace(tables, hidden=_with_reasons(session, standing, sieve, names, tables.hidden))


def _tables(
    session: Session, user: UserFacts | None, sieve: Sieve, wanted: Pages, capped_with: list[str]
) -> OpenTables:
    """The wanted page of each list, and the recommended table (players only), with their games."""
    counts = sieve.counts(session)
    games_page = Page.at(wanted.games, PAGE_SIZE, counts.games)
    seats_page = Page.at(wanted.seats, PAGE_SIZE, counts.seats)
    hidden_page = Page.at(wanted.hidden, PAGE_SIZE, counts.hidden)
    forming, vacant = sieve.games(session, games_page), sieve.seats(session, seats_page)
    hidden = sieve.hidden(session, hidden_page) if counts.hidden else []
    nearest = _recommended(session, sieve, (games_page, forming), (seats_page, vacant))
    shown = [*forming, *vacant, *hidden, *([nearest] if nearest else [])]
    games = open_places.listings(session, {place.game_id for place in shown})
    table = {place.key: _table(games[place.game_id], place, user, sieve.now) for place in shown}
    return OpenTables(
        recommended=table[nearest.key] if nearest else None,
        games=[table[place.key] for place in forming],
        seats=[table[place.key] for place in vacant],
        hidden=[table[place.key] for place in hidden],
        capped_with=capped_with,
        games_page=games_page,
        seats_page=seats_page,
        hidden_page=hidden_page,
    )


def _recommended(
    session: Session, sieve: Sieve, games: tuple[Page, list[Place]], seats: tuple[Page, list[Place]]
) -> Place | None:
    """The nearest place to a player that is not offered to another player for now. The first page of
    each list shows the nearest of its kind; the database is asked only when the player turned a page,
    or when every seat of the first page is offered to someone else and more seats follow."""
    if sieve.user_id is None:
        return None
    (games_page, forming), (seats_page, vacant) = games, seats
    game = next(iter(forming), None) if games_page.number == 1 else sieve.nearest_game(session)
    free = [place for place in vacant if not place.reserved_for_another(sieve.user_id, sieve.now)]
    if seats_page.number == 1 and (free or not seats_page.has_next):
        seat = next(iter(free), None)
    else:
        seat = sieve.nearest_free_seat(session)
    return min((place for place in (game, seat) if place), key=Place.nearest_first, default=None)


def _with_reasons(
    session: Session,
    standing: matchmaking.Standing,
    sieve: Sieve,
    names: dict[int, str],
    hidden: list[Table],
) -> list[Table]:
    """The hidden tables shown, each with what stands in the user's way."""
    members = _members(session, {table.game.id for table in hidden})
    explained = []
    for table in hidden:
        offered_to_me = table.seat is not None and table.seat.offered_to_you
        gate = None if offered_to_me else table.game.min_reliability
        obstacles = standing.obstacles(members.get(table.game.id, []), gate, names)
        if table.seat is not None and table.game.id in sieve.played:
            obstacles.append(Obstacle("played"))
        explained.append(replace(table, obstacles=obstacles))
    return explained


def _members(session: Session, game_ids: set[int]) -> dict[int, list[int]]:
    """The seat holders of each game."""
    found: dict[int, list[int]] = {}
    if not game_ids:
        return found
    rows = session.execute(
        select(Seat.game_id, Seat.user_id).where(
            Seat.game_id.in_(sorted(game_ids)), Seat.status == "playing", Seat.user_id.is_not(None)
        )
    )
    for game_id, user_id in rows:
        if user_id is not None:
            found.setdefault(game_id, []).append(user_id)
    return found


def _table(game: GameListing, place: Place, user: UserFacts | None, now: datetime) -> Table:
    if place.seat is None:
        return Table(game, None, place.distance)
    mine = user is not None and place.offered_to == user.id
    reserved = place.reserved_for_another(user.id if user else None, now)
    seat = OpenSeat(game, place.seat, place.opened_at, mine, reserved)
    return Table(game, seat, place.distance)


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
