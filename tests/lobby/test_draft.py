"""The seat draft (site P0, errata 9): pick order, secret pre-selections, conflicts to the lowest pick number
(the loser chooses again), waiting on a seat with no pre-selection, a random free choice at timeout, and
nothing shown to spectators before the set-up ends. The test game "fakedraft" drafts nations."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta

import pytest
from sqlalchemy import select
from sqlalchemy.orm import Session, sessionmaker
from starlette.testclient import TestClient

from app.models import GameEvent, Notification, User, WaitRow
from app.services.play import draft, play
from app.services.social import lobby
from tests.clock_service.factory import sweep_at
from tests.conftest import sign_up
from tests.lobby.draftgame import NATIONS
from tests.lobby.helpers import HOUR, NOW, make_users, refused, user_at


def drafting(db: Session, players: int = 4, limit_hours: int | None = 24) -> tuple[int, list[User]]:
    """A fakedraft game whose seats are all taken: it is in its draft. Returns it and its users by pick."""
    users = make_users(db, *[f"P{n}" for n in range(players)])
    made = lobby.create_game(
        db, users[0], game_type="fakedraft", players=players, time_limit_hours=limit_hours, now=NOW
    )
    for user in users[1:]:
        lobby.join_game(db, user, made.id, NOW)
    return made.id, [user_at(db, made.id, n) for n in range(players)]


def choices(db: Session, game_id: int) -> list[str | None]:
    return [row.choice for row in draft.draft_view(db, game_id, user_at(db, game_id, 0)).rows]


def awaited(db: Session, game_id: int) -> int | None:
    return draft.draft_view(db, game_id, user_at(db, game_id, 0)).awaited


def test_a_full_game_with_a_draft_waits_on_pick_one_and_has_no_state(db: Session) -> None:
    game_id, _ = drafting(db)
    game = play.get_game(db, game_id)
    assert (game.status, game.state, game.version) == ("active", None, 0)
    assert awaited(db, game_id) == 0
    row = db.scalar(select(WaitRow).where(WaitRow.game_id == game_id))
    assert row is not None and (row.phase, row.deadline_at) == ("draft", NOW + timedelta(hours=24))
    assert draft.draft_view(db, game_id, user_at(db, game_id, 0)).free == NATIONS[:5]


def test_pick_two_gets_its_preselection_unless_pick_one_took_it(db: Session) -> None:
    game_id, by_pick = drafting(db)
    draft.choose(db, by_pick[1], game_id, "Crete", NOW)  # pre-selection
    draft.choose(db, by_pick[0], game_id, "Africa", NOW + HOUR)
    assert choices(db, game_id)[:2] == ["Africa", "Crete"]  # #2 received it at once
    assert awaited(db, game_id) == 2  # #3 has no pre-selection: the game waits on it


def test_a_conflict_goes_to_the_lower_pick_number_and_the_loser_chooses_again(db: Session) -> None:
    game_id, by_pick = drafting(db)
    draft.choose(db, by_pick[1], game_id, "Egypt", NOW)
    draft.choose(db, by_pick[0], game_id, "Egypt", NOW + HOUR)  # #1 takes #2's pre-selection
    assert choices(db, game_id) == ["Egypt", None, None, None]
    assert awaited(db, game_id) == 1
    view = draft.draft_view(db, game_id, by_pick[1])
    assert view.my_turn and view.preselection is None and "Egypt" not in view.free
    told = db.scalars(
        select(GameEvent.visible_to).where(
            GameEvent.game_id == game_id, GameEvent.kind == "platform:draft_conflict"
        )
    ).all()
    assert told == [[1]]  # only the loser is told which pre-selection it lost
    refused(db, "draft_taken", lambda: draft.choose(db, by_pick[1], game_id, "Egypt", NOW + HOUR))
    draft.choose(db, by_pick[1], game_id, "Crete", NOW + 2 * HOUR)
    assert choices(db, game_id)[:2] == ["Egypt", "Crete"]


def test_two_later_picks_pre_selecting_the_same_the_lower_wins(db: Session) -> None:
    game_id, by_pick = drafting(db)
    draft.choose(db, by_pick[3], game_id, "Babylon", NOW)
    draft.choose(db, by_pick[2], game_id, "Babylon", NOW)
    draft.choose(db, by_pick[1], game_id, "Assyria", NOW)
    draft.choose(db, by_pick[0], game_id, "Africa", NOW + HOUR)
    assert choices(db, game_id) == ["Africa", "Assyria", "Babylon", None]  # three resolved at once
    assert awaited(db, game_id) == 3  # #4 lost its pre-selection to #3 and chooses again
    assert draft.draft_view(db, game_id, by_pick[3]).my_turn


def test_every_seat_pre_selected_different_choices_the_draft_ends_at_once(db: Session) -> None:
    game_id, by_pick = drafting(db)
    for pick, nation in ((3, "Crete"), (2, "Babylon"), (1, "Assyria")):
        draft.choose(db, by_pick[pick], game_id, nation, NOW)
    draft.choose(db, by_pick[0], game_id, "Egypt", NOW + HOUR)
    game = play.get_game(db, game_id)
    assert game.options["draft"] == {"0": "Egypt", "1": "Assyria", "2": "Babylon", "3": "Crete"}
    assert game.state is not None and game.state["nations"] == ["Egypt", "Assyria", "Babylon", "Crete"]
    assert game.version == 1
    assert play.replay(db, game_id, None)["matches_stored_state"]
    view = play.game_view(db, game_id, by_pick[0])
    assert view.board is not None and view.board["nations"][0] == "Egypt" and view.waits  # the game is on
    assert [w.phase for w in view.waits] == ["pick"] * 4


def test_a_preselection_can_be_changed_or_withdrawn(db: Session) -> None:
    game_id, by_pick = drafting(db)
    draft.choose(db, by_pick[1], game_id, "Crete", NOW)
    draft.choose(db, by_pick[1], game_id, "Egypt", NOW)
    assert draft.draft_view(db, game_id, by_pick[1]).preselection == "Egypt"
    draft.choose(db, by_pick[1], game_id, None, NOW)
    draft.choose(db, by_pick[0], game_id, "Africa", NOW + HOUR)
    assert awaited(db, game_id) == 1  # nothing pre-selected any more: the game waits on #2


def test_a_preselection_is_secret_until_resolved(db: Session, make_client: object) -> None:
    game_id, by_pick = drafting(db)
    draft.choose(db, by_pick[2], game_id, "Crete", NOW)
    assert draft.draft_view(db, game_id, by_pick[1]).preselection is None
    assert all(row.choice is None for row in draft.draft_view(db, game_id, by_pick[1]).rows)
    events = db.scalars(select(GameEvent).where(GameEvent.game_id == game_id)).all()
    assert "Crete" not in str([(e.kind, e.data) for e in events if e.kind != "platform:draft_started"])
    notes = db.scalars(select(Notification.data).where(Notification.game_id == game_id)).all()
    assert "Crete" not in str(notes)


def test_spectators_see_nothing_before_the_set_up_ends(db: Session) -> None:
    game_id, by_pick = drafting(db)
    draft.choose(db, by_pick[0], game_id, "Africa", NOW)
    (watcher,) = make_users(db, "Watcher")
    assert not draft.draft_view(db, game_id, watcher).visible
    assert not draft.draft_view(db, game_id, None).visible
    spectator = play.game_view(db, game_id, None)
    assert spectator.board is None and spectator.log == [] and spectator.waits == []
    player = play.game_view(db, game_id, by_pick[3])
    assert [e.kind for e in player.log] == ["platform:draft_chosen", "platform:draft_started"]


def test_the_timeout_gives_a_random_free_choice_and_counts_a_missed_turn(
    db: Session, sessions: sessionmaker[Session]
) -> None:
    game_id, by_pick = drafting(db)
    draft.choose(db, by_pick[0], game_id, "Africa", NOW)
    draft.choose(db, by_pick[2], game_id, "Crete", NOW)
    db.commit()
    report = sweep_at(sessions, NOW + 25 * HOUR)  # #2 has no pre-selection: its 24 hours run out
    assert report.timeouts == 1
    db.expire_all()
    got = choices(db, game_id)
    assert got[0] == "Africa" and got[1] in NATIONS[1:5]  # any free choice: a secret one is not reserved
    seat = next(s for s in play.get_game(db, game_id).seats if s.number == 1)
    assert seat.missed_turns == 1
    if got[1] == "Crete":  # #3's pre-selection went to #2 at random: #3 chooses again
        assert got[2] is None and awaited(db, game_id) == 2
    else:
        assert got[2] == "Crete" and awaited(db, game_id) == 3


def test_an_order_before_the_draft_ends_is_refused(db: Session) -> None:
    game_id, by_pick = drafting(db)
    refused(
        db, "wrong_status", lambda: play.submit(db, by_pick[0], game_id, {"type": "pick", "value": 1}, 0, NOW)
    )


@pytest.mark.parametrize(
    ("who", "choice", "code"),
    [(0, "Atlantis", "invalid_input"), (None, "Africa", "not_your_game")],
)
def test_bad_choices_are_refused(db: Session, who: int | None, choice: str, code: str) -> None:
    game_id, by_pick = drafting(db)
    user = by_pick[who] if who is not None else make_users(db, "Stranger")[0]
    refused(db, code, lambda: draft.choose(db, user, game_id, choice, NOW))


def test_choosing_twice_or_without_a_draft_is_refused(db: Session) -> None:
    game_id, by_pick = drafting(db)
    draft.choose(db, by_pick[0], game_id, "Africa", NOW)
    refused(db, "wrong_status", lambda: draft.choose(db, by_pick[0], game_id, "Crete", NOW))
    ann, ben = make_users(db, "Ann", "Ben")
    plain = lobby.create_game(db, ann, game_type="fake", players=2, time_limit_hours=24, now=NOW)
    lobby.join_game(db, ben, plain.id, NOW)
    refused(db, "wrong_status", lambda: draft.choose(db, ann, plain.id, "Africa", NOW))


def test_the_draft_through_the_api_and_the_pages(make_client: Callable[[], TestClient]) -> None:
    clients = [make_client() for _ in range(2)]
    for client, name in zip(clients, ("Alice", "Bruno"), strict=True):
        sign_up(client, name)
    made = clients[0].post("/api/v1/games", json={"game_type": "fakedraft", "players": 2}).json()
    clients[1].post(f"/api/v1/games/{made['id']}/join")
    seats = {c.get(f"/api/v1/games/{made['id']}/draft").json()["your_seat"]: c for c in clients}
    first, second = seats[0], seats[1]
    later: TestClient = second
    assert (
        later.post(f"/api/v1/games/{made['id']}/draft", json={"choice": "Babylon"}).json()[
            "your_preselection"
        ]
        == "Babylon"
    )
    assert first.get(f"/api/v1/games/{made['id']}/draft").json()["your_preselection"] is None
    assert first.post(f"/api/v1/games/{made['id']}/draft", json={"choice": "Nowhere"}).status_code == 422
    page = first.get(f"/games/{made['id']}/draft")
    assert page.status_code == 200 and "Choose Africa" in page.text and "Babylon" in page.text  # free to #1
    assert "Babylon" not in first.get(f"/games/{made['id']}/draft").text.split("Choose")[0]
    token = first.headers["X-CSRF-Token"]
    chosen = first.post(
        f"/games/{made['id']}/draft", data={"choice": "Africa", "csrf_token": token}, follow_redirects=False
    )
    assert chosen.status_code == 303
    detail = first.get(f"/api/v1/games/{made['id']}").json()
    assert detail["options"]["draft"] == {"0": "Africa", "1": "Babylon"} and detail["view"]["nations"] == [
        "Africa",
        "Babylon",
    ]
    watcher = make_client()
    assert watcher.get(f"/api/v1/games/{made['id']}/draft").json()["visible"] is False
