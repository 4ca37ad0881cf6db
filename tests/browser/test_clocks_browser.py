"""A player closes the tab on their turn in a game with a 30 s clock: the seat's clock runs
out in front of the others, the bot plays for them and the table moves on; the player
reopens the table and takes their seat back with one click (games/clocks/deadlines.py)."""

from __future__ import annotations

import re

from playwright.sync_api import Browser, expect

from tests.browser.helpers import (
    create_game,
    invite_and_accept,
    leave,
    live,
    my_seat,
    settled,
    sign_up,
    start,
    table,
    version,
)

PREFIX = "clk"


def test_a_player_who_leaves_on_their_turn_is_covered_and_takes_the_seat_back(
    browser: Browser, base_url: str
) -> None:
    expect.set_options(timeout=15_000)
    alice = sign_up(browser, base_url, f"{PREFIX}alice")
    bob = sign_up(browser, base_url, f"{PREFIX}bob")
    live(bob)
    game_id = create_game(alice, "Thirty seconds", 2, labels={"Clock": "Live: 30 s per move"})
    expect(alice.locator(".tag", has_text="Clock: 30 s per move")).to_be_visible()
    invite_and_accept(alice, {f"{PREFIX}bob": bob}, game_id, "Thirty seconds")
    live(alice)
    live(bob)
    start(alice)
    expect(bob).to_have_url(re.compile(r"/table/$"))
    for page in (alice, bob):
        live(page)
        expect(page.locator(".pace-chip")).to_have_text("Clock: 30 s per move")

    # Whoever is to act leaves; the other watches their clock count down.
    expect(table(alice)).to_have_attribute("data-phase", "bidding")
    leaver, watcher = (alice, bob) if alice.locator("#table.is-my-turn").count() else (bob, alice)
    seat = my_seat(leaver)
    table_url = leaver.url
    clock = watcher.locator(f'.seat[data-seat="{seat}"] .clock')
    expect(clock).to_have_text(re.compile(r"^0:[0-3]\d$"))
    first = clock.inner_text()
    expect(clock).not_to_have_text(first)  # it counts down live, with no redraw
    before = version(watcher)
    context = leaver.context
    leave(leaver)

    # The clock runs out: the bot plays that move, the seat says why, the game goes on.
    away = watcher.locator(f'.seat[data-seat="{seat}"] .seat-note')
    expect(away).to_have_text("away, a bot is playing for them", timeout=45_000)
    assert version(watcher) > before
    expect(watcher.locator(f'.seat[data-seat="{seat}"] .clock')).to_have_count(0)
    expect(table(watcher)).to_have_class(re.compile(r"\bis-my-turn\b"))

    # Back again: one click takes the seat back, and everyone sees it.
    back = context.new_page()
    back.goto(table_url)
    live(back)
    expect(back.locator(".turn-banner")).to_have_text("A bot plays your seat.")
    settled(back)
    back.get_by_role("button", name="Take my seat back").click()
    expect(back.get_by_role("button", name="Hand my seat to a bot")).to_be_visible()
    expect(away).to_have_count(0)
    expect(watcher.locator(f'.seat[data-seat="{seat}"] .chip-bot')).to_have_count(0)
