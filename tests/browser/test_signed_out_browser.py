"""A table left open while its person signs out in another tab of the same browser
(accounts/signed_out.py, static/js/realtime.js):

- the status pill says "Signed out: sign in again" (the socket was refused, 4401), not
  "Reconnecting…", and links to the sign-in page;
- a move clicked then sends the whole page to the sign-in page (not the sign-in page swapped
  into the table), and signing in there brings the person back to the table, the game as it
  was;
- signed out and in again in the other tab (a new session and CSRF token), a click reloads
  the table with a message instead of Django's CSRF page, and the next click plays.

Not any_topology: the sign-out closes the table's sockets through the channel layer.
"""

from __future__ import annotations

import re
from urllib.parse import quote

from playwright.sync_api import Browser, Page, expect

from tests.browser.helpers import DESKTOP, PASSWORD, PHONE, click_move, live, table
from tests.browser.helpers.mirror import solo_game

PREFIX = "so"  # usernames unique to this module (the e2e database is shared)


def sign_out(page: Page, base_url: str) -> None:
    page.goto(f"{base_url}/")
    page.locator(".user-menu summary").click()
    page.get_by_role("button", name="Sign out").click()
    expect(page.get_by_role("heading", name="Sign in")).to_be_visible()


def sign_in(page: Page, name: str) -> None:
    page.get_by_label("Username or email").fill(name)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Sign in").click()


def test_signing_out_in_another_tab_leads_the_table_to_sign_in_and_back(
    browser: Browser, base_url: str, e2e_env: dict[str, str], shoot
) -> None:
    expect.set_options(timeout=10_000)
    name = f"{PREFIX}alice"
    page, mirror = solo_game(browser, base_url, e2e_env, name)
    table_path = re.sub(r"^https?://[^/]+", "", page.url)
    other = page.context.new_page()

    # Signed out in the other tab: the table's pill says so, for good.
    sign_out(other, base_url)
    pill = page.locator("#ws-status")
    expect(pill).to_have_attribute("data-state", "signed-out")
    expect(pill).to_have_text("Signed out: sign in again")
    expect(pill.get_by_role("link")).to_have_attribute(
        "href", f"/accounts/login/?next={quote(table_path, safe='')}"
    )
    expect(page.locator("#ws-ping")).to_be_hidden()  # no "Connection lost" beside it
    shoot(page, "signed-out-pill-desktop")
    page.set_viewport_size(PHONE)
    expect(pill).to_be_in_viewport()
    shoot(page, "signed-out-pill-phone")
    page.set_viewport_size(DESKTOP)

    # A move clicked: the whole page goes to the sign-in page, and back to the table after.
    version = mirror.version
    click_move(page, mirror.state, mirror.suggestion())
    expect(page).to_have_url(
        re.compile(r"/accounts/login/\?next=" + re.escape(quote(table_path)) + "$")
    )
    expect(page.locator(".site-header")).to_have_count(1)
    sign_in(page, name)
    expect(page).to_have_url(re.compile(re.escape(table_path) + "$"))
    expect(table(page)).to_have_attribute("data-version", str(version))  # nothing was played
    live(page)

    # Out and in again in the other tab: a new session with a new CSRF token.
    sign_out(other, base_url)
    sign_in(other, name)
    expect(other.get_by_role("heading", name="Lobby")).to_be_visible()
    expect(pill).to_have_attribute("data-state", "signed-out")
    click_move(page, mirror.state, mirror.suggestion())
    message = page.locator(".messages")
    expect(message).to_contain_text("Your session changed in another tab")
    expect(page.locator("body")).not_to_contain_text("CSRF")
    expect(table(page)).to_have_attribute("data-version", str(version))
    live(page)
    shoot(page, "session-changed-message-desktop")
    page.set_viewport_size(PHONE)
    shoot(page, "session-changed-message-phone")

    # The reloaded table carries the new session's token: the click plays now.
    click_move(page, mirror.state, mirror.suggestion())
    expect(table(page)).not_to_have_attribute("data-version", str(version))
