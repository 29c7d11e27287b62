"""Local time: the sign-up page takes the browser's time zone, the list to change it is short and searchable,
and every deadline reads in the player's zone and language, "in 24 hr" with the exact time beside or on
hover. Both sizes, both languages."""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.browser.shots import keep_screenshot, size_name
from tests.browser.test_accounts_browser import sign_up_in_browser
from tests.browser.test_turns_browser import api

CASES = [
    (False, "en", "America/New_York", "in 24 hr", re.compile(r"^\w{3} \d+ \w{3} \d{4}, \d\d:\d\d E[SD]T$")),
    (True, "fr", "Europe/Paris", "dans 24\u00a0h", re.compile(r"^\w+\. \d+ \w+\.? \d{4}, \d\d:\d\d CES?T$")),
]


@pytest.mark.parametrize(("phone", "language", "zone", "relative", "exact"), CASES)
def test_deadlines_in_the_players_zone_and_language(
    live_server: str, new_page: Any, phone: bool, language: str, zone: str, relative: str, exact: Any
) -> None:
    alice = new_page(phone=phone, locale="fr-FR" if language == "fr" else "en-US", timezone=zone)
    bruno = new_page()
    alice.goto(f"{live_server}/signup")
    assert alice.locator("input[name=time_zone]").input_value() == zone  # the browser's, detected
    options = alice.locator("#time-zones option")
    assert 300 < options.count() < 450  # one a region, not 600 aliases
    assert alice.locator('#time-zones option[value="Asia/Tokyo"]').count() == 1
    keep_screenshot(alice, f"signup-zone-{size_name(phone, language)}")
    sign_up_in_browser(alice, live_server, "Alice", language=language)
    sign_up_in_browser(bruno, live_server, "Bruno")

    game = api(
        alice, live_server, "POST", "/games", {"game_type": "fake", "players": 2, "time_limit_hours": 24}
    )
    api(bruno, live_server, "POST", f"/games/{game['id']}/join")
    alice.goto(f"{live_server}/")
    listed = alice.locator("#your-games li", has_text=game["name"])
    left = listed.locator("time.time-left")
    assert left.inner_text() == relative
    assert exact.match(left.get_attribute("title")), left.get_attribute("title")
    keep_screenshot(alice, f"home-deadline-{size_name(phone, language)}")

    alice.goto(f"{live_server}/games/{game['id']}")
    deadline = alice.locator(".deadline").first
    assert relative in deadline.inner_text()
    assert alice.locator(".deadline time.time-left").first.get_attribute("title") in deadline.inner_text()
    keep_screenshot(alice, f"game-deadline-{size_name(phone, language)}")

    alice.goto(f"{live_server}/account")  # the account keeps the zone; a device elsewhere offers its own
    assert alice.locator("input[name=time_zone]").input_value() == zone
    assert alice.locator("[data-use-zone]").is_hidden()
    bruno.goto(f"{live_server}/account")
    assert bruno.locator("input[name=time_zone]").input_value() == "UTC"
