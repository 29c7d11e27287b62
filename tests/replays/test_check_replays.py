"""`ostraca check-replays`: every stored game's order log replayed under the current rules; the games that
no longer replay to their stored state are named, and the command then exits non-zero."""

from __future__ import annotations

import pytest
from sqlalchemy import select
from sqlalchemy.orm import Session

from app import cli
from app.games import registry
from app.models import Game, GameOrder, User
from app.services.play import play
from app.services.social import lobby
from app.settings import Settings
from tests.moderation.helpers import fast_passwords, make_users, now, running_game, seat_of

RULES = registry.get("fake")


def played_games(db: Session, count: int, orders: int) -> list[int]:
    """`count` running fake games of two seats, each with `orders` default orders in its log."""
    with fast_passwords():
        ann, ben = make_users(db, "Ann", "Ben")
    ids = []
    for _ in range(count):
        game = running_game(db, [ann, ben])
        for _ in range(orders):
            db.refresh(game)
            assert game.state is not None
            state = RULES.load(game.state)
            seat = RULES.waits(state)[0].seat
            user: User = next(u for u in (ann, ben) if seat_of(game, u) == seat)
            play.submit(db, user, game.id, RULES.default_order(state, seat), game.version, now())
        ids.append(game.id)
    db.commit()
    return ids


def check(
    settings: Settings, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], *args: str
) -> tuple[int, str]:
    monkeypatch.setenv("DATABASE_URL", settings.database_url)
    monkeypatch.setenv("DATA_DIR", str(settings.data_dir))
    status = cli.main(["check-replays", *args])
    return status, capsys.readouterr().out


def test_a_game_altered_by_hand_is_named_and_the_check_fails(
    db: Session, settings: Settings, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    first, second, third = played_games(db, 3, orders=3)
    creator = db.scalars(select(User).where(User.email == "ann@example.com")).one()
    waiting = lobby.create_game(db, creator, game_type="fake", players=2, time_limit_hours=24, now=now())
    waiting.state = None  # not started (and written as a JSON null): nothing to replay
    db.commit()
    status, out = check(settings, monkeypatch, capsys)
    assert status == 0, out
    assert "3 game(s) checked, 0 no longer replay" in out
    # by hand: the stored state of one game, an order of another
    tampered = db.get(Game, second)
    assert tampered is not None and tampered.state is not None
    tampered.state = {**tampered.state, "tampered": True}
    order = db.scalars(select(GameOrder).where(GameOrder.game_id == third).order_by(GameOrder.seq)).first()
    assert order is not None
    order.payload = {"type": "no such order"}
    db.commit()
    status, out = check(settings, monkeypatch, capsys)
    assert status == 1, out
    assert f"game {second} (fake, " in out and "differs from the stored state" in out
    assert f"game {third} (fake, " in out and "step 1 of 3 no longer replays" in out
    assert f"game {first} " not in out
    assert "3 game(s) checked, 2 no longer replay" in out
    status, out = check(settings, monkeypatch, capsys, "--game-type", "tigris")
    assert status == 0 and "0 game(s) checked" in out
    assert check(settings, monkeypatch, capsys, "--game-type", "chess")[0] == 2
