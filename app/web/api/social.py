"""The JSON API of the ways into games: the queue, friends and blocks, the seat draft, the Open tab,
rankings and profiles."""

from __future__ import annotations

from datetime import datetime

from fastapi import APIRouter, Response
from pydantic import BaseModel, Field

from app.games import registry
from app.services.errors import not_found
from app.services.paging import Page
from app.services.play import draft
from app.services.players import friends, profiles, ratings
from app.services.social import open_games, queue
from app.web.api.schemas import ERROR_RESPONSES, GameSummary
from app.web.deps import DB, CurrentUser, Limiter, MaybeUser, Now

router = APIRouter(tags=["players"], responses=ERROR_RESPONSES)


# --- the queue --------------------------------------------------------------------------------------


class QueueEntryOut(BaseModel):
    game_type: str
    min_hours: int
    max_hours: int | None
    new_games: bool
    in_progress: bool
    min_players: int | None = Field(description="The smallest table accepted; null: any.")
    max_players: int | None = Field(description="The largest table accepted; null: any.")
    since: datetime


class PlacementOut(BaseModel):
    user_id: int
    game_id: int
    how: str


@router.get("/queue")
def my_queue(session: DB, user: CurrentUser) -> list[QueueEntryOut]:
    return [
        QueueEntryOut(
            game_type=entry.game_type,
            min_hours=entry.min_hours,
            max_hours=entry.max_hours,
            new_games=entry.new_games,
            in_progress=entry.in_progress,
            min_players=entry.min_players,
            max_players=entry.max_players,
            since=entry.created_at,
        )
        for entry in queue.entries_of(session, user)
    ]


@router.put("/queue/{game_type}")
def enter_queue(
    game_type: str, body: queue.QueuePreferences, session: DB, user: CurrentUser, now: Now, limiter: Limiter
) -> list[PlacementOut]:
    """Enter the queue of a game type (or change your entry); the placements this made, yours included."""
    limiter.queue_change(user.id)
    placed = queue.enter(session, user, game_type, body, now)
    return [PlacementOut(user_id=p.user_id, game_id=p.game_id, how=p.how) for p in placed]


@router.delete("/queue/{game_type}", status_code=204)
def leave_queue(game_type: str, session: DB, user: CurrentUser, limiter: Limiter) -> Response:
    limiter.queue_change(user.id)
    queue.leave(session, user, game_type)
    return Response(status_code=204)


# --- friends and blocks -----------------------------------------------------------------------------


class NameIn(BaseModel):
    name: str = Field(max_length=80)


class PersonOut(BaseModel):
    id: int
    name: str


class ListsOut(BaseModel):
    friends: list[PersonOut]
    blocked: list[PersonOut]


@router.get("/friends")
def my_lists(session: DB, user: CurrentUser) -> ListsOut:
    lists = friends.lists_of(session, user)
    return ListsOut(
        friends=[PersonOut(id=p.id, name=p.name) for p in lists.friends],
        blocked=[PersonOut(id=p.id, name=p.name) for p in lists.blocked],
    )


@router.post("/friends", status_code=201)
def add_friend(body: NameIn, session: DB, user: CurrentUser, now: Now) -> PersonOut:
    friend = friends.add_friend(session, user, body.name, now)
    return PersonOut(id=friend.id, name=friend.display_name)


@router.delete("/friends/{user_id}", status_code=204)
def remove_friend(user_id: int, session: DB, user: CurrentUser) -> Response:
    friends.remove_friend(session, user, user_id)
    return Response(status_code=204)


@router.post("/blocks", status_code=201)
def block(body: NameIn, session: DB, user: CurrentUser, now: Now) -> PersonOut:
    other = friends.block(session, user, body.name, now)
    return PersonOut(id=other.id, name=other.display_name)


@router.delete("/blocks/{user_id}", status_code=204)
def unblock(user_id: int, session: DB, user: CurrentUser) -> Response:
    friends.unblock(session, user, user_id)
    return Response(status_code=204)


# --- the seat draft ---------------------------------------------------------------------------------


class DraftRowOut(BaseModel):
    seat: int
    player: str | None
    choice: str | None
    awaited: bool


class DraftOut(BaseModel):
    visible: bool  # false for spectators: nothing of the game shows before its set-up ends
    your_seat: int | None
    rows: list[DraftRowOut]
    free: list[str]
    your_preselection: str | None
    awaited_seat: int | None
    deadline_at: datetime | None


class DraftIn(BaseModel):
    choice: str | None = Field(None, max_length=40)  # null: withdraw your pre-selection


def draft_out(view: draft.DraftView) -> DraftOut:
    return DraftOut(
        visible=view.visible,
        your_seat=view.seat if view.visible else None,
        rows=[
            DraftRowOut(seat=r.seat, player=r.player, choice=r.choice, awaited=r.awaited) for r in view.rows
        ],
        free=view.free,
        your_preselection=view.preselection,
        awaited_seat=view.awaited,
        deadline_at=view.deadline_at,
    )


