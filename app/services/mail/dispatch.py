"""From notification rows to mails: preferences, coalescing, quiet hours, digests, and what each mail says.

`dispatch_notifications` claims due notification rows (`FOR UPDATE SKIP LOCKED`) and, in the same
transaction, decides what becomes of each one and queues the mails it makes, so a row yields at most one
mail whatever the number of workers. `send_digests` does the same per user whose digest time has come.

What a mail may say is decided here, from the database as it is when the mail is composed, never from the
notification row alone: a "your turn" whose wait is over is dropped, a private message goes only to whoever
holds one of its seats now, a game footer sees only the spectator's view. The renderer (templates and
translations, given by the web layer) receives nothing else.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime, time, timedelta
from functools import partial
from typing import Any, Protocol

from sqlalchemy import func, select
from sqlalchemy.orm import Session, sessionmaker

from app import clock
from app.db import transaction
from app.games import registry
from app.models import (
    Game,
    GameEvent,
    GameMessage,
    GameOrder,
    MailSettings,
    Notification,
    OutgoingMail,
    Seat,
    SeatTenure,
    User,
    WaitRow,
)
from app.services.accounts import tokens
from app.services.mail import mail, notify
from app.services.play import play
from app.services.players import ratings
from app.settings import Settings

log = logging.getLogger(__name__)
EVENTS_IN_MAIL = 10


@dataclass(frozen=True)
class Item:
    """One notification, ready for the templates of its kind."""

    kind: str
    context: dict[str, Any]
    to_address: str | None = None  # another address than the user's (a new one to check)


@dataclass(frozen=True)
class Letter:
    """One mail: a single item, or a digest of several (grouped by kind by the renderer)."""

    language: str
    zone: str
    items: Sequence[Item]
    digest: bool
    common: dict[str, Any] = field(default_factory=dict)


class MailRenderer(Protocol):
    def render(self, letter: Letter) -> mail.RenderedMail: ...


# --- the jobs ---------------------------------------------------------------------------------------------


def dispatch_notifications(
    sessions: sessionmaker[Session], settings: Settings, renderer: MailRenderer, now: datetime
) -> int:
    """Handle one batch of due notifications; returns how many rows were looked at."""
    with transaction(sessions) as session:
        rows = list(
            session.scalars(
                select(Notification)
                .where(
                    Notification.sent_at.is_(None),
                    Notification.outcome.is_(None),
                    (Notification.due_at.is_(None)) | (Notification.due_at <= now),
                )
                .order_by(Notification.id)
                .limit(settings.mail_batch_size)
                .with_for_update(skip_locked=True)
            )
        )
        for row in rows:
            _guarded(session, row, partial(_handle, session, settings, renderer, row, now), now)
        return len(rows)


def send_digests(
    sessions: sessionmaker[Session], settings: Settings, renderer: MailRenderer, now: datetime
) -> int:
    """Send the digests that are due; returns how many users were looked at."""
    with transaction(sessions) as session:
        due = list(
            session.scalars(
                select(MailSettings)
                .where(MailSettings.next_digest_at <= now)
                .order_by(MailSettings.next_digest_at)
                .limit(settings.mail_batch_size)
                .with_for_update(skip_locked=True)
            )
        )
        for row in due:
            row.next_digest_at = None  # the next digest notification schedules the next one
            try:
                with session.begin_nested():
                    _send_digest(session, settings, renderer, row, now)
            except Exception:  # its rows wait for the next digest; the others go
                log.exception("the digest of user %s could not be made", row.user_id)
        return len(due)


def _guarded(session: Session, row: Notification, work: Callable[[], None], now: datetime) -> None:
    """One row's handling in a savepoint: a row that breaks is set aside, not retried forever."""
    try:
        with session.begin_nested():
            work()
    except Exception:
        log.exception("notification %s (%s) could not be handled", row.id, row.kind)
        _done(row, "error", now)


