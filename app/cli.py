"""The `ostraca` command: serve, worker, migrate, create-admin, rebuild-ratings, demo, check-replays."""

from __future__ import annotations

import argparse
import getpass
import os
import sys
from datetime import UTC, datetime

from fastapi import FastAPI
from pydantic import ValidationError
from sqlalchemy import select
from sqlalchemy.orm import Session, sessionmaker

from app.db import make_engine, session_factory
from app.games import registry
from app.main import prepare_database
from app.models import Game, User
from app.services.accounts import accounts
from app.services.errors import ServiceError
from app.services.jobs.jobs import Jobs
from app.services.play import checks
from app.services.players import ratings
from app.services.social import lobby
from app.settings import Settings

DEMO_PASSWORD = "demo-password-2026"
DEMO_GAME = "dragonstones"
DEMO_TIME_ZONE = "Europe/Paris"  # deadlines read as a European player sees them, not in UTC
DEMO_PLAYERS = (
    ("alice@example.com", "Alice"),
    ("bruno@example.com", "Bruno"),
    ("chloe@example.com", "Chloé"),
)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="ostraca", description="Ostraca, a play-by-web board game server.")
    commands = parser.add_subparsers(dest="command", required=True)
    serve = commands.add_parser("serve", help="migrate the database, then run the web server")
    serve.add_argument("--host", default="127.0.0.1")
    serve.add_argument("--port", type=int, default=8000)
    serve.add_argument("--no-jobs", action="store_true", help="do not run background jobs in this process")
    serve.add_argument(
        "--processes",
        type=int,
        help="web processes (default: WEB_PROCESSES; 0: one per core on Postgres, one on SQLite)",
    )
    worker = commands.add_parser("worker", help="migrate the database, then run the background jobs only")
    worker.add_argument("--once", action="store_true", help="sweep the due deadlines once, then exit")
    commands.add_parser("migrate", help="bring the database schema up to date")
    admin = commands.add_parser("create-admin", help="create an administrator (or promote an account)")
    admin.add_argument("--email", required=True)
    admin.add_argument("--name", required=True)
    rebuild = commands.add_parser(
        "rebuild-ratings",
        help="rate every finished game again, from scratch (after a fix to the rating code)",
    )
    rebuild.add_argument("--game-type", help="only this game type (default: every one)")
    commands.add_parser("demo", help="create demo players and a running game")
    check = commands.add_parser(
        "check-replays",
        help="replay every stored game's order log under the current rules and list those that no longer "
        "replay to their stored state (exit status 1 if any); run it before and after an upgrade",
    )
    check.add_argument("--game-type", help="only this game type (default: every one)")
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)

    try:
        settings = Settings()
    except ValidationError as error:  # a setting the server must not start with: say which, and why
        for problem in error.errors():
            print(f"error: {problem['msg'].removeprefix('Value error, ')}", file=sys.stderr)
        return 2
    try:
        if args.command == "serve":
            processes = web_processes(settings, args.processes)
            return _serve(settings, args.host, args.port, args.no_jobs, processes)
        prepare_database(settings)
        if args.command == "worker":
            return _worker(settings, args.once)
        if args.command == "migrate":
            print("The database is up to date.")
        elif args.command == "create-admin":
            _create_admin(settings, args.email, args.name)
        elif args.command == "rebuild-ratings":
            _rebuild_ratings(settings, args.game_type)
        elif args.command == "demo":
            _demo(settings)
        elif args.command == "check-replays":
            return _check_replays(settings, args.game_type)
    except ServiceError as error:
        print(f"error: {error.message}", file=sys.stderr)
        return 2
    return 0


def served_settings(settings: Settings, host: str, port: int) -> Settings:
    """Mail links point at the address served when BASE_URL is not set (``--port`` included)."""
    if settings.base_url_chosen:
        return settings
    shown_host = "127.0.0.1" if host in ("0.0.0.0", "::", "") else host
    if ":" in shown_host:
        shown_host = f"[{shown_host}]"
    return settings.model_copy(update={"base_url": f"http://{shown_host}:{port}", "base_url_served": True})


