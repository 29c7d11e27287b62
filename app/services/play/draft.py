"""Set-up: the seat draft, then the deal (the rules' first state). A platform phase, generic over choices.

A rules object may declare `draft_choices(options, players) -> list[str] | None`: the things each seat
chooses one of before the game begins (Advanced Civilization's nations). When it returns choices, the game
starts in set-up: `Game.status` is "active" but `Game.state` is None until every seat has chosen. The
result reaches the rules through their options: `options["draft"]` maps each seat number (as a string) to
its choice, so `rules.Options` of such a game declares a `draft` field, and a replay from the stored
options rebuilds the same first state.

The draft (site P0 and errata 9):
- seats choose in pick order (seat 0 holds pick number 1);
- anyone may pre-select a choice before their turn, change it or withdraw it; a pre-selection is secret
  to its seat until it is resolved;
- the seat whose turn comes gets its pre-selection at once, unless a lower pick number already took it:
  that is a conflict, the lower pick number wins, and the loser chooses again;
- the game waits on a seat with no (remaining) pre-selection: a wait of phase "draft" with the normal
  time limit (and the clock's windows and pauses); at timeout the seat gets a random choice still free
  (drawn from the game's seed, the seat and how many were taken), and that counts as a missed turn;
- players see the draft as it goes; spectators see nothing of the game before the set-up ends (the log
  entries of the draft are for the seated players only).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import select
from sqlalchemy.orm import Session

from app.games import registry
from app.games.contract import Event, Wait
from app.models import DraftPick, Game, User, WaitRow
from app.models.records import UserFacts
from app.services.deadlines import bot_seats
from app.services.errors import ServiceError
from app.services.play import absence, play
from app.services.players import profiles

PHASE = "draft"


def choices_of(game: Game) -> list[str] | None:
    rules = registry.get(game.game_type)
    declared = getattr(rules, "draft_choices", None)
    if declared is None:
        return None
    found = declared(rules.Options.model_validate(game.options), game.players)
    return [str(choice) for choice in found] if found else None


def set_up(session: Session, game: Game, now: datetime) -> None:
    """After the last seat is taken: a draft when the rules declare one, else the deal at once."""
    choices = choices_of(game)
    if choices is None:
        deal(session, game, {}, now)
        return
    if len(set(choices)) < game.players:
        raise ValueError(f"{game.game_type}: fewer draft choices than players")
    for number in range(game.players):
        session.add(DraftPick(game_id=game.id, seat=number))
    session.flush()
    _to_players(session, game, "platform:draft_started", {"choices": choices}, now)
    advance(session, game, now, acting_seat=None)


def deal(session: Session, game: Game, drafted: dict[int, str], now: datetime) -> None:
    """The rules' first state (with the draft in the options), the start in the log, the first waits."""
    rules = registry.get(game.game_type)
    if drafted:
        game.options = {
            **game.options,
            "draft": {str(seat): choice for seat, choice in sorted(drafted.items())},
        }
    state = rules.new_game(rules.Options.model_validate(game.options), game.players, game.seed)
    game.state = rules.dump(state)
    game.version = 1
    names = _names(session, game)
    numbered = sorted(game.seats, key=lambda s: s.number or 0)
    players = [bot_seats.seat_name(game, seat, names) or "" for seat in numbered]
    play.append_events(session, game, [Event("platform:game_started", {"players": players})], now)
    play.sync_waits(session, game, rules.waits(state), acting_seat=None, now=now)


def _names(session: Session, game: Game) -> dict[int | None, str]:
    ids = [seat.user_id for seat in game.seats if seat.user_id is not None]
    rows = session.execute(select(User.id, User.display_name).where(User.id.in_(ids)))
    return {user_id: name for user_id, name in rows}


def picks_of(session: Session, game_id: int) -> list[DraftPick]:
    return list(
        session.scalars(select(DraftPick).where(DraftPick.game_id == game_id).order_by(DraftPick.seat))
    )


def in_draft(session: Session, game: Game) -> bool:
    return game.status == "active" and game.state is None and bool(picks_of(session, game.id))


def advance(session: Session, game: Game, now: datetime, *, acting_seat: int | None) -> None:
    """Resolve the pre-selections in pick order up to the first seat that must choose; wait on it."""
    picks = picks_of(session, game.id)
    taken = {pick.choice for pick in picks if pick.choice is not None}
    for pick in picks:
        if pick.choice is not None:
            continue
        if pick.preselection is not None and pick.preselection not in taken:
            chosen = pick.preselection
            _resolve(session, game, pick, chosen, now)
            taken.add(chosen)
            continue
        if pick.preselection is not None:  # a lower pick number took it: choose again
            lost, pick.preselection = pick.preselection, None
            _to_players(
                session,
                game,
                "platform:draft_conflict",
                {"seat": pick.seat, "choice": lost},
                now,
                [pick.seat],
            )
        play.sync_waits(session, game, [Wait(pick.seat, PHASE)], acting_seat=acting_seat, now=now)
        return
    deal(session, game, {pick.seat: str(pick.choice) for pick in picks}, now)


def _resolve(session: Session, game: Game, pick: DraftPick, choice: str, now: datetime) -> None:
    pick.choice = choice
    pick.preselection = None
    pick.chosen_at = now
    _to_players(session, game, "platform:draft_chosen", {"seat": pick.seat, "choice": choice}, now)