def _done(row: Notification, outcome: str, now: datetime) -> None:
    row.outcome, row.sent_at = outcome, now


def _handle(
    session: Session, settings: Settings, renderer: MailRenderer, row: Notification, now: datetime
) -> None:
    user = session.get(User, row.user_id)
    if user is None:
        return _done(row, "no_user", now)
    if notify.kind_of(row.kind).account:
        return _mail_one(session, settings, renderer, row, user, now)
    mode = notify.mode_of(session, user.id, row.kind)
    own = session.get(MailSettings, user.id)
    if mode == "off":
        return _done(row, "off", now)
    if own is not None and own.failing_since is not None:
        return _done(row, "failing", now)
    if mode == "digest":
        row.outcome = "digest"
        return _schedule_digest(session, user, now)
    if row.kind == "your_turn" and not (own is not None and own.your_turn_always):
        if row.game_id is not None and notify.is_looking(session, user.id, row.game_id, now):
            return _done(row, "looking", now)
        coalesced_until = _last_turn_mail(session, row, settings)
        if coalesced_until is not None and coalesced_until > now:
            row.due_at = coalesced_until
            return None
    wake = quiet_hours_end(own, user.time_zone, now)
    if wake is not None:
        row.due_at = wake
        return None
    return _mail_one(session, settings, renderer, row, user, now)


def _last_turn_mail(session: Session, row: Notification, settings: Settings) -> datetime | None:
    """When the coalescing window of the last "your turn" mail for this game ends (None: no such mail)."""
    last = session.scalar(
        select(func.max(OutgoingMail.created_at)).where(
            OutgoingMail.user_id == row.user_id,
            OutgoingMail.game_id == row.game_id,
            OutgoingMail.kind == "your_turn",
        )
    )
    return last + timedelta(hours=settings.your_turn_every_hours) if last is not None else None


def quiet_hours_end(own: MailSettings | None, zone: str, now: datetime) -> datetime | None:
    """When the user's quiet hours end, if `now` is inside them."""
    if own is None or own.quiet_start_minute is None or own.quiet_end_minute is None:
        return None
    if own.quiet_start_minute == own.quiet_end_minute:
        return None
    awake = _awake(own, zone)
    wake = clock.push_into_window(awake, now)
    return wake if wake > now else None


def _awake(own: MailSettings, zone: str) -> clock.Availability:
    assert own.quiet_start_minute is not None and own.quiet_end_minute is not None
    start, end = notify.minute_time(own.quiet_end_minute), notify.minute_time(own.quiet_start_minute)
    return clock.daily(start, end, zone)


def next_digest_at(own: MailSettings, zone: str, now: datetime) -> datetime:
    """The next time the user's digest hour strikes on their wall clock, pushed out of quiet hours."""
    hour = own.digest_hour
    strike = clock.next_window_start(clock.daily(time(hour), time((hour + 1) % 24), zone), now)
    wake = quiet_hours_end(own, zone, strike)
    return wake or strike


def _schedule_digest(session: Session, user: User, now: datetime) -> None:
    own = notify.mail_settings(session, user.id)
    if own.next_digest_at is None:
        own.next_digest_at = next_digest_at(own, user.time_zone, now)


def _mail_one(
    session: Session,
    settings: Settings,
    renderer: MailRenderer,
    row: Notification,
    user: User,
    now: datetime,
) -> None:
    item = compose(session, settings, row, user, now)
    if item is None:
        return _done(row, "stale", now)
    mail_list = "all" if notify.kind_of(row.kind).account else row.kind
    _queue(session, settings, renderer, user, [item], mail_list, row.game_id, now, item.to_address)
    _done(row, "mailed", now)


