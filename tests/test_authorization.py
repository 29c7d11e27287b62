"""Who may do what: every route of the app, as each kind of visitor, with the expected status.

The visitors: anonymous; an outsider (signed in, a spectator of every game); the player who made the
running game and the partner who plays it with them; the creator of a game still forming; a muted player
of the running game; a banned user (who was logged in when the ban fell: their session is dead); a
moderator and an admin; a moderator in their own game (seated in the running game: no intervention in
it, no sanction of its players) and a moderator reported (the subject of a second report: they may not
read or handle it). Routes come from the router itself, so a new route without an entry fails
`test_every_route_is_in_the_table`.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

import pytest
from fastapi import routing
from fastapi.routing import APIRoute
from sqlalchemy import select
from sqlalchemy.orm import Session
from starlette.testclient import TestClient

from app.models import Seat, User
from app.services.moderation import moderation, reports
from tests.conftest import sign_up
from tests.moderation.helpers import fast_passwords

ROLES = (
    "anonymous",
    "outsider",
    "player",
    "partner",
    "creator",
    "muted",
    "banned",
    "moderator",
    "admin",
    "seated_moderator",
    "reported_moderator",
)
PLAIN = ("outsider", "player", "partner", "creator", "muted")  # signed in, no role
MODERATORS = ("moderator", "seated_moderator", "reported_moderator")
OPEN, ACTIVE = "{open}", "{active}"
USER, SEAT = "{user}", "{seat}"  # the Player's user id; seat 0
REPORT, SANCTION = "{report}", "{sanction}"  # the Player's report of the Partner; the Muted's mute
ON_MOD = "{report_on_mod}"  # the Player's report of the Reported_moderator
MISSING = "{missing}"  # an id nothing has (a pause, a mail)
TOKEN = "{token}"  # a token nobody signed


def everyone(status: int) -> dict[str, int]:
    return dict.fromkeys(ROLES, status)


def signed_in(status: int, **others: int) -> dict[str, int]:
    """Signed-in visitors get `status` (or their own); anonymous and banned ones must log in."""
    return {**{role: status for role in ROLES}, "anonymous": 401, "banned": 401, **others}


def staff(status: int, **others: int) -> dict[str, int]:
    """Moderators and admins get `status` (or their own); other visitors are refused."""
    return {**signed_in(403), **dict.fromkeys(MODERATORS, status), "admin": status, **others}


def admins(status: int) -> dict[str, int]:
    return staff(status, **dict.fromkeys(MODERATORS, 403))


def not_in_own_game(status: int, **others: int) -> dict[str, int]:
    """An intervention in the running game: refused to the moderator seated in it (before anything else)."""
    return staff(status, seated_moderator=403, **others)


def not_about_self(status: int, **others: int) -> dict[str, int]:
    """An action on the report about the Reported_moderator: refused to them, whatever its status."""
    return staff(status, reported_moderator=403, **others)


def but(expected: dict[str, int], *left_out: str) -> dict[str, int]:
    """`expected` without these roles (their answer depends on something the entry does not fix)."""
    return {role: status for role, status in expected.items() if role not in left_out}


REASON = {"reason": "Checked by the matrix"}
AFTER_ADMIN_409 = dict.fromkeys(("admin", "seated_moderator", "reported_moderator"), 409)  # done by then
# the Muted plays the running game: the moderator seated in it may not lift their mute, done or not
LIFTED_409 = {**AFTER_ADMIN_409, "seated_moderator": 403}

# (method, path, body, {role: status}); a role left out is not checked for that route. Roles are tried in
# the order of ROLES, in one world per entry, so an entry can expect the second actor to find it done.
MATRIX: list[tuple[str, str, Any, dict[str, int]]] = [
    # accounts
    ("GET", "/api/v1/auth/csrf", None, everyone(200)),
    ("GET", "/api/v1/me", None, signed_in(200)),
    ("PATCH", "/api/v1/me", {"language": "fr"}, signed_in(200)),
    ("POST", "/api/v1/me/password", {"current_password": "x", "new_password": "y"}, signed_in(401)),
    ("POST", "/api/v1/auth/logout", None, {"anonymous": 204, "banned": 204, "outsider": 204}),
    ("POST", "/api/v1/auth/logout-everywhere", None, {"anonymous": 401, "banned": 401, "outsider": 204}),
    ("POST", "/api/v1/auth/login", {"email": "no@example.com", "password": "nope-nope"}, {"anonymous": 401}),
    (
        "POST",
        "/api/v1/auth/signup",
        {"email": "bad", "password": "x", "display_name": "x"},
        {"anonymous": 422},
    ),
    ("GET", "/", None, everyone(200)),
    ("GET", "/api/docs", None, everyone(200)),
    ("GET", "/favicon.ico", None, everyone(301)),
    ("GET", "/games", None, everyone(302)),
    ("GET", "/healthz", None, everyone(200)),
    ("GET", "/readyz", None, everyone(200)),
    ("GET", "/metrics", None, everyone(403)),  # only loopback clients or the METRICS_TOKEN bearer
    ("GET", "/signup", None, {**everyone(303), "anonymous": 200, "banned": 200}),  # signed in: nothing to do
    ("GET", "/help", None, everyone(200)),
    ("GET", "/players/Nobody-by-this-name", None, everyone(404)),
    ("GET", "/login", None, everyone(200)),
    ("POST", "/signup", {}, {"anonymous": 422}),
    ("POST", "/login", {}, {"anonymous": 422}),
    ("POST", "/logout", {}, {"anonymous": 303, "outsider": 303, "banned": 303}),
    ("POST", "/logout-everywhere", {}, {"anonymous": 401, "banned": 401}),
    ("GET", "/account", None, signed_in(200)),
    ("POST", "/account", {}, signed_in(422)),
    ("POST", "/account/password", {}, signed_in(422)),
    ("POST", "/language", {"language": "fr"}, {"anonymous": 303, "outsider": 303, "banned": 303}),
    # the account's own data
    ("GET", "/api/v1/me/sessions", None, signed_in(200)),
    ("POST", f"/api/v1/me/sessions/{MISSING}/end", None, signed_in(404)),
    ("POST", "/api/v1/me/sessions/end-others", None, signed_in(200)),
    ("POST", f"/account/sessions/{MISSING}/end", {}, signed_in(404)),
    ("POST", "/account/sessions/end-others", {}, signed_in(303)),
    ("GET", "/api/v1/me/tokens", None, signed_in(200)),
    ("POST", "/api/v1/me/tokens", {}, signed_in(422)),
    ("POST", f"/api/v1/me/tokens/{MISSING}/revoke", None, signed_in(404)),
    ("POST", "/account/tokens", {}, signed_in(422)),
    ("POST", f"/account/tokens/{MISSING}/revoke", {}, signed_in(404)),
    ("GET", "/api/v1/me/export", None, signed_in(200)),
    ("GET", "/account/export", None, signed_in(200)),
    ("POST", "/api/v1/me/delete", {"password": "not the password"}, signed_in(401)),
    ("POST", "/account/delete", {}, signed_in(422)),
    ("POST", f"/api/v1/admin/users/{USER}/delete", REASON, admins(204)),
    ("POST", f"/admin/users/{USER}/delete", REASON, admins(303)),
    # games
    ("GET", "/api/v1/game-types", None, everyone(200)),
    ("GET", "/api/v1/game-types/fake", None, everyone(200)),
    ("GET", "/api/v1/games", None, everyone(200)),
    ("POST", "/api/v1/games", {"game_type": "fake", "players": 2}, signed_in(201)),
    ("GET", f"/api/v1/games/{ACTIVE}", None, everyone(200)),
    ("GET", f"/api/v1/games/{ACTIVE}/log", None, everyone(200)),
    ("GET", f"/api/v1/games/{ACTIVE}/replay", None, everyone(200)),
    ("GET", f"/api/v1/games/{OPEN}/replay", None, everyone(409)),
    ("POST", f"/api/v1/games/{OPEN}/rename", {"name": "X"}, signed_in(403, creator=200)),
    (
        "POST",
        f"/api/v1/games/{OPEN}/join",
        None,
        {"anonymous": 401, "banned": 401, "outsider": 200, "creator": 409},
    ),
    ("POST", f"/api/v1/games/{ACTIVE}/join", None, signed_in(409)),
    ("GET", "/api/v1/invitations", None, signed_in(200)),
    ("POST", f"/api/v1/games/{OPEN}/invitation/accept", None, signed_in(404)),  # nobody here is invited
    ("POST", f"/api/v1/games/{OPEN}/invitation/decline", None, signed_in(404)),
    ("POST", f"/games/{OPEN}/invitation/accept", {}, signed_in(404)),
    ("POST", f"/games/{OPEN}/invitation/decline", {}, signed_in(404)),
    ("POST", f"/api/v1/games/{OPEN}/leave", None, signed_in(403)),
    (
        "POST",
        f"/api/v1/games/{OPEN}/cancel",
        None,
        signed_in(409, outsider=403, player=403, partner=403, creator=200),
    ),
    ("POST", f"/api/v1/games/{ACTIVE}/cancel", None, signed_in(409)),
    (
        "POST",
        f"/api/v1/games/{ACTIVE}/orders",
        {"order": {"type": "pick", "value": 1}, "expected_version": 1},
        signed_in(403, player=200, partner=200, muted=200, seated_moderator=200),
    ),
    ("GET", "/games/new", None, signed_in(200)),
    ("POST", "/games", {"game_type": "fake", "players": "2"}, signed_in(303)),
    ("GET", f"/games/{ACTIVE}", None, everyone(200)),
    ("GET", f"/games/{OPEN}", None, everyone(200)),
    ("GET", f"/games/{ACTIVE}/fragment", None, everyone(200)),
    ("GET", f"/games/{ACTIVE}/log", None, everyone(200)),
    ("GET", f"/games/{ACTIVE}/replay", None, everyone(200)),
    ("POST", f"/games/{ACTIVE}/again", {}, signed_in(409)),  # only a finished game is played again
    ("POST", f"/games/{OPEN}/join", {}, {"anonymous": 401, "banned": 401, "outsider": 303}),
    ("POST", f"/games/{OPEN}/leave", {}, signed_in(403)),
    ("POST", f"/games/{OPEN}/cancel", {}, signed_in(409, outsider=403, player=403, partner=403, creator=303)),
    ("POST", f"/games/{OPEN}/rename", {"name": "Y"}, signed_in(403, creator=303)),
    (
        "POST",
        f"/games/{ACTIVE}/orders",
        {"expected_version": "1", "type": "pick", "value": "2"},
        signed_in(403, player=303, partner=303, muted=303, seated_moderator=303),
    ),
    # messages and notifications
    ("GET", f"/api/v1/games/{ACTIVE}/messages", None, everyone(200)),
    (
        "POST",
        f"/api/v1/games/{ACTIVE}/messages",
        {"body": "Hello"},
        signed_in(403, player=201, partner=201, seated_moderator=201),
    ),
    (
        "POST",
        f"/games/{ACTIVE}/messages",
        {"body": "Hello"},
        signed_in(403, player=303, partner=303, seated_moderator=303),
    ),
    ("GET", "/api/v1/me/notifications", None, signed_in(200)),
    ("PUT", "/api/v1/me/notifications", {"modes": {}}, signed_in(200)),
    ("GET", "/account/notifications", None, signed_in(200)),
    ("POST", "/account/notifications", {}, signed_in(303)),
    ("POST", "/account/notifications/calendar", {}, signed_in(303)),
    ("POST", "/account/verify", {}, signed_in(303)),
    ("GET", "/password/forgot", None, everyone(200)),
    ("POST", "/password/forgot", {"email": "nobody@example.com"}, {"anonymous": 303, "outsider": 303}),
    ("GET", f"/password/reset/{TOKEN}", None, everyone(400)),
    ("POST", f"/password/reset/{TOKEN}", {"new_password": "a long new password"}, {"anonymous": 400}),
    ("GET", f"/unsubscribe/{TOKEN}", None, everyone(400)),
    ("POST", f"/unsubscribe/{TOKEN}", {}, {"anonymous": 400, "outsider": 400}),
    ("GET", f"/account/verify/{TOKEN}", None, everyone(400)),
    ("POST", f"/account/verify/{TOKEN}", {}, {"anonymous": 400, "outsider": 400}),
    ("GET", f"/calendar/{TOKEN}.ics", None, everyone(404)),
    ("POST", "/hooks/bounce", {"email": "x@example.com"}, {"anonymous": 403, "admin": 403}),  # no secret
    ("GET", "/admin/mail", None, admins(200)),
    ("POST", f"/admin/mail/{MISSING}/retry", {}, admins(404)),
    ("POST", "/admin/mail/failing", {"email": "partner@example.com"}, admins(303)),
    # the test client is not on loopback: only administrators see the mails written to files
    ("GET", "/dev/mail", None, {**everyone(403), "admin": 200}),
    ("GET", "/dev/mail/nothing.eml", None, {**everyone(403), "admin": 404}),
    # the clock: time, pauses, seats, the admins' view
    ("GET", "/api/v1/me/availability", None, signed_in(200)),
    ("PUT", "/api/v1/me/availability", {"windows": []}, signed_in(200)),
    ("GET", "/api/v1/me/pauses", None, signed_in(200)),
    ("POST", "/api/v1/me/pauses", {}, signed_in(422)),
    ("POST", f"/api/v1/me/pauses/{MISSING}/remove", None, signed_in(404)),
    ("GET", "/api/v1/me/deadlines", None, signed_in(200)),
    ("GET", f"/api/v1/games/{ACTIVE}/seats", None, everyone(200)),
    (
        "POST",
        f"/api/v1/games/{ACTIVE}/quit",
        {},
        signed_in(403, player=200, partner=200, muted=200, seated_moderator=200),
    ),
    ("POST", f"/api/v1/games/{ACTIVE}/seats/{SEAT}/take", None, signed_in(409, player=409)),
    ("POST", f"/api/v1/games/{ACTIVE}/seats/{SEAT}/decline", None, signed_in(403)),
    (
        "POST",
        f"/api/v1/games/{ACTIVE}/seats/{SEAT}/evict-vote",
        None,
        but(signed_in(403), "player", "partner", "muted", "seated_moderator"),
    ),
    ("GET", "/api/v1/open-seats", None, everyone(200)),
    ("GET", "/api/v1/admin/clock", None, admins(200)),
    ("POST", f"/api/v1/admin/clock/games/{ACTIVE}/release", None, admins(409)),
    ("GET", "/time", None, signed_in(200)),
    ("POST", "/time/windows", {}, signed_in(303)),
    ("POST", "/time/pauses", {}, signed_in(422)),
    ("POST", f"/time/pauses/{MISSING}/remove", {}, signed_in(404)),
    ("GET", f"/games/{ACTIVE}/seats", None, everyone(200)),
    (
        "POST",
        f"/games/{ACTIVE}/quit",
        {},
        signed_in(403, player=303, partner=303, muted=303, seated_moderator=303),
    ),
    ("POST", f"/games/{ACTIVE}/seats/{SEAT}/take", {}, signed_in(409)),
    ("POST", f"/games/{ACTIVE}/seats/{SEAT}/decline", {}, signed_in(403)),
    (
        "POST",
        f"/games/{ACTIVE}/seats/{SEAT}/evict-vote",
        {},
        but(signed_in(403), "player", "partner", "muted", "seated_moderator"),
    ),
    ("GET", "/seats", None, everyone(200)),
    ("GET", "/admin/clock", None, admins(200)),
    ("GET", "/admin/status", None, admins(200)),
    ("GET", "/status", None, everyone(200)),
    ("POST", f"/admin/clock/games/{ACTIVE}/release", {}, admins(409)),
    # the queue, friends and blocks, the seat draft, open seats' positions, rankings, profiles
    ("GET", "/queue", None, {"anonymous": 401, "outsider": 200}),
    ("POST", "/queue", {"game_type": "fake", "new_games": "on"}, {"anonymous": 401, "outsider": 303}),
    ("POST", "/queue/fake/leave", {}, {"anonymous": 401, "outsider": 404}),
    ("GET", "/friends", None, {"anonymous": 401, "outsider": 200}),
    ("GET", "/players/names?name=pla", None, {"anonymous": 401, "outsider": 200}),
    ("POST", "/friends", {"name": "Player"}, {"anonymous": 401, "outsider": 303}),
    ("POST", f"/friends/{USER}/remove", {}, {"anonymous": 401, "outsider": 303}),
    ("POST", "/blocks", {"name": "Player"}, {"anonymous": 401, "outsider": 303}),
    ("POST", f"/blocks/{USER}/remove", {}, {"anonymous": 401, "outsider": 303}),
    ("GET", f"/games/{ACTIVE}/draft", None, {r: 200 for r in ROLES}),
    ("POST", f"/games/{ACTIVE}/draft", {"choice": "x"}, {"anonymous": 401, "outsider": 409, "player": 409}),
    ("GET", f"/games/{ACTIVE}/seats/{SEAT}/summary", None, {r: 404 for r in ROLES}),
    ("GET", "/rankings", None, {r: 200 for r in ROLES}),
    ("GET", "/rules", None, everyone(200)),
    ("GET", "/rules/tigris", None, everyone(200)),
    ("GET", "/rules/fake", None, everyone(404)),  # a game without a rules page
    ("GET", f"/users/{USER}", None, {r: 200 for r in ROLES}),
    ("GET", "/api/v1/queue", None, {"anonymous": 401, "outsider": 200}),
    ("PUT", "/api/v1/queue/fake", {"min_hours": 12}, {"anonymous": 401, "outsider": 200}),
    ("DELETE", "/api/v1/queue/fake", None, {"anonymous": 401, "outsider": 404}),
    ("GET", "/api/v1/friends", None, {"anonymous": 401, "outsider": 200}),
    ("POST", "/api/v1/friends", {"name": "Player"}, {"anonymous": 401, "outsider": 201}),
    ("DELETE", f"/api/v1/friends/{USER}", None, {"anonymous": 401, "outsider": 204}),
    ("POST", "/api/v1/blocks", {"name": "Player"}, {"anonymous": 401, "outsider": 201}),
    ("DELETE", f"/api/v1/blocks/{USER}", None, {"anonymous": 401, "outsider": 204}),
    ("GET", f"/api/v1/games/{ACTIVE}/draft", None, {r: 200 for r in ROLES}),
    (
        "POST",
        f"/api/v1/games/{ACTIVE}/draft",
        {"choice": "x"},
        {"anonymous": 401, "outsider": 409, "player": 409},
    ),
    ("GET", "/api/v1/lobby/open", None, {r: 200 for r in ROLES}),
    ("GET", "/api/v1/rankings/fake", None, {r: 200 for r in ROLES}),
    ("GET", f"/api/v1/users/{USER}", None, {r: 200 for r in ROLES}),
    # reports, the moderators' queue, sanctions, interventions, roles and the audit log
    ("POST", "/api/v1/reports", {"kind": "game", "reason": "spam", "game_id": ACTIVE}, signed_in(201)),
    ("GET", "/api/v1/reports", None, signed_in(200)),
    ("GET", "/api/v1/moderation/reports", None, staff(200)),
    ("GET", f"/api/v1/moderation/reports/{REPORT}", None, staff(200)),
    ("POST", f"/api/v1/moderation/reports/{REPORT}/assign", {}, staff(200)),
    ("GET", f"/api/v1/moderation/reports/{ON_MOD}", None, not_about_self(200)),
    ("POST", f"/api/v1/moderation/reports/{ON_MOD}/assign", {}, not_about_self(200)),
    (
        "POST",
        f"/api/v1/moderation/reports/{ON_MOD}/resolve",
        {"outcome": "no_violation"},
        not_about_self(200, admin=409, seated_moderator=409),
    ),
    (
        "POST",
        f"/api/v1/moderation/reports/{ON_MOD}/dismiss",
        {},
        not_about_self(200, admin=409, seated_moderator=409),
    ),
    (
        "POST",
        f"/api/v1/moderation/reports/{REPORT}/resolve",
        {"outcome": "no_violation"},
        staff(200, **AFTER_ADMIN_409),
    ),
    (
        "POST",
        f"/api/v1/moderation/reports/{REPORT}/dismiss",
        {},
        staff(200, **AFTER_ADMIN_409),
    ),
    ("GET", "/api/v1/moderation/users?q=a", None, staff(200)),
    ("GET", f"/api/v1/moderation/users/{USER}", None, staff(200)),
    (
        "POST",
        f"/api/v1/moderation/users/{USER}/sanctions",
        {"kind": "mute", "hours": 1, **REASON},
        staff(201, seated_moderator=403),
    ),
    ("POST", f"/api/v1/moderation/sanctions/{SANCTION}/lift", REASON, staff(200, **LIFTED_409)),
    ("GET", f"/api/v1/moderation/games/{ACTIVE}", None, not_in_own_game(200)),
    (
        "POST",
        f"/api/v1/moderation/games/{ACTIVE}/hold",
        {"kind": "paused", **REASON},
        not_in_own_game(200, admin=409, reported_moderator=409),
    ),
    ("POST", f"/api/v1/moderation/games/{ACTIVE}/resume", REASON, not_in_own_game(409)),
    (
        "POST",
        f"/api/v1/moderation/games/{ACTIVE}/extend",
        {"seat": SEAT, "hours": 1, **REASON},
        not_in_own_game(200),
    ),
    (
        "POST",
        f"/api/v1/moderation/games/{ACTIVE}/remove",
        {"seat": SEAT, **REASON},
        not_in_own_game(200, admin=409, reported_moderator=409),
    ),
    (
        "POST",
        f"/api/v1/moderation/games/{ACTIVE}/replace",
        {"seat": SEAT, "replacement": "Outsider", **REASON},
        not_in_own_game(200, admin=409, reported_moderator=409),
    ),
    (
        "POST",
        f"/api/v1/moderation/games/{ACTIVE}/abort",
        REASON,
        not_in_own_game(200, admin=409, reported_moderator=409),
    ),
    ("POST", f"/api/v1/moderation/games/{ACTIVE}/rollback", {"to_seq": 1, **REASON}, not_in_own_game(422)),
    ("POST", f"/api/v1/moderation/games/{ACTIVE}/reveal", REASON, not_in_own_game(200)),
    ("POST", f"/api/v1/admin/users/{USER}/role", {"role": "moderator", **REASON}, admins(200)),
    (
        "POST",
        f"/api/v1/admin/users/{USER}/profile",
        {"display_name": "Player", "email": "player@example.com", **REASON},
        admins(200),
    ),
    ("GET", "/api/v1/admin/audit", None, admins(200)),
    ("GET", "/reports", None, signed_in(200)),
    ("GET", f"/reports/new?kind=game&game_id={ACTIVE}", None, signed_in(200)),
    (
        "POST",
        "/reports",
        {"kind": "game", "reason": "spam", "game_id": ACTIVE, "details": "Ads"},
        signed_in(303),
    ),
    ("GET", "/moderation", None, staff(200)),
    ("GET", f"/moderation/reports/{REPORT}", None, staff(200)),
    ("POST", f"/moderation/reports/{REPORT}/assign", {}, staff(303)),
    (
        "POST",
        f"/moderation/reports/{REPORT}/resolve",
        {"outcome": "no_violation"},
        staff(303, **AFTER_ADMIN_409),
    ),
    ("POST", f"/moderation/reports/{REPORT}/dismiss", {}, staff(303, **AFTER_ADMIN_409)),
    ("GET", f"/moderation/reports/{ON_MOD}", None, not_about_self(200)),
    ("POST", f"/moderation/reports/{ON_MOD}/assign", {}, not_about_self(303)),
    (
        "POST",
        f"/moderation/reports/{ON_MOD}/resolve",
        {"outcome": "no_violation"},
        not_about_self(303, admin=409, seated_moderator=409),
    ),
    (
        "POST",
        f"/moderation/reports/{ON_MOD}/dismiss",
        {},
        not_about_self(303, admin=409, seated_moderator=409),
    ),
    ("GET", "/moderation/users?q=a", None, staff(200)),
    ("GET", f"/moderation/users/{USER}", None, staff(200)),
    (
        "POST",
        f"/moderation/users/{USER}/sanctions",
        {"kind": "mute", "duration": "1", **REASON},
        staff(303, seated_moderator=403),
    ),
    ("POST", f"/moderation/sanctions/{SANCTION}/lift", REASON, staff(303, **LIFTED_409)),
    ("GET", f"/moderation/games/{ACTIVE}", None, not_in_own_game(200)),
    (
        "POST",
        f"/moderation/games/{ACTIVE}/hold",
        {"kind": "locked", **REASON},
        not_in_own_game(303, admin=409, reported_moderator=409),
    ),
    ("POST", f"/moderation/games/{ACTIVE}/resume", REASON, not_in_own_game(409)),
    (
        "POST",
        f"/moderation/games/{ACTIVE}/extend",
        {"seat": SEAT, "hours": "1", **REASON},
        not_in_own_game(303),
    ),
    (
        "POST",
        f"/moderation/games/{ACTIVE}/remove",
        {"seat": SEAT, **REASON},
        not_in_own_game(303, admin=409, reported_moderator=409),
    ),
    (
        "POST",
        f"/moderation/games/{ACTIVE}/replace",
        {"seat": SEAT, "replacement": "Outsider", **REASON},
        not_in_own_game(303, admin=409, reported_moderator=409),
    ),
    (
        "POST",
        f"/moderation/games/{ACTIVE}/abort",
        REASON,
        not_in_own_game(303, admin=409, reported_moderator=409),
    ),
    ("POST", f"/moderation/games/{ACTIVE}/rollback", {"to_seq": "1", **REASON}, not_in_own_game(422)),
    ("POST", f"/moderation/games/{ACTIVE}/reveal", REASON, not_in_own_game(200)),
    ("GET", "/admin/audit", None, admins(200)),
    ("POST", f"/admin/users/{USER}/role", {"role": "moderator", **REASON}, admins(303)),
    (
        "POST",
        f"/admin/users/{USER}/profile",
        {"display_name": "Player", "email": "player@example.com", **REASON},
        admins(303),
    ),
]
UNCHECKED = {("GET", "/games/{game_id}/live")}  # an endless stream: covered by the browser tests
PLACEHOLDERS = {
    OPEN: "{game_id}",
    ACTIVE: "{game_id}",
    USER: "{user_id}",
    REPORT: "{report_id}",
    ON_MOD: "{report_id}",
    SANCTION: "{sanction_id}",
    "/fake": "/{game_type}",
    "/tigris": "/{game_type}",
    "nothing.eml": "{name}",
}


def test_every_route_is_in_the_table(app: Any) -> None:
    listed = {(method, _pattern(path)) for method, path, _, _ in MATRIX} | UNCHECKED
    routes = {
        (method, context.path)
        for context in routing.iter_route_contexts(app.routes)
        if isinstance(context.original_route, APIRoute)
        for method in (context.methods or set()) - {"HEAD"}
    }
    assert len(routes) > 100  # the router was really walked
    assert sorted(routes - listed) == []
    assert sorted(listed - routes) == []


def _pattern(path: str) -> str:
    path = path.split("?")[0]
    for placeholder, parameter in PLACEHOLDERS.items():
        path = path.replace(placeholder, parameter)
    if "/mail/" in path:
        path = path.replace(MISSING, "{mail_id}")
    if "/sessions/" in path:
        path = path.replace(MISSING, "{session_id}")
    if "/tokens/" in path:
        path = path.replace(MISSING, "{token_id}")
    if path.startswith("/players/") and path != "/players/names":
        return "/players/{name}"
    if "/password/reset/" in path or "/unsubscribe/" in path or "/verify/" in path or "/calendar/" in path:
        path = path.replace(TOKEN, "{token}")
    return path.replace(MISSING, "{pause_id}").replace(SEAT, "{seat}")


@pytest.fixture(autouse=True)
def _fast_passwords() -> Iterator[None]:
    with fast_passwords():
        yield


@pytest.fixture
def visitors(make_client: Any, db: Session) -> dict[str, Any]:
    clients = {role: make_client() for role in ROLES}
    names = {role: role.capitalize() for role in ROLES if role != "anonymous"}
    ids = {role: sign_up(clients[role], name)["id"] for role, name in names.items()}
    anonymous = clients["anonymous"]
    anonymous.headers["X-CSRF-Token"] = anonymous.get("/api/v1/auth/csrf").json()["csrf_token"]
    for role in (*MODERATORS, "admin"):
        user = db.get(User, ids[role])
        assert user is not None
        user.role = "admin" if role == "admin" else "moderator"
    db.commit()
    open_game = (
        clients["creator"].post("/api/v1/games", json={"game_type": "fake", "players": 3}).json()["id"]
    )
    active = clients["player"].post("/api/v1/games", json={"game_type": "fake", "players": 4}).json()["id"]
    for role in ("partner", "muted", "seated_moderator"):
        assert clients[role].post(f"/api/v1/games/{active}/join").status_code == 200
    return {"clients": clients, "ids": _world(db, ids, open_game, active)}


def _world(db: Session, ids: dict[str, int], open_game: int, active: int) -> dict[str, Any]:
    """The sanctions and the report every entry starts from."""
    now = datetime.now(UTC)
    admin, mod = db.get(User, ids["admin"]), db.get(User, ids["moderator"])
    assert admin is not None and mod is not None
    mute = moderation.SanctionOrder("mute", 24, "Spam")
    sanction = moderation.impose(db, admin, ids["muted"], mute, now)
    moderation.impose(db, admin, ids["banned"], moderation.SanctionOrder("ban", 24, "Cheating"), now)
    player = db.get(User, ids["player"])
    assert player is not None
    draft = reports.ReportDraft(kind="player", reason="insults", player="Partner")
    report = reports.file_report(db, player, draft, now)
    on_mod = reports.ReportDraft(kind="player", reason="insults", player="Reported_moderator")
    report_on_mod = reports.file_report(db, player, on_mod, now)
    players_seat = db.scalar(select(Seat.number).where(Seat.game_id == active, Seat.user_id == ids["player"]))
    db.commit()
    return {
        OPEN: open_game,
        ACTIVE: active,
        USER: ids["player"],
        SEAT: players_seat,
        REPORT: report.id,
        ON_MOD: report_on_mod.id,
        SANCTION: sanction.id,
        MISSING: 999_999,
        TOKEN: "not-a-real-token",
    }


def _filled(value: Any, ids: dict[str, Any]) -> Any:
    """The placeholders replaced by the world's ids (a JSON field that is only a placeholder: the number)."""
    if isinstance(value, str):
        if value in ids and isinstance(ids[value], int):
            return ids[value]
        for placeholder, real in ids.items():
            value = value.replace(placeholder, str(real))
        return value
    if isinstance(value, dict):
        return {key: _filled(item, ids) for key, item in value.items()}
    return value


@pytest.mark.parametrize(
    ("method", "path", "body", "expected"), MATRIX, ids=[f"{m} {p}" for m, p, _, _ in MATRIX]
)
def test_route_statuses(
    visitors: dict[str, Any], method: str, path: str, body: Any, expected: dict[str, int]
) -> None:
    ids = visitors["ids"]
    for role in ROLES:
        if role not in expected:
            continue
        client: TestClient = visitors["clients"][role]
        url = _filled(path, ids)
        data = _filled(body, ids)
        token = client.headers.get("X-CSRF-Token", "")
        if path.startswith(("/api/", "/hooks/")):
            response = client.request(method, url, json=data, follow_redirects=False)
        elif method == "GET":
            response = client.get(url, follow_redirects=False)
        else:
            form = {key: str(value) for key, value in (data or {}).items()}
            response = client.request(method, url, data={**form, "csrf_token": token}, follow_redirects=False)
        assert response.status_code == expected[role], (
            f"{role}: {method} {url} -> {response.status_code} {response.text[:200]}"
        )
        assert "Traceback" not in response.text
