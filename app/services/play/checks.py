"""Do the stored games still replay? Each started game's order log is replayed from its seed under the
current rules and compared with its stored state (`ostraca check-replays`, run before and after an
upgrade: see docs/deploy.md)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from sqlalchemy import select
from sqlalchemy.orm import Session

from app.games import registry
from app.models import Game
from app.services.errors import ServiceError
from app.services.play import play, replays

BATCH = 100  # games read at a time


@dataclass(frozen=True)
class ReplayProblem:
    game_id: int
    game_type: str
    name: str
    orders: int
    failure: replays.ReplayFailure | None  # None: the replay ends on a state other than the stored one

    def describe(self) -> str:
        where = f"game {self.game_id} ({self.game_type}, {self.name!r})"
        if self.failure is None:
            return f"{where}: the replay of its {self.orders} orders differs from the stored state"
        return (
            f"{where}: step {self.failure.step} of {self.orders} no longer replays "
            f"({self.failure.code}: {self.failure.message})"
        )


def check_replays(
    session: Session, game_type: str | None = None
) -> Iterator[tuple[int, ReplayProblem | None]]:
    """Each started game (of `game_type`, or of every type), in id order: its id and what is wrong with its
    replay (None: it replays to its stored state)."""
    if game_type is not None and not registry.known(game_type):
        raise ServiceError("invalid_input", "There is no game type %(type)s.", params={"type": game_type})
    after = 0
    while True:
        query = select(Game).where(Game.id > after, Game.state.is_not(None)).order_by(Game.id).limit(BATCH)
        if game_type is not None:
            query = query.where(Game.game_type == game_type)
        games = list(session.scalars(query))
        if not games:
            return
        for game in games:
            if game.state is not None:  # a JSON null is no state either
                yield game.id, _check(session, game)
        after = games[-1].id
        session.expunge_all()  # a long database is read a batch at a time


def _check(session: Session, game: Game) -> ReplayProblem | None:
    rules = registry.get(game.game_type)
    seqs = play.effective_seqs(session, game.id)
    # nothing kept: this is the check of the whole log, not a reader's visit
    rebuilt = replays.KeptStates(size=1).rebuild(
        game, seqs, len(seqs), play.orders_reader(session, game.id, seqs)
    )
    if rebuilt.failure is None and play.as_json(rules.dump(rebuilt.state)) == play.as_json(game.state):
        return None
    return ReplayProblem(game.id, game.game_type, game.name, len(seqs), rebuilt.failure)
