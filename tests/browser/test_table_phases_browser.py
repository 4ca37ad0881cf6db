"""Alice plays at the table against three bots in Chromium, through every phase: bidding,
naming trump, discarding, tricks, the end of a round and the end of the game (after she
hands her seat to a bot), then a rematch. Screenshots of each phase at desktop and phone
widths. Black-box against the daphne server (bots act on timers, pushes over websockets).

Alice organizes, so she sits in seat 0 and deals the first round: the bots bid first and,
as dealer, she can always take the contract by shooting the moon (the dealer may match a
60), so every phase happens with her in it whatever the random deal.
"""

from __future__ import annotations

import re
import time

import pytest
from playwright.sync_api import Page, Route, ViewportSize, expect

from tests.browser.helpers import sign_up_on
from tests.timeouts import HEAVY_TIMEOUT

pytestmark = pytest.mark.any_topology

PHONE: ViewportSize = {"width": 390, "height": 844}
DESKTOP: ViewportSize = {"width": 1280, "height": 800}
PREFIX = "tp"  # usernames unique to this module (the e2e database is shared)


def both_sizes(page: Page, shoot, name: str) -> None:
    """Screenshot at desktop size, then at phone size (no sideways scroll), then back."""
    shoot(page, f"{name}-desktop")
    page.set_viewport_size(PHONE)
    page.wait_for_timeout(100)
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"), name
    shoot(page, f"{name}-phone")
    page.set_viewport_size(DESKTOP)


def table(page: Page):
    return page.locator("#table")


def my_turn_in(page: Page, phase: str):
    return page.locator(f"#table.is-my-turn[data-phase='{phase}']")


