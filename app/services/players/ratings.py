"""Rankings: one openskill Plackett-Luce rating per player and game type, updated when a game ends.

How a finished game is rated (docs/lobby.md, "Ratings"):
- One match. Each seat's final holder is ranked at the seat's finishing place. Every player who quit or was
  evicted from a seat of the game is ranked after all the seats (tied last): they take the loss.
- A player plays as a two-member team with their seat. The seat member is a fixed rating (no uncertainty)
  made from the seat's average finishing place in the games rated before: +SEAT_SCALE for a seat that
  always wins, -SEAT_SCALE for one that always comes last, shrunk towards 0 while it has few games. A
  team with a weak seat is expected to do worse, so winning with it moves the player's rating further.
- A player who took over an abandoned seat keeps the new rating only if it went up (they can only gain);
  a player who quit or was evicted keeps it only if it went down (they can only lose).
- Games are rated one at a time per game type, under the lock of the type's `RatingBook` row, and
  numbered (`RatedGame.seq`). `recompute` replays the finished games in that order from their seats,
  tenures and standings alone, and finds exactly the stored ratings (tested).
Only the order of players is ever shown, never the numbers.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from openskill.models import PlackettLuce
from sqlalchemy import and_, delete, func, select
from sqlalchemy.orm import Session

from app.db import insert_ignoring_conflicts
from app.models import (
    Game,
    RatedGame,
    Rating,
    RatingBook,
    RatingChange,
    SeatStat,
    SeatTenure,
    User,
)
from app.models.records import GameFacts
from app.services.deadlines import bot_seats

MODEL = PlackettLuce()  # the library's defaults: mu 25, sigma 25/3, beta 25/6, tau 25/300
SEAT_SCALE = MODEL.beta  # the strength of a seat that always wins, in skill points
SEAT_SIGMA = 1e-6  # a seat's strength is taken as known: the player's own rating takes the whole update
SEAT_PRIOR_GAMES = 10  # a seat counts as having this many average games more (few games: little effect)
ABANDONED = ("quit", "evicted")
LIST_LIMIT = 100


@dataclass(frozen=True)
class Skill:
    mu: float
    sigma: float
    games: int = 0

    @property
    def ordinal(self) -> float:
        return self.mu - 3 * self.sigma


NEW_SKILL = Skill(MODEL.mu, MODEL.sigma)


@dataclass
class SeatTally:
    games: int = 0
    place_total: int = 0
    relative_total: float = 0.0

    def strength(self) -> float:
        average = (self.relative_total + 0.5 * SEAT_PRIOR_GAMES) / (self.games + SEAT_PRIOR_GAMES)
        return SEAT_SCALE * (1 - 2 * average)


@dataclass(frozen=True)
class Entry:
    """One tenure in a rated match."""

    user_id: int
    tenure_id: int | None
    seat_key: str
    place: int
    outcome: str  # finished, replacement, quit, evicted


@dataclass(frozen=True)
class Match:
    game_id: int
    seats: int
    entries: tuple[Entry, ...]
    seat_places: tuple[tuple[str, int], ...]  # each seat's key and finishing place


@dataclass
class Book:
    """Every rating and seat tally of one game type, in memory."""

    skills: dict[int, Skill] = field(default_factory=dict)
    tallies: dict[str, SeatTally] = field(default_factory=dict)


# --- the pure part ----------------------------------------------------------------------------------


def relative_place(place: int, seats: int) -> float:
    """0 for the winner, 1 for the last seat."""
    return (place - 1) / (seats - 1) if seats > 1 else 0.5


def rate_match(
    skills: Mapping[int, Skill], tallies: Mapping[str, SeatTally], match: Match
) -> dict[int, Skill]:
    """The new skill of each player in the match (nothing when fewer than two take part)."""
    if len(match.entries) < 2:
        return {}
    teams = [
        [
            MODEL.rating(
                mu=skills.get(entry.user_id, NEW_SKILL).mu, sigma=skills.get(entry.user_id, NEW_SKILL).sigma
            ),
            MODEL.rating(mu=tallies.get(entry.seat_key, SeatTally()).strength(), sigma=SEAT_SIGMA),
        ]
        for entry in match.entries
    ]
    rated = MODEL.rate(teams, ranks=[float(entry.place) for entry in match.entries])
    result = {}
    for entry, team in zip(match.entries, rated, strict=True):
        before = skills.get(entry.user_id, NEW_SKILL)
        after = Skill(float(team[0].mu), float(team[0].sigma), before.games + 1)
        result[entry.user_id] = bounded(entry.outcome, before, after)
    return result


def bounded(outcome: str, before: Skill, after: Skill) -> Skill:
    """A replacement can only gain; a player who abandoned the seat can only lose."""
    rose = after.mu >= before.mu and after.ordinal >= before.ordinal
    fell = after.mu <= before.mu and after.ordinal <= before.ordinal
    if (outcome == "replacement" and not rose) or (outcome in ABANDONED and not fell):
        return Skill(before.mu, before.sigma, after.games)
    return after


def add_places(tallies: dict[str, SeatTally], match: Match) -> None:
    for key, place in match.seat_places:
        tally = tallies.setdefault(key, SeatTally())
        tally.games += 1
        tally.place_total += place
        tally.relative_total += relative_place(place, match.seats)


def play_match(book: Book, match: Match) -> dict[int, Skill]:
    """Rate one match into the book; returns the skills it changed."""
    changed = rate_match(book.skills, book.tallies, match)
    book.skills.update(changed)
    add_places(book.tallies, match)
    return changed


# --- a game's match, from its history ---------------------------------------------------------------


def seat_key(game: Game, number: int) -> str:
    """The drafted choice of the seat (a nation), else its number."""
    drafted = (game.options or {}).get("draft") or {}
    choice = drafted.get(str(number)) if isinstance(drafted, dict) else None
    return str(choice) if choice else f"seat:{number + 1}"


def match_of(session: Session, game: Game) -> Match:
    places = {int(row["seat"]): int(row["place"]) for row in game.standings or []}
    numbers = {seat.id: seat.number for seat in game.seats if seat.number is not None}
    tenures = session.scalars(
        select(SeatTenure).where(SeatTenure.seat_id.in_(list(numbers))).order_by(SeatTenure.id)
    ).all()
    first_of_seat: dict[int, int] = {}
    entries: dict[int, Entry] = {}
    for tenure in tenures:
        number = numbers[tenure.seat_id]
        first = first_of_seat.setdefault(tenure.seat_id, tenure.id) == tenure.id
        entry = _entry(game, tenure, number, first, places)
        if entry is not None and tenure.user_id not in entries:
            entries[tenure.user_id] = entry
    ordered = sorted(entries.values(), key=lambda e: (e.place, e.seat_key, e.tenure_id or 0))
    seat_places = tuple(sorted((seat_key(game, n), p) for n, p in places.items()))
    return Match(game.id, game.players, tuple(ordered), seat_places)


def _entry(game: Game, tenure: SeatTenure, number: int, first: bool, places: dict[int, int]) -> Entry | None:
    key = seat_key(game, number)
    if tenure.ended_at is None and number in places:
        outcome = "finished" if first else "replacement"
        return Entry(tenure.user_id, tenure.id, key, places[number], outcome)
    if tenure.end_reason in ABANDONED:
        return Entry(tenure.user_id, tenure.id, key, game.players + 1, str(tenure.end_reason))
    return None


# --- storing -----------------------------------------------------------------------------------------


def locked_book(session: Session, game_type: str) -> RatingBook:
    insert_ignoring_conflicts(session, RatingBook, game_type=game_type, games=0)
    book = session.scalar(select(RatingBook).where(RatingBook.game_type == game_type).with_for_update())
    assert book is not None
    return book


def rate_finished_game(session: Session, game: Game, now: datetime) -> None:
    """Take a game that just ended into the ratings (inside the caller's transaction); idempotent."""
    if game.status != "finished" or not game.standings or not bot_seats.rated(game):
        return
    book = locked_book(session, game.game_type)
    if session.get(RatedGame, game.id) is not None:
        return
    book.games += 1
    session.add(RatedGame(game_id=game.id, game_type=game.game_type, seq=book.games, rated_at=now))
    match = match_of(session, game)
    skills = stored_skills(session, game.game_type, [entry.user_id for entry in match.entries])
    tallies = stored_tallies(session, game.game_type, [key for key, _ in match.seat_places])
    changed = rate_match(skills, tallies, match)
    add_places(tallies, match)
    _write_changes(session, game, book.games, match, skills, changed, now)
    _write_tallies(session, game.game_type, tallies)
    session.flush()


def stored_skills(session: Session, game_type: str, user_ids: Iterable[int]) -> dict[int, Skill]:
    rows = session.scalars(
        select(Rating).where(Rating.game_type == game_type, Rating.user_id.in_(list(user_ids)))
    )
    return {row.user_id: Skill(row.mu, row.sigma, row.games) for row in rows}


def stored_tallies(session: Session, game_type: str, keys: Iterable[str]) -> dict[str, SeatTally]:
    rows = session.scalars(
        select(SeatStat).where(SeatStat.game_type == game_type, SeatStat.seat_key.in_(list(keys)))
    )
    return {row.seat_key: SeatTally(row.games, row.place_total, row.relative_total) for row in rows}


def _write_changes(
    session: Session,
    game: Game,
    seq: int,
    match: Match,
    before: Mapping[int, Skill],
    after: Mapping[int, Skill],
    now: datetime,
) -> None:
    for entry in match.entries:
        old, new = before.get(entry.user_id, NEW_SKILL), after.get(entry.user_id)
        if new is None:
            continue
        _save_skill(session, entry.user_id, game.game_type, new, now)
        session.add(
            RatingChange(
                game_id=game.id,
                tenure_id=entry.tenure_id,
                user_id=entry.user_id,
                game_type=game.game_type,
                seq=seq,
                outcome=entry.outcome,
                place=entry.place,
                seat_key=entry.seat_key,
                mu_before=old.mu,
                sigma_before=old.sigma,
                mu_after=new.mu,
                sigma_after=new.sigma,
                created_at=now,
            )
        )


def _save_skill(session: Session, user_id: int, game_type: str, skill: Skill, now: datetime) -> None:
    row = session.get(Rating, (user_id, game_type))
    if row is None:
        row = Rating(user_id=user_id, game_type=game_type)
        session.add(row)
    row.mu, row.sigma, row.ordinal, row.games, row.updated_at = (
        skill.mu,
        skill.sigma,
        skill.ordinal,
        skill.games,
        now,
    )


def _write_tallies(session: Session, game_type: str, tallies: Mapping[str, SeatTally]) -> None:
    for key, tally in tallies.items():
        row = session.get(SeatStat, (game_type, key))
        if row is None:
            row = SeatStat(game_type=game_type, seat_key=key)
            session.add(row)
        row.games, row.place_total, row.relative_total = tally.games, tally.place_total, tally.relative_total


# --- recomputing from the history ---------------------------------------------------------------------


def games_in_rating_order(session: Session, game_type: str) -> list[Game]:
    """Finished games of the type: those rated, in their order, then any never rated (by end time)."""
    rated = session.scalars(
        select(Game)
        .join(RatedGame, RatedGame.game_id == Game.id)
        .where(RatedGame.game_type == game_type)
        .order_by(RatedGame.seq)
    ).all()
    rated_ids = {game.id for game in rated}
    others = session.scalars(
        select(Game)
        .where(Game.game_type == game_type, Game.status == "finished")
        .order_by(Game.finished_at, Game.id)
    ).all()
    return [*rated, *(game for game in others if game.id not in rated_ids)]


def recompute(session: Session, game_type: str) -> Book:
    """Every rating and seat tally of the game type, computed afresh from the finished games alone."""
    book = Book()
    for game in games_in_rating_order(session, game_type):
        if game.standings:
            play_match(book, match_of(session, game))
    return book


def stored_book(session: Session, game_type: str) -> Book:
    skills = {
        row.user_id: Skill(row.mu, row.sigma, row.games)
        for row in session.scalars(select(Rating).where(Rating.game_type == game_type))
    }
    tallies = {
        row.seat_key: SeatTally(row.games, row.place_total, row.relative_total)
        for row in session.scalars(select(SeatStat).where(SeatStat.game_type == game_type))
    }
    return Book(skills, tallies)


def rebuild(session: Session, game_type: str, now: datetime) -> int:
    """Throw the stored ratings of the type away and rate every finished game again; returns the count."""
    book = locked_book(session, game_type)
    games = [game for game in games_in_rating_order(session, game_type) if game.standings]
    for table in (RatingChange, RatedGame, Rating, SeatStat):
        session.execute(delete(table).where(table.game_type == game_type))
    book.games = 0
    session.flush()
    for game in games:
        rate_finished_game(session, game, now)
    session.commit()
    return len(games)


# --- reading -----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class RankRow:
    rank: int
    user_id: int
    name: str
    games: int
    average_place: float | None


@dataclass(frozen=True)
class Rank:
    game_type: str
    rank: int
    total: int


def ranking(session: Session, game_type: str, offset: int = 0, limit: int = LIST_LIMIT) -> list[RankRow]:
    """Players of the game type in rating order (equal ordinals share a rank)."""
    rows = session.execute(
        select(Rating.user_id, User.display_name, Rating.games, Rating.ordinal)
        .join(User, User.id == Rating.user_id)
        .where(Rating.game_type == game_type)
        .order_by(Rating.ordinal.desc(), Rating.user_id)
        .offset(max(0, offset))
        .limit(limit)
    ).all()
    if not rows:
        return []
    averages = average_places(session, game_type, [row[0] for row in rows])
    top = session.scalar(
        select(func.count()).where(Rating.game_type == game_type, Rating.ordinal > rows[0][3])
    )
    ranked, rank, previous = [], (top or 0) + 1, rows[0][3]
    for index, (user_id, name, games, ordinal) in enumerate(rows):
        if ordinal != previous:
            rank = max(0, offset) + index + 1  # competition ranking: 1, 1, 3
        previous = ordinal
        ranked.append(RankRow(rank, user_id, name, games, averages.get(user_id)))
    return ranked


def average_places(session: Session, game_type: str, user_ids: list[int]) -> dict[int, float]:
    rows = session.execute(
        select(RatingChange.user_id, func.avg(RatingChange.place))
        .where(
            RatingChange.game_type == game_type,
            RatingChange.user_id.in_(user_ids),
            RatingChange.outcome.in_(("finished", "replacement")),
        )
        .group_by(RatingChange.user_id)
    )
    return {user_id: float(average) for user_id, average in rows if average is not None}


def ranks_of(session: Session, user_id: int) -> list[Rank]:
    found = []
    for row in session.scalars(select(Rating).where(Rating.user_id == user_id).order_by(Rating.game_type)):
        above = session.scalar(
            select(func.count()).where(Rating.game_type == row.game_type, Rating.ordinal > row.ordinal)
        )
        total = session.scalar(select(func.count()).where(Rating.game_type == row.game_type))
        found.append(Rank(row.game_type, (above or 0) + 1, total or 0))
    return found


@dataclass(frozen=True)
class RankMove:
    """Where one game moved a player in its type's ranking: ranks as they stood just before and just after
    it (later games do not change them). `before` is None for a player's first rated game."""

    before: int | None
    after: int
    total: int  # players ranked just after the game


def rank_moves(session: Session, game_id: int) -> dict[int, RankMove]:
    """Each rated player of a finished game (by user id) and how the game moved them in the ranking."""
    changes = session.scalars(select(RatingChange).where(RatingChange.game_id == game_id)).all()
    if not changes:
        return {}
    game_type, seq = changes[0].game_type, changes[0].seq
    before, after = _ordinals_as_of(session, game_type, seq - 1), _ordinals_as_of(session, game_type, seq)
    return {
        change.user_id: RankMove(
            _rank_in(before, before[change.user_id]) if change.user_id in before else None,
            _rank_in(after, after[change.user_id]),
            len(after),
        )
        for change in changes
        if change.user_id in after
    }


def seat_rank_moves(session: Session, game: GameFacts) -> dict[int, RankMove]:
    """The ranking move of each seat's final holder, by seat number (empty before the end)."""
    if game.status != "finished":
        return {}
    by_user = rank_moves(session, game.id)
    return {
        seat.number: by_user[seat.user_id]
        for seat in game.seats
        if seat.number is not None and seat.user_id in by_user
    }


def _ordinals_as_of(session: Session, game_type: str, seq: int) -> dict[int, float]:
    """Each player's ordinal once the type's games up to `seq` were rated."""
    latest = (
        select(RatingChange.user_id, func.max(RatingChange.seq).label("seq"))
        .where(RatingChange.game_type == game_type, RatingChange.seq <= seq)
        .group_by(RatingChange.user_id)
        .subquery()
    )
    rows = session.execute(
        select(RatingChange.user_id, RatingChange.mu_after, RatingChange.sigma_after).join(
            latest,
            and_(
                RatingChange.user_id == latest.c.user_id,
                RatingChange.seq == latest.c.seq,
                RatingChange.game_type == game_type,
            ),
        )
    )
    return {user_id: mu - 3 * sigma for user_id, mu, sigma in rows}


def _rank_in(ordinals: Mapping[int, float], ordinal: float) -> int:
    """Competition ranking, as on the rankings page: 1, 1, 3."""
    return 1 + sum(1 for other in ordinals.values() if other > ordinal)


@dataclass(frozen=True)
class SeatRow:
    seat_key: str
    games: int
    average_place: float


def seat_statistics(session: Session, game_type: str) -> list[SeatRow]:
    """Each seat (or drafted choice) with its average finishing place, best first."""
    rows = session.scalars(select(SeatStat).where(SeatStat.game_type == game_type, SeatStat.games > 0))
    found = [SeatRow(row.seat_key, row.games, row.place_total / row.games) for row in rows]
    return sorted(found, key=lambda row: (row.average_place, row.seat_key))


def skill_means_of(session: Session, user_id: int) -> dict[str, float]:
    """The user's skill estimate (mu) in each game type they are rated in."""
    rows = session.execute(select(Rating.game_type, Rating.mu).where(Rating.user_id == user_id))
    return {game_type: float(mu) for game_type, mu in rows}


def game_types_rated(session: Session) -> list[str]:
    return list(session.scalars(select(RatingBook.game_type).order_by(RatingBook.game_type)))


def describe(book: Book) -> dict[str, Any]:
    """A comparable plain form of a book (for tests and the rebuild check)."""
    return {
        "skills": {user: (s.mu, s.sigma, s.games) for user, s in sorted(book.skills.items())},
        "tallies": {
            key: (t.games, t.place_total, t.relative_total) for key, t in sorted(book.tallies.items())
        },
    }
