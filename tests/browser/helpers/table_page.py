"""A Hundred and Ten table on a page: the first turn, the table's version, the seat and hand it
shows, and the one control that makes a given move (a bid, the trump, discards, a card)."""

from __future__ import annotations

from collections.abc import Iterable

from playwright.sync_api import Locator, Page, Request, expect

from games.kinds.hundred_and_ten import engine
from games.kinds.hundred_and_ten.engine import (
    Bid,
    Discard,
    GameState,
    Move,
    Play,
    SelectTrump,
    Unpass,
)
from tests.browser.helpers.people import live

# --- the table -----------------------------------------------------------------------------


def first_turn(page: Page) -> int:
    """Wait for the human's first turn (the bots have played up to it) and return the table's
    version then. The page is loaded afresh once: a page rendered while a bot's move was being
    committed can show the new state under the version before it (harmless for a player: a
    move with that version is refused as stale and the push brings the right one), and the
    tests count versions from here. Nothing moves while the human thinks, so this load is
    exact; `live` marks it, so later reloads would still be caught."""
    expect(page.locator("#table.is-my-turn")).to_be_visible()
    page.reload()
    expect(page.locator("#table.is-my-turn")).to_be_visible()
    live(page)
    return version(page)


def table(page: Page) -> Locator:
    return page.locator("#table")


def version(page: Page) -> int:
    return int(table(page).get_attribute("data-version") or "-1")


def click_sends_nothing(page: Page, control: Locator, *, force: bool = False) -> None:
    """Clicking `control` (a disabled card, a required pick left empty) posts nothing and
    leaves the table's version as it was."""
    sent: list[str] = []

    def on_request(request: Request) -> None:
        if request.method == "POST":
            sent.append(request.url)

    page.on("request", on_request)
    before = version(page)
    control.click(force=force)
    page.wait_for_timeout(300)
    page.remove_listener("request", on_request)
    assert sent == [] and version(page) == before


def my_seat(page: Page) -> int:
    return int(page.locator("#table .seat-bottom").get_attribute("data-seat") or "-1")


def hand_codes(page: Page) -> list[str]:
    found = page.locator("#table .hand [data-card]").evaluate_all(
        "els => els.map(e => e.dataset.card)"
    )
    return [str(code) for code in found]


def codes(cards: Iterable[engine.Card]) -> list[str]:
    return [engine.format_card(c) for c in cards]


def bid_label(amount: int) -> str:
    if amount == 0:
        return "Pass"
    if amount == 60:
        return "Shoot the moon (60)"
    return f"Bid {amount}"


def move_control(page: Page, state: GameState, move: Move) -> Locator:
    """The one control on `page` that makes `move` (the page belongs to the mover)."""
    t = table(page)
    if isinstance(move, Bid):
        if move.seat != state.active_seat:
            return t.get_by_role("button", name="Pass in advance")
        return t.locator(".bid-form").get_by_role("button", name=bid_label(move.amount), exact=True)
    if isinstance(move, Unpass):
        return t.get_by_role("button", name="Cancel my pass")
    if isinstance(move, SelectTrump):
        return t.get_by_role("button", name=f"{engine.SUIT_NAMES[move.suit]} as trump")
    if isinstance(move, Play):
        return t.get_by_role("button", name=f"Play {engine.card_name(move.card)}", exact=True)
    assert isinstance(move, Discard)
    return t.locator(".discard-submit")


def choose_discards(page: Page, cards: Iterable[engine.Card]) -> None:
    """Tick exactly `cards` in the discard form (clicking the card faces)."""
    wanted = set(codes(cards))
    for label in page.locator("#table .discard-form .pcard-toggle").all():
        box = label.locator("input")
        if box.is_checked() != (label.get_attribute("data-card") in wanted):
            label.click()
    submit = page.locator("#table .discard-submit")
    expect(submit).to_have_text(f"Discard {len(wanted)}" if wanted else "Keep my hand")


def click_move(page: Page, state: GameState, move: Move) -> None:
    if isinstance(move, Discard):
        choose_discards(page, move.cards)
    move_control(page, state, move).click()
