"""The absence ladder: missed turns in a row, eviction at X, the vote to evict sooner, the settings."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

import pytest
from markupsafe import Markup
from sqlalchemy import select
from sqlalchemy.orm import Session, sessionmaker

from app.models import SeatTenure, User
from app.services.errors import ServiceError
from app.services.play import absence, play
from app.services.social import lobby
from tests.clock_service.factory import (
    HOUR,
    NOW,
    events,
    game,
    make_users,
    notifications,
    running_game,
    seat_of,
    sweep_at,
    waits,
)


def by_seat(db: Session, game_id: int, users: list[User]) -> dict[int, User]:
    return {seat_of(db, game_id, user): user for user in users}


def submit(db: Session, user: User, game_id: int, order: dict[str, object], now: datetime) -> None:
    play.submit(db, user, game_id, order, game(db, game_id).version, now)


def play_round(
    db: Session,
    sessions: sessionmaker[Session],
    game_id: int,
    players: dict[int, User],
    absent: int,
    now: datetime,
) -> datetime:
    """Everyone but `absent` picks at `now`, `absent` times out, the chooser passes; returns the end."""
    present = sorted(seat for seat in players if seat != absent)
    for seat in present:
        submit(db, players[seat], game_id, {"type": "pick", "value": 3 if seat == present[0] else 2}, now)
    deadline = waits(db, game_id)[absent].deadline_at
    assert deadline is not None
    assert sweep_at(sessions, deadline).timeouts == 1
    submit(db, players[present[0]], game_id, {"type": "choose", "take": False}, deadline)
    return deadline


def missed(db: Session, game_id: int, seat: int) -> int:
    return next(s.missed_turns for s in game(db, game_id).seats if s.number == seat)


ABSENT = 2  # the seat that stops playing


@dataclass(frozen=True)
class Table:
    game_id: int
    players: dict[int, User]  # by seat
    now: datetime  # when the set-up left off


@pytest.fixture
def table(db: Session) -> Table:
    """Ann, Ben and Cat at a running game of the fake type, nobody absent yet."""
    users = make_users(db, "Ann", "Ben", "Cat")
    game_id = running_game(db, users)
    return Table(game_id, by_seat(db, game_id, users), NOW)


@pytest.fixture
def missed_twice(db: Session, sessions: sessionmaker[Session], table: Table) -> Table:
    """The same table once seat ABSENT has timed out on two turns in a row."""
    now = play_round(db, sessions, table.game_id, table.players, ABSENT, table.now)
    now = play_round(db, sessions, table.game_id, table.players, ABSENT, now)
    return Table(table.game_id, table.players, now)


def test_a_player_is_evicted_after_x_missed_turns_in_a_row(
    db: Session, sessions: sessionmaker[Session], table: Table
) -> None:
    game_id, players, absent, now = table.game_id, table.players, ABSENT, table.now
    for expected in (1, 2, 3):
        now = play_round(db, sessions, game_id, players, absent, now)
        assert missed(db, game_id, absent) == expected
        assert absence.threshold(db, game(db, game_id), absent) == 4  # preset 4, first third, 3 players
    play_round(db, sessions, game_id, players, absent, now)
    seat = next(s for s in game(db, game_id).seats if s.number == absent)
    assert (seat.status, seat.user_id, seat.missed_turns) == ("open", None, 0)
    tenure = db.scalar(select(SeatTenure).where(SeatTenure.seat_id == seat.id))
    assert tenure is not None and tenure.end_reason == "evicted"
    assert [event.data for event in events(db, game_id, "platform:seat_evicted")] == [{"seat": absent}]
    assert len(notifications(db, players[absent], "evicted")) == 1
    assert len(notifications(db, players[0], "player_evicted")) == 1


def test_the_preset_is_chosen_at_creation(db: Session, sessions: sessionmaker[Session]) -> None:
    users = make_users(db, "Ann", "Ben")
    game_id = running_game(db, users, absence={"eviction_preset": 2, "warning_percent": 50})
    assert waits(db, game_id)[0].warn_at == NOW + 12 * HOUR
    players = by_seat(db, game_id, users)
    now = play_round(db, sessions, game_id, players, 1, NOW)
    play_round(db, sessions, game_id, players, 1, now)
    assert next(s.status for s in game(db, game_id).seats if s.number == 1) == "open"


@pytest.mark.parametrize(
    ("given", "field"),
    [
        ({"warning_percent": 99}, "absence.warning_percent"),
        ({"eviction_preset": 1}, "absence.eviction_preset"),
        ({"vote_after": "soon"}, "absence.vote_after"),
        ({"premium": True}, "absence.premium"),
    ],
)
def test_bad_absence_settings_are_refused(db: Session, given: dict[str, object], field: str) -> None:
    (ann,) = make_users(db, "Ann")
    with pytest.raises(ServiceError) as refused:
        lobby.create_game(
            db, ann, game_type="fake", players=2, time_limit_hours=24, absence_options=given, now=NOW
        )
    assert (refused.value.code, refused.value.field) == ("invalid_input", field)


def test_the_others_may_vote_to_evict_sooner_after_two_missed_turns(
    db: Session, sessions: sessionmaker[Session], table: Table
) -> None:
    game_id, players = table.game_id, table.players
    now = play_round(db, sessions, game_id, players, 2, table.now)
    with pytest.raises(ServiceError) as early:
        absence.vote_to_evict(db, players[0], game_id, 2, now)
    assert early.value.code == "vote_not_open"
    now = play_round(db, sessions, game_id, players, 2, now)
    first = absence.vote_to_evict(db, players[0], game_id, 2, now)
    assert (first.votes, first.threshold, first.evicted) == (1, 3, False)
    with pytest.raises(ServiceError) as again:
        absence.vote_to_evict(db, players[0], game_id, 2, now)
    assert again.value.code == "already_voted"
    second = absence.vote_to_evict(db, players[1], game_id, 2, now)
    assert (second.threshold, second.evicted) == (2, True)
    assert next(s.status for s in game(db, game_id).seats if s.number == 2) == "open"


def test_votes_need_a_seat_of_ones_own_and_another_target(db: Session, missed_twice: Table) -> None:
    (outsider,) = make_users(db, "Zed")
    game_id, players, now = missed_twice.game_id, missed_twice.players, missed_twice.now
    for voter, seat, code in (
        (players[2], 2, "forbidden"),
        (outsider, 2, "not_your_game"),
        (players[0], 9, "invalid_input"),
    ):
        with pytest.raises(ServiceError) as refused:
            absence.vote_to_evict(db, voter, game_id, seat, now)
        assert refused.value.code == code
        db.rollback()


def test_an_order_in_time_clears_the_count_and_the_votes(db: Session, missed_twice: Table) -> None:
    game_id, players, now = missed_twice.game_id, missed_twice.players, missed_twice.now
    absence.vote_to_evict(db, players[0], game_id, 2, now)
    submit(db, players[2], game_id, {"type": "pick", "value": 1}, now + HOUR)
    assert missed(db, game_id, 2) == 0
    assert absence.votes_against(db, game(db, game_id), 2) == 0


def test_the_absence_table_shows_each_seat_and_what_the_viewer_may_do(
    db: Session, missed_twice: Table
) -> None:
    game_id, players, now = missed_twice.game_id, missed_twice.players, missed_twice.now
    table = absence.absence_table(db, game(db, game_id), players[0], now + timedelta(minutes=1))
    assert [(row.seat, row.missed_turns, row.threshold, row.may_vote) for row in table] == [
        (0, 0, 4, False),
        (1, 0, 4, False),
        (2, 2, 4, True),
    ]
    assert table[2].player == players[2].display_name


def test_a_timeout_is_named_in_the_log_with_the_missed_count_and_its_default_to_its_seat_alone(
    db: Session, missed_twice: Table
) -> None:
    game_id = missed_twice.game_id
    said = events(db, game_id, "platform:timeout")
    assert [(e.data, e.visible_to) for e in said] == [
        ({"seat": 2, "missed": 1}, None),
        ({"seat": 2, "missed": 2}, None),
    ]
    private = events(db, game_id, "platform:timeout_default")
    assert [e.visible_to for e in private] == [[2], [2]] and all(e.data["order"]["type"] for e in private)
    log = {seat: [e.kind for e in play.visible_log(db, game_id, seat, limit=50)] for seat in (0, 2)}
    assert "platform:timeout" in log[0] and "platform:timeout_default" not in log[0]
    assert "platform:timeout_default" in log[2]


def test_the_timeout_line_in_words() -> None:
    from app.web.emails import make_environment
    from app.web.i18n import Translator

    env = make_environment()
    template = env.get_template("partials/platform_event.html")
    for language, expected in (
        ("en", "Time ran out: the server played the default for Cat. (2 turns missed in a row)"),
        ("fr", "Temps écoulé : le serveur a joué l'ordre par défaut pour Cat. (2 tours manqués d'affilée)"),
    ):
        words = Translator(language)
        event = {"kind": "platform:timeout", "data": {"seat": 2, "missed": 2}}
        view = {"players": ["Ann", "Ben", "Cat"]}
        html = template.render(**words.template_globals(), event=event, view=view)
        assert " ".join(Markup(html).striptags().split()) == expected
