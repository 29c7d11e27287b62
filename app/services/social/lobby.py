"""Creating, joining, leaving, cancelling and listing games; a game starts when its last seat is taken.

A creator may invite friends: each is told, and seated only if they accept (nobody is put into a game, with
its time limit and its effect on their reliability, without their consent). An invitation keeps no seat:
it is a standing offer to join while the game is forming and has a free seat, past the reliability gate.
Whether an invited friend may sit (a ban, a block, the anti-collusion cap) is checked when they accept,
against themselves: the creator is told nothing of the friend's standing, only (at creation) that they
already share three unfinished games with them, which their own list of games shows anyway."""

from __future__ import annotations

import secrets
from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.orm import Session, defer

from app.games import options as game_options
from app.games import registry
from app.games.contract import bot_order_of
from app.models import Game, GameInvitation, Notification, Seat, SeatTenure
from app.models.records import GameFacts, UserFacts
from app.services.errors import ServiceError, not_found
from app.services.mail import notify
from app.services.play import absence, draft, play
from app.services.players import friends, matchmaking
from app.services.sanctions import sanctions
from app.services.social.names import generate_game_name

MAX_TIME_LIMIT_HOURS = 24 * 14
LIST_LIMIT = 100


def create_game(
    session: Session,
    creator: UserFacts,
    *,
    game_type: str,
    players: int,
    time_limit_hours: int | None,
    options: Mapping[str, Any] | None = None,
    name: str | None = None,
    absence_options: Mapping[str, Any] | None = None,
    friends_invited: Sequence[str] = (),
    min_reliability: int | None = None,
    bot_seats: int = 0,
    bots_keep_seats: bool = False,
    now: datetime,
) -> Game:
    """A new game with its creator seated, and its bot seats; the creator's friends are invited (and
    told)."""
    invited = friends.friends_named(session, creator, friends_invited)
    if registry.known(game_type):
        _refuse(game_options.unknown_option(registry.get(game_type).Options, options or {}))
    game = new_game(
        session,
        creator,
        game_type=game_type,
        players=players,
        time_limit_hours=time_limit_hours,
        options=options,
        name=name,
        absence_options=absence_options,
        min_reliability=min_reliability,
        bot_seats=bot_seats,
        bots_keep_seats=bots_keep_seats,
        now=now,
    )
    if len(invited) >= players - bot_seats:
        raise ServiceError("invalid_input", "You invited more friends than the game has seats.", "friends")
    capped = matchmaking.at_cap(session, creator.id)  # the creator's own games: telling them leaks nothing
    if any(friend.id in capped for friend in invited):
        raise ServiceError(
            "shared_games_cap", "You would share more than three unfinished games with the same player."
        )
    for friend in invited:
        session.add(GameInvitation(game_id=game.id, user_id=friend.id, invited_by=creator.id, created_at=now))
    notify.notify_users(
        session, [friend.id for friend in invited], "game_invitation", {"by": creator.display_name}, game.id
    )
    play.announce(session, game)
    session.commit()
    return game


def play_again(session: Session, user: UserFacts, game_id: int, now: datetime) -> Game:
    """A new forming game of the finished game's type, size, time limit and options, its other players
    invited (those with a block between them and the user, or already at the shared-games cap with the
    user, are left out). A player whose table-mate already asked gets that game instead of a second one."""
    game = play.get_game(session, game_id)
    if game.status != "finished":
        raise ServiceError("wrong_status", "This game is not over.")
    holders = [seat.user_id for seat in sorted(game.seats, key=lambda s: s.number or 0) if seat.user_id]
    if user.id not in holders:
        raise ServiceError("not_your_game", "Only the game's players can play it again.")
    existing = _rematch(session, game, user, holders)
    if existing is not None:
        return existing
    left_out = friends.blocked_between(session, user.id) | matchmaking.at_cap(session, user.id)
    others = [holder for holder in holders if holder != user.id and holder not in left_out]
    again = new_game(
        session,
        user,
        game_type=game.game_type,
        players=game.players,
        time_limit_hours=game.time_limit_hours,
        options={key: value for key, value in (game.options or {}).items() if key != "draft"},
        absence_options={key: getattr(game, key) for key in absence.AbsenceSettings.model_fields},
        min_reliability=game.min_reliability,
        bot_seats=game.bot_seats,
        bots_keep_seats=game.bots_keep_seats,
        now=now,
    )
    for other in others:
        session.add(GameInvitation(game_id=again.id, user_id=other, invited_by=user.id, created_at=now))
    notify.notify_users(session, others, "game_invitation", {"by": user.display_name}, again.id)
    play.announce(session, again)
    session.commit()
    return again


