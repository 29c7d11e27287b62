"""Playing: one order through one transaction, the waits and their deadlines, views, the log, replays.

Every state change of a running game — a player's order, a default at timeout, an admin's action — goes
through `apply_order`, so the order log is complete and a game can always be replayed from its seed.
"""

from __future__ import annotations

import json
import threading
from collections import OrderedDict
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Any

from sqlalchemy import bindparam, event, func, insert, select, text, update
from sqlalchemy.orm import Session
from sqlalchemy.orm.attributes import set_committed_value
from sqlalchemy.orm.util import identity_key

from app import clock
from app.db import insert_many, table_of
from app.games import registry
from app.games.contract import Event, GameRules, RuleError, Wait, is_clock_order
from app.models import Game, GameEvent, GameOrder, GameRollback, Notification, WaitRow
from app.models.records import (
    GAME_COLUMNS,
    GAMES,
    SEAT_COLUMNS,
    SEATS,
    USERS,
    WAIT_COLUMNS,
    WAITS,
    GameFacts,
    GameRecord,
    SeatFacts,
    SeatRecord,
    UserFacts,
    WaitFacts,
    WaitRecord,
)
from app.services.deadlines import bot_seats, deadlines, markets
from app.services.errors import ServiceError, not_found
from app.services.ops import metrics as ops_metrics
from app.services.play import absence, live, replays
from app.services.players import profiles, ratings

LOG_LIMIT = 50  # the newest entries a page shows
REPLAY_EVENTS_READ = 500  # the newest entries a replay step reads: its own, and a page of log before it


@dataclass(frozen=True)
class Submitted:
    game: GameRecord
    version: int
    view: GameView  # the mover's view after the order (without the log), read from what was written


