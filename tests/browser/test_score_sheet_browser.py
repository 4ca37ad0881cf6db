"""The score sheet of Hundred and Ten in Chromium: four long names fit the side panel at
desktop width (the fourth player's column is not cut off), the names wrapping instead."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, expect

from tests.browser.helpers import SOLO_SEED, TABLE_URL, add_bots, create_game, set_seed, sign_up
from tests.browser.helpers.people import manage_shell

pytestmark = pytest.mark.any_topology

PREFIX = "sc"  # usernames unique to this module (the e2e database is shared)

LONG_NAMES = ("Bot Bartholomew", "Bot Maximiliana", "Bot Christopher")


def rename_bots(env: dict[str, str], game_id: int, names: tuple[str, ...]) -> None:
    """Test set-up only: give the bots of a game that has not started longer names."""
    code = (
        "from games.models import Membership; "
        f"bots = Membership.objects.filter(game_id={game_id}).exclude(bot='').order_by('seat'); "
        f"[Membership.objects.filter(pk=m.pk).update(bot_name=n) for m, n in zip(bots, {names!r})]"
    )
    manage_shell(env, code)


SHEET_FIT = """() => {
    const scroll = document.querySelector("#table-side .score-scroll");
    const names = [...scroll.querySelectorAll("thead .score-name")];
    const box = scroll.getBoundingClientRect();
    return {
        scrollWidth: scroll.scrollWidth,
        clientWidth: scroll.clientWidth,
        names: names.length,
        lastRight: names[names.length - 1].getBoundingClientRect().right,
        boxRight: box.right,
    };
}"""


def test_the_score_sheet_shows_four_long_names_whole_at_desktop_width(
    browser: Browser, base_url: str, e2e_env: dict[str, str], shoot
) -> None:
    expect.set_options(timeout=30_000)
    page = sign_up(browser, base_url, f"{PREFIX}evangeline")  # sign_up opens at 1280 px
    page.on("dialog", lambda dialog: dialog.accept())  # "Hand your seat to a bot?"
    game_id = create_game(page, "Long names")
    add_bots(page, (2, 3, 4))
    rename_bots(e2e_env, game_id, LONG_NAMES)
    set_seed(e2e_env, game_id, SOLO_SEED)
    page.get_by_role("button", name="Start game").click()
    expect(page).to_have_url(TABLE_URL)
    # A bot plays alice's seat too, so a round is soon on the score sheet.
    page.get_by_role("button", name="Hand my seat to a bot").click()
    expect(page.locator("#table-side .scores tbody tr")).not_to_have_count(0, timeout=60_000)
    assert page.viewport_size == {"width": 1280, "height": 800}
    fit = page.evaluate(SHEET_FIT)
    assert fit["names"] == 4, fit
    assert fit["scrollWidth"] <= fit["clientWidth"], fit
    assert fit["lastRight"] <= fit["boxRight"] + 0.5, fit
    shoot(page, "score-sheet-long-names-desktop")