def _rematch(session: Session, game: Game, user: UserFacts, holders: Sequence[int]) -> Game | None:
    """A forming game of the same type, made since the end by one of its players, that the user sits in
    or is invited to."""
    invited = select(GameInvitation.game_id).where(GameInvitation.user_id == user.id)
    seated = select(Seat.game_id).where(Seat.user_id == user.id)
    query = (
        select(Game)
        .where(
            Game.status == "open",
            Game.game_type == game.game_type,
            Game.creator_id.in_(list(holders)),
            Game.created_at >= (game.finished_at or game.created_at),
            Game.id.in_(invited.union(seated)),
        )
        .order_by(Game.id)
        .limit(1)
    )
    return session.scalar(query)


def invitations_of(session: Session, user: UserFacts) -> list[Game]:
    """The forming games the user is invited into (and not seated in yet), newest first."""
    query = (
        select(Game)
        .join(GameInvitation, GameInvitation.game_id == Game.id)
        .where(GameInvitation.user_id == user.id, Game.status == "open")
        .order_by(GameInvitation.created_at.desc(), Game.id.desc())
        .options(defer(Game.state), defer(Game.standings))
    )
    return list(session.scalars(query.limit(LIST_LIMIT)))


def is_invited(session: Session, user: UserFacts | None, game: GameFacts) -> bool:
    if user is None or game.status != "open" or any(seat.user_id == user.id for seat in game.seats):
        return False
    return session.get(GameInvitation, (game.id, user.id)) is not None


def accept_invitation(session: Session, user: UserFacts, game_id: int, now: datetime) -> Game:
    """Take a seat in the game one is invited into; the usual checks but the reliability gate apply."""
    game = _locked_game(session, game_id)
    invitation = _invitation(session, user, game)
    _require_open(game)
    if any(seat.user_id == user.id for seat in game.seats):
        raise ServiceError("already_joined", "You are already in this game.")
    if len(game.seats) >= game.players:
        raise ServiceError("game_full", "This game is full.")
    matchmaking.check_may_sit(session, game, user, gate=False)
    session.delete(invitation)
    seat_player(session, game, user, now)
    play.announce(session, game)
    session.commit()
    return game


def decline_invitation(session: Session, user: UserFacts, game_id: int) -> None:
    game = _locked_game(session, game_id)
    session.delete(_invitation(session, user, game))
    session.commit()


def _invitation(session: Session, user: UserFacts, game: Game) -> GameInvitation:
    invitation = session.get(GameInvitation, (game.id, user.id))
    if invitation is None:
        raise not_found("You have no invitation to this game.")
    return invitation


