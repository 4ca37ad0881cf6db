"""A finished game's analysis, in Chromium: asked for from the replay, its progress bar
moving, then the marks on the replay, a marked move's grade, and each seat's summary, at a
desktop's width and a phone's, in English and in Malayalam (the longest headings), the
summary fitting its box (no sideways scroll, no heading cut). The server runs it as in
production: its deadline sweep claims it and the analysis worker process computes it (with
the fewest samples). Then the past games' row says the game was analysed and links to it,
and the player page shows the accuracy over the analysed games with the ratings' chart, in
every look (1280 and 390 px wide, light and dark)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import Browser, expect

from tests.browser.helpers import (
    DESKTOP,
    PHONE,
    add_bots,
    create_game,
    live,
    looks,
    no_sideways_scroll,
    set_seed,
    sign_up,
    start,
)
from tests.browser.helpers.people import manage_shell

pytestmark = pytest.mark.any_topology
PREFIX = "an"


def test_analyse_a_finished_game_and_see_its_marks_on_the_replay(
    browser: Browser, base_url: str, e2e_env: dict[str, str], shoot: Any
) -> None:
    expect.set_options(timeout=90_000)
    alice = sign_up(browser, base_url, f"{PREFIX}alice")
    game_id = create_game(alice, "Analyse me", seats=2)
    add_bots(alice, (2,))
    set_seed(e2e_env, game_id, "analysis-e2e")
    start(alice)
    live(alice)
    alice.once("dialog", lambda dialog: dialog.accept())  # "Hand your seat to a bot?"
    alice.get_by_role("button", name="Hand my seat to a bot").click()  # bots play it out
    expect(alice.locator(".game-over")).to_be_visible()

    alice.goto(f"{base_url}/games/{game_id}/replay/")
    analysis = alice.locator("#analysis")
    expect(analysis).to_contain_text("Analysis by the search")
    alice.get_by_role("button", name="Analyse this game").click()
    expect(alice).to_have_url(re.compile(rf"/games/{game_id}/replay/$"))
    # Queued, then claimed by the server's sweep: the bar is there while it runs.
    expect(analysis.locator("progress")).to_be_visible()
    shoot(alice, "analysis-progress")
    # Done: the polled bar reloads the page, which shows the marks and the summary.
    summary = analysis.locator("table.analysis-summary")
    expect(summary).to_be_visible()
    expect(analysis.locator("progress")).to_have_count(0)
    expect(summary).to_contain_text(f"{PREFIX}alice")
    expect(summary).to_contain_text("Accuracy")
    marks = analysis.locator(".analysis-timeline a")
    expect(marks.first).to_be_visible()
    label = marks.first.inner_text()
    step = re.search(r"Move (\d+)", label)
    assert step, label
    marks.first.click()
    expect(alice.locator(".table-facts")).to_contain_text(f"Move {step.group(1)} of")
    expect(alice.locator(".analysis-note")).to_contain_text(
        re.compile("Inaccuracy|Mistake|Blunder")
    )
    expect(alice.locator(".analysis-note")).to_contain_text("played")
    expect(alice.locator(".analysis-timeline a[aria-current]")).to_have_count(1)
    summary_fits(alice)
    shoot(alice, "analysis-desktop")
    alice.set_viewport_size(PHONE)
    no_sideways_scroll(alice)
    summary_fits(alice)
    shoot(alice, "analysis-phone")
    # Malayalam, the longest headings: the summary still fits, at both widths.
    alice.set_viewport_size(DESKTOP)
    choose_language(alice, "ml")
    summary_fits(alice)
    shoot(alice, "analysis-desktop-ml")
    alice.set_viewport_size(PHONE)
    no_sideways_scroll(alice)
    summary_fits(alice)
    shoot(alice, "analysis-phone-ml")
    alice.set_viewport_size(DESKTOP)
    choose_language(alice, "en")

    past_games_and_player_page(alice, base_url, e2e_env, game_id, shoot)


# The summary table inside its box, not scrolled sideways, and no heading or figure cut.
FITS = """() => {
  const box = document.querySelector("#analysis");
  const table = box.querySelector("table.analysis-summary");
  // The cells shown (a narrow box hides the head row: each figure is labelled instead).
  const headShown = table.tHead.clientHeight > 1;
  const shown = [...table.querySelectorAll("th, td")]
    .filter(c => headShown || c.closest("thead") === null);
  const cut = shown.filter(c => c.scrollWidth > c.clientWidth + 1);
  return {
    table: table.scrollWidth <= table.clientWidth + 1,
    inside: table.getBoundingClientRect().right <= box.getBoundingClientRect().right + 1,
    box: box.scrollWidth <= box.clientWidth + 1,
    cut: cut.map(c => [c.textContent.trim(), c.scrollWidth, c.clientWidth, box.clientWidth]),
  };
}"""


def summary_fits(page: Any) -> None:
    fits = page.evaluate(FITS)
    assert fits == {"table": True, "inside": True, "box": True, "cut": []}, fits


def choose_language(page: Any, code: str) -> None:
    """The footer's chooser (saved in the signed-in person's profile), as on every page."""
    page.locator("#language-choice").select_option(code)
    with page.expect_navigation():
        page.locator("form.language-choice button[type=submit]").click()
    expect(page.locator("html")).to_have_attribute("lang", code)
    expect(page.locator("table.analysis-summary")).to_be_visible()


# Test set-up only: two more finished games of alice's, analysed earlier (copies of the real
# analysis with other accuracies), so that her player page has a line to draw.
EARLIER_GAMES = """
from datetime import timedelta
from games.models import Game, GameAnalysis, Membership
real = Game.objects.get(pk={game_id})
done = GameAnalysis.objects.get(game=real)
seat = Membership.objects.get(game=real, user__username={name!r}).seat
for days, accuracy in ((2, 71.5), (1, 88.0)):
    game = Game.objects.create(
        name=f"Earlier {{days}}", kind=real.kind, organizer=real.organizer, max_players=2,
        status="finished", outcome=real.outcome, started_at=real.started_at - timedelta(days=days),
        finished_at=real.finished_at - timedelta(days=days))
    for m in Membership.objects.filter(game=real, seat__isnull=False):
        Membership.objects.create(game=game, user=m.user, role=m.role, seat=m.seat, bot=m.bot,
                                  bot_name=m.bot_name)
    result = dict(done.result)
    result["seats"] = [dict(s, accuracy=accuracy, decisions=s["decisions"] or 1)
                       if s["seat"] == seat else s for s in done.result["seats"]]
    GameAnalysis.objects.create(game=game, status="done", result=result, version=done.version)
