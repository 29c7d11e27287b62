"""A moderator's interventions in a game: pause and resume, lock, extend a deadline, remove a player or
offer their seat to another (who takes it only by accepting it), abort, roll back to an earlier order, and
the audited "reveal for investigation".

Each one is a change of a game like an order: one transaction that locks the game row first
(`play.locked_game`), writes a public notice in the game's log (a moderator action, shown to everyone),
tells the players, writes its audit entry, and announces the game to live pages once committed.

- A hold ("paused", or "locked" during an investigation) stops the game: no orders (`play.refuse_if_held`)
  and a still clock (`Game.clock_stopped`: the sweeper leaves it, no deadline is armed). On resuming,
  each wait gets back the time the hold took from it.
- A rollback keeps the order log: the orders after the chosen one are marked rolled back (a
  `GameRollback` row), the state is rebuilt from the seed and the orders kept, and every wait starts
  afresh. The seeded randomness makes the replayed position exactly the one the game had then.
- Moderators see a game as a spectator does. The hidden information (the full state, every order, the
  private events and messages) is shown only by `reveal`, which needs a reason and is audited first.
- No moderator intervenes in a game they play or ever played in (`moderation.refuse_conflict_of_interest`),
  nor reads its order log (each order's seat and time): another must. An administrator may, and the audit
  entry records the conflict ("own_game").
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import delete, select
from sqlalchemy.orm import Session

from app.games import registry
from app.games.contract import RuleError
from app.models import Game, GameEvent, GameMessage, GameOrder, GameRollback, Seat, User, WaitRow
from app.models.records import UserFacts
from app.services.deadlines import deadlines, markets, notices
from app.services.errors import ServiceError
from app.services.mail import notify
from app.services.moderation import audit, moderation
from app.services.play import play, seats
from app.services.players import matchmaking

HOLD_KINDS = ("paused", "locked")
MAX_EXTENSION_HOURS = 24 * 14
REASON_LENGTH = 500
HOLD_ACTIONS = {"paused": "game.pause", "locked": "game.lock"}


@dataclass(frozen=True)
class _Change:
    game: Game  # locked
    why: str  # the cleaned reason (every intervention needs one)
    conflict: str | None  # an administrator's conflict of interest, for the audit entry


def _game_to_act_on(session: Session, actor: UserFacts, game_id: int, reason: str, *, lock: bool) -> _Change:
    """The game, if the actor may intervene in it: a moderator, never one who plays or played in it."""
    moderation.require_moderator(actor)
    why = moderation.clean_text(reason, "reason", REASON_LENGTH, required=True)
    game = play.locked_game(session, game_id) if lock else play.get_game(session, game_id)
    conflict = moderation.refuse_conflict_of_interest(session, actor, game_id=game.id)
    return _Change(game, why, conflict)


def _game_to_change(session: Session, actor: UserFacts, game_id: int, reason: str) -> _Change:
    """The running game, locked, if the actor may intervene in it."""
    change = _game_to_act_on(session, actor, game_id, reason, lock=True)
    if change.game.status != "active":
        raise ServiceError("wrong_status", "This game is not running.")
    return change


def _done(
    session: Session,
    actor: UserFacts,
    change: _Change,
    action: str,
    now: datetime,
    *,
    before: dict[str, Any],
    after: dict[str, Any],
    subject_id: int | None = None,
) -> Game:
    game = change.game
    target = audit.Target(subject_id=subject_id, game_id=game.id)
    audit.record(
        session, actor, action, reason=change.why, now=now, target=target, before=before, after=after,
        conflict=change.conflict,
    )  # fmt: skip
    play.announce(session, game)
    session.commit()
    return game


def _hold_state(game: Game) -> dict[str, Any]:
    return {"hold": game.hold_kind, "reason": game.hold_reason}


# --- pause, lock, resume -----------------------------------------------------------------------------


def hold(session: Session, actor: UserFacts, game_id: int, kind: str, reason: str, now: datetime) -> Game:
    """Pause the game, or lock it during an investigation: no orders, the clock stands still."""
    if kind not in HOLD_KINDS:
        raise ServiceError("invalid_input", "A game is paused or locked.", "kind")
    change = _game_to_change(session, actor, game_id, reason)
    game, why = change.game, change.why
    if game.hold_kind == kind:
        raise ServiceError("wrong_status", "This game is already held so.")
    before = _hold_state(game)
    if game.held_at is None:
        game.held_at = now
    game.hold_kind, game.hold_reason = kind, why
    for row in deadlines.wait_rows(session, game.id):
        row.check_at = None
    notices.public_notice(session, game, f"platform:moderation_{kind}", {"reason": why}, now)
    notify.notify_game(session, game, "game_held", {"hold": kind, "reason": why})
    return _done(session, actor, change, HOLD_ACTIONS[kind], now, before=before, after=_hold_state(game))


def resume(session: Session, actor: UserFacts, game_id: int, reason: str, now: datetime) -> Game:
    """End a pause or a lock; every wait gets back the time the hold took from it."""
    change = _game_to_change(session, actor, game_id, reason)
    game = change.game
    if game.held_at is None:
        raise ServiceError("wrong_status", "This game is neither paused nor locked.")
    before = _hold_state(game)
    since = game.held_at
    game.held_at, game.hold_kind, game.hold_reason = None, None, None
    _give_back_held_time(session, game, since, now)
    deadlines.recompute_game(session, game, now)
    minutes = int((now - since).total_seconds() // 60)
    notices.public_notice(session, game, "platform:moderation_resumed", {"minutes": minutes}, now)
    notify.notify_game(session, game, "game_resumed", {})
    return _done(session, actor, change, "game.resume", now, before=before, after=_hold_state(game))


def _give_back_held_time(session: Session, game: Game, since: datetime, now: datetime) -> None:
    """Like an outage's compensation: each wait's extension grows by the time it spent on hold."""
    rows = deadlines.wait_rows(session, game.id)
    for row in rows:
        if not row.market:  # a market's waits follow its close, which slides as a whole
            held = now - max(since, row.started_at)
            row.extension_seconds += max(0, int(held.total_seconds()))
    if any(row.market for row in rows):
        markets.shift_market(session, game.id, now - since)


# --- deadlines and players ---------------------------------------------------------------------------


def extend_deadline(
    session: Session, actor: UserFacts, game_id: int, seat: int, hours: int, reason: str, now: datetime
) -> Game:
    """Give an awaited seat more time (a market's waits: the whole market)."""
    change = _game_to_change(session, actor, game_id, reason)
    game = change.game
    if not 1 <= hours <= MAX_EXTENSION_HOURS:
        raise ServiceError("invalid_input", "An extension is 1 to 336 hours.", "hours")
    row = next((r for r in deadlines.wait_rows(session, game.id) if r.seat == seat), None)
    if row is None:
        raise ServiceError("invalid_input", "The game is not waiting for this seat.", "seat")
    before = {"seat": seat, "deadline_at": _iso(row.deadline_at)}
    if row.market:
        markets.shift_market(session, game.id, timedelta(hours=hours))
    else:
        row.extension_seconds += hours * 3600
    deadlines.recompute_game(session, game, now)
    after = {"seat": seat, "deadline_at": _iso(row.deadline_at)}
    notices.public_notice(
        session, game, "platform:moderation_deadline_extended", {"seat": seat, "hours": hours}, now
    )
    return _done(session, actor, change, "game.extend", now, before=before, after=after)


def _iso(moment: datetime | None) -> str | None:
    return moment.isoformat() if moment is not None else None


def remove_player(
    session: Session, actor: UserFacts, game_id: int, seat: int, reason: str, now: datetime
) -> Game:
    """Take the player out of the game: the seat opens for a replacement and plays the defaults meanwhile."""
    change = _game_to_change(session, actor, game_id, reason)
    game, why = change.game, change.why
    place, holder = _held(session, actor, game, seat)
    moderation.open_seat_of_removed(session, game, place, "removed", now)
    notify.notify_users(session, [holder.id], "removed_from_game", {"seat": seat, "reason": why}, game.id)
    before, after = {"seat": seat, "holder": holder.id}, {"seat": seat, "holder": None}
    return _done(
        session, actor, change, "game.remove_player", now, before=before, after=after, subject_id=holder.id
    )


def replace_player(
    session: Session, actor: UserFacts, game_id: int, seat: int, replacement: str, reason: str, now: datetime
) -> Game:
    """Offer the seat to another player, who takes it only by accepting it, as an invitation.

    Its holder, if any, is taken out at once; the seat plays the defaults until the named player takes it
    (`seats.take_seat`, every check of an open seat but the reliability gate) or declines, and opens to
    everyone when the offer runs out. The acting moderator is never offered a seat: they would read its
    hidden information without `reveal`."""
    change = _game_to_change(session, actor, game_id, reason)
    game, why = change.game, change.why
    place = seats.seat_numbered(game, seat)
    newcomer = _named_replacement(session, actor, game, place, replacement, now)
    before: dict[str, Any] = {"seat": seat, "holder": place.user_id}
    if place.status == "playing":
        _, holder = _held(session, actor, game, seat)
        moderation.open_seat_of_removed(session, game, place, "replaced", now)
        notify.notify_users(session, [holder.id], "removed_from_game", {"seat": seat, "reason": why}, game.id)
    place.offered_to, place.offered_until = newcomer.id, now + timedelta(hours=seats.OFFER_HOURS)
    data = {"seat": seat, "moderator": True}
    notify.notify_users(session, [newcomer.id], "seat_offered", data, game.id)
    after = {"seat": seat, "holder": None, "offered_to": newcomer.id, "conflict_checked": True}
    return _done(
        session,
        actor,
        change,
        "game.replace_player",
        now,
        before=before,
        after=after,
        subject_id=before["holder"],
    )


def _named_replacement(
    session: Session, actor: UserFacts, game: Game, place: Seat, name: str, now: datetime
) -> User:
    """The user the seat may be offered to: not the actor, never in the game, free to sit at its table."""
    newcomer = session.scalar(select(User).where(User.display_name == " ".join(name.split())))
    if newcomer is None:
        raise ServiceError("invalid_input", "There is no player with this name.", "replacement")
    if newcomer.id == actor.id:
        raise ServiceError("forbidden", "You may not give a seat to yourself: name another player.")
    if not seats.may_name_as_replacement(session, actor, newcomer, game):
        raise ServiceError("already_joined", "This player is, or was, in the game.")
    if place.offered_to == newcomer.id and seats.is_reserved(place, now):
        raise ServiceError("wrong_status", "This seat is already offered to this player.")
    matchmaking.check_may_sit(session, game, newcomer, leaving=place.user_id, gate=False)
    return newcomer


def _held(session: Session, actor: UserFacts, game: Game, seat: int) -> tuple[Seat, User]:
    place = seats.seat_numbered(game, seat)
    if place.status != "playing" or place.user_id is None:
        raise ServiceError("wrong_status", "Nobody holds this seat.")
    holder = moderation.get_user(session, place.user_id)
    moderation.require_outranks(actor, holder)
    return place, holder


# --- abort and rollback ------------------------------------------------------------------------------


def abort(session: Session, actor: UserFacts, game_id: int, reason: str, now: datetime) -> Game:
    """Stop the game for good, without a result: no rating changes (ratings count finished games only)."""
    change = _game_to_act_on(session, actor, game_id, reason, lock=True)
    game, why = change.game, change.why
    if game.status not in ("open", "active"):
        raise ServiceError("wrong_status", "Only a forming or running game can be aborted.")
    before = {"status": game.status}
    game.status = "cancelled" if game.status == "open" else "aborted"
    game.finished_at = now
    game.held_at, game.hold_kind, game.hold_reason = None, None, None
    session.execute(delete(WaitRow).where(WaitRow.game_id == game.id))
    notices.public_notice(session, game, "platform:moderation_aborted", {"reason": why}, now)
    notify.notify_game(session, game, "game_aborted", {"reason": why})
    return _done(session, actor, change, "game.abort", now, before=before, after={"status": game.status})


def rollback(
    session: Session, actor: UserFacts, game_id: int, to_seq: int, reason: str, now: datetime
) -> Game:
    """Back to the position after order `to_seq` (1: the start). The later orders stay, marked."""
    change = _game_to_change(session, actor, game_id, reason)
    game, why = change.game, change.why
    if game.state is None:
        raise ServiceError("wrong_status", "This game's seat draft is not over.")
    kept, undone = _split_orders(session, game, to_seq)
    rules = registry.get(game.game_type)
    state = _replayed(game, kept)
    session.add(
        GameRollback(
            game_id=game.id,
            to_seq=to_seq,
            from_version=game.version,
            actor_id=actor.id,
            reason=why,
            created_at=now,
        )
    )
    before = {"version": game.version, "orders": len(kept) + len(undone)}
    game.state = rules.dump(state)
    game.version += 1
    session.execute(delete(WaitRow).where(WaitRow.game_id == game.id))
    session.flush()
    play.sync_waits(session, game, rules.waits(state), acting_seat=None, now=now)
    data = {"to": to_seq, "orders": len(undone), "reason": why}
    notices.public_notice(session, game, "platform:moderation_rolled_back", data, now)
    notify.notify_game(session, game, "game_rolled_back", {"to": to_seq})
    after = {"version": game.version, "to_seq": to_seq, "rolled_back": undone}
    return _done(session, actor, change, "game.rollback", now, before=before, after=after)


def _replayed(game: Game, kept: list[GameOrder]) -> Any:
    """The state after the kept orders; refused when today's rules no longer accept one of them."""
    try:
        return play.state_after(game, kept)
    except RuleError:
        raise ServiceError(
            "replay_failed",
            "The orders kept by this rollback no longer replay under today's rules; choose an earlier order.",
            "to_seq",
        ) from None


def _split_orders(session: Session, game: Game, to_seq: int) -> tuple[list[GameOrder], list[int]]:
    """The orders kept (up to `to_seq`) and the seqs rolled back; `to_seq` must be the start or an order."""
    orders = play.effective_orders(session, game.id)
    if to_seq != 1 and to_seq not in {order.seq for order in orders}:
        raise ServiceError("invalid_input", "Choose an order of the game's log (or its start).", "to_seq")
    kept = [order for order in orders if order.seq <= to_seq]
    undone = [order.seq for order in orders if order.seq > to_seq]
    if not undone:
        raise ServiceError("invalid_input", "There is no order after this one to roll back.", "to_seq")
    return kept, undone


# --- what moderators see -----------------------------------------------------------------------------


@dataclass(frozen=True)
class OrderLine:
    """An order of the log without its content (which may be secret): who, when, how, rolled back."""

    seq: int
    seat: int
    origin: str  # player, timeout, admin
    player: str | None
    created_at: datetime
    rolled_back: bool


@dataclass(frozen=True)
class ModeratorView:
    view: play.GameView  # what a spectator sees
    orders: list[OrderLine]
    rollbacks: list[GameRollback]
    holders: dict[int, int]  # seat number -> user id (for the moderators' links)
    offers: dict[int, tuple[str, datetime | None]]  # open seat number -> who it is offered to, until when


def moderator_view(session: Session, viewer: UserFacts, game_id: int) -> ModeratorView:
    """Who played when (each order's seat and time, trade orders included): refused, as an intervention,
    to a moderator who plays or played in the game (`moderation.refuse_conflict_of_interest`)."""
    moderation.require_moderator(viewer)
    game = play.get_game(session, game_id)  # a missing game is a 404, as for an intervention
    moderation.refuse_conflict_of_interest(session, viewer, game_id=game_id)
    view = play.game_view(session, game_id, None)
    rows = list(
        session.scalars(select(GameOrder).where(GameOrder.game_id == game_id).order_by(GameOrder.seq))
    )
    names = audit.names_of(session, {row.user_id for row in rows if row.user_id is not None})
    lines = [
        OrderLine(
            row.seq,
            row.seat,
            row.origin,
            names.get(row.user_id or 0),
            row.created_at,
            row.seq in view.rolled_back,
        )
        for row in rows
    ]
    rollbacks = list(session.scalars(select(GameRollback).where(GameRollback.game_id == game_id)))
    holders = {s.number: s.user_id for s in view.game.seats if s.number is not None and s.user_id is not None}
    return ModeratorView(view, lines, rollbacks, holders, _offers(session, game))


def _offers(session: Session, game: Game) -> dict[int, tuple[str, datetime | None]]:
    offered = {
        s.number: s for s in game.seats if s.number is not None and s.status == "open" and s.offered_to
    }
    names = audit.names_of(session, {s.offered_to for s in offered.values() if s.offered_to is not None})
    return {number: (names.get(s.offered_to or 0, "?"), s.offered_until) for number, s in offered.items()}


@dataclass(frozen=True)
class Revealed:
    """Everything the game hides, for an investigation."""

    game: Game
    state: dict[str, Any] | None
    orders: list[dict[str, Any]]
    events: list[dict[str, Any]]
    messages: list[dict[str, Any]]


def reveal(session: Session, actor: UserFacts, game_id: int, reason: str, now: datetime) -> Revealed:
    """The hidden information of a game, for a moderator who gives a reason; audited before it is shown."""
    change = _game_to_act_on(session, actor, game_id, reason, lock=False)
    game = change.game
    audit.record(
        session, actor, "game.reveal", reason=change.why, now=now, target=audit.Target(game_id=game.id),
        conflict=change.conflict,
    )  # fmt: skip
    session.commit()
    undone = play.rolled_back_seqs(session, game.id)
    orders = session.scalars(select(GameOrder).where(GameOrder.game_id == game.id).order_by(GameOrder.seq))
    events = session.scalars(select(GameEvent).where(GameEvent.game_id == game.id).order_by(GameEvent.seq))
    private = session.scalars(
        select(GameMessage)
        .where(GameMessage.game_id == game.id, GameMessage.audience.is_not(None))
        .order_by(GameMessage.id)
    )
    return Revealed(
        game,
        game.state,
        [
            {
                "seq": o.seq,
                "seat": o.seat,
                "origin": o.origin,
                "order": o.payload,
                "rolled_back": o.seq in undone,
            }
            for o in orders
        ],
        [{"seq": e.seq, "kind": e.kind, "data": e.data, "visible_to": e.visible_to} for e in events],
        [{"id": m.id, "from_seat": m.from_seat, "audience": m.audience, "body": m.body} for m in private],
    )