def web_processes(settings: Settings, asked: int | None = None) -> int:
    """How many processes `ostraca serve` runs: one on SQLite (its live news stays in the process that
    committed), else as asked, else one per core the process may run on."""
    count = settings.web_processes if asked is None else asked
    if count < 0:
        raise ServiceError("invalid_input", "The number of web processes cannot be negative.")
    if settings.is_sqlite:
        if count > 1:
            raise ServiceError("invalid_input", "SQLite is served by one process; several need Postgres.")
        return 1
    return count or len(os.sched_getaffinity(0)) or 1


def _serve(settings: Settings, host: str, port: int, no_jobs: bool, processes: int = 1) -> int:
    import uvicorn

    from app.main import create_app

    prepare_database(settings)
    if no_jobs:
        settings = settings.model_copy(update={"run_jobs": False})
    settings = served_settings(settings, host, port)
    print(
        f"Ostraca is at http://{host}:{port}/ (database: {settings.sqlalchemy_url.split('@')[-1]}; "
        f"{processes} web process{'es' if processes > 1 else ''})"
    )
    # X-Forwarded-For is read by `client_address` through TRUSTED_PROXIES only, never by uvicorn itself.
    configure_logs(settings)
    if processes == 1:
        uvicorn.run(
            create_app(settings), host=host, port=port, proxy_headers=False, log_level="info", log_config=None
        )
        return 0
    return _serve_processes(settings, processes, host, port)


# How long uvicorn's supervisor waits for a web process to answer its health check before it kills it and
# starts another. Its own 5 s is less than a process takes to import the app on a busy machine, where the
# supervisor then kills every process it starts, forever.
WORKER_HEALTHCHECK_SECONDS = 60


def _serve_processes(settings: Settings, processes: int, host: str, port: int) -> int:
    """uvicorn's supervisor over `processes` web processes on one socket; the jobs, when they run, run
    once, in the supervisor, rather than once per web process."""
    import logging

    import uvicorn

    if not settings.redis_url:
        logging.getLogger(__name__).warning(
            "REDIS_URL is not set: each of the %s web processes counts the rate limits alone", processes
        )
    # The web processes are started afresh (spawned) and read their settings from the environment.
    served = str(settings.base_url_served).lower()
    os.environ.update({"RUN_JOBS": "false", "BASE_URL": settings.base_url, "BASE_URL_SERVED": served})
    engine = make_engine(settings.sqlalchemy_url) if settings.run_jobs else None
    jobs = background_jobs(session_factory(engine), settings) if engine is not None else None
    if jobs is not None:
        jobs.start()
    try:
        uvicorn.run(
            "app.cli:served_app",
            factory=True,
            workers=processes,
            host=host,
            port=port,
            proxy_headers=False,
            log_level="info",
            log_config=None,
            timeout_worker_healthcheck=WORKER_HEALTHCHECK_SECONDS,
        )
    finally:
        if jobs is not None:
            jobs.stop()
        if engine is not None:
            engine.dispose()
    return 0


def served_app() -> FastAPI:
    """One web process of `ostraca serve --processes N`, its settings from the environment."""
    from app.main import create_app

    settings = Settings()
    configure_logs(settings)
    return create_app(settings)


def background_jobs(sessions: sessionmaker[Session], settings: Settings) -> Jobs:
    """The deadlines, the periodic jobs, the mail and the queue, as a worker runs them."""
    from app.services.jobs.jobs import Jobs
    from app.services.mail.mail_jobs import MailJobs
    from app.services.social import queue
    from app.web.emails import EmailRenderer

    jobs = Jobs(sessions, settings)
    jobs.more_jobs.append(MailJobs(jobs.sessions, settings, EmailRenderer()).register)
    jobs.more_jobs.append(queue.scheduler_job(jobs.sessions))
    return jobs


def configure_logs(settings: Settings) -> None:
    """JSON lines in production, readable ones in development; secret links redacted in both."""
    from app.services.ops import logs
    from app.web.redaction import RedactTokens

    logs.configure(json_lines=settings.json_logs, filters=[RedactTokens()])


