"""Playing: one order through one transaction, the waits and their deadlines, views, the log, replays.

Every state change of a running game — a player's order, a default at timeout, an admin's action — goes
through `apply_order`, so the order log is complete and a game can always be replayed from its seed.
"""

from __future__ import annotations

import json
import threading
from collections import OrderedDict
from collections.abc import Collection, Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import event, func, select, text
from sqlalchemy.orm import Session

from app.games import registry
from app.games.contract import Event, GameRules, RuleError, Wait
from app.models import Game, GameEvent, GameOrder, GameRollback, Notification, Seat, User, WaitRow
from app.services.deadlines import deadlines
from app.services.errors import ServiceError, not_found
from app.services.ops import metrics as ops_metrics
from app.services.play import absence, live
from app.services.players import profiles, ratings

LOG_LIMIT = 50  # the newest entries a page shows


@dataclass(frozen=True)
class Submitted:
    game: Game
    version: int


def submit(
    session: Session,
    user: User,
    game_id: int,
    order: Mapping[str, Any],
    expected_version: int,
    now: datetime,
) -> Submitted:
    """A player's order. Refusals (4xx) write nothing.

    `expected_version` is the version the player saw. It is fresh enough when the player's current wait had
    already begun at that version: what moved since then (another seat's sealed bid) did not change the
    question the player is answering.
    """
    game = locked_game(session, game_id)
    seat = _seat_of(game, user)
    if game.status != "active":
        raise ServiceError("wrong_status", "This game is not running.")
    refuse_if_held(game)
    if game.state is None:
        raise ServiceError("wrong_status", "The seat draft is not over: choose your seat first.")
    assert seat.number is not None
    wait = next((row for row in _wait_rows(session, game.id) if row.seat == seat.number), None)
    if wait is None:
        raise ServiceError("not_your_turn", "The game is not waiting for you now.")
    if not wait.since_version <= expected_version <= game.version:
        raise ServiceError(
            "stale_version",
            "The game has moved on since you loaded it: look at the new position and order again.",
            "expected_version",
        )
    apply_order(session, game, seat.number, order, origin="player", user_id=user.id, now=now)
    profiles.record_move(session, user.id, wait.started_at, now)
    absence.reset_missed_turns(session, game, seat)
    session.commit()
    return Submitted(game, game.version)


def locked_game(session: Session, game_id: int) -> Game:
    game = session.scalar(select(Game).where(Game.id == game_id).with_for_update())
    if game is None:
        raise not_found("This game does not exist.")
    return game


def refuse_if_held(game: Game) -> None:
    """A game a moderator paused or locked takes no orders (409); the reason goes with the refusal."""
    if game.held_at is None:
        return
    details = {"reason": game.hold_reason or ""}
    if game.hold_kind == "locked":
        raise ServiceError(
            "game_locked",
            "A moderator has locked this game during an investigation: no orders are accepted for now.",
            details=details,
        )
    raise ServiceError(
        "game_paused",
        "A moderator has paused this game: no orders are accepted until it resumes.",
        details=details,
    )


def _seat_of(game: Game, user: User) -> Seat:
    for seat in game.seats:
        if seat.user_id == user.id and seat.status == "playing":
            return seat
    raise ServiceError("not_your_game", "You do not hold a seat in this game.")


def apply_order(
    session: Session,
    game: Game,
    seat: int,
    order: Mapping[str, Any],
    *,
    origin: str,
    user_id: int | None,
    now: datetime,
) -> None:
    """Apply one order to a locked, running game, inside the caller's transaction."""
    ops_metrics.watch_order(session, game.game_type, origin)
    refuse_if_held(game)
    rules = registry.get(game.game_type)
    if not isinstance(order, Mapping):
        raise ServiceError("invalid_input", "An order is a JSON object with a type.", "order")
    try:
        outcome = rules.apply(rules.load(game.state or {}), seat, order)
    except RuleError as error:
        raise ServiceError(error.code, error.template, error.field, status=422, params=error.params) from None
    game.state = rules.dump(outcome.state)
    game.version += 1
    session.add(
        GameOrder(
            game_id=game.id,
            seq=game.version,
            seat=seat,
            origin=origin,
            user_id=user_id,
            payload=dict(order),
            created_at=now,
        )
    )
    append_events(session, game, outcome.events, now)
    waits = rules.waits(outcome.state)
    sync_waits(session, game, waits, acting_seat=seat, now=now)
    if not waits:
        _finish(session, game, rules, outcome.state, now)
    if origin == "timeout":
        absence.count_missed_turn(session, game, seat, now)
    announce(session, game)


def append_events(session: Session, game: Game, events: list[Event], now: datetime) -> None:
    last = session.scalar(select(func.max(GameEvent.seq)).where(GameEvent.game_id == game.id)) or 0
    for offset, item in enumerate(events, start=1):
        session.add(
            GameEvent(
                game_id=game.id,
                seq=last + offset,
                order_seq=game.version,
                kind=item.kind,
                data=item.data,
                visible_to=sorted(item.to) if item.to is not None else None,
                created_at=now,
            )
        )