"""


def past_games_and_player_page(
    alice: Any, base_url: str, e2e_env: dict[str, str], game_id: int, shoot: Any
) -> None:
    alice.goto(f"{base_url}/games/past/")
    row = alice.locator(".past-row", has_text="Analyse me")
    expect(row).to_contain_text("Analysed")
    for size, scheme in looks(alice):
        if size == "phone":
            no_sideways_scroll(alice)
        shoot(alice, f"analysis-past-games-{size}-{scheme}")
    row.get_by_role("link", name="Analysis of Analyse me").click()
    expect(alice).to_have_url(re.compile(rf"/games/{game_id}/replay/#analysis$"))
    expect(alice.locator("table.analysis-summary")).to_be_in_viewport()

    manage_shell(e2e_env, EARLIER_GAMES.format(game_id=game_id, name=f"{PREFIX}alice"))
    alice.goto(f"{base_url}/players/{PREFIX}alice/")
    accuracy = alice.locator("section", has=alice.locator("#player-accuracy"))
    # Not the real game's: alice handed her seat to a bot before her first move, and a bot's
    # moves for a covered seat are not graded against her (nothing graded, no figure).
    expect(accuracy).to_contain_text("79.8% average of 2 analysed games")
    expect(accuracy.locator("svg.chart-svg")).to_be_visible()
    for size, scheme in looks(alice):
        if size == "phone":
            no_sideways_scroll(alice)
        shoot(alice, f"analysis-player-{size}-{scheme}")
