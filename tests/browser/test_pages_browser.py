"""The public pages in Chromium: the landing page, the rules pages and how to get there.

- A new player signs up, opens the new-game form, picks Hearts and follows "Rules of Hearts"
  (a new tab): the rules page has its heading and its options section, with the form's
  options in it: test_a_new_player_reads_the_rules_from_the_new_game_form.
- A signed-out visitor at "/" sees the landing page with the four tables' pictures loaded,
  sign-up and sign-in buttons, at desktop and phone sizes, without sideways scroll; the
  Hearts rules page fits a phone too: test_the_landing_page_and_a_rules_page_fit_any_screen.

With UPDATE_SCREENSHOTS=1 the pictures go to docs/screenshots/ (landing-desktop.png,
landing-phone.png, rules-hearts-desktop.png, rules-hearts-phone.png); otherwise to
test-artifacts/screenshots/docs/, so a normal run leaves the repository clean.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Browser, Page, ViewportSize, expect

from games.registry import REGISTRY
from tests.browser.helpers import DESKTOP, PHONE, add_bots, no_sideways_scroll, sign_up, start
from tests.browser.helpers.pictures import picture

pytestmark = pytest.mark.any_topology


def load_every_picture(page: Page) -> None:
    """Scroll each (lazy) picture into view and wait until it is loaded and drawn."""
    pictures = page.locator("img.landing-picture")
    for index in range(pictures.count()):
        picture = pictures.nth(index)
        picture.scroll_into_view_if_needed()
        expect(picture).to_be_visible()
        picture.evaluate("img => img.decode()")
        assert picture.evaluate("img => img.complete && img.naturalWidth > 0")
    page.evaluate("window.scrollTo(0, 0)")


def test_a_new_player_reads_the_rules_from_the_new_game_form(
    browser: Browser, base_url: str, shoot
):
    page = sign_up(browser, base_url, "rulesreader", color_scheme="light")
    page.get_by_role("link", name="New game").first.click()
    expect(page.get_by_role("heading", name="New game")).to_be_visible()
    page.get_by_label("Hearts", exact=True).check()
    link = page.locator("#game-setup").get_by_role("link", name="Rules of Hearts")
    expect(link).to_be_visible()
    with page.context.expect_page() as opened:
        link.click()
    rules = opened.value
    rules.wait_for_load_state()
    assert rules.url.endswith("/rules/hearts/")
    expect(rules.get_by_role("heading", name="Rules of Hearts", level=1)).to_be_visible()
    options = rules.locator("#options")
    options.scroll_into_view_if_needed()
    expect(options.get_by_role("heading", name="Options for a table on this site")).to_be_visible()
    for option in REGISTRY["hearts"].options:
        expect(options.get_by_text(str(option.label), exact=True)).to_be_visible()
        for _, label in option.choices:
            expect(options.get_by_text(str(label))).to_be_visible()
    # The form is still there in the first tab, untouched; the waiting room and the table
    # link the rules too.
    expect(page.get_by_label("Hearts", exact=True)).to_be_checked()
    shoot(page, "pages-new-game-hearts")
    page.get_by_label("Name").fill("Hearts with rules")
    page.get_by_role("button", name="Create game").click()
    room_rules = page.locator(".room-facts").get_by_role("link", name="Rules")
    expect(room_rules).to_have_attribute("href", "/rules/hearts/")
    shoot(page, "pages-waiting-room-hearts")
    add_bots(page, (2, 3, 4))
    start(page)
    table_rules = page.locator(".table-facts").get_by_role("link", name="Rules")
    expect(table_rules).to_have_attribute("href", "/rules/hearts/")
    expect(table_rules).to_be_visible()
    shoot(page, "pages-table-hearts")
    page.context.close()


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_the_landing_page_and_a_rules_page_fit_any_screen(
    browser: Browser, base_url: str, viewport: ViewportSize
):
    size = "desktop" if viewport is DESKTOP else "phone"
    context = browser.new_context(viewport=viewport, color_scheme="light")
    page = context.new_page()

    page.goto(f"{base_url}/")
    expect(
        page.get_by_role("heading", name="Card games with friends, in your browser")
    ).to_be_visible()
    hero = page.locator(".hero")
    expect(hero.get_by_role("link", name="Sign up")).to_be_visible()
    expect(hero.get_by_role("link", name="Sign in")).to_be_visible()
    expect(page.locator("img.landing-picture")).to_have_count(len(REGISTRY))
    load_every_picture(page)
    for kind in REGISTRY.values():
        game = page.locator(".landing-game").filter(
            has=page.get_by_role("heading", name=str(kind.name))
        )
        alt = re.compile(f"^A game of {re.escape(str(kind.name))} on this site: ")
        expect(game.get_by_role("img")).to_have_attribute("alt", alt)
        expect(game.get_by_role("link", name=f"Rules of {kind.name}")).to_be_visible()
    no_sideways_scroll(page)
    picture(page, f"landing-{size}", still=False)

    hearts = page.locator(".landing-game").filter(has=page.get_by_role("heading", name="Hearts"))
    hearts.get_by_role("link", name="Rules of Hearts").click()
    expect(page.get_by_role("heading", name="Rules of Hearts", level=1)).to_be_visible()
    expect(page.locator("#options")).to_be_attached()
    no_sideways_scroll(page)
    picture(page, f"rules-hearts-{size}", still=False)

    # The signed-out visitor can sign up from there.
    page.goto(f"{base_url}/")
    page.locator(".hero").get_by_role("link", name="Sign up").click()
    expect(page.get_by_role("heading", name="Create your account")).to_be_visible()
    context.close()
