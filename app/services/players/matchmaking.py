"""Who may sit with whom. Every way into a game checks it: joining, the queue, a creator's invitation,
taking an open seat and being named as a replacement.

- Anti-collusion: nobody shares more than SHARED_GAMES_CAP unfinished (forming or running) games with the
  same person. Sharing a game means both hold a seat of it now; quitting a game ends the sharing.
- Blocks: two players one of whom blocked the other never sit at the same table.
- The creator's reliability gate (`Game.min_reliability`, a percentage) for joining, the queue and open
  seats; not for the creator's own invitations, nor for a seat its quitting holder offered to a friend.

`check_may_sit` locks the rows of the users involved (in id order) before counting, so two joins that
would together break the cap are serialised on Postgres: the second one sees the first.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime

from sqlalchemy import func, select
from sqlalchemy.orm import Session, aliased

from app.models import Game, Seat, User
from app.models.records import UserFacts
from app.services.errors import ServiceError
from app.services.players import friends, profiles
from app.services.sanctions import sanctions

SHARED_GAMES_CAP = 3
UNFINISHED = ("open", "active")
# Made once: an alias builds its column proxies on first use, which costs more than the query it serves.
_MINE, _THEIRS = aliased(Seat, name="mine"), aliased(Seat, name="theirs")


@dataclass(frozen=True)
class Obstacle:
    """Why a player may not sit at a table."""

    kind: str  # shared_games, blocked, reliability, played (held a seat of that game before)
    other: str | None = None  # the player they share too many games with

    def error(self) -> ServiceError:
        if self.kind == "shared_games":
            return ServiceError(
                "shared_games_cap",
                "You would share more than three unfinished games with the same player.",
            )
        if self.kind == "blocked":
            return ServiceError("blocked", "A player of this game has blocked you, or you blocked them.")
        if self.kind == "played":
            return ServiceError("already_joined", "You are, or were, in this game.")
        return ServiceError("reliability_gate", "This game's creator asks for a better reliability.")


def members_of(game: Game) -> list[int]:
    """The users holding a seat of the game now."""
    return [seat.user_id for seat in game.seats if seat.user_id is not None and seat.status == "playing"]


def shared_counts(session: Session, user_id: int) -> dict[int, int]:
    """For each other player, the unfinished games they share with the user."""
    mine, theirs = _MINE, _THEIRS
    rows = session.execute(
        select(theirs.user_id, func.count(func.distinct(mine.game_id)))
        .select_from(mine)
        .join(theirs, (theirs.game_id == mine.game_id) & (theirs.user_id != mine.user_id))
        .join(Game, Game.id == mine.game_id)
        .where(
            mine.user_id == user_id,
            mine.status == "playing",
            theirs.status == "playing",
            Game.status.in_(UNFINISHED),
        )
        .group_by(theirs.user_id)
    )
    return {other: count for other, count in rows if other is not None}


def at_cap(session: Session, user_id: int) -> set[int]:
    """The players the user may not meet in one more game."""
    return {other for other, count in shared_counts(session, user_id).items() if count >= SHARED_GAMES_CAP}


def names_of(session: Session, user_ids: Iterable[int]) -> dict[int, str]:
    ids = sorted(set(user_ids))
    if not ids:
        return {}
    rows = session.execute(select(User.id, User.display_name).where(User.id.in_(ids)))
    return {user_id: name for user_id, name in rows}


@dataclass(frozen=True)
class Standing:
    """What stands between one player and the tables: computed once, checked against many games."""

    capped: set[int]
    blocked: set[int]
    reliability: profiles.Reliability

    def obstacles(self, others: Iterable[int], gate: int | None, names: dict[int, str]) -> list[Obstacle]:
        found = []
        others = list(others)
        if any(other in self.blocked for other in others):
            found.append(Obstacle("blocked"))
        found += [Obstacle("shared_games", names.get(other)) for other in others if other in self.capped]
        if not self.reliability.passes(gate):
            found.append(Obstacle("reliability"))
        return found


def standing_of(session: Session, user_id: int) -> Standing:
    return Standing(
        at_cap(session, user_id),
        friends.blocked_between(session, user_id),
        profiles.reliability(session, user_id),
    )


def lock_users(session: Session, user_ids: Iterable[int]) -> None:
    """Serialise the seat checks of these users, locked in ascending id. On Postgres the lock is FOR NO KEY
    UPDATE: it excludes the other checks but not the rows that merely refer to a user (a notification, a
    mail settings row made by the mail worker in the order of its batch), whose foreign key takes a KEY
    SHARE lock on the user; FOR UPDATE would wait for them and deadlock with such a batch."""
    ids = sorted(set(user_ids))
    locked = select(User.id).where(User.id.in_(ids)).order_by(User.id).with_for_update(key_share=True)
    session.execute(locked).all()


def check_may_sit(
    session: Session, game: Game, user: UserFacts, *, leaving: int | None = None, gate: bool = True
) -> None:
    """Refuse (ServiceError) a seat for `user` at `game`'s table; `leaving`: a holder about to go."""
    sanctions.check_may_join(user, datetime.now(UTC))  # a banned or join-banned user sits nowhere new
    others = [member for member in members_of(game) if member not in (user.id, leaving)]
    lock_users(session, [user.id, *others])
    found = standing_of(session, user.id).obstacles(
        others, game.min_reliability if gate else None, names_of(session, others)
    )
    if found:
        raise found[0].error()


def may_sit_together(session: Session, user_ids: list[int]) -> bool:
    """Whether these players may all meet in one more game (no block among them, nobody at the cap)."""
    if friends.any_block_among(session, user_ids):
        return False
    for index, user_id in enumerate(user_ids):
        capped = at_cap(session, user_id)
        if any(other in capped for other in user_ids[index + 1 :]):
            return False
    return True