def sync_waits(
    session: Session, game: Game, waits: list[Wait], *, acting_seat: int | None, now: datetime
) -> None:
    """Make the wait rows match the rules' waits.

    A seat that was already awaited in the same phase, and is not the one that just acted, keeps its wait
    and its deadline (the others still bidding after one seat has bid). Every other wait starts now.
    """
    existing = {row.seat: row for row in _wait_rows(session, game.id)}
    wanted = {wait.seat: wait for wait in waits}

    def still_waiting(seat: int) -> bool:
        row, wait = existing.get(seat), wanted.get(seat)
        return row is not None and wait is not None and seat != acting_seat and row.phase == wait.phase

    for seat, row in existing.items():
        if not still_waiting(seat):
            session.delete(row)
    session.flush()
    started = []
    for seat, wait in wanted.items():
        if still_waiting(seat):
            continue
        row = WaitRow(
            game_id=game.id,
            seat=seat,
            phase=wait.phase,
            simultaneous=wait.simultaneous,
            first_in_phase=wait.first_in_phase,
            market=wait.market,
            since_version=game.version,
            started_at=now,
        )
        session.add(row)
        started.append(row)
        turn = {"phase": wait.phase, "seat": seat, "since_version": game.version}
        _notify_seat(session, game, seat, "your_turn", turn)
    # Deadlines: the awaited player's windows, every seated player's pauses, the market's close.
    had_market = any(row.market for row in existing.values())
    deadlines.start_waits(session, game, started, now, had_market=had_market)


def _notify_seat(session: Session, game: Game, seat_number: int, kind: str, data: dict[str, Any]) -> None:
    holder = next((seat.user_id for seat in game.seats if seat.number == seat_number), None)
    if holder is not None:
        session.add(Notification(user_id=holder, game_id=game.id, kind=kind, data=data))


def _finish(session: Session, game: Game, rules: GameRules[Any], state: Any, now: datetime) -> None:
    standings = rules.standings(state) or []
    game.status = "finished"
    game.finished_at = now
    game.standings = [{"seat": s.seat, "place": s.place, "score": s.score} for s in standings]
    ratings.rate_finished_game(session, game, now)
    for seat in game.seats:
        if seat.user_id is not None:
            session.add(Notification(user_id=seat.user_id, game_id=game.id, kind="game_over", data={}))


def announce(session: Session, game: Game, audience: Collection[int] | None = None) -> None:
    """Tell live pages that the game moved, once the transaction commits (never for a rollback);
    `audience`: only the pages of these users (news that is not everyone's, such as a private message)."""
    game_id, version = game.id, game.version
    users = None if audience is None else frozenset(audience)
    if session.get_bind().dialect.name == "postgresql":
        session.execute(
            text("SELECT pg_notify(:channel, :payload)"),
            {"channel": live.CHANNEL, "payload": live.notify_payload(game_id, version, users)},
        )
    else:
        event.listen(session, "after_commit", lambda _s: live.BUS.publish(game_id, version, users), once=True)


def _wait_rows(session: Session, game_id: int) -> list[WaitRow]:
    return list(session.scalars(select(WaitRow).where(WaitRow.game_id == game_id).order_by(WaitRow.seat)))


# --- reading ----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class WaitInfo:
    seat: int
    player: str | None
    phase: str
    deadline_at: datetime | None
    since_version: int
    default_order: Mapping[str, Any] | None  # only for the viewer's own seat


@dataclass(frozen=True)
class GameView:
    """Everything one viewer may see of a game."""

    game: Game
    seat: int | None  # the viewer's seat number, None for a spectator
    players: list[str | None]  # display names by seat number
    members: list[str]  # display names in the order they joined (before the start, seats have no number)
    board: dict[str, Any] | None  # the rules' view for this viewer; None before the start
    waits: list[WaitInfo]
    log: list[GameEvent]
    rolled_back: frozenset[int] = frozenset()  # orders a moderator rolled back (their events stay, marked)

    @property
    def my_wait(self) -> WaitInfo | None:
        return next((wait for wait in self.waits if wait.seat == self.seat), None)


def get_game(session: Session, game_id: int) -> Game:
    game = session.get(Game, game_id)
    if game is None:
        raise not_found("This game does not exist.")
    return game


def viewer_seat(game: Game, user: User | None) -> int | None:
    if user is None:
        return None
    return next((s.number for s in game.seats if s.user_id == user.id and s.status == "playing"), None)


def game_view(session: Session, game_id: int, user: User | None, with_log: bool = True) -> GameView:
    game = get_game(session, game_id)
    seat = viewer_seat(game, user)
    names = _display_names(session, game)
    players: list[str | None] = [None] * game.players
    for s in game.seats:
        if s.number is not None:
            players[s.number] = names.get(s.user_id) if s.user_id else None
    board = None
    waits: list[WaitInfo] = []
    if game.state is not None:
        rules = registry.get(game.game_type)
        state = rules.load(game.state)
        board = rules.view(state, seat)
        for row in _wait_rows(session, game.id):
            default = rules.default_order(state, row.seat) if row.seat == seat else None
            waits.append(
                WaitInfo(row.seat, players[row.seat], row.phase, row.deadline_at, row.since_version, default)
            )
    members = [names[s.user_id] for s in game.seats if s.user_id in names]
    log = visible_log(session, game.id, seat) if with_log else []
    return GameView(game, seat, players, members, board, waits, log, rolled_back_seqs(session, game.id))


