"""Friends and blocks.

A friends list is one person's own: adding someone needs nobody's consent, and gives no power over them. It
lets you invite them into a game you create (they are seated only if they accept) and offer them your seat
when you quit (they take it only if they want it). A block works both
ways: the two are never seated at the same table (joining, the queue, an invitation or a replacement).
Blocking someone also takes each off the other's friends list.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import delete, func, or_, select
from sqlalchemy.orm import Session

from app.models import Block, Friendship, User
from app.models.records import UserFacts
from app.models.users import name_key
from app.services.errors import ServiceError

MAX_FRIENDS = 500
SUGGESTIONS = 5  # names offered when a typed name finds no one, or several


@dataclass(frozen=True)
class Person:
    id: int
    name: str


@dataclass(frozen=True)
class Lists:
    friends: list[Person]
    blocked: list[Person]


def user_named(session: Session, name: str, field: str = "name") -> User:
    """The player with this name, typed exactly or without its accents and case ("chloe" finds "Chloé");
    refused with the nearest names when it is ambiguous or unknown."""
    wanted = " ".join(name.split())
    exact = session.scalar(select(User).where(User.display_name == wanted))
    if exact is not None:
        return exact
    key = name_key(wanted)
    same = session.scalars(
        select(User).where(User.name_key == key).order_by(User.display_name).limit(SUGGESTIONS)
    ).all()
    if len(same) == 1:
        return same[0]
    if same:
        names = ", ".join(user.display_name for user in same)
        raise ServiceError(
            "invalid_input",
            "Several players are called that: %(names)s. Type the name exactly.",
            field,
            params={"names": names},
        )
    near = names_like(session, wanted)
    if near:
        raise ServiceError(
            "invalid_input",
            "There is no player called %(name)s. Did you mean %(names)s?",
            field,
            params={"name": wanted, "names": ", ".join(near)},
        )
    raise ServiceError("invalid_input", "There is no player with this name.", field)


def names_like(session: Session, typed: str, limit: int = SUGGESTIONS) -> list[str]:
    """Players' names that begin with what was typed, then those that contain it, accents and case aside."""
    key = name_key(typed)
    if len(key) < 2:
        return []
    pattern = key.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    found: list[str] = []
    for like in (f"{pattern}%", f"%{pattern}%"):
        query = (
            select(User.display_name)
            .where(User.name_key.like(like, escape="\\"), User.display_name.not_in(found))
            .order_by(User.name_key, User.display_name)
            .limit(limit - len(found))
        )
        found += session.scalars(query).all()
        if len(found) >= limit:
            break
    return found


def is_friend(session: Session, user_id: int, friend_id: int) -> bool:
    query = select(Friendship.user_id).where(Friendship.user_id == user_id, Friendship.friend_id == friend_id)
    return session.scalar(query) is not None


def blocked_between(session: Session, user_id: int) -> set[int]:
    """Everyone the user blocked or was blocked by."""
    rows = session.execute(
        select(Block.user_id, Block.blocked_id).where(
            or_(Block.user_id == user_id, Block.blocked_id == user_id)
        )
    )
    return {other for pair in rows for other in pair if other != user_id}


def any_block_among(session: Session, user_ids: Iterable[int]) -> bool:
    ids = list(set(user_ids))
    query = select(Block.user_id).where(Block.user_id.in_(ids), Block.blocked_id.in_(ids)).limit(1)
    return session.scalar(query) is not None


def add_friend(session: Session, user: UserFacts, name: str, now: datetime) -> User:
    friend = user_named(session, name)
    if friend.id == user.id:
        raise ServiceError("invalid_input", "You cannot add yourself.", "name")
    if friend.id in blocked_between(session, user.id):
        raise ServiceError("blocked", "One of you has blocked the other.", "name")
    if not is_friend(session, user.id, friend.id):
        if _count(session, user.id) >= MAX_FRIENDS:
            raise ServiceError("invalid_input", "Your friends list is full.", "name")
        session.add(Friendship(user_id=user.id, friend_id=friend.id, created_at=now))
    session.commit()
    return friend


def _count(session: Session, user_id: int) -> int:
    return session.scalar(select(func.count()).where(Friendship.user_id == user_id)) or 0


def remove_friend(session: Session, user: UserFacts, friend_id: int) -> None:
    session.execute(
        delete(Friendship).where(Friendship.user_id == user.id, Friendship.friend_id == friend_id)
    )
    session.commit()


def block(session: Session, user: UserFacts, name: str, now: datetime) -> User:
    other = user_named(session, name)
    if other.id == user.id:
        raise ServiceError("invalid_input", "You cannot block yourself.", "name")
    exists = select(Block.user_id).where(Block.user_id == user.id, Block.blocked_id == other.id)
    if session.scalar(exists) is None:
        session.add(Block(user_id=user.id, blocked_id=other.id, created_at=now))
    session.execute(
        delete(Friendship).where(
            or_(
                (Friendship.user_id == user.id) & (Friendship.friend_id == other.id),
                (Friendship.user_id == other.id) & (Friendship.friend_id == user.id),
            )
        )
    )
    session.commit()
    return other


def unblock(session: Session, user: UserFacts, blocked_id: int) -> None:
    session.execute(delete(Block).where(Block.user_id == user.id, Block.blocked_id == blocked_id))
    session.commit()


def lists_of(session: Session, user: UserFacts) -> Lists:
    friends = session.execute(
        select(User.id, User.display_name)
        .join(Friendship, Friendship.friend_id == User.id)
        .where(Friendship.user_id == user.id)
        .order_by(User.display_name)
    )
    blocked = session.execute(
        select(User.id, User.display_name)
        .join(Block, Block.blocked_id == User.id)
        .where(Block.user_id == user.id)
        .order_by(User.display_name)
    )
    return Lists([Person(*row) for row in friends], [Person(*row) for row in blocked])


def friends_named(session: Session, user: UserFacts, names: Iterable[str]) -> list[User]:
    """The users behind `names`, each of whom must be on the user's friends list."""
    found: list[User] = []
    for name in dict.fromkeys(n for n in (" ".join(raw.split()) for raw in names) if n):
        friend = user_named(session, name, "friends")
        if not is_friend(session, user.id, friend.id):
            raise ServiceError("invalid_input", "Only players on your friends list can be added.", "friends")
        found.append(friend)
    return found