def submit(
    session: Session,
    user: UserFacts,
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
    game, names = _game_and_names(session, game_id, lock=True)
    seat = _seat_of(game, user)
    if game.status != "active":
        raise ServiceError("wrong_status", "This game is not running.")
    refuse_if_held(game)
    if game.state is None:
        raise ServiceError("wrong_status", "The seat draft is not over: choose your seat first.")
    assert seat.number is not None
    refuse_clock_order(registry.get(game.game_type), order)
    rows = _wait_rows(session, game.id)
    wait = next((row for row in rows if row.seat == seat.number), None)
    anytime = is_anytime(registry.get(game.game_type), order)
    if wait is None and not anytime:
        raise ServiceError("not_your_turn", "The game is not waiting for you now.")
    # An "any time" order answers no wait: the rules check it against the game as it is now.
    since = 0 if wait is None or anytime else wait.since_version
    if not since <= expected_version <= game.version:
        raise ServiceError(
            "stale_version",
            "The game has moved on since you loaded it: look at the new position and order again.",
            "expected_version",
        )
    # What the order answers, read before it: the row may restart.
    answered = (wait.started_at, wait.phase, wait.simultaneous) if wait is not None and not anytime else None
    applied = apply_order(
        session, game, seat.number, order, origin="player", user_id=user.id, now=now, waits=rows
    )
    if answered is not None:
        started_at, phase, sealed = answered
        if bot_seats.rated(game) and (not sealed or _decided(seat.number, phase, applied.waits)):
            profiles.record_move(session, user.id, started_at, now)
        absence.reset_missed_turns(session, game.id, seat)
    session.commit()
    return Submitted(game, game.version, view_of(game, user, names, applied.waits, state=applied.state))


def _decided(seat: int, phase: str, waits_after: Sequence[WaitRow]) -> bool:
    """Whether the seat's order in a simultaneous phase was its last there: the orders of a sealed decision
    (moves entered, taken back, entered again) count as one move in time, when the seat is no longer
    awaited in that phase. The profile's count is public: one per order would show a seat busy with its
    secret."""
    return not any(row.seat == seat and row.phase == phase for row in waits_after)


# The statements of the hot path are built once, here: building one (and its cache key) at each call costs
# more than running it from SQLAlchemy's cache. They are Core statements read into records, not ORM objects.
_GAME_AND_NAMES = (
    select(*GAMES.columns, *SEATS.columns, USERS.c.display_name)
    .select_from(
        GAMES.outerjoin(SEATS, SEATS.c.game_id == GAMES.c.id).outerjoin(USERS, USERS.c.id == SEATS.c.user_id)
    )
    .where(GAMES.c.id == bindparam("game_id"))
    .order_by(SEATS.c.joined_at, SEATS.c.id)
)
_LOCKED_GAME_AND_NAMES = _GAME_AND_NAMES.with_for_update(of=GAMES)
_SEAT_START, _SEAT_END = len(GAME_COLUMNS), len(GAME_COLUMNS) + len(SEAT_COLUMNS)


def _game_and_names(
    session: Session, game_id: int, *, lock: bool
) -> tuple[GameRecord, dict[int | None, str]]:
    """The game with its seats and the display names of their holders, in one query (locked: the game's
    row only, as every writer of a game does)."""
    query = _LOCKED_GAME_AND_NAMES if lock else _GAME_AND_NAMES
    rows = session.execute(query, {"game_id": game_id}).all()
    if not rows:
        raise not_found("This game does not exist.")
    seats: list[SeatRecord] = []
    names: dict[int | None, str] = {}
    for row in rows:
        if row[_SEAT_START] is None:  # a game without seats: its one row has none
            continue
        seat = SeatRecord(**dict(zip(SEAT_COLUMNS, row[_SEAT_START:_SEAT_END], strict=True)))
        seats.append(seat)
        if seat.user_id is not None:
            names[seat.user_id] = row[-1]
    game = GameRecord(**dict(zip(GAME_COLUMNS, rows[0][:_SEAT_START], strict=True)), seats=tuple(seats))
    return game, names


def is_anytime(rules: GameRules[Any], order: object) -> bool:
    """Whether `order` is one a seat may send at any time, awaited or not (the rules' optional
    `anytime_orders`: order types, such as selling a power card in Amun-Re)."""
    types: frozenset[str] = getattr(rules, "anytime_orders", frozenset())
    return isinstance(order, Mapping) and order.get("type") in types


def refuse_clock_order(rules: GameRules[Any], order: object) -> None:
    """The rules' `clock_order` (the end of a trade market's embargo) is the clock's alone to send."""
    if is_clock_order(rules, order):
        raise ServiceError(
            "clock_only", "Only the clock can send this order: it comes when the embargo ends.", "order"
        )


def locked_game(session: Session, game_id: int) -> Game:
    game = session.scalar(select(Game).where(Game.id == game_id).with_for_update())
    if game is None:
        raise not_found("This game does not exist.")
    return game


def refuse_if_held(game: GameFacts) -> None:
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


def _seat_of(game: GameFacts, user: UserFacts) -> SeatFacts:
    for seat in game.seats:
        if seat.user_id == user.id and seat.status == "playing":
            return seat
    raise ServiceError("not_your_game", "You do not hold a seat in this game.")


@dataclass(frozen=True)
class Applied:
    waits: list[WaitRow]  # the game's wait rows after the order
    state: Any  # the rules' state after it, as `rules.load(game.state)` would give it again


def apply_order(
    session: Session,
    game: PlayedGame,
    seat: int,
    order: Mapping[str, Any],
    *,
    origin: str,
    user_id: int | None,
    now: datetime,
    waits: list[WaitRow] | None = None,
) -> Applied:
    """Apply one order to a locked, running game, inside the caller's transaction; returns the game's
    waits and the rules' state after it (`waits`: the wait rows, when the caller has read them already).

    `origin`: "player", "timeout", "admin", "bot" (a seat a bot plays, `app.services.jobs.bots`) or
    "clock" (the rules' `clock_order`, which answers no wait: every seat keeps its wait and deadline)."""
    ops_metrics.watch_order(session, game.game_type, origin)
    refuse_if_held(game)
    rules = registry.get(game.game_type)
    if not isinstance(order, Mapping):
        raise ServiceError("invalid_input", "An order is a JSON object with a type.", "order")
    try:
        outcome = rules.apply(rules.load(game.state or {}), seat, order)
    except RuleError as error:
        raise ServiceError(error.code, error.template, error.field, status=422, params=error.params) from None
    _advance(session, game, rules.dump(outcome.state))
    written = {
        "game_id": game.id,
        "seq": game.version,
        "seat": seat,
        "origin": origin,
        "user_id": user_id,
        "payload": dict(order),
        "created_at": now,
    }
    batch = BatchWrites.of(session)
    if batch is not None:
        batch.orders.append(written)
    else:
        session.execute(_INSERT_ORDER, written)
    events = [*timeout_events(game, seat, order), *outcome.events] if origin == "timeout" else outcome.events
    append_events(session, game, events, now)
    notify_news(session, game, outcome.events, user_id)
    wanted = rules.waits(outcome.state)
    if waits is None and batch is not None:
        waits = batch.waits.get(game.id)
    anytime = is_anytime(rules, order)
    acting = None if origin == "clock" else seat
    rows = sync_waits(session, game, wanted, acting_seat=acting, now=now, rows=waits, anytime=anytime)
    if batch is not None:
        batch.waits[game.id] = rows
    if not wanted:
        _finish(session, game, rules, outcome.state, now)
    if origin == "timeout":
        absence.count_missed_turn(session, orm_game(session, game), seat, now)
    _write_game(session, game)
    return Applied(rows, outcome.state)


PlayedGame = Game | GameRecord  # a record on a player's order, ORM rows in the sweeper's batches


def timeout_events(game: PlayedGame, seat: int, order: Mapping[str, Any]) -> list[Event]:
    """What the log says of a default played at the time limit: to everyone, that time ran out for the seat
    and how many turns in a row it has missed; to the seat alone, the default in words (a default may hold
    what only the seat may know, such as a sealed bid)."""
    held = next((s for s in game.seats if s.number == seat), None)
    missed = clock.missed_in_row_after(held.missed_turns if held else 0, timed_out=True)
    return [
        Event("platform:timeout", {"seat": seat, "missed": missed}),
        Event("platform:timeout_default", {"seat": seat, "order": dict(order)}, frozenset({seat})),
    ]


def _advance(session: Session, game: PlayedGame, state: dict[str, Any]) -> None:
    """The game's new state and version in memory: `_write_game` writes them with one UPDATE at the end.
    An ORM row of the game gets them as already committed (so that its flush does not write them again),
    whether it is the game itself or a row of it that the session loaded before (which would go stale)."""
    version = game.version + 1
    if isinstance(game, GameRecord):
        game.state, game.version = state, version
    row = game if isinstance(game, Game) else session.identity_map.get(identity_key(Game, game.id))
    if isinstance(row, Game):
        _as_written(row, state, version)


def orm_game(session: Session, game: PlayedGame) -> Game:
    """The game as an ORM row, for the rare changes made through it (the end, an eviction); a row loaded for
    a record has the record's state and version (see `_advance`)."""
    if isinstance(game, Game):
        return game
    row = session.get(Game, game.id)
    assert row is not None  # the record was read under the game's lock
    _as_written(row, game.state, game.version)
    return row


def _as_written(row: Game, state: dict[str, Any] | None, version: int) -> None:
    """The row holds this state and version as if loaded so: its flush does not write them again."""
    set_committed_value(row, "state", state)
    set_committed_value(row, "version", version)


def _write_game(session: Session, game: GameFacts) -> None:
    """The game's state and version in one UPDATE; on Postgres the live news rides on the same statement
    (NOTIFY is delivered at commit, so where it is sent in the transaction does not matter)."""
    batch = BatchWrites.of(session)
    if batch is not None:
        batch.games[game.id] = {"id": game.id, "state": game.state, "version": game.version}
        return
    written = {"game_id": game.id, "state": game.state, "version": game.version}
    if session.get_bind().dialect.name == "postgresql":
        payload = live.notify_payload(game.id, game.version)
        session.execute(_WRITE_GAME_AND_NOTIFY, written | {"channel": live.CHANNEL, "payload": payload})
    else:
        session.execute(_WRITE_GAME, written)
        announce(session, game)


# Fixed Core statements (compiled once, prepared): the SET clause is the parameters' other keys.
_INSERT_ORDER = insert(table_of(GameOrder))
_WRITE_GAME = update(GAMES).where(GAMES.c.id == bindparam("game_id"))
_WRITE_GAME_AND_NOTIFY = _WRITE_GAME.returning(func.pg_notify(bindparam("channel"), bindparam("payload")))


def append_events(session: Session, game: GameFacts, events: list[Event], now: datetime) -> None:
    """The events, numbered after the game's last event: one prepared statement run once per event (each
    run sees the rows of the runs before it), or held back for the batch's one INSERT."""
    if not events:
        return
    batch = BatchWrites.of(session)
    rows = [
        {
            "game_id": game.id,
            "order_seq": game.version,
            "kind": item.kind,
            "data": item.data,
            "visible_to": sorted(item.to) if item.to is not None else None,
            "created_at": now,
        }
        for item in events
    ]
    if batch is None:
        session.execute(NEXT_EVENT, [row | {"events_of": game.id} for row in rows])
        return
    last = batch.last_event[game.id]
    batch.last_event[game.id] += len(events)
    batch.events += [row | {"seq": last + offset} for offset, row in enumerate(rows, start=1)]


# One event after the game's last; a fixed statement, so it is compiled once and prepared.
NEXT_EVENT = insert(table_of(GameEvent)).values(
    seq=select(func.coalesce(func.max(GameEvent.seq), 0) + 1)
    .where(GameEvent.game_id == bindparam("events_of"))
    .scalar_subquery()
)


# The notification kind of each kind of news (`Event.news`), which players turn on or off apart.
NEWS_KINDS = {"trade": "game_news", "calamity": "calamity_news", "city_lost": "city_news"}


def notify_news(session: Session, game: GameFacts, events: list[Event], user_id: int | None) -> None:
    """A news notification for each event worth a mail (`Event.mail`, `Event.mail_to`) to every holder of a
    seat it is mailed to that may see it, but the user whose order caused it. The notification names the
    event by the order that made it and its place among that order's events (as `append_events` numbers
    them)."""
    for index, item in enumerate(events, start=1):
        if not item.mail and not item.mail_to:
            continue
        data = {"order_seq": game.version, "index": index, "kind": item.kind}
        for seat in game.seats:
            holder = seat.user_id
            if holder is None or holder == user_id or seat.status != "playing" or seat.number is None:
                continue
            mailed = item.mail_to is None or seat.number in item.mail_to
            if mailed and (item.to is None or seat.number in item.to):
                _notify_user(session, game, holder, NEWS_KINDS.get(item.news, "game_news"), data)


@dataclass
class BatchWrites:
    """The order log, events, game rows and turn notifications of many orders, held back to be written
    once per table (the sweeper's batches). While it is open, nothing may read those tables for the
    batch's games."""

    last_event: dict[int, int]  # game id -> the seq of its last event so far
    waits: dict[int, list[WaitRow]] = field(default_factory=dict)  # game id -> its wait rows, kept current
    orders: list[dict[str, Any]] = field(default_factory=list)
    events: list[dict[str, Any]] = field(default_factory=list)
    games: dict[int, dict[str, Any]] = field(default_factory=dict)
    notifications: list[dict[str, Any]] = field(default_factory=list)

    KEY = "play.batch_writes"

    @classmethod
    def of(cls, session: Session) -> BatchWrites | None:
        found: BatchWrites | None = session.info.get(cls.KEY)
        return found

    @classmethod
    def open(cls, session: Session, game_ids: Collection[int]) -> BatchWrites:
        query = (
            select(GameEvent.game_id, func.max(GameEvent.seq))
            .where(GameEvent.game_id.in_(list(game_ids)))
            .group_by(GameEvent.game_id)
        )
        last = dict.fromkeys(game_ids, 0) | {game_id: seq for game_id, seq in session.execute(query)}
        batch = session.info[cls.KEY] = cls(last)
        return batch

    def close(self, session: Session) -> None:
        """Write what was held back (one statement a table, one for the live news), and stop holding."""
        session.info.pop(self.KEY, None)
        for model, rows in (
            (GameOrder, self.orders),
            (GameEvent, self.events),
            (Notification, self.notifications),
        ):
            insert_many(session, model, rows)
        if self.games:
            session.execute(update(Game), list(self.games.values()))  # by primary key, one executemany
            # every version the batch made, not only each game's last: a live page misses none of them
            made = {(order["game_id"], order["seq"]) for order in self.orders}
            made |= {(game["id"], game["version"]) for game in self.games.values()}
            announce_many(session, sorted(made))


def sync_waits(
    session: Session,
    game: GameFacts,
    waits: list[Wait],
    *,
    acting_seat: int | None,
    now: datetime,
    anytime: bool = False,
    rows: list[WaitRow] | None = None,
) -> list[WaitRow]:
    """Make the wait rows match the rules' waits; returns them, by seat (`rows`: as already read).

    A seat that was already awaited in the same phase, and is not the one that just acted, keeps its wait
    and its deadline (the others still bidding after one seat has bid). Every other wait starts now: a
    seat awaited again has its row started afresh, a seat no longer awaited loses its row.
    After an `anytime` order (one that answers no wait) even the acting seat keeps its deadline; its
    question begins again at this version, since its own hand changed.
    """
    existing = {row.seat: row for row in (_wait_rows(session, game.id) if rows is None else rows)}
    wanted = {wait.seat: wait for wait in waits}
    had_market = any(row.market for row in existing.values())

    def still_waiting(seat: int) -> bool:
        row, wait = existing.get(seat), wanted.get(seat)
        answered = seat == acting_seat and not anytime
        return row is not None and wait is not None and not answered and row.phase == wait.phase

    retired = _retired_waits(session, game.id)
    for seat, ended in existing.items():
        if seat not in wanted:
            _retire(session, ended)
    current, started = [], []
    for seat, wait in wanted.items():
        row = existing.get(seat)
        if row is None or not still_waiting(seat):
            if row is None:
                row = retired.get(seat) or WaitRow(game_id=game.id, seat=seat)
                session.add(row)  # a row retired earlier in this unit of work comes back
            _start_wait(row, wait, game.version, now)
            started.append(row)
            turn = {"phase": wait.phase, "seat": seat, "since_version": game.version}
            _notify_seat(session, game, seat, "your_turn", turn)
        elif seat == acting_seat:
            row.since_version = game.version  # an anytime order: the same wait, a new question
        current.append(row)
    current.sort(key=lambda row: row.seat)
    # Deadlines: the awaited player's windows, every seated player's pauses, the market's close.
    deadlines.start_waits(session, game, started, now, had_market=had_market, rows=current)
    return current


def _retired_waits(session: Session, game_id: int) -> dict[int, WaitRow]:
    """The game's wait rows deleted in this unit of work and not yet flushed (a batch of timeouts):
    a seat awaited again takes its row back, as a new row for it would break the seat's uniqueness."""
    return {row.seat: row for row in session.deleted if isinstance(row, WaitRow) and row.game_id == game_id}


def _retire(session: Session, row: WaitRow) -> None:
    if row in session.new:
        session.expunge(row)
    else:
        session.delete(row)


def _start_wait(row: WaitRow, wait: Wait, version: int, now: datetime) -> None:
    """The row as a wait beginning now: every column a new row would have."""
    row.phase = wait.phase
    row.simultaneous = wait.simultaneous
    row.first_in_phase = wait.first_in_phase
    row.market = wait.market
    row.since_version = version
    row.started_at = now
    row.deadline_at = row.warn_at = row.warned_for = row.check_at = None
    row.extension_seconds = row.attempts = 0
    row.last_error = None


def _notify_seat(
    session: Session, game: GameFacts, seat_number: int, kind: str, data: dict[str, Any]
) -> None:
    holder = next((seat.user_id for seat in game.seats if seat.number == seat_number), None)
    if holder is not None:
        _notify_user(session, game, holder, kind, data)


def _notify_user(session: Session, game: GameFacts, holder: int, kind: str, data: dict[str, Any]) -> None:
    batch = BatchWrites.of(session)
    if batch is not None:
        batch.notifications.append({"user_id": holder, "game_id": game.id, "kind": kind, "data": data})
    else:
        session.add(Notification(user_id=holder, game_id=game.id, kind=kind, data=data))


def _finish(session: Session, game: PlayedGame, rules: GameRules[Any], state: Any, now: datetime) -> None:
    standings = rules.standings(state) or []
    finished = orm_game(session, game)
    finished.status = "finished"
    finished.finished_at = now
    finished.standings = [{"seat": s.seat, "place": s.place, "score": s.score} for s in standings]
    if finished is not game:
        game.status, game.finished_at, game.standings = "finished", now, finished.standings
    ratings.rate_finished_game(session, finished, now)
    for seat in finished.seats:
        if seat.user_id is not None:
            session.add(Notification(user_id=seat.user_id, game_id=game.id, kind="game_over", data={}))


def announce(session: Session, game: GameFacts, audience: Collection[int] | None = None) -> None:
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


def announce_many(session: Session, versions: list[tuple[int, int]]) -> None:
    """`announce` for many games at once: one statement on Postgres."""
    if session.get_bind().dialect.name != "postgresql":
        for game_id, version in versions:
            event.listen(session, "after_commit", _publisher(game_id, version), once=True)
        return
    payloads = [live.notify_payload(game_id, version) for game_id, version in versions]
    session.execute(
        text("SELECT pg_notify(:channel, payload) FROM unnest(CAST(:payloads AS text[])) AS payload"),
        {"channel": live.CHANNEL, "payloads": payloads},
    )


def _publisher(game_id: int, version: int) -> Callable[[Session], None]:
    return lambda _session: live.BUS.publish(game_id, version)


_WAIT_ROWS = select(WaitRow).where(WaitRow.game_id == bindparam("game_id")).order_by(WaitRow.seat)


def _wait_rows(session: Session, game_id: int) -> list[WaitRow]:
    """The game's waits as rows to change."""
    return list(session.scalars(_WAIT_ROWS, {"game_id": game_id}))


_WAITS_SHOWN = (
    select(*(WAITS.c[name] for name in WAIT_COLUMNS))
    .where(WAITS.c.game_id == bindparam("game_id"))
    .order_by(WAITS.c.seat)
)


def _waits_shown(session: Session, game_id: int) -> list[WaitRecord]:
    """The game's waits as records to show."""
    return [WaitRecord(*row) for row in session.execute(_WAITS_SHOWN, {"game_id": game_id})]


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

    game: GameFacts
    seat: int | None  # the viewer's seat number, None for a spectator
    players: list[str | None]  # display names by seat number
    members: list[str]  # display names in the order they joined (before the start, seats have no number)
    board: dict[str, Any] | None  # the rules' view for this viewer; None before the start
    waits: list[WaitInfo]
    log: list[GameEvent]
    rolled_back: frozenset[int] = frozenset()  # orders a moderator rolled back (their events stay, marked)
    market: markets.MarketClock | None = None  # the trade market open now, if any

    @property
    def my_wait(self) -> WaitInfo | None:
        return next((wait for wait in self.waits if wait.seat == self.seat), None)


def get_game(session: Session, game_id: int) -> Game:
    game = session.get(Game, game_id)
    if game is None:
        raise not_found("This game does not exist.")
    return game


def read_game(session: Session, game_id: int) -> tuple[GameRecord, dict[int | None, str]]:
    """The game with its seats and their holders' display names, in one statement, unlocked."""
    return _game_and_names(session, game_id, lock=False)


def viewer_seat(game: GameFacts, user: UserFacts | None) -> int | None:
    if user is None:
        return None
    return next((s.number for s in game.seats if s.user_id == user.id and s.status == "playing"), None)


def game_view(session: Session, game_id: int, user: UserFacts | None, with_log: bool = True) -> GameView:
    """What the viewer may see (`with_log`: with the newest events and the rolled-back orders)."""
    game, names = _game_and_names(session, game_id, lock=False)
    rows = _waits_shown(session, game.id) if game.state is not None else []
    if not with_log:
        return view_of(game, user, names, rows)
    seat = viewer_seat(game, user)
    view = view_of(
        game, user, names, rows, visible_log(session, game.id, seat), rolled_back_seqs(session, game.id)
    )
    if any(row.market for row in rows):
        view = replace(view, market=markets.market_clock(session, game.id))
    return view


def view_of(
    game: GameFacts,
    user: UserFacts | None,
    names: Mapping[int | None, str],
    rows: Sequence[WaitFacts],
    log: list[GameEvent] | None = None,
    rolled_back: frozenset[int] = frozenset(),
    *,
    state: Any = None,
) -> GameView:
    """The view of a game already read: its seats, their holders' names and its wait rows (`state`: the
    rules' state of `game.state`, when the caller holds it already)."""
    seat = viewer_seat(game, user)
    players: list[str | None] = [None] * game.players
    for s in game.seats:
        if s.number is not None:
            players[s.number] = bot_seats.seat_name(game, s, names)
    board = None
    waits: list[WaitInfo] = []
    if game.state is not None:
        rules = registry.get(game.game_type)
        if state is None:
            state = rules.load(game.state)
        board = rules.view(state, seat)
        for row in rows:
            default = rules.default_order(state, row.seat) if row.seat == seat else None
            waits.append(
                WaitInfo(row.seat, players[row.seat], row.phase, row.deadline_at, row.since_version, default)
            )
    members = [name for s in game.seats if (name := bot_seats.seat_name(game, s, names)) is not None]
    return GameView(game, seat, players, members, board, waits, log or [], rolled_back)


NO_EVENT_AFTER = 2**31 - 1  # above every event's number: "before" this is the newest page
_EVENTS_BEFORE = (
    select(GameEvent)
    .where(GameEvent.game_id == bindparam("game_id"), GameEvent.seq < bindparam("before"))
    .order_by(GameEvent.seq.desc())
    .limit(bindparam("limit"))
)


def visible_log(
    session: Session, game_id: int, seat: int | None, limit: int = LOG_LIMIT, before: int | None = None
) -> list[GameEvent]:
    """The newest events this seat may see (None: a spectator sees only public events), older than the
    event `before` when given.

    Read newest first, a page at a time, so a long game costs no more than a short one."""
    visible: list[GameEvent] = []
    while len(visible) < limit:
        wanted = {"game_id": game_id, "before": NO_EVENT_AFTER if before is None else before, "limit": limit}
        page = list(session.scalars(_EVENTS_BEFORE, wanted))
        visible += [
            row for row in page if row.visible_to is None or (seat is not None and seat in row.visible_to)
        ]
        if len(page) < limit:
            break
        before = page[-1].seq
    return visible[:limit]


@dataclass(frozen=True)
class LogPage:
    view: GameView  # the game as the viewer sees it now, `log` holding the page's entries, newest first
    older: int | None  # the `before` of the next page back, None on the oldest page
    newest: bool  # the page starts at the newest entry


def log_page(session: Session, game_id: int, user: UserFacts | None, before: int | None = None) -> LogPage:
    """One page of the log, as the viewer may see it: LOG_LIMIT entries older than the event `before`."""
    game, names = _game_and_names(session, game_id, lock=False)
    seat = viewer_seat(game, user)
    rows = _waits_shown(session, game.id) if game.state is not None else []
    entries = visible_log(session, game.id, seat, LOG_LIMIT + 1, before)
    view = view_of(game, user, names, rows, entries[:LOG_LIMIT], rolled_back_seqs(session, game.id))
    older = entries[LOG_LIMIT - 1].seq if len(entries) > LOG_LIMIT else None
    return LogPage(view, older, before is None)


@dataclass(frozen=True)
class ReplayStep:
    """The game after its first `step` orders, as the viewer may see it (a seat its own view, anyone else
    the spectator's): the board, the log up to then, and what that step's order did."""

    view: GameView
    step: int
    steps: int  # the orders that make the game (rolled-back ones left out)
    events: list[GameEvent]  # the step's own entries the viewer may see
    made_at: datetime | None  # when the step's order was made
    failure: replays.ReplayFailure | None = None  # the step asked for could not be rebuilt: why

    @property
    def last_shown(self) -> int:
        """The last step that can be shown: the last one, or the one before the first that fails."""
        return self.failure.step - 1 if self.failure is not None else self.steps


def replay_step(session: Session, game_id: int, user: UserFacts | None, step: int | None) -> ReplayStep:
    """Step `step` (None: the last) of the game's replay, rebuilt from the nearest kept state and the
    orders after it; an order log that no longer replays shows the last step that can be rebuilt."""
    game, names = _game_and_names(session, game_id, lock=False)
    if game.state is None:
        raise ServiceError("wrong_status", "This game has not started.")
    seqs = effective_seqs(session, game.id)
    step = len(seqs) if step is None else step
    if not 0 <= step <= len(seqs):
        raise ServiceError(
            "invalid_input", "This game has steps 0 to %(last)s.", "step", params={"last": len(seqs)}
        )
    rebuilt = replays.KEPT.rebuild(game, seqs, step, orders_reader(session, game.id, seqs))
    if rebuilt.state is None:
        raise _replay_failed(rebuilt.failure)
    seat = viewer_seat(game, user)
    shown = rebuilt.step
    board = registry.get(game.game_type).view(rebuilt.state, seat)
    applied = frozenset(seqs[:shown])
    log = [
        event
        for event in _events_of(session, game.id, seqs[shown - 1] if shown else 0, seat)
        if event.order_seq in applied
    ]
    last = seqs[shown - 1] if shown else None
    events = [event for event in log if event.order_seq == last]
    view = replace(view_of(game, user, names, []), board=board, log=log[:LOG_LIMIT])
    made_at = session.scalar(_ORDER_MADE_AT, {"game_id": game.id, "seq": last}) if last else None
    return ReplayStep(view, shown, len(seqs), events, made_at, rebuilt.failure)


_ORDER_MADE_AT = select(GameOrder.created_at).where(
    GameOrder.game_id == bindparam("game_id"), GameOrder.seq == bindparam("seq")
)
_ORDERS_BETWEEN = (
    select(GameOrder)
    .where(
        GameOrder.game_id == bindparam("game_id"),
        GameOrder.seq >= bindparam("first"),
        GameOrder.seq <= bindparam("last"),
    )
    .order_by(GameOrder.seq)
)


def orders_reader(session: Session, game_id: int, seqs: Sequence[int]) -> replays.ReadOrders:
    """Reads the orders in effect between two seqs (a rebuild reads only those after a kept state)."""
    effective = frozenset(seqs)

    def read(first: int, last: int) -> list[GameOrder]:
        wanted = {"game_id": game_id, "first": first, "last": last}
        return [order for order in session.scalars(_ORDERS_BETWEEN, wanted) if order.seq in effective]

    return read


def _replay_failed(failure: replays.ReplayFailure | None) -> ServiceError:
    assert failure is not None
    return ServiceError(
        "replay_failed",
        "This game's order log no longer replays under today's rules: step %(step)s cannot be rebuilt.",
        params={"step": failure.step},
        details={"step": failure.step, "rule_code": failure.code},
    )


def _events_of(session: Session, game_id: int, up_to_order: int, seat: int | None) -> list[GameEvent]:
    """The newest entries of the orders up to `up_to_order` that the seat may see, newest first (enough for
    the step's own entries and a page of log)."""
    query = (
        select(GameEvent)
        .where(GameEvent.game_id == game_id, GameEvent.order_seq <= up_to_order)
        .order_by(GameEvent.seq.desc())
        .limit(REPLAY_EVENTS_READ)
    )
    return [
        row
        for row in session.scalars(query)
        if row.visible_to is None or (seat is not None and seat in row.visible_to)
    ]


def replay_state(session: Session, game: Game) -> Any:
    """The state rebuilt from the seed, the options and the order log (without rolled-back orders)."""
    return state_after(game, effective_orders(session, game.id))


def state_after(game: GameFacts, orders: list[GameOrder]) -> Any:
    """The game's first state with these orders applied, in turn."""
    rules = registry.get(game.game_type)
    state = rules.new_game(rules.Options.model_validate(game.options), game.players, game.seed)
    for order in orders:
        state = rules.apply(state, order.seat, order.payload).state
    return state


_ROLLBACKS = select(GameRollback.to_seq, GameRollback.from_version).where(
    GameRollback.game_id == bindparam("game_id")
)


def _rollback_ranges(session: Session, game_id: int) -> list[tuple[int, int]]:
    return [(kept, until) for kept, until in session.execute(_ROLLBACKS, {"game_id": game_id})]


def rolled_back_seqs(session: Session, game_id: int) -> frozenset[int]:
    """The orders a moderator rolled back: each rollback voids the orders after `to_seq`, up to the version
    the game had then. They stay in the log, which is append-only."""
    ranges = _rollback_ranges(session, game_id)
    if not ranges:
        return frozenset()
    seqs = session.scalars(select(GameOrder.seq).where(GameOrder.game_id == game_id))
    return frozenset(seq for seq in seqs if any(kept < seq <= until for kept, until in ranges))


_ORDER_SEQS = select(GameOrder.seq).where(GameOrder.game_id == bindparam("game_id")).order_by(GameOrder.seq)


def effective_seqs(session: Session, game_id: int) -> list[int]:
    """The seqs of the orders that make the game's state, in turn (read without the orders)."""
    ranges = _rollback_ranges(session, game_id)
    seqs = session.scalars(_ORDER_SEQS, {"game_id": game_id})
    return [seq for seq in seqs if not any(kept < seq <= until for kept, until in ranges)]


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
        seqs = effective_seqs(session, game.id)
        rebuilt = replays.KEPT.rebuild(game, seqs, len(seqs), orders_reader(session, game.id, seqs))
        if rebuilt.failure is not None:
            raise _replay_failed(rebuilt.failure)
        return Replayed(rebuilt.state, len(seqs), as_json(rules.dump(rebuilt.state)) == as_json(game.state))


REPLAYS = ReplayCache()


def replay(session: Session, game_id: int, user: UserFacts | None) -> dict[str, Any]:
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