def _send_digest(
    session: Session, settings: Settings, renderer: MailRenderer, own: MailSettings, now: datetime
) -> None:
    user = session.get(User, own.user_id)
    rows = session.scalars(
        select(Notification)
        .where(
            Notification.user_id == own.user_id,
            Notification.outcome == "digest",
            Notification.sent_at.is_(None),
        )
        .order_by(Notification.id)
    )
    items: list[Item] = []
    for row in rows:
        _done(row, "digested", now)
        if user is None or notify.mode_of(session, user.id, row.kind) == "off":
            row.outcome = "off"
            continue
        item = compose(session, settings, row, user, now)
        if item is None:
            row.outcome = "stale"
        else:
            items.append(item)
    if user is not None and items and own.failing_since is None:
        _queue(session, settings, renderer, user, items, "digest", None, now)


def _queue(
    session: Session,
    settings: Settings,
    renderer: MailRenderer,
    user: User,
    items: list[Item],
    mail_list: str,
    game_id: int | None,
    now: datetime,
    to_address: str | None = None,
) -> None:
    unsubscribe_url = (
        f"{settings.base_url}/unsubscribe/{tokens.unsubscribe_token(settings.secret_key, user.id, mail_list)}"
    )
    common = {
        "user_name": user.display_name,
        "base_url": settings.base_url,
        "preferences_url": f"{settings.base_url}/account/notifications",
        "unsubscribe_url": unsubscribe_url,
        "mail_list": mail_list,
        "now": now,
    }
    letter = Letter(user.language, user.time_zone, items, digest=mail_list == "digest", common=common)
    rendered = renderer.render(letter)
    envelope = mail.Envelope(user.display_name, to_address or user.email, unsubscribe_url, mail_list)
    kind = items[0].kind if len(items) == 1 and mail_list != "digest" else "digest"
    mail.enqueue(
        session,
        settings,
        envelope=envelope,
        mail=rendered,
        kind=kind,
        user_id=user.id,
        game_id=game_id,
        now=now,
    )


# --- what each kind says ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Source:
    session: Session
    settings: Settings
    row: Notification
    user: User
    game: Game | None
    now: datetime

    @property
    def data(self) -> Mapping[str, Any]:
        return self.row.data or {}

    def game_url(self, anchor: str = "", to_play: bool = False) -> str:
        """The game's page; `to_play`: a visitor not logged in is asked to log in first, then comes back."""
        assert self.game is not None
        query = "?play=1" if to_play else ""
        return f"{self.settings.base_url}/games/{self.game.id}{query}{anchor}"


def compose(
    session: Session, settings: Settings, row: Notification, user: User, now: datetime
) -> Item | None:
    """What the mail for `row` says to `user` now; None when there is nothing (left) to say."""
    game = session.get(Game, row.game_id) if row.game_id is not None else None
    if row.game_id is not None and (game is None or game.status == "cancelled"):
        return None
    source = Source(session, settings, row, user, game, now)
    composer = COMPOSERS.get(row.kind, _generic)
    context = composer(source)
    if context is None:
        return None
    if game is not None:
        context.setdefault("game", _game_context(source))
        context.setdefault("footer", _footer(game))
    return Item(row.kind, context, to_address=context.pop("send_to", None))


def _game_context(source: Source) -> dict[str, Any]:
    game = source.game
    assert game is not None
    return {
        "id": game.id,
        "name": game.name,
        "type": game.game_type,
        "title": registry.get(game.game_type).title if registry.known(game.game_type) else game.game_type,
        "url": source.game_url(),
        "players": _seat_names(source.session, game),
    }


def _footer(game: Game) -> dict[str, Any] | None:
    """What a game-specific footer may show: the spectator's view only, so it can leak nothing."""
    if game.state is None or not registry.known(game.game_type):
        return None
    rules = registry.get(game.game_type)
    return {"game_type": game.game_type, "view": rules.view(rules.load(game.state), None)}


