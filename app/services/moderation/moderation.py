"""Roles and sanctions: who moderates, and bans, game-joining bans and mutes with their effects.

- Roles: player < moderator < admin. Admins grant and revoke roles (never their own, so there is always
  an admin). Moderators act on players only; admins on players and moderators.
- A sanction has a kind, a reason shown to the user, an optional note for moderators and an end (None:
  permanent; a mute always ends). A new sanction of a kind replaces the one in force. The end of each kind
  in force is kept on the user (`banned_until`, `join_banned_until`, `muted_until`), so every check is a
  comparison with now and a sanction simply runs out.
- A ban acts at once: the session version moves (every session dies on its next request), the user leaves
  every queue and forming game, each running game's seat opens for a replacement (the game goes on with
  the defaults, the other players are told), and the address may not sign up again.
- A game-joining ban: the user leaves the queues and may not join, create or take a seat in a game.
- A mute: no messages (`app.services.social.messages` reads `muted_until`).
- Lifting a ban within `seats.GIVE_BACK_HOURS` gives back each seat it opened that nobody took since.
- No moderator imposes or lifts a sanction of a player they share a forming or running game with
  (`refuse_sanction_conflict`): a short ban would take an opponent's seat, a mute silence them. Another
  moderator must; an administrator may.
Every action, lifting included, writes its audit entry in the same transaction, with the games its actor
shares with its subject ("shared_games") and that the conflict check ran ("conflict_checked").
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import ColumnElement, CompoundSelect, delete, or_, select
from sqlalchemy.orm import Session

from app.models import BannedEmail, Game, QueueEntry, Report, Sanction, Seat, SeatTenure, User
from app.models.moderation import SANCTION_KINDS
from app.models.records import UserFacts
from app.services.accounts import accounts
from app.services.deadlines import deadlines, notices
from app.services.errors import ServiceError, not_found
from app.services.mail import notify
from app.services.moderation import audit
from app.services.play import play, seats
from app.services.sanctions.sanctions import PERMANENT, canonical_email, in_force, is_banned

RANKS = {"player": 0, "moderator": 1, "admin": 2}
MAX_HOURS = 24 * 365 * 10
REASON_LENGTH = 500
NOTE_LENGTH = 1000
SEARCH_LIMIT = 50
UNTIL_COLUMNS = {"ban": "banned_until", "join_ban": "join_banned_until", "mute": "muted_until"}


# --- who may do what ---------------------------------------------------------------------------------


def require_moderator(user: UserFacts) -> None:
    if not user.is_moderator:
        raise ServiceError("forbidden", "Only moderators may do this.")


def require_admin(user: UserFacts) -> None:
    if not user.is_admin:
        raise ServiceError("forbidden", "Only administrators may do this.")


def require_outranks(actor: UserFacts, target: UserFacts) -> None:
    """Moderators act on players; admins on players and moderators; nobody on their own account."""
    if actor.id == target.id or RANKS.get(actor.role, 0) <= RANKS.get(target.role, 0):
        raise ServiceError("forbidden", "You may not take this action against this account.")


def played_in(session: Session, user_id: int, game_id: int) -> bool:
    """Whether the user holds a seat of the game or ever held one (its seat tenures record every holder)."""
    seated = select(Seat.id).where(Seat.game_id == game_id, Seat.user_id == user_id)
    held = (
        select(SeatTenure.id)
        .join(Seat, Seat.id == SeatTenure.seat_id)
        .where(Seat.game_id == game_id, SeatTenure.user_id == user_id)
    )
    return session.scalar(seated.limit(1)) is not None or session.scalar(held.limit(1)) is not None


def conflict_of_interest(
    session: Session, user: UserFacts, *, game_id: int | None = None, subject_id: int | None = None
) -> str | None:
    """Why `user` may not judge this: "about_self" (they are its subject), "own_game" (they play or played
    in its game); None when they may."""
    if subject_id is not None and subject_id == user.id:
        return "about_self"
    if game_id is not None and played_in(session, user.id, game_id):
        return "own_game"
    return None


def refuse_conflict_of_interest(
    session: Session, actor: UserFacts, *, game_id: int | None = None, subject_id: int | None = None
) -> str | None:
    """A moderator may not act in a game they play or played in, nor on a report about themselves or such
    a game: another moderator must. An administrator may; the conflict returned goes in the audit entry."""
    conflict = conflict_of_interest(session, actor, game_id=game_id, subject_id=subject_id)
    if conflict is None or actor.is_admin:
        return conflict
    if conflict == "about_self":
        raise ServiceError("conflict_of_interest", "This concerns you: another moderator must handle it.")
    raise ServiceError(
        "conflict_of_interest", "You play or have played in this game: another moderator must handle it."
    )


def _games_played_in(user_id: int) -> CompoundSelect:
    """The ids of the games the user holds a seat of or ever held one of."""
    held = (
        select(Seat.game_id)
        .join(SeatTenure, SeatTenure.seat_id == Seat.id)
        .where(SeatTenure.user_id == user_id)
    )
    return select(Seat.game_id).where(Seat.user_id == user_id).union(held)


def shared_games(session: Session, actor_id: int, subject_id: int) -> list[int]:
    """The forming or running games both users play or played in (a sanction would act on them)."""
    query = (
        select(Game.id)
        .where(
            Game.status.in_(("open", "active")),
            Game.id.in_(_games_played_in(actor_id)),
            Game.id.in_(_games_played_in(subject_id)),
        )
        .order_by(Game.id)
    )
    return list(session.scalars(query))


@dataclass(frozen=True)
class SanctionCheck:
    """The conflict check of a sanction: the games its actor shares with its subject, and the conflict an
    administrator acted with ("own_game"), for the audit entry."""

    shared: list[int]
    conflict: str | None

    def audited(self) -> dict[str, Any]:
        return {"conflict_checked": True, "shared_games": self.shared}

    def target(self, subject_id: int, sanction_id: int) -> audit.Target:
        game_id = self.shared[0] if self.shared else None  # the others are in the entry's "shared_games"
        return audit.Target(subject_id=subject_id, game_id=game_id, sanction_id=sanction_id)


def refuse_sanction_conflict(session: Session, actor: UserFacts, subject: UserFacts) -> SanctionCheck:
    """A sanction, or its lifting, decides who plays and speaks in the games its subject plays in: a
    moderator who plays or played in one of them may not impose or lift it (another moderator must), as they
    may not intervene in such a game. An administrator may; the audit entry records the conflict."""
    shared = shared_games(session, actor.id, subject.id)
    if shared and not actor.is_admin:
        raise ServiceError(
            "conflict_of_interest",
            "You play or have played in a game with this player: another moderator must handle it.",
        )
    return SanctionCheck(shared, "own_game" if shared else None)


def clean_text(text: str, field: str, limit: int, *, required: bool) -> str:
    cleaned = " ".join(text.split())
    if required and not cleaned:
        raise ServiceError("invalid_input", "Give a reason: it is kept in the audit log.", field)
    if len(cleaned) > limit:
        raise ServiceError("invalid_input", "This text is too long.", field)
    return cleaned


def get_user(session: Session, user_id: int) -> User:
    user = session.get(User, user_id)
    if user is None:
        raise not_found("This user does not exist.")
    return user


# --- roles -------------------------------------------------------------------------------------------


def change_role(
    session: Session, actor: UserFacts, user_id: int, role: str, reason: str, now: datetime
) -> User:
    """An admin grants or revokes a role (moderator, admin, or back to player)."""
    require_admin(actor)
    if role not in RANKS:
        raise ServiceError("invalid_input", "A role is player, moderator or admin.", "role")
    target = get_user(session, user_id)
    if target.id == actor.id:
        raise ServiceError("forbidden", "You may not change your own role.")
    why = clean_text(reason, "reason", REASON_LENGTH, required=True)
    before = {"role": target.role}
    target.role = role
    audit.record(
        session,
        actor,
        "role.change",
        reason=why,
        now=now,
        target=audit.Target(subject_id=target.id),
        before=before,
        after={"role": role},
    )
    session.commit()
    return target


def edit_user(
    session: Session,
    actor: UserFacts,
    user_id: int,
    display_name: str,
    email: str,
    reason: str,
    now: datetime,
) -> User:
    """An admin changes a user's display name or address (the site's rule: only they or the user may)."""
    require_admin(actor)
    target = get_user(session, user_id)
    why = clean_text(reason, "reason", REASON_LENGTH, required=True)
    before = {"display_name": target.display_name, "email": target.email}
    name, address = accounts.check_display_name(display_name), accounts.check_email(email)
    accounts.refuse_taken(session, address, name, exclude_id=target.id)
    target.display_name, target.email = name, address
    after = {"display_name": target.display_name, "email": target.email}
    audit.record(
        session, actor, "user.edit", reason=why, now=now, target=audit.Target(subject_id=target.id),
        before=before, after=after,
    )  # fmt: skip
    session.commit()
    return target


# --- sanctions in force ------------------------------------------------------------------------------


def active_sanctions(session: Session, user_id: int, now: datetime) -> list[Sanction]:
    query = select(Sanction).where(
        Sanction.user_id == user_id,
        Sanction.lifted_at.is_(None),
        or_(Sanction.ends_at.is_(None), Sanction.ends_at > now),
    )
    return list(session.scalars(query.order_by(Sanction.id)))


def refresh_flags(session: Session, user: UserFacts, now: datetime) -> None:
    """Put on the user the end of each kind of sanction in force (PERMANENT for a permanent one)."""
    session.flush()
    ends: dict[str, datetime | None] = dict.fromkeys(SANCTION_KINDS)
    for sanction in active_sanctions(session, user.id, now):
        end = sanction.ends_at or PERMANENT
        current = ends[sanction.kind]
        ends[sanction.kind] = end if current is None else max(current, end)
    for kind, column in UNTIL_COLUMNS.items():
        setattr(user, column, ends[kind])


def flags(user: UserFacts) -> dict[str, Any]:
    """The user's sanctions in force, as the audit log keeps them."""
    return {column: _iso(getattr(user, column)) for column in UNTIL_COLUMNS.values()}


