"""A player closes the tab in the middle of Hearts' pass, and the other player's page stays
clean under the Content-Security-Policy while the table goes on without them: (a) their 30 s
clock runs out and a bot passes for them; (b) the other player asks a bot to cover them. Any
console error, uncaught exception or policy violation on either page fails the test.

Against a daphne of its own with no grace before "Ask a bot to cover" (the site's is two
minutes), on a copy of the session's SQLite database (each SQLite server sweeps and pushes
alone) or on the same PostgreSQL and Redis. The clock is brought to its end by setting the
seat's deadline to now (`expire`), so nobody waits 30 s.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser.hearts_page import create_hearts_game
from tests.browser.helpers import (
    TABLE_URL,
    Watched,
    add_bots,
    hand_codes,
    invite_and_accept,
    leave,
    live,
    my_seat,
    sign_up_on,
    start,
    table,
    version,
)
from tests.servers import second_server_env, shell_json, start_daphne, stop_daphne

PREFIX = "cspa"  # usernames unique to this module (the e2e database is shared)
COVERED = re.compile(r"away, a bot is playing for them|asked a bot to cover")


@pytest.fixture(scope="module")
def quick_env(e2e_env: dict[str, str], e2e_workdir: Path) -> dict[str, str]:
    return second_server_env(e2e_env, e2e_workdir, "absence", COVER_GRACE_SECONDS="0")


@pytest.fixture(scope="module")
def quick_url(quick_env: dict[str, str], e2e_workdir: Path) -> Iterator[str]:
    proc, url = start_daphne(quick_env, e2e_workdir / "daphne-absence.log")
    yield url
    stop_daphne(proc)


def expire(env: dict[str, str], game_id: int, seat: int) -> None:
    """Test set-up only: the clock of `seat` runs out now (the server's sweep plays for it)."""
    shell_json(
        env,
        "import json; from django.utils import timezone; from games.models import Membership; "
        f"n = Membership.objects.filter(game_id={game_id}, seat={seat}, must_act=True)"
        ".update(deadline=timezone.now()); "
        "print('SETUP' + json.dumps({'n': n}))",
    )


def pass_with_one_away(
    browser: Browser, url: str, who: str, clock: str = ""
) -> tuple[Watched, Watched, int, int]:
    """Two people and two bots at Hearts, in the pass; the first closes the tab. Returns
    the watched pages (the one who left, the one who stays), the game and the seat left."""
    names = (f"{PREFIX}{who}a", f"{PREFIX}{who}b")
    leaver, stayer = Watched(browser), Watched(browser)
    for watched, name in zip((leaver, stayer), names, strict=True):
        sign_up_on(watched.page, url, name)
        live(watched.page)
    game_id = create_hearts_game(leaver.page, f"Away {who}", target=100, clock=clock)
    invite_and_accept(leaver.page, {names[1]: stayer.page}, game_id, f"Away {who}")
    add_bots(leaver.page, (3, 4))
    start(leaver.page)
    for page in (leaver.page, stayer.page):
        expect(page).to_have_url(TABLE_URL)
        live(page)
        expect(table(page)).to_have_attribute("data-phase", "passing")
    seat = my_seat(leaver.page)
    leave(leaver.page)
    return leaver, stayer, game_id, seat


def pass_and_play(page: Page, plays: int) -> None:
    """The one who stayed passes three cards and, once the exchange is done, plays `plays`
    cards (each push and answer redrawn under the policy)."""
    for code in hand_codes(page)[:3]:
        page.locator(f"#table label.pcard-toggle[data-card='{code}']").click()
    page.locator("#pass-submit").click()
    expect(page.locator("#pass-submit")).to_have_count(0)
    expect(table(page)).to_have_attribute("data-phase", "tricks")
    for _ in range(plays):
        expect(page.locator("#table.is-my-turn")).to_be_visible()
        before = version(page)
        page.locator("#table .pcard-playable").first.click()
        expect(table(page)).not_to_have_attribute("data-version", str(before))


def clean(*pages: Watched) -> None:
    problems = [problem for watched in pages for problem in watched.problems]
    assert problems == []


def test_a_clock_running_out_in_the_pass_leaves_the_other_page_clean(
    browser: Browser, quick_url: str, quick_env: dict[str, str]
) -> None:
    expect.set_options(timeout=15_000)
    leaver, stayer, game_id, seat = pass_with_one_away(
        browser, quick_url, "clk", clock="Live: 30 s per move"
    )
    page = stayer.page
    clock = page.locator(f'.seat[data-seat="{seat}"] .clock')
    expect(clock).to_be_visible()
    expire(quick_env, game_id, seat)
    expect(page.locator(f'.seat[data-seat="{seat}"] .seat-note')).to_have_text(COVERED)
    expect(clock).to_have_count(0)
    pass_and_play(page, plays=2)
    clean(leaver, stayer)


def test_asking_a_bot_to_cover_in_the_pass_leaves_the_other_page_clean(
    browser: Browser, quick_url: str
) -> None:
    expect.set_options(timeout=15_000)
    leaver, stayer, _, seat = pass_with_one_away(browser, quick_url, "cov")
    page = stayer.page
    # No grace on this server: the button comes with the push that says they left.
    page.locator("#absence-panel summary").click()
    page.get_by_role("button", name=re.compile("^Ask a bot to cover")).click()
    expect(page.locator(f'.seat[data-seat="{seat}"] .seat-note')).to_have_text(COVERED)
    pass_and_play(page, plays=2)
    clean(leaver, stayer)