def _seat_names(session: Session, game: Game) -> list[str | None]:
    ids = [seat.user_id for seat in game.seats if seat.user_id is not None]
    names = dict(session.execute(select(User.id, User.display_name).where(User.id.in_(ids))).all())
    players: list[str | None] = [None] * game.players
    for seat in game.seats:
        if seat.number is not None and seat.user_id is not None and seat.number < game.players:
            players[seat.number] = names.get(seat.user_id)
    return players


def _name(session: Session, user_id: Any) -> str | None:
    if not isinstance(user_id, int):
        return None
    return session.scalar(select(User.display_name).where(User.id == user_id))


def _held_seat(source: Source) -> int | None:
    """The seat the notification is about, if the recipient holds it now in a running game."""
    game = source.game
    if game is None or game.status != "active":
        return None
    wanted = source.data.get("seat")
    for seat in game.seats:
        mine = seat.user_id == source.user.id and seat.status == "playing" and seat.number is not None
        if mine and wanted in (None, seat.number):
            return seat.number
    return None


def _current_wait(source: Source) -> tuple[int, WaitRow] | None:
    seat = _held_seat(source)
    if seat is None or source.game is None:
        return None
    wait = source.session.scalar(
        select(WaitRow).where(WaitRow.game_id == source.game.id, WaitRow.seat == seat)
    )
    return (seat, wait) if wait is not None else None


def _turn_context(source: Source, seat: int, wait: WaitRow) -> dict[str, Any]:
    game = source.game
    assert game is not None
    rules = registry.get(game.game_type)
    state = rules.load(game.state) if game.state is not None else None  # None: the seat draft
    default = (
        dict(rules.default_order(state, seat)) if wait.deadline_at is not None and state is not None else None
    )
    return {
        "seat": seat,
        "phase": wait.phase,
        "deadline": wait.deadline_at,
        "default_order": default,
        "url": source.game_url("#game-orders", to_play=True),
    }


def _your_turn(source: Source) -> dict[str, Any] | None:
    found = _current_wait(source)
    if found is None:
        return None
    seat, wait = found
    since = source.data.get("since_version")
    if since is not None and since != wait.since_version:
        return None  # that wait is over; a newer notification speaks for the current one
    return {**_turn_context(source, seat, wait), "events": _events_since_own_order(source, seat)}


def _deadline_warning(source: Source) -> dict[str, Any] | None:
    found = _current_wait(source)
    if found is None:
        return None
    seat, wait = found
    if wait.deadline_at is None or wait.deadline_at <= source.now:
        return None
    return {**_turn_context(source, seat, wait), "left": wait.deadline_at - source.now}


def _events_since_own_order(source: Source, seat: int) -> list[dict[str, Any]]:
    """What this seat may see of what happened since its own last order (the newest few)."""
    game = source.game
    assert game is not None
    session = source.session
    last_own = session.scalar(
        select(func.max(GameOrder.seq)).where(GameOrder.game_id == game.id, GameOrder.seat == seat)
    )
    boundary = 0  # the last event of that order (the platform's own notices belong to no order)
    if last_own is not None:
        boundary = (
            session.scalar(
                select(func.max(GameEvent.seq)).where(
                    GameEvent.game_id == game.id, GameEvent.order_seq <= last_own
                )
            )
            or 0
        )
    events = play.visible_log(session, game.id, seat, limit=EVENTS_IN_MAIL)
    recent = [event for event in events if event.seq > boundary]
    return [{"seq": event.seq, "kind": event.kind, "data": event.data} for event in reversed(recent)]


def _game_news(source: Source) -> dict[str, Any] | None:
    """An event worth a mail (`Event.mail`), if the recipient may see it now: a public one, or one of
    the seats it was for is theirs."""
    game, data = source.game, source.data
    order_seq, index = data.get("order_seq"), data.get("index")
    if game is None or game.status not in ("active", "finished") or not isinstance(index, int) or index < 1:
        return None
    events = list(
        source.session.scalars(
            select(GameEvent)
            .where(GameEvent.game_id == game.id, GameEvent.order_seq == order_seq)
            .order_by(GameEvent.seq)
            .limit(index)
        )
    )
    event = events[index - 1] if len(events) == index else None
    if event is None or event.kind != data.get("kind"):
        return None
    if event.visible_to is not None:
        seat = play.viewer_seat(game, source.user)
        if seat is None or seat not in event.visible_to:
            return None
    return {"events": [{"seq": event.seq, "kind": event.kind, "data": event.data}], "url": source.game_url()}


