"""The screenshot set of docs/features.md: lobby, waiting room and every phase of the table, at
desktop (1280x800) and phone (390x844) sizes, light and dark.

alice plays three bots to the end (seed chosen: she takes the bid in round 1, wins a trick
and leads the next, has a trump bled to her). With UPDATE_SCREENSHOTS=1 the pictures go to
docs/screenshots/ (committed); otherwise to test-artifacts/screenshots/docs/, so a normal
test run leaves the repository clean. Each stage is checked before it is photographed.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from games.kinds.hundred_and_ten.engine import Move, Status
from tests.browser.helpers import (
    SOLO_SEED,
    Mirror,
    add_bots,
    create_game,
    legal_split,
    live,
    no_sideways_scroll,
    play_out,
    sign_up,
    start_with_bots,
    table,
)
from tests.browser.helpers.pictures import looks, picture
from tests.timeouts import HEAVY_TIMEOUT

pytestmark = pytest.mark.any_topology

PREFIX = "ss"
STAGES = (
    "lobby",
    "waiting-room",
    "bidding",
    "trump",
    "discard",
    "tricks",
    "trick-won",
    "bleeding",
    "round-end",
    "game-over",
)


def shoot_all(page: Page, stage: str) -> list[Path]:
    """Desktop and phone, light and dark; the phone never scrolls sideways."""
    paths = []
    for size_name, scheme in looks(page):
        if size_name == "phone":
            no_sideways_scroll(page)
        paths.append(picture(page, f"{stage}-{size_name}-{scheme}"))
    return paths


def stage_of(mirror: Mirror) -> str:
    state = mirror.state
    if state.status == Status.BIDDING:
        return "bidding" if state.round_index == 0 else "round-end"
    if state.status == Status.TRUMP_SELECTION:
        return "trump"
    if state.status == Status.DISCARD:
        return "discard"
    if not state.current_trick:
        return "trick-won" if state.tricks and state.tricks[-1].winner == 0 else "lead"
    legal, illegal = legal_split(state, 0)
    return "bleeding" if state.bleeding and illegal else "tricks"


# A whole game: 58-120 s and more on a busy machine, past a browser test's 120 s limit.
@pytest.mark.timeout(HEAVY_TIMEOUT)
def test_screenshots_of_every_screen(browser: Browser, base_url: str, e2e_env: dict[str, str]):
    expect.set_options(timeout=15_000)
    shots: dict[str, list[Path]] = {}
    page = sign_up(browser, base_url, f"{PREFIX}alice")
    game_id = create_game(page, "Friday cards")
    add_bots(page, (2, 3))
    room_url = page.url
    page.goto(f"{base_url}/")
    expect(page.locator("#lobby-lists")).to_contain_text("Friday cards")
    live(page)
    shots["lobby"] = shoot_all(page, "lobby")
    page.goto(room_url)
    expect(page.locator(".room-seat").nth(2)).to_contain_text("Bot")
    live(page)
    shots["waiting-room"] = shoot_all(page, "waiting-room")
    start_with_bots(page, e2e_env, game_id, SOLO_SEED, (4,))
    mirror = Mirror.solo(page)

    def photograph(m: Mirror, p: Page, move: Move) -> None:
        stage = stage_of(m)
        if stage in shots or stage not in STAGES:
            return
        expect(p.locator("#table.is-my-turn")).to_be_visible()
        if stage == "bidding":
            p.get_by_role("button", name="Hint").click()
            expect(p.locator("#hint")).to_contain_text("Hint:")
        if stage == "trick-won":
            expect(p.locator("#table .trick-done .trick-winning")).to_have_count(1)
        if stage == "bleeding":
            expect(p.locator("#table .bleeding-chip")).to_be_visible()
            expect(p.locator("#table .hand .pcard-unplayable").first).to_be_disabled()
        if stage == "round-end":
            past = p.locator("details.past-round").first
            past.locator("summary").click()
            expect(past).to_have_attribute("open", "")
        shots[stage] = shoot_all(p, stage)

    play_out(mirror, {0: page}, before_move=photograph)
    expect(table(page)).to_have_attribute("data-phase", "over")
    expect(page.get_by_role("heading", name="Game over", exact=False)).to_be_visible()
    shots["game-over"] = shoot_all(page, "game-over")

    assert sorted(shots) == sorted(STAGES)
    for paths in shots.values():
        assert len(paths) == 4 and all(path.stat().st_size > 10_000 for path in paths)
