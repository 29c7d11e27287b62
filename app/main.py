"""create_app(settings) -> FastAPI. The lifespan starts and stops the background jobs."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator
from pathlib import Path

from fastapi import FastAPI
from fastapi.staticfiles import StaticFiles
from fastapi.templating import Jinja2Templates
from jinja2 import Environment, FileSystemLoader, select_autoescape
from starlette.middleware.sessions import SessionMiddleware

from app import migrate
from app.db import make_engine, session_factory
from app.games.advciv.board import board_report as advciv_board_report
from app.games.amunre.board import board_report as amunre_board_report
from app.services.jobs.jobs import Jobs
from app.services.mail.mail_jobs import MailJobs
from app.services.play import live
from app.services.social import queue
from app.settings import Settings
from app.web import api, api_docs, errors, guard, ops, overload, pages, redaction, render_cache
from app.web.emails import EmailRenderer
from app.web.pages import mail_links
from app.web.ratelimit import RateLimiter
from app.web.security import SecurityHeadersMiddleware

ROOT = Path(__file__).resolve().parent.parent
log = logging.getLogger(__name__)


def game_data_notes() -> str:
    """What the games' data leave approximate, said once at start-up as what it is: not a fault of the
    install, and what it means for play until an operator completes the files the notes name."""
    notes = " ".join([*advciv_board_report(), amunre_board_report()])
    return (
        "Game data notes (nothing is broken: every game can be played; these simplifications hold until an "
        f"operator completes the files named): {notes}"
    )


def create_app(settings: Settings | None = None) -> FastAPI:
    settings = settings or Settings()
    redaction.install()
    engine = make_engine(settings.sqlalchemy_url, settings.db_pool_timeout_seconds)

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        log.info(game_data_notes())
        listener = None
        if engine.dialect.name == "postgresql":
            dsn = engine.url.set(drivername="postgresql").render_as_string(hide_password=False)
            listener = asyncio.create_task(live.listen_postgres(dsn))
        background = Jobs(app.state.sessions, settings) if settings.run_jobs else None
        if background is not None:
            background.more_jobs.append(MailJobs(app.state.sessions, settings, EmailRenderer()).register)
            background.more_jobs.append(queue.scheduler_job(app.state.sessions))
        if background is not None:  # outage compensation first, then the sweeper and periodic jobs
            await asyncio.to_thread(background.start)
        yield
        if background is not None:
            await asyncio.to_thread(background.stop)
        if listener is not None:
            listener.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await listener
        engine.dispose()

    app = FastAPI(title="Ostraca", version="0.1.0", lifespan=lifespan, docs_url=None, redoc_url=None)
    app.state.settings = settings
    app.state.engine = engine
    app.state.sessions = session_factory(engine)
    app.state.limiter = RateLimiter(settings)
    app.state.templates = make_templates(strict=settings.environment != "production")
    app.state.render_cache = render_cache.make_cache(settings.redis_url)
    app.state.in_flight = overload.InFlight(settings.max_requests_in_flight)

    # innermost: past the bound, a 503 at once, with the security headers and the request's id and timing
    app.add_middleware(
        overload.InFlightLimit, in_flight=app.state.in_flight, language=settings.default_language
    )
    app.add_middleware(SecurityHeadersMiddleware, https=settings.secure_cookies)
    app.add_middleware(
        SessionMiddleware,
        secret_key=settings.secret_key,
        # Over HTTPS, the __Host- prefix makes browsers refuse the cookie unless Secure, host-only, path /.
        session_cookie="__Host-ostraca_session" if settings.secure_cookies else "ostraca_session",
        max_age=settings.session_max_age_days * 86400,
        same_site="lax",  # and HttpOnly, Starlette's default
        https_only=settings.secure_cookies,
    )
    app.add_middleware(ops.RequestTimer)
    app.add_middleware(ops.RequestContext)  # outermost: every log line of the request carries its id
    errors.install(app)
    app.mount("/static", StaticFiles(directory=ROOT / "static"), name="static")
    api_docs.install(app)  # before the API's routes, so that /api/docs is not taken for one of them
    app.include_router(ops.router)
    app.include_router(api.router)
    app.include_router(pages.router)
    app.include_router(mail_links.router)  # signed links from mails and hooks: no session, no CSRF
    return app


def make_templates(strict: bool = True) -> Jinja2Templates:
    """The pages' templates; `strict` False (production): a guarded part that fails becomes a neutral line
    (see app.web.guard)."""
    env = Environment(
        loader=FileSystemLoader(ROOT / "templates"),
        autoescape=select_autoescape(["html", "xml"]),
        extensions=["jinja2.ext.i18n", guard.GuardExtension],
    )
    env.newstyle_gettext = True  # type: ignore[attr-defined]
    guard.set_strict(env, strict)
    pages.install_filters(env)
    return Jinja2Templates(env=env)


def prepare_database(settings: Settings) -> None:
    """Bring the schema up to date (the embedded default does this at every start)."""
    engine = make_engine(settings.sqlalchemy_url)
    try:
        migrate.upgrade(engine)
    finally:
        engine.dispose()
