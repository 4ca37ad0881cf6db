"""Hearts in Chromium, black-box against daphne: the Hearts screenshots.

The pass picker, a trick in progress, the score sheet after a hand and game over (the four
people's test adds a pass waiting for the others), at desktop and phone widths, light and
dark; UPDATE_SCREENSHOTS=1 writes them to docs/screenshots/hearts-*.png.

A `HeartsMirror` (tests/browser/hearts.py) follows the game with the pure engine from the
seed, so the test knows every version, hand and legal card its page must show.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import Browser, expect

from games.kinds.hearts.engine import Pass
from tests.browser.hearts import PREFIX
from tests.browser.hearts_page import (
    act,
    alone_with_bots,
    check_turn,
    expect_ticked,
    shoot_all,
    tick,
)
from tests.browser.helpers import (
    table,
    wait_for_version,
)

pytestmark = pytest.mark.any_topology


# alice and three bots, to 50: seat 3 leads the first trick, then shoots the moon; two hands.
SHOTS_SEED = "h1171"


def test_screenshots_of_the_hearts_table(
    browser: Browser, base_url: str, e2e_env: dict[str, str]
) -> None:
    expect.set_options(timeout=15_000)
    shots: dict[str, list[Path]] = {}
    wide: list[str] = []
    alice, _, mirror = alone_with_bots(
        browser, base_url, e2e_env, f"{PREFIX}shots", "Hearts by the fire", SHOTS_SEED
    )

    while not mirror.over:
        expect(alice.locator(f"#table.is-my-turn[data-version='{mirror.version}']")).to_be_visible()
        check_turn(alice, mirror, 0)
        view = mirror.view(0)
        action = mirror.suggestion(0)
        if view.can_pass and view.hand_index == 0:
            assert isinstance(action, Pass)
            tick(alice, action.cards)
            expect_ticked(alice, action.cards)
            shots["pass"] = shoot_all(alice, "pass", wide)
        elif view.can_pass and "score" not in shots:
            expect(alice.locator("#score-sheet tbody tr")).to_have_count(1)
            expect(alice.locator("#score-sheet .chip-moon")).to_be_visible()
            shots["score"] = shoot_all(alice, "score", wide)
        elif len(view.trick) >= 2 and view.received and "trick" not in shots:
            expect(alice.locator("#table .trick .trick-play")).to_have_count(len(view.trick))
            expect(alice.locator("#table .hand li.hand-received")).not_to_have_count(0)
            shots["trick"] = shoot_all(alice, "trick", wide)
        mirror.apply(0, action)
        mirror.run_bots()
        act(alice, action)
        wait_for_version([alice], mirror.version)

    expect(table(alice)).to_have_attribute("data-phase", "over")
    expect(alice.get_by_role("heading", name=re.compile("^Game over"))).to_be_visible()
    shots["over"] = shoot_all(alice, "over", wide)
    assert sorted(shots) == ["over", "pass", "score", "trick"]
    assert wide == [], f"these phone pages scroll sideways: {wide}"
    for paths in shots.values():
        assert len(paths) == 4 and all(path.stat().st_size > 10_000 for path in paths)
