"""Small things seen in the browser: checkboxes beside their labels, at both sizes."""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser.test_accounts_browser import sign_up_in_browser


@pytest.mark.parametrize("phone", [False, True])
def test_checkboxes_sit_beside_their_labels(live_server: str, new_page: Any, phone: bool) -> None:
    page = new_page(phone=phone)
    sign_up_in_browser(page, live_server, "Alice")
    page.goto(f"{live_server}/queue")
    label = page.locator("label", has=page.locator("input[name=new_games]"))
    box = page.locator("input[name=new_games]").bounding_box()
    text = label.bounding_box()
    assert box["x"] - text["x"] < 2  # the box starts the line
    assert box["y"] < text["y"] + text["height"] / 2 < box["y"] + box["height"] + 8  # on the text's line
    assert text["height"] < 2.5 * box["height"]  # one line, not a box above its text
