"""Sign-up, language and account pages in a real browser, on a phone-sized screen too."""

from __future__ import annotations

from typing import Any

from tests.conftest import PASSWORD


def sign_up_in_browser(page: Any, base: str, name: str, language: str = "en", email: str = "") -> None:
    page.goto(f"{base}/signup")
    page.fill("input[name=display_name]", name)
    page.fill("input[name=email]", email or f"{name.lower()}@example.com")
    page.fill("input[name=password]", PASSWORD)
    page.select_option("select[name=language]", language)
    page.click("main button[type=submit]")
    page.wait_for_url(f"{base}/")


def test_sign_up_on_a_phone_in_french(live_server: str, new_page: Any) -> None:
    page = new_page(phone=True, locale="fr-FR")
    page.goto(f"{live_server}/")
    assert page.locator("html").get_attribute("lang") == "fr"
    sign_up_in_browser(page, live_server, "Zoé", language="fr", email="zoe@example.com")
    page.click(".menu-toggle")  # a phone: the account is behind Menu
    assert page.get_by_text("Zoé").first.is_visible()
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, "the page must not scroll sideways on a phone"


def test_wrong_password_shows_a_clear_message(live_server: str, new_page: Any) -> None:
    page = new_page()
    page.goto(f"{live_server}/login")
    page.fill("input[name=email]", "nobody@example.com")
    page.fill("input[name=password]", "wrong password")
    page.click("main button[type=submit]")
    assert page.locator(".error").inner_text() == "Wrong e-mail address or password."