def new_game(
    session: Session,
    creator: UserFacts,
    *,
    game_type: str,
    players: int,
    time_limit_hours: int | None,
    options: Mapping[str, Any] | None = None,
    name: str | None = None,
    absence_options: Mapping[str, Any] | None = None,
    min_reliability: int | None = None,
    bot_seats: int = 0,
    bots_keep_seats: bool = False,
    now: datetime,
) -> Game:
    """A checked new game with its creator seated and its bot seats, in the caller's transaction (nothing
    committed): a game whose every seat but the creator's is a bot's starts at once."""
    if not registry.known(game_type):
        raise ServiceError("invalid_input", "There is no such game type.", "game_type")
    sanctions.check_may_join(creator, now)
    if name:
        sanctions.check_may_write_to_players(creator, now)
    rules = registry.get(game_type)
    if not rules.min_players <= players <= rules.max_players:
        raise ServiceError(
            "invalid_input",
            "%(game)s is played by %(least)s to %(most)s players.",
            "players",
            params={"game": rules.title, "least": rules.min_players, "most": rules.max_players},
        )
    if time_limit_hours is not None and not 1 <= time_limit_hours <= MAX_TIME_LIMIT_HOURS:
        raise ServiceError("invalid_input", "The time limit is 1 to 336 hours, or none.", "time_limit_hours")
    if min_reliability is not None and not 0 <= min_reliability <= 100:
        raise ServiceError(
            "invalid_input", "The reliability gate is a percentage, 0 to 100.", "min_reliability"
        )
    _check_bots(rules, players, bot_seats, bots_keep_seats)
    ladder = absence.absence_settings(absence_options)
    game = Game(
        game_type=game_type,
        name=_check_name(name) if name else generate_game_name(creator.language),
        players=players,
        time_limit_hours=time_limit_hours,
        options=_validated_options(rules.Options, options or {}),
        seed=secrets.randbits(62),
        creator_id=creator.id,
        created_at=now,
        version=0,
        min_reliability=min_reliability,
        bot_seats=bot_seats,
        bots_keep_seats=bots_keep_seats,
        **ladder.model_dump(),
    )
    session.add(game)
    session.flush()
    _take_seat(session, game, creator, now)
    for _ in range(bot_seats):
        _add_seat(session, game, None, "bot", now)
    if len(game.seats) == game.players:
        _start(session, game, now)
    return game


def _check_bots(rules: Any, players: int, bot_seats: int, bots_keep_seats: bool) -> None:
    """Bot seats and bots keeping open seats need the rules' bot; a game keeps one human seat at least."""
    if (bot_seats or bots_keep_seats) and bot_order_of(rules) is None:
        raise ServiceError("invalid_input", "%(game)s has no bot.", "bot_seats", params={"game": rules.title})
    if not 0 <= bot_seats <= players - 1:
        raise ServiceError(
            "invalid_input",
            "A game has 0 to %(most)s bot seats: one seat at least is a player's.",
            "bot_seats",
            params={"most": players - 1},
        )


def _check_name(name: str) -> str:
    name = " ".join(name.split())
    if not 1 <= len(name) <= 80:
        raise ServiceError("invalid_input", "A game name has 1 to 80 characters.", "name")
    return name


def _validated_options(options_model: Any, raw: Mapping[str, Any]) -> dict[str, Any]:
    _refuse(game_options.invalid_value(options_model, raw))
    return dict(options_model.model_validate(dict(raw)).model_dump(mode="json"))


def _refuse(problem: game_options.OptionProblem | None) -> None:
    if problem is not None:
        field = f"options.{problem.field}" if problem.field else "options"
        raise ServiceError(problem.code, problem.template, field, params=problem.params)


def rename_game(session: Session, user: UserFacts, game_id: int, name: str, now: datetime) -> Game:
    game = _locked_game(session, game_id)
    if game.creator_id != user.id:
        raise ServiceError("forbidden", "Only the game's creator may rename it.")
    sanctions.check_may_write_to_players(user, now)
    game.name = _check_name(name)
    session.commit()
    return game


def join_game(session: Session, user: UserFacts, game_id: int, now: datetime) -> Game:
    game = _locked_game(session, game_id)
    _require_open(game)
    if any(seat.user_id == user.id for seat in game.seats):
        raise ServiceError("already_joined", "You are already in this game.")
    if len(game.seats) >= game.players:
        raise ServiceError("game_full", "This game is full.")
    matchmaking.check_may_sit(session, game, user)
    seat_player(session, game, user, now)
    play.announce(session, game)
    session.commit()
    return game