def _display_names(session: Session, game: Game) -> dict[int | None, str]:
    ids = [s.user_id for s in game.seats if s.user_id is not None]
    rows = session.execute(select(User.id, User.display_name).where(User.id.in_(ids)))
    return {user_id: name for user_id, name in rows}


def visible_log(session: Session, game_id: int, seat: int | None, limit: int = LOG_LIMIT) -> list[GameEvent]:
    """The newest events this seat may see (None: a spectator sees only public events).

    Read newest first, a page at a time, so a long game costs no more than a short one."""
    visible: list[GameEvent] = []
    before: int | None = None
    while len(visible) < limit:
        query = select(GameEvent).where(GameEvent.game_id == game_id)
        if before is not None:
            query = query.where(GameEvent.seq < before)
        page = list(session.scalars(query.order_by(GameEvent.seq.desc()).limit(limit)))
        visible += [
            row for row in page if row.visible_to is None or (seat is not None and seat in row.visible_to)
        ]
        if len(page) < limit:
            break
        before = page[-1].seq
    return visible[:limit]


def replay_state(session: Session, game: Game) -> Any:
    """The state rebuilt from the seed, the options and the order log (without rolled-back orders)."""
    return state_after(game, effective_orders(session, game.id))


def state_after(game: Game, orders: list[GameOrder]) -> Any:
    """The game's first state with these orders applied, in turn."""
    rules = registry.get(game.game_type)
    state = rules.new_game(rules.Options.model_validate(game.options), game.players, game.seed)
    for order in orders:
        state = rules.apply(state, order.seat, order.payload).state
    return state


def _rollback_ranges(session: Session, game_id: int) -> list[tuple[int, int]]:
    query = select(GameRollback.to_seq, GameRollback.from_version).where(GameRollback.game_id == game_id)
    return [(kept, until) for kept, until in session.execute(query)]


def rolled_back_seqs(session: Session, game_id: int) -> frozenset[int]:
    """The orders a moderator rolled back: each rollback voids the orders after `to_seq`, up to the version
    the game had then. They stay in the log, which is append-only."""
    ranges = _rollback_ranges(session, game_id)
    if not ranges:
        return frozenset()
    seqs = session.scalars(select(GameOrder.seq).where(GameOrder.game_id == game_id))
    return frozenset(seq for seq in seqs if any(kept < seq <= until for kept, until in ranges))


def effective_orders(session: Session, game_id: int) -> list[GameOrder]:
    """The orders that make the game's state: the whole log, less the rolled-back orders."""
    ranges = _rollback_ranges(session, game_id)
    orders = session.scalars(select(GameOrder).where(GameOrder.game_id == game_id).order_by(GameOrder.seq))
    return [order for order in orders if not any(kept < order.seq <= until for kept, until in ranges)]


def as_json(document: Any) -> Any:
    """The document as the database gives it back (tuples become lists, keys become strings)."""
    return json.loads(json.dumps(document))


@dataclass(frozen=True)
class Replayed:
    state: Any  # never mutated: rules return new states
    orders: int
    matches_stored_state: bool


class ReplayCache:
    """The last replays, per game and version: a version is never replayed twice by one process (the
    replay of a long game costs about half a second; a new order makes a new version)."""

    def __init__(self, size: int = 32) -> None:
        self.size = size
        self._entries: OrderedDict[tuple[int, int, int], Replayed] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, session: Session, game: Game) -> Replayed:
        key = (game.id, game.seed, game.version)  # the seed: a database that was emptied reuses ids
        with self._lock:
            if key in self._entries:
                self._entries.move_to_end(key)
                return self._entries[key]
        replayed = self._replay(session, game)
        with self._lock:
            self._entries[key] = replayed
            while len(self._entries) > self.size:
                self._entries.popitem(last=False)
        return replayed

    @staticmethod
    def _replay(session: Session, game: Game) -> Replayed:
        rules = registry.get(game.game_type)
        orders = effective_orders(session, game.id)
        rebuilt = state_after(game, orders)
        return Replayed(rebuilt, len(orders), as_json(rules.dump(rebuilt)) == as_json(game.state))


REPLAYS = ReplayCache()


def replay(session: Session, game_id: int, user: User | None) -> dict[str, Any]:
    game = get_game(session, game_id)
    if game.state is None:
        raise ServiceError("wrong_status", "This game has not started.")
    replayed = REPLAYS.get(session, game)
    return {
        "game_id": game.id,
        "version": game.version,
        "orders": replayed.orders,
        "matches_stored_state": replayed.matches_stored_state,
        "view": registry.get(game.game_type).view(replayed.state, viewer_seat(game, user)),
    }
