"""Past games and player pages in Chromium, black-box against the daphne server.

Alice and bob play a short Hundred and Ten game (to 60 points) with a bot, both handing
their seats to bots so that it finishes quickly. Alice's lobby then lists it under "Past
games" (pushed live as it ends: no reload), she opens its table (the final state), goes
back and clicks bob's name to open his player page. Screenshots: the lobby with past games
at desktop width, a player page at desktop and phone width (no sideways scroll).
UPDATE_SCREENSHOTS=1 writes them to docs/screenshots/ (else to test-artifacts/).
"""

from __future__ import annotations

import re

from playwright.sync_api import Browser, Page, expect

from tests.browser.helpers import (
    DESKTOP,
    PHONE,
    TABLE_URL,
    add_bots,
    click_posting,
    create_game,
    invite,
    live,
    no_sideways_scroll,
    not_reloaded,
    sign_up_agreeing,
)
from tests.browser.helpers.pictures import picture

PREFIX = "hp"  # usernames unique to this module (the e2e database is shared)


def section(page: Page, heading: str):
    return page.locator("section", has=page.get_by_role("heading", name=heading, exact=True))


def hand_seat_to_bot(page: Page) -> None:
    button = page.get_by_role("button", name="Hand my seat to a bot")
    click_posting(page, button, "/automate/")
    expect(page.get_by_role("button", name="Take my seat back")).to_be_visible()


def test_a_finished_game_is_in_past_games_and_names_lead_to_player_pages(
    browser: Browser, base_url: str, shoot
) -> None:
    expect.set_options(timeout=30_000)
    alice_name, bob_name = f"{PREFIX}alice", f"{PREFIX}bob"
    bob, alice = sign_up_agreeing(browser, base_url, bob_name, alice_name)

    # A short game: three seats, to 60 points; bob invited, a bot in the third seat.
    create_game(alice, "Quick sixty", 3, labels={"Play to": "60 points (a short game)"})
    invite(alice, bob_name)
    bob.goto(f"{base_url}/")
    section(bob, "Invitations").get_by_role(
        "button", name="Accept the invitation to Quick sixty"
    ).click()
    expect(section(bob, "Waiting to start")).to_contain_text("Quick sixty")
    # The waiting room's seat list names bob with a link to his page.
    expect(alice.locator(".room-seat-list").get_by_role("link", name=bob_name)).to_have_attribute(
        "href", f"/players/{bob_name}/"
    )
    add_bots(alice, (3,))
    alice.get_by_role("button", name="Start game").click()
    expect(alice).to_have_url(TABLE_URL)
    table_url = alice.url
    bob.goto(table_url)

    # Both hand their seats to bots; alice then waits on the lobby for the end.
    hand_seat_to_bot(bob)
    hand_seat_to_bot(alice)
    alice.goto(f"{base_url}/")
    live(alice)
    past = section(alice, "Past games")
    row = past.locator(".past-row", has=alice.get_by_role("link", name="Quick sixty", exact=True))
    expect(row).to_be_visible(timeout=120_000)  # pushed when the game ended
    not_reloaded(alice)
    expect(row).to_contain_text("Hundred and Ten")
    expect(row).to_contain_text(bob_name)
    expect(row.locator(".tag-bot")).to_have_text("bot")
    expect(row.locator(".tag").first).to_have_text(re.compile(r"^You (won|lost|shared the win)$"))
    expect(row.get_by_role("link", name="Export Quick sixty (JSON)")).to_be_visible()
    expect(past.get_by_role("link", name="All past games")).to_be_visible()
    picture(alice, "lobby-past-desktop", still=False)

    # The game's name opens its table: the final state.
    row.get_by_role("link", name="Quick sixty", exact=True).click()
    expect(alice).to_have_url(table_url)
    expect(alice.locator(".game-over")).to_be_visible()
    # At the table, bob's name on his seat opens his page.
    alice.locator(".seat-name").get_by_role("link", name=bob_name).click()
    expect(alice).to_have_url(f"{base_url}/players/{bob_name}/")
    expect(alice.get_by_role("heading", name=bob_name, level=1)).to_be_visible()

    # Back on the lobby, bob's name in the row opens his page.
    alice.goto(f"{base_url}/")
    row = section(alice, "Past games").locator(".past-row").first
    row.get_by_role("link", name=bob_name, exact=True).click()
    expect(alice).to_have_url(f"{base_url}/players/{bob_name}/")
    expect(alice.get_by_role("heading", name=bob_name, level=1)).to_be_visible()
    expect(alice.locator(".record-table")).to_contain_text("Hundred and Ten")
    expect(section(alice, "Recent games")).to_contain_text("Quick sixty")
    opponents = section(alice, "Recent opponents")
    expect(opponents.get_by_role("link", name=alice_name)).to_be_visible()
    expect(alice.get_by_role("link", name="Your settings")).to_have_count(0)  # not hers
    picture(alice, "player-desktop", still=False)
    alice.set_viewport_size(PHONE)
    picture(alice, "player-phone", still=False)
    no_sideways_scroll(alice)
    alice.set_viewport_size(DESKTOP)

    # From bob's page, her own name leads to her page, with her settings.
    opponents.get_by_role("link", name=alice_name).click()
    expect(alice).to_have_url(f"{base_url}/players/{alice_name}/")
    alice.get_by_role("link", name="Your settings").click()
    expect(alice.get_by_role("heading", name="Your profile")).to_be_visible()
    expect(alice.locator("#past-games")).to_contain_text("Quick sixty")
    alice.set_viewport_size(PHONE)
    shoot(alice, "profile-past-phone")
    no_sideways_scroll(alice)
    alice.goto(f"{base_url}/games/past/")
    expect(alice.locator(".past-row")).to_have_count(1)
    shoot(alice, "past-games-phone")
    no_sideways_scroll(alice)