def _worker(settings: Settings, once: bool) -> int:
    """The jobs without the web: `ostraca serve --no-jobs` processes plus one or more of these."""
    import signal

    from app.services.ops import metrics

    configure_logs(settings)
    engine = make_engine(settings.sqlalchemy_url)
    jobs = background_jobs(session_factory(engine), settings)
    if settings.worker_metrics_port:
        metrics.serve_for_worker(jobs.sessions, settings.worker_metrics_host, settings.worker_metrics_port)
    if once:
        jobs.check_in()
        report = jobs.sweep()
        print(f"swept: {report}")
        return 0 if report is not None else 1
    signal.signal(signal.SIGTERM, lambda *_: jobs.stop())
    try:
        jobs.start(blocking=True)  # returns when stopped (SIGTERM) or interrupted (Ctrl-C)
    except (KeyboardInterrupt, SystemExit):
        jobs.stop()
    finally:
        engine.dispose()
    return 0


def _create_admin(settings: Settings, email: str, name: str) -> None:
    if sys.stdin.isatty():
        password = getpass.getpass("Password for the administrator: ")
    else:  # piped in, e.g. from a secrets manager
        password = sys.stdin.readline().rstrip("\n")
    with session_factory(make_engine(settings.sqlalchemy_url))() as session:
        user = accounts.create_admin(session, email=email, password=password, display_name=name)
        print(f"{user.display_name} <{user.email}> is an administrator.")


def _rebuild_ratings(settings: Settings, game_type: str | None) -> None:
    if game_type is not None and not registry.known(game_type):
        raise ServiceError("invalid_input", f"There is no game type {game_type!r}.")
    chosen = [game_type] if game_type else [rules.id for rules in registry.all_games()]
    with session_factory(make_engine(settings.sqlalchemy_url))() as session:
        for name in chosen:
            count = ratings.rebuild(session, name, datetime.now(UTC))
            print(f"{name}: {count} finished game(s) rated again.")


def _check_replays(settings: Settings, game_type: str | None) -> int:
    checked = 0
    problems = []
    with session_factory(make_engine(settings.sqlalchemy_url))() as session:
        for _, problem in checks.check_replays(session, game_type):
            checked += 1
            if problem is not None:
                problems.append(problem)
                print(problem.describe())
    print(f"{checked} game(s) checked, {len(problems)} no longer replay to their stored state.")
    return 1 if problems else 0


def _demo(settings: Settings) -> None:
    now = datetime.now(UTC)
    with session_factory(make_engine(settings.sqlalchemy_url))() as session:
        players = [_demo_user(session, email, name) for email, name in DEMO_PLAYERS]
        game = _running_demo_game(session, players[0])
        if game is None:
            game = lobby.create_game(
                session, players[0], game_type=DEMO_GAME, players=3, time_limit_hours=48, now=now
            )
            for player in players[1:]:
                lobby.join_game(session, player, game.id, now)
        print(f"Demo game '{game.name}' is running at {settings.base_url}/games/{game.id}")
        print(
            f"Log in as any of {', '.join(email for email, _ in DEMO_PLAYERS)} with password {DEMO_PASSWORD}"
        )


def _running_demo_game(session: Session, creator: User) -> Game | None:
    """The demo game a previous run made, while it goes on: running the command again shows it again."""
    return session.scalar(
        select(Game)
        .where(Game.creator_id == creator.id, Game.game_type == DEMO_GAME)
        .where(Game.status.in_(("open", "active")))
        .order_by(Game.id)
        .limit(1)
    )


def _demo_user(session: Session, email: str, name: str) -> User:
    existing = session.scalar(select(User).where(User.email == email))
    if existing is not None:
        return existing
    return accounts.sign_up(
        session, email=email, password=DEMO_PASSWORD, display_name=name, time_zone=DEMO_TIME_ZONE
    )


if __name__ == "__main__":
    sys.exit(main())