# A whole game: 58-120 s and more on a busy machine, past a browser test's 120 s limit.
@pytest.mark.timeout(HEAVY_TIMEOUT)
def test_alice_plays_every_phase_against_three_bots(page: Page, base_url: str, shoot) -> None:
    expect.set_options(timeout=20_000)
    page.set_viewport_size(DESKTOP)
    page.on("dialog", lambda dialog: dialog.accept())  # "Hand my seat to a bot?"

    sign_up_on(page, base_url, f"{PREFIX}alice")

    page.get_by_role("link", name="New game").first.click()
    page.get_by_label("Name").fill("Phases")
    page.get_by_label("Seats").select_option("4")
    page.get_by_role("button", name="Create game").click()
    for seat in (2, 3, 4):
        page.get_by_role("button", name=f"Add a bot to seat {seat}").click()
        expect(page.get_by_role("button", name=f"Add a bot to seat {seat}")).to_have_count(0)
    page.get_by_role("button", name="Start game").click()
    expect(page).to_have_url(re.compile(r"/games/\d+/table/$"))
    expect(page.locator("#table-root[data-game-id]")).to_have_count(1)

    # Bidding: the bots have spoken; alice deals and speaks last.
    expect(my_turn_in(page, "bidding")).to_be_visible()
    expect(page.get_by_text("Your turn: bid or pass.")).to_be_visible()
    expect(page.locator("#table .seat[data-seat='0'] .chip-dealer")).to_be_visible()
    expect(page.locator("#table .seat[data-seat='1'] .chip-bot")).to_be_visible()
    hand = page.locator("#table .hand [data-card]")
    expect(hand).to_have_count(5)
    # Cards are buttons named like "Ten of Hearts"; during bidding none can be played.
    first = hand.first
    assert re.fullmatch(r"(Joker|\w+ of \w+)", first.get_attribute("aria-label") or "")
    expect(first).to_be_disabled()
    page.get_by_role("button", name="Hint").click()
    expect(page.locator("#hint")).to_contain_text("Hint:")
    # A redraw of the same version (the socket's first frame after a page load) may land
    # between a hint's request and its answer: the answer shows in the table now there.
    held: list[Route] = []
    page.route("**/hint/", lambda route: held.append(route))
    page.get_by_role("button", name="Hint").click()
    for _ in range(200):
        if held:
            break
        page.wait_for_timeout(25)
    page.evaluate(
        """() => {
            const old = document.getElementById("table");
            const redrawn = old.cloneNode(true);
            redrawn.querySelector("#hint").textContent = "";
            old.replaceWith(redrawn);
            htmx.process(redrawn);
        }"""
    )
    expect(page.locator("#hint")).to_be_empty()
    held[0].continue_()
    expect(page.locator("#hint")).to_contain_text("Hint:")
    page.unroute("**/hint/")
    # A push of the same version after the hint showed (say, a player went away) keeps
    # the hint: it is still this turn's. Pushed as the socket's frames are, out of band.
    page.evaluate(
        """() => {
            const pushed = document.getElementById("table").cloneNode(true);
            pushed.querySelector("#hint").textContent = "";
            pushed.setAttribute("data-pushed", "");
            pushed.setAttribute("hx-swap-oob", "true");
            htmx.swap(document.body, pushed.outerHTML, {swapStyle: "none"});
        }"""
    )
    expect(page.locator("#table[data-pushed]")).to_have_count(1)
    expect(page.locator("#hint")).to_contain_text("Hint:")
    both_sizes(page, shoot, "table-bidding")
    page.get_by_role("button", name="Shoot the moon (60)").click()

    # Trump: alice holds the bid.
    expect(my_turn_in(page, "trump")).to_be_visible()
    expect(page.get_by_text("you won the bid, choose trump")).to_be_visible()
    expect(page.locator("#hint")).not_to_contain_text("Hint:")  # the bid's hint went with it
    both_sizes(page, shoot, "table-trump")
    page.get_by_role("button", name="Hearts as trump").click()
    expect(page.locator(".trump-chip")).to_contain_text("Hearts")

    # Discard: the dealer discards last; non-trumps come preselected.
    expect(my_turn_in(page, "discard")).to_be_visible()
    boxes = page.locator(".discard-form input[name='cards']")
    expect(boxes).to_have_count(5)
    checked = page.locator(".discard-form input[name='cards']:checked").count()
    submit = page.locator(".discard-submit")
    expect(submit).to_have_text(f"Discard {checked}" if checked else "Keep my hand")
    # Toggling a card updates the button.
    page.locator(".discard-form .pcard-toggle").first.click()
    after = page.locator(".discard-form input[name='cards']:checked").count()
    assert after != checked
    expect(submit).to_have_text(f"Discard {after}" if after else "Keep my hand")
    page.locator(".discard-form .pcard-toggle").first.click()
    both_sizes(page, shoot, "table-discard")
    submit.click()

    # Tricks: seat 1 (left of the bidder) leads; alice plays her legal cards.
    shot_tricks = False
    deadline = time.monotonic() + 60
    while table(page).get_attribute("data-round") == "1":
        assert time.monotonic() < deadline, "round 1 did not finish"
        playable = page.locator("#table.is-my-turn .pcard-playable")
        if playable.count() == 0:
            page.wait_for_timeout(50)
            continue
        if not shot_tricks and page.locator("#table .trick [data-card]").count() >= 2:
            expect(page.get_by_text("Your turn: play a card.")).to_be_visible()
            # Every card is a button: the legal ones enabled, the rest disabled and dimmed.
            cards = page.locator("#table .hand li").count()
            unplayable = page.locator("#table .hand .pcard-unplayable[aria-disabled='true']")
            assert playable.count() + unplayable.count() == cards
            both_sizes(page, shoot, "table-tricks")
            page.emulate_media(color_scheme="dark")
            shoot(page, "table-tricks-dark-desktop")
            page.emulate_media(color_scheme="light")
            shot_tricks = True
        try:
            playable.first.click(timeout=2_000)
        except Exception:  # the table was redrawn under the click: look again
            continue
        page.wait_for_timeout(100)
    assert shot_tricks  # alice plays fourth to the first trick (seat 1 leads)

    # Round end: round 2 is dealt; round 1 is on the score sheet and in the past rounds.
    expect(table(page)).to_have_attribute("data-round", re.compile(r"[2-9]|\d\d"))
    expect(my_turn_in(page, "bidding")).to_be_visible()  # the bots have bid again
    expect(page.locator(".scores tbody tr")).not_to_have_count(0)
    past = page.locator("details.past-round").first
    expect(past).to_contain_text("Round 1:")
    past.locator("summary").click()
    expect(past.locator("[data-card]")).not_to_have_count(0)
    expect(page.locator(".score-sheet svg.score-chart")).to_be_visible()
    both_sizes(page, shoot, "table-round-end")

    # Alice hands her seat to the bot, which plays on until the game is over.
    page.get_by_role("button", name="Hand my seat to a bot").click()
    expect(page.get_by_text("A bot plays your seat.").first).to_be_visible()
    expect(page.locator("#table[data-phase='over']")).to_be_visible(timeout=180_000)
    expect(page.get_by_role("heading", name=re.compile("Game over"))).to_be_visible()
    expect(page.locator("svg.score-chart polyline")).to_have_count(4)
    both_sizes(page, shoot, "table-game-over")

    # Rematch: same seats, a new table.
    old_url = page.url
    page.get_by_role("button", name="Rematch").click()
    expect(page).not_to_have_url(old_url)
    expect(page).to_have_url(re.compile(r"/games/\d+/table/$"))
    expect(page.locator("#table .seat")).to_have_count(4)
    expect(page.locator("#table .chip-bot")).to_have_count(3)
