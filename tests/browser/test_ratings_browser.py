"""Ratings in Chromium, black-box against the daphne server: alice and bob play two rated
games of One Hundred and Four (two seats, one deal: the shortest game), both handing their
seats to bots so that each ends at once. The table then shows each seat's new rating by the
name, and alice's player page her rating with the history chart. Screenshots of the table
and the player page at 1280 and 390 px, light and dark (the `shoot` fixture).
"""

from __future__ import annotations

import re

from playwright.sync_api import Browser, Page, expect

from tests.browser.helpers import (
    DESKTOP,
    PHONE,
    invite_and_accept,
    live,
    no_sideways_scroll,
    sign_up_agreeing,
    start,
)
from tests.browser.one_hundred_and_four import create_nimmt_game

PREFIX = "rg"  # usernames unique to this module (the e2e database is shared; "rt" is realtime's)


def hand_seat_to_bot(page: Page) -> None:
    page.get_by_role("button", name="Hand my seat to a bot").click()
    expect(page.get_by_role("button", name="Take my seat back")).to_be_visible()


def rated_game(alice: Page, bob: Page, name: str, bob_name: str) -> None:
    """A rated game (the default with people only) from alice's lobby to its end."""
    game_id = create_nimmt_game(alice, name, 2)
    expect(alice.locator(".room-facts")).to_contain_text("Rated when every seat is a person")
    invite_and_accept(alice, {bob_name: bob}, game_id, name)
    live(bob)  # bob's waiting room is listening, so it moves to the table by itself
    start(alice)
    expect(alice.locator(".game-over, #table")).not_to_have_count(0)
    # Wait for that move rather than navigating: a goto would race it (and lose, once in CI).
    expect(bob).to_have_url(re.compile(rf"/games/{game_id}/table/$"))
    live(bob)
    hand_seat_to_bot(bob)
    alice.get_by_role("button", name="Hand my seat to a bot").click()
    expect(alice.locator(".game-over")).to_be_visible(timeout=60_000)


def shots(page: Page, shoot, name: str) -> None:
    for width, size in (("1280", DESKTOP), ("390", PHONE)):
        page.set_viewport_size(size)
        for scheme in ("light", "dark"):
            page.emulate_media(color_scheme=scheme)
            shoot(page, f"ratings-{name}-{width}-{scheme}")
        no_sideways_scroll(page)
    page.emulate_media(color_scheme="light")
    page.set_viewport_size(DESKTOP)


def test_rated_games_show_ratings_at_the_table_and_on_the_player_page(
    browser: Browser, base_url: str, shoot
) -> None:
    expect.set_options(timeout=30_000)
    alice_name, bob_name = f"{PREFIX}alice", f"{PREFIX}bob"
    bob, alice = sign_up_agreeing(browser, base_url, bob_name, alice_name)
    for page in (alice, bob):
        page.set_viewport_size(DESKTOP)

    rated_game(alice, bob, "Rated one", bob_name)
    alice.goto(f"{base_url}/")
    rated_game(alice, bob, "Rated two", bob_name)
    alice.reload()  # the page as drawn after the game's end
    ratings = alice.locator("#table .seat .rating")
    expect(ratings).to_have_count(2)
    expect(ratings.first).to_have_attribute("title", re.compile(r"^Rating \d+ ± \d+, provisional$"))
    mine = alice.locator("#table .seat", has=alice.get_by_role("link", name=alice_name))
    figure = re.sub(r"\D", "", mine.locator(".rating").inner_text())
    shots(alice, shoot, "table")

    alice.locator(".seat-name").get_by_role("link", name=alice_name).click()
    expect(alice.get_by_role("heading", name="Ratings")).to_be_visible()
    item = alice.locator(".rating-item", has_text="One Hundred and Four")
    expect(item).to_contain_text("2 rated games, provisional")
    expect(item.locator("strong")).to_have_text(re.compile(rf"^{figure} ± \d+$"))  # as at the table
    expect(item.locator("svg.chart-svg polyline")).to_have_count(1)
    expect(item.locator("svg.chart-svg")).to_have_attribute(
        "aria-label", "One Hundred and Four rating after each of 2 games"
    )
    shots(alice, shoot, "player")
    item.get_by_role("link", name="Leaderboard").click()
    expect(alice.get_by_role("heading", name="One Hundred and Four leaderboard")).to_be_visible()
