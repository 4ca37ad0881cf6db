"""One Hundred and Four at ten seats, as a person sees it: the steps of a resolution one by one,
the Skip button, and the screenshots (desktop and a 390 px phone).

The table runs on its own daphne (same database) whose resolutions step every
`STEP_SECONDS`, slow enough to watch and to photograph a step. alice plays nine bots; the
test photographs her choosing, a resolution in progress, her too-low card's pause (her row
buttons) and the game over. On the phone nothing scrolls sideways, and the rows, her hand
and all ten players' points are on the page and readable. UPDATE_SCREENSHOTS=1 writes them
to docs/screenshots/one-hundred-and-four-*.png (else to test-artifacts/).
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from games.kinds.one_hundred_and_four.engine import Choose, TakeRow
from tests.browser.helpers import (
    not_reloaded,
)
from tests.browser.helpers import version as version_of
from tests.browser.helpers.pictures import looks, picture
from tests.browser.one_hundred_and_four import (
    NimmtMirror,
    act,
    alone_with_bots,
    expect_rows,
    facts,
    pick,
    scores_text,
    steps_key,
    steps_seen,
    too_low_play,
    wait_for,
)
from tests.servers import second_server_env, start_daphne, stop_daphne

PREFIX = "ns"
STEP_SECONDS = 1.5
# alice (seat 0) and nine bots (an easy one at seat 5): when one of her cards is below every
# row end and every other card of a turn, she plays it and must take a row (found in play).
SEED = "n104d0"
BOTS = {s: "easy" if s == 5 else "medium" for s in range(1, 10)}


@pytest.fixture(scope="module")
def slow_steps_env(e2e_env: dict[str, str], e2e_workdir: Path) -> dict[str, str]:
    """A second daphne's, stepping resolutions every STEP_SECONDS."""
    return second_server_env(
        e2e_env, e2e_workdir, "slow-steps", TABLE_STEP_SECONDS=str(STEP_SECONDS)
    )


@pytest.fixture(scope="module")
def slow_steps_url(slow_steps_env: dict[str, str], e2e_workdir: Path) -> Iterator[str]:
    proc, url = start_daphne(slow_steps_env, e2e_workdir / "daphne-slow-steps.log")
    yield url
    stop_daphne(proc)


READABLE = """() => {
    const width = window.innerWidth;
    const inside = el => {
        const box = el.getBoundingClientRect(), style = getComputedStyle(el);
        return box.width > 0 && box.height > 0 && box.left >= 0 && box.right <= width + 0.5
            && style.visibility !== "hidden" && parseFloat(style.opacity) > 0.5;
    };
    const fits = el => el.scrollWidth <= el.clientWidth + 1;
    const t = document.getElementById("table");
    const scores = [...t.querySelectorAll(".seat .seat-score")];
    return {
        wide: document.documentElement.scrollWidth > width,
        rows: [...t.querySelectorAll(".nrow")].filter(inside).length,
        rowCards: [...t.querySelectorAll(".nrow [data-card]")].filter(el => !inside(el))
            .map(el => el.dataset.card),
        hand: [...t.querySelectorAll(".hand-area .nhand [data-card]")].filter(el => !inside(el))
            .map(el => el.dataset.card),
        scores: scores.length,
        badScores: scores.filter(el => !inside(el) || !fits(el)
            || parseFloat(getComputedStyle(el).fontSize) < 11).map(el => el.textContent),
        names: [...t.querySelectorAll(".seat .seat-name")].filter(el => !inside(el))
            .map(el => el.textContent),
    };
}"""


def shoot(page: Page, stage: str, hand: bool = True) -> list[Path]:
    """Desktop and phone pictures of `stage`; on the phone the table must fit and read."""
    paths = []
    for size_name, _ in looks(page, schemes=()):
        # From the top: a full-page picture of a scrolled page draws the sticky site header
        # across the middle of the table.
        page.evaluate("() => window.scrollTo(0, 0)")
        paths.append(picture(page, f"one-hundred-and-four-{stage}-{size_name}"))
        seen: dict[str, Any] = page.evaluate(READABLE)
        if size_name == "phone":
            assert not seen["wide"], f"{stage}: the phone page scrolls sideways"
        assert seen["rows"] == 4 and seen["rowCards"] == [], (stage, size_name, seen)
        assert seen["scores"] == 10 and seen["badScores"] == [], (stage, size_name, seen)
        assert seen["names"] == [], (stage, size_name, seen)
        if hand:
            assert seen["hand"] == [], (stage, size_name, seen)
            card = page.locator("#table .hand-area .nhand [data-card]").first
            expect(card).to_be_visible()
            if page.locator("#table.is-my-turn").count():
                # On her turn her hand is in the window, seen from the top of the page.
                box, window = card.bounding_box(), page.viewport_size
                assert box and window, (stage, size_name)
                assert box["y"] + box["height"] <= window["height"], (stage, size_name, box)
    return paths