@router.get("/games/{game_id}/draft")
def get_draft(game_id: int, session: DB, user: MaybeUser) -> DraftOut:
    return draft_out(draft.draft_view(session, game_id, user))


@router.post("/games/{game_id}/draft")
def choose(game_id: int, body: DraftIn, session: DB, user: CurrentUser, now: Now) -> DraftOut:
    """Choose on your turn, pre-select before it (secret until resolved), or withdraw (`choice` null)."""
    draft.choose(session, user, game_id, body.choice, now)
    return draft_out(draft.draft_view(session, game_id, user))


# --- the Open tab -----------------------------------------------------------------------------------


class TableOut(BaseModel):
    game: GameSummary
    seat: int | None  # an open seat of a running game; null: a game still forming
    recommended: bool
    reasons: list[str]  # why you may not sit there (empty: you may)
    shared_with: list[str]  # the players you already share three unfinished games with, at this table


class PageOut(BaseModel):
    number: int  # 1-based
    size: int
    total: int  # items in the whole list

    @classmethod
    def of(cls, page: Page) -> PageOut:
        return cls(number=page.number, size=page.size, total=page.total)


class OpenOut(BaseModel):
    tables: list[TableOut]
    hidden: list[TableOut]
    at_cap_with: list[str]
    games_page: PageOut  # the forming games among `tables`
    seats_page: PageOut  # the open seats among `tables`
    hidden_page: PageOut


def table_out(table: open_games.Table, recommended: open_games.Table | None) -> TableOut:
    return TableOut(
        game=GameSummary.of(table.game),
        seat=table.seat.seat if table.seat else None,
        recommended=recommended is not None and recommended.key == table.key,
        reasons=[obstacle.kind for obstacle in table.obstacles],
        shared_with=[o.other for o in table.obstacles if o.kind == "shared_games" and o.other],
    )


@router.get("/lobby/open")
def open_tables(
    session: DB, user: MaybeUser, now: Now, games_page: int = 1, seats_page: int = 1, hidden_page: int = 1
) -> OpenOut:
    """Recommended first (the nearest average rating to yours), then by that distance; hidden ones apart.
    Each list comes a page at a time."""
    wanted = open_games.Pages(games_page, seats_page, hidden_page)
    found = open_games.open_tables(session, user, now, wanted)
    visible = [found.recommended] if found.recommended else []
    visible += [
        t for t in [*found.games, *found.seats] if not found.recommended or t.key != found.recommended.key
    ]
    return OpenOut(
        tables=[table_out(t, found.recommended) for t in visible],
        hidden=[table_out(t, None) for t in found.hidden],
        at_cap_with=found.capped_with,
        games_page=PageOut.of(found.games_page),
        seats_page=PageOut.of(found.seats_page),
        hidden_page=PageOut.of(found.hidden_page),
    )


# --- rankings and profiles --------------------------------------------------------------------------


class RankOut(BaseModel):
    rank: int
    user_id: int
    name: str
    games: int
    average_place: float | None


class SeatStatOut(BaseModel):
    seat: str
    games: int
    average_place: float


class RankingsOut(BaseModel):
    game_type: str
    players: list[RankOut]
    seats: list[SeatStatOut]


@router.get("/rankings/{game_type}")
def rankings(game_type: str, session: DB, offset: int = 0, limit: int = 100) -> RankingsOut:
    """The relative order only: ratings themselves are never shown."""
    if not registry.known(game_type):
        raise not_found("This game type does not exist.")
    rows = ratings.ranking(session, game_type, max(0, offset), max(1, min(limit, 500)))
    return RankingsOut(
        game_type=game_type,
        players=[
            RankOut(rank=r.rank, user_id=r.user_id, name=r.name, games=r.games, average_place=r.average_place)
            for r in rows
        ],
        seats=[
            SeatStatOut(seat=s.seat_key, games=s.games, average_place=s.average_place)
            for s in ratings.seat_statistics(session, game_type)
        ],
    )


class ProfileOut(BaseModel):
    id: int
    name: str
    played: int
    finished: int
    quit: int
    evicted: int
    moves_in_time: int
    timeouts: int
    average_move_seconds: int | None
    reliability_percent: int | None
    current_games: list[GameSummary]
    ranks: dict[str, str]  # game type -> "rank/total"


@router.get("/users/{user_id}")
def profile(user_id: int, session: DB) -> ProfileOut:
    found = profiles.profile(session, user_id)
    counts, reliability = found.counts, found.reliability
    return ProfileOut(
        id=found.user.id,
        name=found.user.display_name,
        played=counts.played,
        finished=counts.finished,
        quit=counts.quit,
        evicted=counts.evicted,
        moves_in_time=reliability.moves,
        timeouts=reliability.timeouts,
        average_move_seconds=reliability.average_move_seconds,
        reliability_percent=reliability.percent,
        current_games=[GameSummary.of(game) for game in found.current],
        ranks={rank.game_type: f"{rank.rank}/{rank.total}" for rank in found.ranks},
    )
