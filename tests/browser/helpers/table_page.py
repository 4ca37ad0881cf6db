"""A table on a page: a game started for several people at once, the first turn (and the load
after the bots' simultaneous choices), the table's version and the seat it shows; of a Hundred
and Ten table, the hand and the one control that makes a given move (a bid, the trump,
discards, a card)."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable

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
from tests.browser.helpers.people import invite_and_accept, live, set_seed, start

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


def reload_when_chosen(page: Page, bots: int) -> None:
    """In a phase where everyone chooses at once (Hearts' pass, One Hundred and Four's card),
    the `bots` choose at once; then the game waits for the human alone. The page is loaded
    afresh once, so the version counted from is exact (see `first_turn`)."""
    expect(page.locator("#table .seat .chip-passed-cards")).to_have_count(bots)
    page.reload()
    live(page)


def table(page: Page) -> Locator:
    return page.locator("#table")


def version(page: Page) -> int:
    return int(table(page).get_attribute("data-version") or "-1")


def start_together(
    people: dict[str, Page],
    env: dict[str, str],
    game_id: int,
    game_name: str,
    seed: str,
    *,
    seats: Iterable[int],
    bots: Callable[[Page], None] | None = None,
    phase: str = "",
) -> dict[int, Page]:
    """The organizer (the first of `people`, in the waiting room of `game_name`) invites the
    others, who accept (the last shows in the organizer's list of seats); `bots` seats the
    bots; with every page live, the deal is fixed to `seed` and the organizer starts. Every
    waiting room moves to the table by itself (in `phase`, if one is given) and goes live.
    Returns the pages by seat, which must be `seats`."""
    organizer, *_ = people.values()
    guests = {name: people[name] for name in list(people)[1:]}
    invite_and_accept(organizer, guests, game_id, game_name)
    expect(organizer.locator(".room-seat-list")).to_contain_text(list(guests)[-1])
    if bots is not None:
        bots(organizer)
    for page in people.values():
        live(page)
    set_seed(env, game_id, seed)
    start(organizer)
    for page in people.values():
        expect(page).to_have_url(re.compile(rf"/games/{game_id}/table/$"))
        if phase:
            expect(table(page)).to_have_attribute("data-phase", phase)
        live(page)
    pages = {my_seat(page): page for page in people.values()}
    assert sorted(pages) == list(seats)
    return pages


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
    return int(page.locator("#table").get_attribute("data-own-seat") or "-1")


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