def _iso(moment: datetime | None) -> str | None:
    return moment.isoformat() if moment is not None else None


# --- imposing and lifting ----------------------------------------------------------------------------


@dataclass(frozen=True)
class SanctionOrder:
    kind: str  # ban, join_ban, mute
    hours: int | None  # None: permanent (not for a mute)
    reason: str  # shown to the user
    note: str = ""  # for moderators only


def impose(session: Session, actor: UserFacts, user_id: int, order: SanctionOrder, now: datetime) -> Sanction:
    """Sanction a user, with immediate effect; a sanction of the same kind in force is replaced."""
    require_moderator(actor)
    target = get_user(session, user_id)
    check = refuse_sanction_conflict(session, actor, target)
    require_outranks(actor, target)
    ends_at = _checked_end(order, now)
    reason = clean_text(order.reason, "reason", REASON_LENGTH, required=True)
    note = clean_text(order.note, "note", NOTE_LENGTH, required=False)
    before = flags(target)
    for old in active_sanctions(session, target.id, now):
        if old.kind == order.kind:
            _end(old, actor, "Replaced by a new sanction.", now)
    sanction = Sanction(
        user_id=target.id,
        kind=order.kind,
        reason=reason,
        note=note,
        starts_at=now,
        ends_at=ends_at,
        created_by=actor.id,
    )
    session.add(sanction)
    refresh_flags(session, target, now)
    _apply_effects(session, target, sanction, now)
    data = {"sanction": order.kind, "until": _iso(ends_at), "reason": reason}
    notify.notify_users(session, [target.id], "sanctioned", data)
    audit.record(
        session,
        actor,
        "sanction.impose",
        reason=reason,
        now=now,
        target=check.target(target.id, sanction.id),
        before=before,
        after={**flags(target), "kind": order.kind, "note": note, **check.audited()},
        conflict=check.conflict,
    )
    session.commit()
    return sanction


