"""A finished game's analysis, in Chromium: asked for from the replay, its progress bar
moving, then the marks on the replay, a marked move's grade, and each seat's summary, at a
desktop's width and a phone's. The server runs it as in production: its deadline sweep
claims it and the analysis worker process computes it (with the fewest samples)."""

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
    no_sideways_scroll,
    set_seed,
    sign_up,
    start,
)

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
    shoot(alice, "analysis-desktop")
    alice.set_viewport_size(PHONE)
    no_sideways_scroll(alice)
    shoot(alice, "analysis-phone")
    alice.set_viewport_size(DESKTOP)