def _game_started(source: Source) -> dict[str, Any] | None:
    if source.game is None or source.game.status not in ("active", "finished"):
        return None
    return {"url": source.game_url()}


def _player_joined(source: Source) -> dict[str, Any] | None:
    """Someone took a place: before the start (`user_id`) or an open seat of a running game (`seat`)."""
    game = source.game
    if game is None:
        return None
    who = _name(source.session, source.data.get("user_id"))
    seat = source.data.get("seat")
    if who is None and isinstance(seat, int):
        who = _seat_names(source.session, game)[seat] if seat < game.players else None
    return {
        "who": who,
        "seat": seat,
        "taken": len(game.seats),
        "total": game.players,
        "url": source.game_url(),
    }


def _player_gone(source: Source) -> dict[str, Any] | None:
    """A player quit or was evicted (public facts about seats); `evicted` goes to that player."""
    if source.game is None:
        return None
    seat = source.data.get("seat")
    who = _name(source.session, source.data.get("user_id"))
    if who is None and isinstance(seat, int):
        who = _former_holder(source.session, source.game, seat)
    return {"who": who, "seat": seat, "url": source.game_url()}


def _former_holder(session: Session, game: Game, seat_number: int) -> str | None:
    user_id = session.scalar(
        select(SeatTenure.user_id)
        .join(Seat, Seat.id == SeatTenure.seat_id)
        .where(Seat.game_id == game.id, Seat.number == seat_number, SeatTenure.ended_at.is_not(None))
        .order_by(SeatTenure.ended_at.desc(), SeatTenure.id.desc())
        .limit(1)
    )
    return _name(session, user_id)


def _seat_offered(source: Source) -> dict[str, Any] | None:
    game = source.game
    seat = source.data.get("seat")
    if game is None or game.status != "active" or not isinstance(seat, int):
        return None
    offered = next((s for s in game.seats if s.number == seat), None)
    if offered is None or offered.status != "open" or offered.offered_to != source.user.id:
        return None
    return {
        "who": str(source.data.get("from") or ""),
        "by_moderator": bool(source.data.get("moderator")),
        "seat": seat,
        "until": offered.offered_until,
        "url": source.game_url(),
    }


def _placed(source: Source) -> dict[str, Any] | None:
    """The queue seated the recipient: in a forming game, a new one, or an open seat."""
    game = source.game
    if game is None or not any(seat.user_id == source.user.id for seat in game.seats):
        return None  # they have left it since
    by = source.data.get("by")
    return {
        "by": str(by) if by else None,
        "how": str(source.data.get("how") or ""),
        "taken": len(game.seats),
        "total": game.players,
        "url": source.game_url(),
    }


def _invited(source: Source) -> dict[str, Any] | None:
    """A friend invites the recipient into their forming game (unless it is no longer forming)."""
    game = source.game
    if game is None or game.status != "open":
        return None
    by = source.data.get("by")
    return {
        "by": str(by) if by else None,
        "taken": len(game.seats),
        "total": game.players,
        "url": source.game_url(),
    }


def _pause(source: Source) -> dict[str, Any] | None:
    data = source.data
    return {
        "who": _name(source.session, data.get("user_id")),
        "first_day": data.get("first_day"),
        "last_day": data.get("last_day"),
        "ends_at": data.get("ends_at"),
        "reason": str(data.get("reason") or "")[:200],
        "url": source.game_url() if source.game is not None else f"{source.settings.base_url}/",
    }


