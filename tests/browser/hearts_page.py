"""Acting on a Hearts table page (used by test_hearts_*_browser.py): a new game of Hearts,
ticking a pass, playing a card, trying a disabled one, the mover's page and the score sheet
checked against the mirror, and the Hearts screenshots.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, Page, expect

from games.kinds.hearts.engine import Action, Card, HeartsState, Pass, Play, card_code
from tests.browser.hearts import HeartsMirror, codes, facts_of, record_frames
from tests.browser.helpers import (
    click_sends_nothing,
    create_game,
    my_seat,
    reload_when_chosen,
    sign_up,
    start_with_bots,
    version,
)
from tests.browser.helpers.pictures import FITS, looks, picture

# --- acting on the page --------------------------------------------------------------------


def create_hearts_game(page: Page, name: str, target: int, clock: str = "") -> int:
    """From the lobby: a new private game of Hearts to `target` (with the `clock` of that
    label, say "Live: 30 s per move", if one is given); returns its id."""
    return create_game(
        page,
        name,
        None,
        kind="Hearts",
        form=hearts_form,
        values={"Play to": str(target)},
        labels={"Clock": clock} if clock else None,
    )


def hearts_form(page: Page) -> None:
    """The form of a game of Hearts: a target to play to, and four seats only."""
    expect(page.get_by_label("Play to")).to_be_visible()
    expect(page.get_by_label("Seats").locator("option")).to_have_count(1)


def alone_with_bots(
    browser: Browser, base_url: str, env: dict[str, str], name: str, game: str, seed: str
) -> tuple[Page, list[str], HeartsMirror]:
    """`name` signs up (every frame their page receives recorded from then on), creates
    `game` to 50 for four, seats three bots, fixes the seed and starts, at seat 0; the page is
    loaded afresh once the bots have passed. Returns the page, its frames and the mirror."""
    page = sign_up(browser, base_url, name)
    frames = record_frames(page)
    game_id = create_hearts_game(page, game, target=50)
    expect(page.locator(".room-seat")).to_have_count(4)
    start_with_bots(page, env, game_id, seed)
    assert my_seat(page) == 0
    expect(page.locator("#table.is-my-turn")).to_be_visible()
    reload_when_chosen(page, 3)
    return page, frames, HeartsMirror.of(seed, 50, version(page), bots=(1, 2, 3))


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


def shoot_all(page: Page, stage: str, wide: list[str]) -> list[Path]:
    """Desktop and phone, light and dark; notes in `wide` the phone pages that scroll
    sideways (checked once every picture is taken, so they can all be looked at)."""
    paths = []
    for size_name, scheme in looks(page):
        if size_name == "phone" and not page.evaluate(FITS):
            wide.append(f"{stage}-{scheme}")
        paths.append(picture(page, f"hearts-{stage}-{size_name}-{scheme}"))
    return paths
