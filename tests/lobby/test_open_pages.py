"""The Open tab's lists come a page at a time: forming games, open seats and hidden games each have their
own page, kept in the nearest-first order (newest first for a visitor), with links to the others."""

from __future__ import annotations

import re
from datetime import timedelta
from typing import Any

import pytest
from sqlalchemy.orm import Session
from starlette.testclient import TestClient

from app.models import Rating, User
from app.services.paging import Page
from app.services.play import seats
from app.services.players import friends
from app.services.social import open_games
from app.services.social.open_games import Pages
from tests.conftest import sign_up
from tests.lobby.helpers import NOW, forming_game, make_users, running_game, seat_of


@pytest.fixture(autouse=True)
def pages_of_two(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(open_games, "PAGE_SIZE", 2)


def rate(db: Session, user: User, mu: float) -> None:
    db.add(
        Rating(user_id=user.id, game_type="fake", mu=mu, sigma=2.0, ordinal=mu - 6, games=5, updated_at=NOW)
    )
    db.commit()


def ids(tables: list[open_games.Table]) -> list[int]:
    return [table.game.id for table in tables]


@pytest.mark.parametrize(
    ("wanted", "total", "number", "count", "previous", "following"),
    [
        (1, 0, 1, 1, False, False),  # an empty list has one empty page
        (1, 5, 1, 3, False, True),
        (2, 5, 2, 3, True, True),
        (3, 6, 3, 3, True, False),
        (9, 5, 3, 3, True, False),  # past the end: the last page
        (0, 5, 1, 3, False, True),
        (-4, 5, 1, 3, False, True),
    ],
)
def test_a_page_is_brought_within_its_list(
    wanted: int, total: int, number: int, count: int, previous: bool, following: bool
) -> None:
    page = Page.at(wanted, 2, total)
    assert (page.number, page.count, page.has_previous, page.has_next) == (number, count, previous, following)
    assert page.offset == (number - 1) * 2


def test_forming_games_come_a_page_at_a_time_nearest_first(db: Session) -> None:
    me, *others = make_users(db, "Me", "A", "B", "C", "D", "E")
    rate(db, me, 30.0)
    made = {}
    for other, mu in zip(others, [10.0, 29.0, 40.0, 31.5, 20.0], strict=True):
        rate(db, other, mu)
        made[mu] = forming_game(db, [other])
    nearest_first = [made[29.0], made[31.5], made[40.0], made[20.0], made[10.0]]
    pages = [open_games.open_tables(db, me, NOW, Pages(games=number)) for number in (1, 2, 3)]
    assert [ids(t.games) for t in pages] == [nearest_first[:2], nearest_first[2:4], nearest_first[4:]]
    assert [(t.games_page.number, t.games_page.total, t.games_page.count) for t in pages] == [
        (1, 5, 3),
        (2, 5, 3),
        (3, 5, 3),
    ]
    for tables in pages:  # the recommended game is the nearest whatever the page
        assert tables.recommended is not None and tables.recommended.game.id == made[29.0]
    assert ids(open_games.open_tables(db, me, NOW, Pages(games=7)).games) == nearest_first[4:]


def test_a_visitor_pages_through_the_newest_games_first(db: Session) -> None:
    users = make_users(db, "A", "B", "C")
    made = [forming_game(db, [user]) for user in users]
    first, second = (open_games.open_tables(db, None, NOW, Pages(games=n)) for n in (1, 2))
    assert ids(first.games) == [made[2], made[1]] and ids(second.games) == [made[0]]
    assert first.recommended is None and second.recommended is None


def test_open_seats_have_their_own_pages(db: Session) -> None:
    me, *players = make_users(db, "Me", "A1", "A2", "B1", "B2", "C1", "C2", "D1")
    forming_game(db, [players[6]])
    games = []
    for holder, leaver in [(players[0], players[1]), (players[2], players[3]), (players[4], players[5])]:
        game_id = running_game(db, [holder, leaver])
        seats.quit_game(db, leaver, game_id, None, NOW)
        games.append(game_id)
    first = open_games.open_tables(db, me, NOW, Pages(seats=1))
    second = open_games.open_tables(db, me, NOW, Pages(seats=2))
    assert (first.seats_page.total, first.seats_page.count, second.seats_page.number) == (3, 2, 2)
    assert sorted(ids(first.seats) + ids(second.seats)) == sorted(games)
    assert len(first.seats) == 2 and len(second.seats) == 1
    assert ids(first.games) == ids(second.games)  # the other list stays where it was


def test_a_seat_offered_to_another_player_is_listed_but_never_recommended(db: Session) -> None:
    me, ann, ben, cat, dan = make_users(db, "Me", "Ann", "Ben", "Cat", "Dan")
    for user in (me, ann, ben):
        rate(db, user, 30.0)
    rate(db, cat, 10.0)
    offered = running_game(db, [ann, ben])
    friends.add_friend(db, ben, "Dan", NOW)
    seats.quit_game(db, ben, offered, "Dan", NOW)  # Ann's table, at my level: offered to Dan for now
    far = forming_game(db, [cat])
    tables = open_games.open_tables(db, me, NOW)
    assert ids(tables.seats) == [offered] and tables.seats[0].seat is not None
    assert tables.seats[0].seat.reserved
    assert tables.recommended is not None and tables.recommended.game.id == far
    mine = open_games.open_tables(db, dan, NOW).seats[0].seat
    assert mine is not None and mine.offered_to_you and not mine.reserved
    later = open_games.open_tables(db, me, NOW + timedelta(hours=seats.OFFER_HOURS + 1))
    assert later.recommended is not None and later.recommended.game.id == offered  # the offer ran out


def test_the_recommended_seat_may_lie_past_the_first_page(db: Session) -> None:
    me, a1, a2, b1, b2, c1, c2, _dan = make_users(db, "Me", "A1", "A2", "B1", "B2", "C1", "C2", "Dan")
    rate(db, me, 30.0)
    made = {}
    for (holder, leaver), mu in zip([(a1, a2), (b1, b2), (c1, c2)], [30.0, 31.0, 33.0], strict=True):
        rate(db, holder, mu)
        made[mu] = running_game(db, [holder, leaver])
        friends.add_friend(db, leaver, "Dan", NOW)
        seats.quit_game(db, leaver, made[mu], "Dan" if mu < 33.0 else None, NOW)
    for number in (1, 2):  # the first page holds the two nearest seats, both offered to Dan for now
        tables = open_games.open_tables(db, me, NOW, Pages(seats=number))
        assert tables.recommended is not None and tables.recommended.game.id == made[33.0]
    assert ids(open_games.open_tables(db, me, NOW).seats) == [made[30.0], made[31.0]]


def test_hidden_games_have_their_own_pages_with_their_reasons(db: Session) -> None:
    me, rival, other = make_users(db, "Me", "Rival", "Other")
    friends.block(db, me, "Rival", NOW)
    hidden = [forming_game(db, [rival]) for _ in range(3)]
    shown = forming_game(db, [other])
    first = open_games.open_tables(db, me, NOW)
    last = open_games.open_tables(db, me, NOW, Pages(hidden=2))
    assert ids(first.games) == [shown]
    assert first.hidden_page.total == 3 and len(first.hidden) == 2 and len(last.hidden) == 1
    assert sorted(ids(first.hidden) + ids(last.hidden)) == sorted(hidden)
    assert all([o.kind for o in t.obstacles] == ["blocked"] for t in [*first.hidden, *last.hidden])


def test_the_page_links_keep_the_other_lists_where_they_are(client: TestClient, db: Session) -> None:
    users = make_users(db, "A", "B", "C", "D", "E")
    made = [forming_game(db, [user]) for user in users[:3]]
    game_id = running_game(db, [users[3], users[4]])
    seat = seat_of(db, game_id, users[4])
    seats.quit_game(db, users[4], game_id, None, NOW)
    page = client.get("/").text
    assert f'href="/games/{made[2]}"' in page and f'href="/games/{made[0]}"' not in page
    assert f"/games/{game_id}/seats/{seat}/summary" in page
    assert "Page 1 of 2" in page
    links = re.findall(r'href="(/\?[^"#]*)#open-games"', page)
    assert links == ["/?games_page=2"]
    second = client.get("/?games_page=2&seats_page=1").text
    assert f'href="/games/{made[0]}"' in second and f'href="/games/{made[2]}"' not in second
    assert re.findall(r'href="(/\?[^"#]*)#open-games"', second) == ["/?games_page=1&amp;seats_page=1"]
    assert client.get("/?games_page=99").status_code == 200  # the last page
    assert client.get("/?games_page=two").status_code == 422


def test_the_api_pages_the_open_tables(make_client: Any, db: Session) -> None:
    users = make_users(db, "A", "B", "C")
    for user in users:
        forming_game(db, [user])
    client = make_client()
    sign_up(client, "Viewer")
    found = client.get("/api/v1/lobby/open", params={"games_page": 2}).json()
    assert found["games_page"] == {"number": 2, "size": 2, "total": 3}
    assert found["seats_page"] == {"number": 1, "size": 2, "total": 0}
    listed = [t["game"]["id"] for t in found["tables"]]
    assert len(listed) == 2  # the recommended game first, then page 2 (one game)
    assert found["tables"][0]["recommended"]


def test_the_open_tab_counts_what_it_lists_for_the_viewer(make_client: Any, db: Session) -> None:
    client = make_client()
    me = sign_up(client, "Viewer")
    rival, other = make_users(db, "Rival", "Other")
    viewer = db.get(User, me["id"])
    assert viewer is not None
    friends.block(db, viewer, "Rival", NOW)
    forming_game(db, [rival])  # hidden from the viewer: not counted
    forming_game(db, [other])

    def open_count(path: str) -> int:
        page = client.get(path).text
        found = re.search(r'href="/\?tab=open"[^>]*>\s*\S+\s*<span class="count">(\d+)</span>', page)
        assert found, page[:200]
        return int(found.group(1))

    assert open_count("/") == 1 and open_count("/?tab=finished") == 1
    assert open_count("/?tab=active") == len(open_games.open_tables(db, viewer, NOW).games)