def skip_steps(page: Page, mirror: NimmtMirror) -> float:
    """Press Skip while the last resolution plays out; the page shows the current state at
    once (long before the steps would have ended). Returns how long that took."""
    button = page.locator("#table [data-skip-steps]")
    expect(button).to_be_visible()
    began = time.monotonic()
    button.click()
    wait_for([page], mirror.version, timeout=STEP_SECONDS * 1000 * 2)
    return time.monotonic() - began


def test_ten_seats_step_by_step_with_skip_and_screenshots(
    browser: Browser, slow_steps_url: str, slow_steps_env: dict[str, str]
) -> None:
    expect.set_options(timeout=15_000)
    began = time.monotonic()
    shots: dict[str, list[Path]] = {}
    alice, traffic = alone_with_bots(
        browser,
        slow_steps_url,
        slow_steps_env,
        f"{PREFIX}alice",
        "Ten at the long table",
        SEED,
        BOTS,
    )
    mirror = NimmtMirror.of(SEED, 10, BOTS, version_of(alice))

    # Turn 1: alice picks her card (lifted, ticked) with nine bots waiting.
    first = mirror.suggestion(0)
    assert isinstance(first, Choose)
    pick(alice, first.card)
    expect(alice.locator("#table .turn-banner-mine")).to_have_text("Your turn: choose a card.")
    shots["choosing"] = shoot(alice, "choosing")
    mirror.apply(0, first)
    mirror.run_bots()
    alice.locator("#choose-submit").click()

    # The resolution is shown one step after the other, STEP_SECONDS apart.
    key, count = steps_key(mirror.state)
    watched = time.monotonic()
    alice.wait_for_function(
        "([key]) => (window.__steps || []).includes(key + ':2')", arg=[key], timeout=10_000
    )
    assert time.monotonic() - watched > STEP_SECONDS * 1.5
    # (A step may be drawn twice: see test_one_hundred_and_four_browser.after_resolution.)
    assert sorted(set(steps_seen(alice, key))) == [0, 1, 2]
    reveal = alice.locator("#table .reveal")
    expect(reveal.locator(".reveal-cards li")).to_have_count(10)
    expect(reveal.locator(".reveal-owner").first).to_be_visible()
    expect(reveal).to_contain_text(f"of {count - 1} placed")
    expect(alice.locator("#table .turn-banner")).to_contain_text(": ")
    shots["reveal"] = shoot(alice, "reveal")
    # Skip: straight to the current state, the rest of the steps never drawn.
    assert skip_steps(alice, mirror) < STEP_SECONDS * 2
    assert count - 1 not in steps_seen(alice, key)
    expect_rows(alice, mirror.state)
    assert facts(alice)["mine"] and facts(alice)["scores"] == scores_text(mirror.state)

    while not mirror.over:
        wait_for([alice], mirror.version)
        traffic.check(mirror, 0)
        low = too_low_play(mirror, 0) if "pause" not in shots else None
        action = Choose(low) if low is not None else mirror.suggestion(0)
        mirror.apply(0, action)
        act(alice, action)
        if mirror.state.phase == "pause" and mirror.state.asked == 0:
            # Her card is lower than every row end: the table waits for her row.
            card = mirror.state.choices[0]
            expect(alice.locator("#take-row-3")).to_be_visible()
            expect(alice.locator("#table .turn-banner-mine")).to_have_text(
                f"Your {card} is lower than every row: choose a row to take."
            )
            if "pause" not in shots:
                shots["pause"] = shoot(alice, "pause")
            take = mirror.suggestion(0)
            assert isinstance(take, TakeRow)
            mirror.apply(0, take)
            act(alice, take)
        mirror.run_bots()
        skip_steps(alice, mirror)

    best = min(mirror.state.totals)
    winners = [s for s, total in enumerate(mirror.state.totals) if total == best]
    said = "share the win" if len(winners) > 1 else ("you win" if winners == [0] else "wins")
    expect(alice.locator("#table .game-over h2")).to_contain_text(said)
    assert facts(alice)["scores"] == scores_text(mirror.state)
    shots["over"] = shoot(alice, "over", hand=False)
    traffic.check(mirror, 0)
    not_reloaded(alice)
    assert sorted(shots) == ["choosing", "over", "pause", "reveal"]
    for paths in shots.values():
        assert all(path.stat().st_size > 10_000 for path in paths)
    print(f"ten seats with screenshots: {time.monotonic() - began:.1f} s")
