"""A sweeper process for the multi-process tests: `python -m tests.clock_service.sweep_worker URL NOW`.

It sweeps at the injected time NOW until nothing is due, then prints its report as JSON. With
`--hang-after N` it stops in the middle of its N-th timeout (the game locked, nothing committed) and
waits to be killed.
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import asdict
from datetime import datetime, timedelta

from sqlalchemy.orm import Session

from app.db import make_engine, session_factory
from app.games import registry
from app.models import Game
from app.services.jobs import sweeper
from tests import fakegame


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("url")
    parser.add_argument("now")
    parser.add_argument("--batch", type=int, default=25)
    parser.add_argument("--lease-seconds", type=int, default=300)
    parser.add_argument("--hang-after", type=int, default=0)
    args = parser.parse_args()
    registry.register(fakegame.RULES)
    now = datetime.fromisoformat(args.now)
    if args.hang_after:
        _hang_after(args.hang_after)
    engine = make_engine(args.url)
    config = sweeper.SweepSettings(batch=args.batch, lease=timedelta(seconds=args.lease_seconds))
    report = sweeper.sweep(session_factory(engine), lambda: now, config)
    print(json.dumps(asdict(report)), flush=True)


def _hang_after(count: int) -> None:
    real = sweeper.play_default
    done = [0]

    def play_default(session: Session, game: Game, seat: int, now: datetime) -> None:
        done[0] += 1
        if done[0] == count:
            print("hanging", flush=True)
            sys.stdin.read()  # until killed
        real(session, game, seat, now)

    sweeper.play_default = play_default


if __name__ == "__main__":
    main()
