"""Table talk in Chromium against daphne: two players of a Hearts game chat and react, each
line pushed to the other's page without a reload; a spectator's message reaches the
spectator's page and not the players'. Screenshots at desktop (1280) and phone (390)
width, light and dark; UPDATE_SCREENSHOTS=1 writes them to docs/screenshots/talk-*.png.
"""

from __future__ import annotations

import os

from playwright.sync_api import Browser, Page, expect

from tests.browser.helpers import live, not_reloaded
from tests.browser.helpers.people import PHONE
from tests.browser.talk import at_table, people, say, say_and_see
from tests.conftest import ROOT


def shots(page: Page, shoot, name: str) -> None:
    if os.environ.get("UPDATE_SCREENSHOTS"):
        page.screenshot(path=str(ROOT / "docs" / "screenshots" / f"{name}.png"), full_page=True)
    else:
        shoot(page, name)


def test_two_players_chat_and_react_and_a_spectator_is_not_heard(
    browser: Browser, base_url: str, e2e_env: dict[str, str], shoot
) -> None:
    expect.set_options(timeout=10_000)
    names, (ann, ben, cat) = people(browser, base_url, "tk", "ann", "ben", "cat")
    at_table(e2e_env, base_url, names, ann, ben, cat, name="Talk at the table", seed="talk-seed")
    expect(ann.locator("#chat")).to_have_attribute("open", "")  # wide: open

    say(ann, "Good luck! <script>alert(1)</script> javascript:alert(2)")
    line = ben.locator("#chat-log .chat-line").last
    expect(line).to_contain_text("Good luck! <script>alert(1)</script> javascript:alert(2)")
    expect(ben.locator("#chat-log a")).to_have_count(0)  # text, never a link

    ben.locator("#table").focus()
    ben.keyboard.press("4")  # "Good game"
    expect(ann.locator(".talk-bubble.is-placed")).to_have_text("Good game")
    expect(ann.locator("#chat-log .chat-line-reaction").last).to_contain_text("Good game")
    shots(ann, shoot, "talk-desktop-light")

    say_and_see(cat, "psst, pass the queen")
    say(ben, "Thanks, you too")
    expect(ann.locator("#chat-log")).to_contain_text("Thanks, you too")
    expect(ann.locator("#chat-log")).not_to_contain_text("psst")
    expect(ben.locator("#chat-log")).not_to_contain_text("psst")
    for page in (ann, ben, cat):
        not_reloaded(page)

    ann.emulate_media(color_scheme="dark")
    shots(ann, shoot, "talk-desktop-dark")
    # A phone: the panel starts collapsed and counts what arrives.
    for scheme in ("light", "dark"):
        ann.set_viewport_size(PHONE)
        ann.emulate_media(color_scheme=scheme)
        ann.reload()
        live(ann)
        expect(ann.locator("#chat")).not_to_have_attribute("open", "")
        say(ben, f"On a phone, {scheme}")
        expect(ann.locator("#chat-unread")).to_have_text("1 new")
        shots(ann, shoot, f"talk-phone-{scheme}")
    ann.locator(".chat-summary").click()
    expect(ann.locator("#chat-unread")).to_be_hidden()
    expect(ann.locator(".chat-reaction", has_text="😊")).to_be_visible()
    shots(ann, shoot, "talk-phone-dark-open")

    # Every page gets the same head (games/presenters/felt.py `Public.head`): the spectator's
    # shows "You are watching", the players' hide it (static/css/table.css).
    expect(cat.locator("#table .watching-chip")).to_be_visible()
    expect(ben.locator("#table .watching-chip")).to_be_hidden()
    shots(cat, shoot, "talk-spectator-desktop")
    cat.set_viewport_size(PHONE)
    shots(cat, shoot, "talk-spectator-phone")