def _to_players(
    session: Session,
    game: Game,
    kind: str,
    data: dict[str, object],
    now: datetime,
    seats: list[int] | None = None,
) -> None:
    """A log entry for the seated players (all of them, or `seats`): never for spectators."""
    audience = frozenset(seats if seats is not None else range(game.players))
    play.append_events(session, game, [Event(kind, dict(data), audience)], now)
    session.flush()


def awaited_seat(session: Session, game_id: int) -> WaitRow | None:
    return session.scalar(select(WaitRow).where(WaitRow.game_id == game_id, WaitRow.phase == PHASE))


# --- a player's choice ----------------------------------------------------------------------------


def choose(session: Session, user: UserFacts, game_id: int, choice: str | None, now: datetime) -> Game:
    """Choose now (on your turn), pre-select (before it), or withdraw a pre-selection (`choice` None)."""
    game = play.locked_game(session, game_id)
    if not in_draft(session, game):
        raise ServiceError("wrong_status", "This game has no seat draft going on.")
    play.refuse_if_held(game)
    seat = next((s for s in game.seats if s.user_id == user.id and s.status == "playing"), None)
    if seat is None or seat.number is None:
        raise ServiceError("not_your_game", "You do not hold a seat in this game.")
    pick = picks_of(session, game.id)[seat.number]
    if pick.choice is not None:
        raise ServiceError("wrong_status", "You have already chosen.")
    if choice is None:
        pick.preselection = None
    else:
        _choose(session, game, pick, _checked(session, game, choice), user, now)
    play.announce(session, game)
    session.commit()
    return game


def _checked(session: Session, game: Game, choice: str) -> str:
    choice = choice.strip()
    if choice not in (choices_of(game) or []):
        raise ServiceError("invalid_input", "There is no such choice.", "choice")
    if any(pick.choice == choice for pick in picks_of(session, game.id)):
        raise ServiceError("draft_taken", "Someone has already chosen this.", "choice")
    return choice


def _choose(
    session: Session, game: Game, pick: DraftPick, choice: str, user: UserFacts, now: datetime
) -> None:
    wait = awaited_seat(session, game.id)
    if wait is None or wait.seat != pick.seat:
        pick.preselection = choice  # secret until it is resolved
        return
    if bot_seats.rated(game):
        profiles.record_move(session, user.id, wait.started_at, now)
    _resolve(session, game, pick, choice, now)
    seat = next(s for s in game.seats if s.number == pick.seat)
    absence.reset_missed_turns(session, game.id, seat)
    advance(session, game, now, acting_seat=pick.seat)


def play_timeout(session: Session, game: Game, seat_number: int, now: datetime) -> None:
    """The deadline of a draft wait passed: a random choice still free; a missed turn."""
    if draw_for(session, game, seat_number, now):
        absence.count_missed_turn(session, game, seat_number, now)
        play.announce(session, game)


def draw_for(session: Session, game: Game, seat_number: int, now: datetime) -> bool:
    """A random choice still free for the awaited seat (a timeout's, or a bot's: a bot has no preference
    among nations); False when the seat is not awaited in the draft."""
    wait = awaited_seat(session, game.id)
    picks = picks_of(session, game.id)
    if wait is None or wait.seat != seat_number or picks[seat_number].choice is not None:
        return False
    taken = {pick.choice for pick in picks if pick.choice is not None}
    free = [choice for choice in choices_of(game) or [] if choice not in taken]
    draw = random.Random(f"{game.seed}:{seat_number}:{len(taken)}")
    _resolve(session, game, picks[seat_number], draw.choice(free), now)
    advance(session, game, now, acting_seat=seat_number)
    return True


# --- what a viewer sees -----------------------------------------------------------------------------


@dataclass(frozen=True)
class DraftRow:
    seat: int
    player: str | None
    choice: str | None
    awaited: bool


@dataclass(frozen=True)
class DraftView:
    game: Game
    visible: bool  # False for a spectator (or a game not in set-up): they see nothing
    seat: int | None  # the viewer's seat
    rows: list[DraftRow]
    free: list[str]
    preselection: str | None  # the viewer's own, secret
    awaited: int | None
    deadline_at: datetime | None

    @property
    def my_turn(self) -> bool:
        return self.seat is not None and self.seat == self.awaited


def draft_view(session: Session, game_id: int, user: UserFacts | None) -> DraftView:
    game = play.get_game(session, game_id)
    seat = play.viewer_seat(game, user)
    if seat is None or not in_draft(session, game):
        return DraftView(game, False, seat, [], [], None, None, None)
    picks = picks_of(session, game.id)
    wait = awaited_seat(session, game.id)
    names = _names(session, game)
    shown = {s.number: bot_seats.seat_name(game, s, names) for s in game.seats}
    rows = [
        DraftRow(
            pick.seat,
            shown.get(pick.seat),
            pick.choice,
            wait is not None and wait.seat == pick.seat,
        )
        for pick in picks
    ]
    taken = {pick.choice for pick in picks}
    free = [choice for choice in choices_of(game) or [] if choice not in taken]
    return DraftView(
        game,
        True,
        seat,
        rows,
        free,
        picks[seat].preselection,
        wait.seat if wait else None,
        wait.deadline_at if wait else None,
    )