def _checked_end(order: SanctionOrder, now: datetime) -> datetime | None:
    if order.kind not in SANCTION_KINDS:
        raise ServiceError("invalid_input", "A sanction is a ban, a game-joining ban or a mute.", "kind")
    if order.hours is None:
        if order.kind == "mute":
            raise ServiceError("invalid_input", "A mute needs a duration.", "hours")
        return None
    if not 1 <= order.hours <= MAX_HOURS:
        raise ServiceError("invalid_input", "A duration is 1 hour to 10 years.", "hours")
    return now + timedelta(hours=order.hours)


def _end(sanction: Sanction, actor: UserFacts, reason: str, now: datetime) -> None:
    sanction.lifted_at = now
    sanction.lifted_by = actor.id
    sanction.lift_reason = reason


def _apply_effects(session: Session, target: User, sanction: Sanction, now: datetime) -> None:
    if sanction.kind == "mute":
        return
    session.execute(delete(QueueEntry).where(QueueEntry.user_id == target.id))
    if sanction.kind == "ban":
        target.session_version += 1
        _bar_address(session, target.email, sanction)
        _leave_games(session, target, now)


def lift(session: Session, actor: UserFacts, sanction_id: int, reason: str, now: datetime) -> Sanction:
    """End a sanction early; the user is told, and the audit log keeps who and why."""
    require_moderator(actor)
    sanction = session.get(Sanction, sanction_id)
    if sanction is None:
        raise not_found("This sanction does not exist.")
    target = get_user(session, sanction.user_id)
    check = refuse_sanction_conflict(session, actor, target)
    require_outranks(actor, target)
    if sanction.lifted_at is not None or not in_force(sanction.ends_at or PERMANENT, now):
        raise ServiceError("wrong_status", "This sanction is already over.")
    why = clean_text(reason, "reason", REASON_LENGTH, required=True)
    before = flags(target)
    _end(sanction, actor, why, now)
    refresh_flags(session, target, now)
    given_back: list[int] = []
    if sanction.kind == "ban" and not is_banned(target, now):
        session.execute(delete(BannedEmail).where(BannedEmail.sanction_id.in_(_ban_ids(session, target))))
        given_back = _give_back_seats(session, target, now)
    notify.notify_users(session, [target.id], "sanction_lifted", {"sanction": sanction.kind})
    audit.record(
        session,
        actor,
        "sanction.lift",
        reason=why,
        now=now,
        target=check.target(target.id, sanction.id),
        before=before,
        after={**flags(target), **check.audited(), "seats_given_back": given_back},
        conflict=check.conflict,
    )
    session.commit()
    return sanction


