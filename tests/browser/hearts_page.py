"""Acting on a Hearts table page (used by test_hearts_*_browser.py): a new game of Hearts,
ticking a pass, playing a card, trying a disabled one, the mover's page and the score sheet
checked against the mirror, and the Hearts screenshots.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from playwright.sync_api import Page, expect

from games.kinds.hearts.engine import Action, Card, HeartsState, Pass, Play, card_code
from tests.browser.hearts import HeartsMirror, codes, facts_of
from tests.browser.helpers import DESKTOP, PHONE, ROOM_URL, click_sends_nothing, settled
from tests.conftest import ARTIFACTS, ROOT

# --- acting on the page --------------------------------------------------------------------


def create_hearts_game(page: Page, name: str, target: int, clock: str = "") -> int:
    """From the lobby: a new private game of Hearts to `target` (with the `clock` of that
    label, say "Live: 30 s per move", if one is given); returns its id."""
    page.get_by_role("link", name="New game").first.click()
    settled(page)
    page.get_by_role("radio", name="Hearts").check()
    expect(page.locator("#game-setup")).to_contain_text("Hearts is played by")
    expect(page.get_by_label("Play to")).to_be_visible()
    settled(page)
    page.get_by_label("Name").fill(name)
    expect(page.get_by_label("Seats").locator("option")).to_have_count(1)
    page.get_by_label("Play to").select_option(str(target))
    if clock:
        page.get_by_label("Clock").select_option(label=clock)
    page.get_by_role("button", name="Create game").click()
    expect(page.get_by_role("heading", name=name)).to_be_visible()
    found = ROOM_URL.search(page.url)
    assert found, page.url
    return int(found.group(1))


def tick(page: Page, cards: Iterable[Card]) -> None:
    """Tick `cards` in the pass picker by clicking their faces (each one once)."""
    for code in codes(cards):
        box = page.locator(f"#pass-{code}")
        if not box.is_checked():
            page.locator(f"#table label.pcard-toggle[data-card='{code}']").click()
            expect(box).to_be_checked()


def expect_ticked(page: Page, cards: Iterable[Card]) -> None:
    """Exactly `cards` are ticked, each visibly marked, and the button says so."""
    wanted = codes(cards)
    ticked = page.locator("#table .pcard-toggle:has(input:checked)")
    expect(ticked).to_have_count(len(wanted))
    for code in wanted:
        mark = page.locator(f"#table .pcard-toggle[data-card='{code}'] .pcard-mark")
        expect(mark).to_be_visible()
    text = "Pass 3 cards" if len(wanted) == 3 else f"Choose 3 cards ({len(wanted)} chosen)"
    expect(page.locator("#pass-submit")).to_have_text(text)


def check_turn(page: Page, mirror: HeartsMirror, seat: int) -> dict[str, Any]:
    """The mover's page before its move: the right phase and controls, nothing hidden."""
    facts = facts_of(page, mirror, seat)
    assert facts["mine"]
    view = mirror.view(seat)
    if view.can_pass:
        assert facts["phase"] == "passing"
        expect(page.locator("#table .pass-form .pcard-toggle")).to_have_count(len(view.hand))
        assert facts["enabled"] == [] and facts["disabled"] == []
    else:
        assert facts["phase"] == "tricks"
        legal = codes(view.legal_plays)
        assert sorted(facts["enabled"]) == sorted(legal)
        assert sorted(facts["disabled"]) == sorted(set(codes(view.hand)) - set(legal))
        received = set(codes(view.received or ())) & set(codes(view.hand))
        assert sorted(facts["received"]) == sorted(received)
    return facts


def try_disabled_card(page: Page, code: str) -> None:
    """A disabled card is a plain disabled button: clicking it sends nothing."""
    card = page.locator(f"#card-{code}")
    expect(card).to_be_disabled()
    assert card.get_attribute("name") is None and card.get_attribute("type") == "button"
    click_sends_nothing(page, card, force=True)


def act(page: Page, action: Action) -> None:
    if isinstance(action, Pass):
        tick(page, action.cards)
        expect_ticked(page, action.cards)
        page.locator("#pass-submit").click()
    else:
        assert isinstance(action, Play)
        page.locator(f"#card-{card_code(action.card)}").click()


def check_score_sheet(page: Page, state: HeartsState) -> None:
    rows = page.locator("#score-sheet tbody tr")
    expect(rows).to_have_count(len(state.history))
    if state.history:
        last = state.history[-1]
        totals = rows.last.locator(".score-total")
        expect(totals).to_have_text([str(t) for t in last.totals])
    for seat, total in enumerate(state.totals):
        expect(page.locator(f"#table .seat[data-seat='{seat}'] .seat-score")).to_have_text(
            f"{total} pts"
        )


# --- screenshots ----------------------------------------------------------------------------

SHOTS_FOLDER = (
    ROOT / "docs" / "screenshots"
    if os.environ.get("UPDATE_SCREENSHOTS") == "1"
    else ARTIFACTS / "screenshots" / "docs"
)
FITS = "document.documentElement.scrollWidth <= window.innerWidth"


def shoot_all(page: Page, stage: str, wide: list[str]) -> list[Path]:
    """Desktop and phone, light and dark; notes in `wide` the phone pages that scroll
    sideways (checked once every picture is taken, so they can all be looked at)."""
    SHOTS_FOLDER.mkdir(parents=True, exist_ok=True)
    paths = []
    for size_name, size in (("desktop", DESKTOP), ("phone", PHONE)):
        page.set_viewport_size(size)
        for scheme in ("light", "dark"):
            page.emulate_media(color_scheme=scheme)
            if size_name == "phone" and not page.evaluate(FITS):
                wide.append(f"{stage}-{scheme}")
            path = SHOTS_FOLDER / f"hearts-{stage}-{size_name}-{scheme}.png"
            page.screenshot(path=str(path), full_page=True, animations="disabled")
            paths.append(path)
    page.emulate_media(color_scheme="light")
    page.set_viewport_size(DESKTOP)
    return paths