def seat_player(
    session: Session,
    game: Game,
    user: UserFacts,
    now: datetime,
    *,
    kind: str | None = None,
    data: Mapping[str, Any] | None = None,
) -> None:
    """Seat the user at a locked, open game (checks done); the game starts when its last seat is taken.

    `kind`: a notification for the user seated by someone else (a friend's invitation, the queue)."""
    _take_seat(session, game, user, now)
    if kind is not None:
        notify.notify_users(session, [user.id], kind, dict(data or {}), game.id)
    if len(game.seats) == game.players:
        _start(session, game, now)
    else:
        notify.notify_game(session, game, "player_joined", {"user_id": user.id}, exclude=[user.id])


def leave_game(session: Session, user: UserFacts, game_id: int) -> Game:
    game = _locked_game(session, game_id)
    _require_open(game)
    seat = next((seat for seat in game.seats if seat.user_id == user.id), None)
    if seat is None:
        raise ServiceError("not_your_game", "You are not in this game.")
    if game.creator_id == user.id:
        raise ServiceError("forbidden", "The creator cancels the game instead of leaving it.")
    game.seats.remove(seat)
    session.delete(seat)
    notify.notify_game(session, game, "player_quit", {"user_id": user.id})
    play.announce(session, game)
    session.commit()
    return game


def cancel_game(session: Session, user: UserFacts, game_id: int) -> Game:
    game = _locked_game(session, game_id)
    _require_open(game)
    if game.creator_id != user.id and not user.is_admin:
        raise ServiceError("forbidden", "Only the game's creator may cancel it.")
    game.status = "cancelled"
    play.announce(session, game)
    session.commit()
    return game


def _locked_game(session: Session, game_id: int) -> Game:
    game = session.scalar(select(Game).where(Game.id == game_id).with_for_update())
    if game is None:
        raise not_found("This game does not exist.")
    return game


def _require_open(game: Game) -> None:
    if game.status != "open":
        raise ServiceError("wrong_status", "This game is no longer open to joining or leaving.")


def _take_seat(session: Session, game: Game, user: UserFacts, now: datetime) -> None:
    _add_seat(session, game, user.id, "playing", now)


def _add_seat(session: Session, game: Game, user_id: int | None, status: str, now: datetime) -> None:
    """A seat (a player's, or a bot's) with a pick number drawn at random among those still free (1 to
    the player count)."""
    free = sorted(set(range(1, game.players + 1)) - {seat.pick for seat in game.seats})
    seat = Seat(user_id=user_id, joined_at=now, status=status, pick=secrets.SystemRandom().choice(free))
    game.seats.append(seat)
    session.flush()


def _start(session: Session, game: Game, now: datetime) -> None:
    """Seats are numbered in pick order; then the set-up (a seat draft, if any) and the first state."""
    _draw_missing_picks(game)
    for seat in game.seats:
        assert seat.pick is not None
        seat.number = seat.pick - 1
        if seat.user_id is None:  # a bot's seat: no tenure, no mail
            continue
        session.add(SeatTenure(seat_id=seat.id, user_id=seat.user_id, started_at=now))
        session.add(Notification(user_id=seat.user_id, game_id=game.id, kind="game_started", data={}))
    game.status = "active"
    game.started_at = now
    session.flush()
    draft.set_up(session, game, now)


def _draw_missing_picks(game: Game) -> None:
    """Seats taken before pick numbers were drawn on joining get the free ones at random."""
    free = sorted(set(range(1, game.players + 1)) - {seat.pick for seat in game.seats})
    secrets.SystemRandom().shuffle(free)
    for seat in game.seats:
        if seat.pick is None:
            seat.pick = free.pop()


def list_games(session: Session, status: str, user: UserFacts | None = None) -> list[Game]:
    query = select(Game).where(Game.status == status)
    if status == "finished":
        query = query.order_by(Game.finished_at.desc())
    elif status == "active":
        query = query.order_by(Game.started_at.desc())
    else:
        query = query.order_by(Game.created_at.desc())
    return list(session.scalars(query.limit(LIST_LIMIT)))


def count_games(session: Session) -> dict[str, int]:
    rows = session.execute(select(Game.status, func.count()).group_by(Game.status))
    return {status: count for status, count in rows}
