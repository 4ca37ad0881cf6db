"""A new visitor signs up, signs out, signs in and reaches the empty lobby, in Chromium."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, ViewportSize, expect

PHONE: ViewportSize = {"width": 390, "height": 844}
DESKTOP: ViewportSize = {"width": 1280, "height": 800}


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_visitor_signs_up_signs_out_signs_in_and_reaches_the_lobby(
    page: Page, base_url: str, viewport: ViewportSize, shoot
) -> None:
    name = f"visitor{viewport['width']}"
    password = "a-good-long-password-1"
    size = "desktop" if viewport is DESKTOP else "phone"
    page.set_viewport_size(viewport)

    page.goto(f"{base_url}/accounts/signup/")
    expect(page.get_by_role("heading", name="Create your account")).to_be_visible()
    shoot(page, f"signup-{size}")
    page.get_by_label("Username").fill(name)
    page.get_by_label("Password", exact=True).fill(password)
    page.get_by_label("Password (again)").fill(password)
    page.get_by_role("button", name="Sign up").click()
    expect(page.get_by_role("heading", name="Lobby")).to_be_visible()
    shoot(page, f"lobby-empty-{size}")

    page.locator(".user-menu summary").click()
    page.get_by_role("button", name="Sign out").click()
    expect(page.get_by_role("heading", name="Sign in")).to_be_visible()

    page.goto(f"{base_url}/")  # a signed-out visitor gets the landing page
    page.locator(".hero").get_by_role("link", name="Sign in").click()
    expect(page.get_by_role("heading", name="Sign in")).to_be_visible()
    page.get_by_label("Username or email").fill(name)
    page.get_by_label("Password").fill(password)
    shoot(page, f"signin-{size}")
    page.get_by_role("button", name="Sign in").click()
    expect(page.get_by_role("heading", name="Lobby")).to_be_visible()
    expect(page.locator(".user-menu summary")).to_have_text(name)
    # No horizontal scroll on a phone.
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