def _ban_ids(session: Session, user: UserFacts) -> list[int]:
    query = select(Sanction.id).where(Sanction.user_id == user.id, Sanction.kind == "ban")
    return list(session.scalars(query))


# --- a ban's effects ---------------------------------------------------------------------------------


def _bar_address(session: Session, email: str, sanction: Sanction) -> None:
    session.flush()
    row = session.scalar(select(BannedEmail).where(BannedEmail.email == canonical_email(email)))
    if row is None:
        address = canonical_email(email)
        session.add(BannedEmail(email=address, sanction_id=sanction.id, created_at=sanction.starts_at))
    else:
        row.sanction_id = sanction.id


def _leave_games(session: Session, target: UserFacts, now: datetime) -> None:
    """Open the user's seats in running games (locked in id order) and take them out of forming games."""
    running = deadlines.active_games_of(session, target.id)
    forming = session.scalars(
        select(Seat.game_id)
        .join(Game, Game.id == Seat.game_id)
        .where(Seat.user_id == target.id, Game.status == "open")
    ).all()
    for game in deadlines.locked_games(session, [*running, *forming]):
        seat = next((s for s in game.seats if s.user_id == target.id and s.status == "playing"), None)
        if seat is None:
            continue
        if game.status == "active":
            open_seat_of_removed(session, game, seat, "banned", now)
        elif game.status == "open":
            _leave_forming(session, game, seat)
        play.announce(session, game)


