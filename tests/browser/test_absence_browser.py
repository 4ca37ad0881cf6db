"""The "Away from the table" panel follows time with no redraw: a player closes the tab,
the other's panel says "away <1 min" with the cover button's "(possible once away 2 min)";
two minutes and ten seconds later (the page's clock moved on by Playwright: nothing is
pushed meanwhile) it says "away 2 min" and the hint is gone, as the cover button works by
then (static/js/table.js, templates/games/_absence.html)."""

from __future__ import annotations

from playwright.sync_api import Browser, expect

from tests.browser.helpers import (
    TABLE_URL,
    create_game,
    invite_and_accept,
    leave,
    live,
    not_reloaded,
    sign_up,
    start,
)

PREFIX = "abs"


def test_the_away_panel_counts_on_and_drops_its_hint_without_a_redraw(
    browser: Browser, base_url: str
) -> None:
    expect.set_options(timeout=15_000)
    alice = sign_up(browser, base_url, f"{PREFIX}alice")
    bob = sign_up(browser, base_url, f"{PREFIX}bob")
    live(bob)
    game_id = create_game(alice, "Away panel", seats=2)
    invite_and_accept(alice, {f"{PREFIX}bob": bob}, game_id, "Away panel")
    # The table page's clock is the test's, from its load (its timers too); it runs on
    # until the test moves it.
    alice.clock.install()
    start(alice)
    expect(bob).to_have_url(TABLE_URL)
    live(bob)
    live(alice)
    leave(bob)

    panel = alice.locator("#absence-panel")
    expect(panel.locator("summary")).to_have_text(f"Away from the table: {PREFIX}bob")
    panel.locator("summary").click()
    seat = panel.locator(".absence-seat")
    expect(seat).to_contain_text(f"{PREFIX}bob is away <1 min.")
    hint = seat.get_by_text("(possible once away 2 min)")
    expect(hint).to_be_visible()
    seat.evaluate("element => { element.drawnBefore = true; }")  # gone if it were redrawn

    alice.clock.run_for("02:10")  # its timers fire as the time passes
    expect(seat).to_contain_text(f"{PREFIX}bob is away 2 min.")
    expect(hint).to_be_hidden()
    expect(seat.get_by_role("button", name=f"Ask a bot to cover {PREFIX}bob")).to_be_visible()
    assert seat.evaluate("element => element.drawnBefore === true")  # counted, not redrawn
    not_reloaded(alice)