def _game_over(source: Source) -> dict[str, Any] | None:
    game = source.game
    if game is None or game.status != "finished":
        return None
    return {
        "standings": game.standings or [],
        "moves": ratings.seat_rank_moves(source.session, game),
        "url": source.game_url(),
        "again_url": source.game_url("#play-again"),
    }


def _message(source: Source) -> dict[str, Any] | None:
    """A board post or a private message, if the recipient's seat may read it now."""
    message = source.session.get(GameMessage, source.data.get("message_id"))
    game = source.game
    if message is None or game is None or message.game_id != game.id:
        return None
    if message.audience is not None:
        seat = play.viewer_seat(game, source.user)
        if seat is None or f",{seat}," not in message.audience:
            return None
    names = _seat_names(source.session, game)
    audience = [int(part) for part in (message.audience or "").split(",") if part]
    return {
        "author": _name(source.session, message.author_id),
        "body": message.body,
        "to": [names[seat] if seat < len(names) else None for seat in audience if seat != message.from_seat],
        "private": message.audience is not None,
        "url": source.game_url("#game-messages"),
    }


def _verify_email(source: Source) -> dict[str, Any] | None:
    """The check link, mailed to the address it checks: the user's, or the new one they asked for."""
    user = source.user
    address = source.data.get("email") or user.email
    if address not in (user.email, user.pending_email):
        return None  # the address changed since: its own verification mail will go
    credentials = tokens.password_fingerprint(user.password_hash)
    if source.data.get("credentials", credentials) != credentials:
        return None  # a later sign-up replaced the credentials: its own mail goes, with its own link
    token = tokens.verify_token(source.settings.secret_key, user.id, address, credentials)
    url = f"{source.settings.base_url}/account/verify/{token}"
    return {"url": url, "email": address, "new": address != user.email, "send_to": address}


def _password_reset(source: Source) -> dict[str, Any] | None:
    token = tokens.reset_token(source.settings.secret_key, source.user.id, source.user.password_hash)
    return {
        "url": f"{source.settings.base_url}/password/reset/{token}",
        "minutes": tokens.RESET_MAX_AGE_SECONDS // 60,
    }


def _as_written(source: Source) -> dict[str, Any] | None:
    """Moderation notices and sign-up attempts: what the row holds (a reason, a seat, an end), and a link."""
    data = dict(source.data)
    if isinstance(data.get("until"), str):
        data["until"] = datetime.fromisoformat(data["until"])
    url = source.game_url() if source.game is not None else f"{source.settings.base_url}/"
    return {**data, "url": url, "base_url": source.settings.base_url}


def _generic(source: Source) -> dict[str, Any] | None:
    """A kind without its own composer says only that something happened, with a link."""
    return {"url": source.game_url() if source.game is not None else f"{source.settings.base_url}/"}


COMPOSERS: dict[str, Callable[[Source], dict[str, Any] | None]] = {
    "your_turn": _your_turn,
    "deadline_warning": _deadline_warning,
    "game_started": _game_started,
    "player_joined": _player_joined,
    "player_quit": _player_gone,
    "player_evicted": _player_gone,
    "evicted": _player_gone,
    "seat_offered": _seat_offered,
    "queue_placed": _placed,
    "game_invitation": _invited,
    "pause_requested": _pause,
    "pause_removed": _pause,
    "game_over": _game_over,
    "private_message": _message,
    "board_post": _message,
    "game_news": _game_news,
    "calamity_news": _game_news,
    "city_news": _game_news,
    "verify_email": _verify_email,
    "password_reset": _password_reset,
    **dict.fromkeys(
        (
            "sanctioned",
            "sanction_lifted",
            "signup_attempt",
            "address_attempt",
            "report_closed",
            "game_held",
            "game_resumed",
            "game_aborted",
            "game_rolled_back",
            "removed_from_game",
            "player_removed",
            "seat_given",
        ),
        _as_written,
    ),
}