def _give_back_seats(session: Session, target: User, now: datetime) -> list[int]:
    """The ids of the running games whose seat, opened by the ban, goes back to the user (locked in id
    order, as the ban locked them)."""
    opened = (
        select(Seat.game_id)
        .join(SeatTenure, SeatTenure.seat_id == Seat.id)
        .join(Game, Game.id == Seat.game_id)
        .where(SeatTenure.user_id == target.id, SeatTenure.end_reason == "banned", Game.status == "active")
    )
    given_back = []
    for game in deadlines.locked_games(session, sorted(set(session.scalars(opened)))):
        for seat in game.seats if game.status == "active" else []:
            if seats.give_back_after_ban(session, game, seat, target, now):
                given_back.append(game.id)
                play.announce(session, game)
    return given_back


def open_seat_of_removed(session: Session, game: Game, seat: Seat, reason: str, now: datetime) -> None:
    """A moderator took the player out: the seat opens for a replacement, the others are told."""
    former = seat.user_id
    seats.open_seat(session, game, seat, reason, now)
    notices.public_notice(session, game, "platform:moderation_seat_opened", {"seat": seat.number}, now)
    notices.notify_players(session, game, "player_removed", {"seat": seat.number, "user_id": former})


def _leave_forming(session: Session, game: Game, seat: Seat) -> None:
    """Out of a game still forming; its creator's place goes to the next player (none left: cancelled)."""
    leaving = seat.user_id
    game.seats.remove(seat)
    session.delete(seat)
    if game.creator_id == leaving:
        if game.seats:
            game.creator_id = next(s.user_id for s in game.seats if s.user_id is not None)
        else:
            game.status = "cancelled"
    notify.notify_game(session, game, "player_quit", {"user_id": leaving})


# --- reading -----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class SanctionInfo:
    sanction: Sanction
    by: str
    lifted_by: str | None
    in_force: bool


@dataclass(frozen=True)
class UserRecord:
    """What moderators see of one user."""

    user: User
    sanctions: list[SanctionInfo]
    reports_about: list[Report]
    games: list[Game]  # forming and running games the user plays in


def user_record(session: Session, viewer: UserFacts, user_id: int, now: datetime) -> UserRecord:
    require_moderator(viewer)
    user = get_user(session, user_id)
    rows = list(
        session.scalars(select(Sanction).where(Sanction.user_id == user.id).order_by(Sanction.id.desc()))
    )
    names = audit.names_of(session, {r.created_by for r in rows} | {r.lifted_by for r in rows if r.lifted_by})
    infos = [
        SanctionInfo(
            row,
            names.get(row.created_by, "?"),
            names.get(row.lifted_by) if row.lifted_by else None,
            row.lifted_at is None and in_force(row.ends_at or PERMANENT, now),
        )
        for row in rows
    ]
    about = select(Report).where(Report.subject_id == user.id).order_by(Report.id.desc()).limit(SEARCH_LIMIT)
    own_record = (
        viewer.id == user.id and not viewer.is_admin
    )  # no reports about oneself (conflict of interest)
    reports = [] if own_record else list(session.scalars(about))
    games = session.scalars(
        select(Game)
        .join(Seat, Seat.game_id == Game.id)
        .where(Seat.user_id == user.id, Seat.status == "playing", Game.status.in_(("open", "active")))
        .order_by(Game.id)
    )
    return UserRecord(user, infos, reports, list(games))


def find_users(session: Session, viewer: UserFacts, text: str) -> list[User]:
    """Users whose display name contains `text` (admins: or whose address does)."""
    require_moderator(viewer)
    needle = text.strip().lower()[:80]
    if not needle:
        return []
    pattern = f"%{needle.replace('%', '').replace('_', '')}%"
    condition: ColumnElement[bool] = User.display_name.ilike(pattern)
    if viewer.is_admin:
        condition = or_(condition, User.email.ilike(pattern))
    return list(
        session.scalars(select(User).where(condition).order_by(User.display_name).limit(SEARCH_LIMIT))
    )


def staff(session: Session) -> list[User]:
    """Moderators and admins, for assigning reports."""
    query = select(User).where(User.role.in_(("moderator", "admin"))).order_by(User.display_name)
    return list(session.scalars(query))
