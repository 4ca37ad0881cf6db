"""Hearts in Chromium, every move through the page, black-box against daphne: one person and
three bots.

alice plays three bots to 50 points: she ticks three cards and passes in each passing hand,
and clicks a playable card on each turn; only the legal cards are enabled, a disabled card
does nothing, and her page never holds another seat's card.

The game is followed with tests/browser/hearts.py's mirror, and her page and every frame it
receives are checked against it.
"""

from __future__ import annotations

import re
import time

from playwright.sync_api import Browser, expect

from games.kinds.hearts.engine import Pass
from tests.browser.hearts import PREFIX, check_frames, facts_of
from tests.browser.hearts_page import (
    act,
    alone_with_bots,
    check_score_sheet,
    check_turn,
    expect_ticked,
    tick,
    try_disabled_card,
)
from tests.browser.helpers import (
    not_reloaded,
    table,
    version,
    wait_for_version,
)

# alice (seat 0) and three naive bots, to 50: three hands (left, right, across); alice holds
# the 2♣ after the first exchange (only it is enabled), takes no point and wins with 0.
SOLO_SEED = "h1029"


def test_alice_plays_hearts_to_fifty_against_three_bots(
    browser: Browser, base_url: str, e2e_env: dict[str, str]
) -> None:
    expect.set_options(timeout=15_000)
    began = time.monotonic()
    alice, frames, mirror = alone_with_bots(
        browser, base_url, e2e_env, f"{PREFIX}solo", "Hearts after dinner", SOLO_SEED
    )
    assert mirror.to_act() == {0}

    # A pass of two cards is refused with a sentence, and nothing moves.
    first = mirror.suggestion(0)
    assert isinstance(first, Pass)
    tick(alice, first.cards[:2])
    expect_ticked(alice, first.cards[:2])
    alice.locator("#pass-submit").click()
    expect(alice.locator("#table .table-error")).to_contain_text("Choose exactly three cards")
    assert version(alice) == mirror.version

    hands_seen: set[int] = set()
    tried_disabled = False
    moves = 0
    while not mirror.over:
        assert mirror.to_act() == {0}, mirror.to_act()
        expect(alice.locator(f"#table.is-my-turn[data-version='{mirror.version}']")).to_be_visible()
        facts = check_turn(alice, mirror, 0)
        view = mirror.view(0)
        if view.hand_index not in hands_seen and not view.can_pass:
            # The first play of a hand after an exchange: the three cards passed to alice are
            # marked in her hand, and the felt says who passed them.
            hands_seen.add(view.hand_index)
            if view.received:
                assert len(facts["received"]) == 3
                for mark in alice.locator("#table .received-mark").all():
                    expect(mark).to_be_visible()
                sender = alice.locator(f"#table .seat[data-seat='{view.received_from}'] .seat-name")
                expect(alice.locator("#table .received-line")).to_have_text(
                    f"new passed to you from {sender.inner_text()}"
                )
        if not tried_disabled and facts["disabled"]:
            try_disabled_card(alice, facts["disabled"][0])
            tried_disabled = True
        action = mirror.suggestion(0)
        mirror.apply(0, action)
        mirror.run_bots()
        act(alice, action)
        moves += 1
        wait_for_version([alice], mirror.version)
        if not mirror.over and mirror.state.hand_index != view.hand_index:
            # A hand ended: its row is on the score sheet, the totals on the seats.
            check_score_sheet(alice, mirror.state)
            facts_of(alice, mirror, 0)

    assert tried_disabled and len(mirror.state.history) == 3 and moves == 42
    assert mirror.state.totals[0] == 0
    expect(table(alice)).to_have_attribute("data-phase", "over")
    expect(alice.get_by_role("heading", name=re.compile("^Game over"))).to_have_text(
        "Game over: you win!"
    )
    expect(alice.get_by_role("button", name="Rematch")).to_be_visible()
    check_score_sheet(alice, mirror.state)
    facts_of(alice, mirror, 0)
    not_reloaded(alice)
    assert check_frames(frames, mirror, 0) > 40
    print(f"solo game: {time.monotonic() - began:.1f} s, {len(frames)} frames")
