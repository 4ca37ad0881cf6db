"""A finished game, opened from the lobby's past games: its table links to the replay, which
steps through the game with the buttons and the keyboard (from any seat once it is over),
and its export downloads as a conformance trace that `manage.py conformance` replays."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, expect

from tests.browser.helpers import DESKTOP, PHONE, add_bots, create_game, live, sign_up, start
from tests.conftest import ROOT

pytestmark = pytest.mark.any_topology
PREFIX = "rp"


def test_step_through_a_finished_game_and_download_it(
    browser: Browser, base_url: str, e2e_env: dict[str, str], tmp_path: Path, shoot: Any
) -> None:
    expect.set_options(timeout=60_000)
    alice = sign_up(browser, base_url, f"{PREFIX}alice")
    game_id = create_game(alice, "Replay me", seats=2)
    add_bots(alice, (2,))
    start(alice)
    live(alice)
    alice.once("dialog", lambda dialog: dialog.accept())  # "Hand your seat to a bot?"
    alice.get_by_role("button", name="Hand my seat to a bot").click()  # bots play it out
    expect(alice.locator(".game-over")).to_be_visible()

    alice.goto(f"{base_url}/")
    past = alice.locator("section", has=alice.get_by_role("heading", name="Past games"))
    past.get_by_role("link", name="Replay me").first.click()
    expect(alice).to_have_url(re.compile(rf"/games/{game_id}/table/$"))
    alice.get_by_role("link", name="Replay the game").click()
    expect(alice.locator(".table-facts")).to_contain_text("Move 0 of")
    expect(alice.locator(".turn-banner")).to_have_text("The deal.")
    last = int(alice.locator(".replay-table").get_attribute("data-last") or 0)
    assert last > 10

    alice.get_by_role("link", name="One move forward").click()
    expect(alice.locator(".table-facts")).to_contain_text(f"Move 1 of {last}")
    # The step buttons are drawn (SVG), not glyphs a font may lack: each icon has a size.
    for name in ("Start of the game", "One move back", "One move forward", "End of the game"):
        box = alice.get_by_role("link", name=name).locator("svg").bounding_box()
        assert box and box["width"] >= 10 and box["height"] >= 10, (name, box)
    shoot(alice, "replay-desktop")
    alice.set_viewport_size(PHONE)
    shoot(alice, "replay-phone")
    alice.set_viewport_size(DESKTOP)
    expect(alice.locator(".turn-banner")).to_contain_text("Move 1:")
    alice.keyboard.press("ArrowRight")
    expect(alice.locator(".table-facts")).to_contain_text(f"Move 2 of {last}")
    alice.keyboard.press("ArrowLeft")
    expect(alice.locator(".table-facts")).to_contain_text(f"Move 1 of {last}")
    alice.keyboard.press("ArrowDown")  # to the end of the first trick (or later)
    expect(alice.locator(".table-facts")).not_to_contain_text(f"Move 1 of {last}")
    alice.keyboard.press("End")
    expect(alice.locator(".table-facts")).to_contain_text(f"Move {last} of {last}")
    assert re.search(rf"at={last}", alice.url)  # each step has its own address
    # Over: the game may be shown from the bot's seat, its hand open.
    alice.locator(".replay-seats").get_by_role("link", name=re.compile("Bot|Ada|Blaise")).click()
    expect(alice.locator(".table-facts")).not_to_contain_text(f"Seen by {PREFIX}alice")
    alice.keyboard.press("Home")
    expect(alice.locator(".table-facts")).to_contain_text("Move 0 of")
    expect(alice.locator(".replay-hand [data-card]").first).to_be_visible()

    alice.goto(f"{base_url}/games/{game_id}/table/")
    with alice.expect_download() as info:
        alice.get_by_role("link", name=re.compile("Download it")).click()
    path = tmp_path / "game.json"
    info.value.save_as(path)
    trace = json.loads(path.read_text())
    assert trace["format"] == "hundred-and-ten-trace"
    done = subprocess.run(
        [sys.executable, "manage.py", "conformance", str(path)],
        cwd=ROOT,
        env=e2e_env,
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "1 passed" in done.stdout
