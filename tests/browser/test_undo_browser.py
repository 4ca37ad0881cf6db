"""Undo by consent in Chromium against daphne: two people at an unrated two-seat Hundred and
Ten game (ben deals, so ann bids first and ben after her: no bot acts in between).

ann bids and asks to take it back; ben's table shows the question live, with its countdown,
and he accepts: the bid is gone from both tables, ann is to act again, and the replay shows
the bid "(taken back)" and the step that took it back. ann bids again and asks again; ben
declines: ann's table says so and offers no more taking back, and ben plays on. Pictures of
ben's table with the question open, at desktop and phone width (light).
"""

from __future__ import annotations

import re

from playwright.sync_api import Browser, Page, expect

from tests.browser.helpers import leave, live, not_reloaded
from tests.browser.helpers.pictures import FITS, looks, picture
from tests.browser.talk import people
from tests.servers import shell_json

# Every text the question's clock shows, from the moment it is drawn.
WATCH_THE_CLOCK = """() => {
    window.__undoClock = [];
    new MutationObserver(() => {
        const clock = document.querySelector("#undo-question .clock");
        const text = clock ? clock.textContent : "";
        const seen = window.__undoClock;
        if (text && seen[seen.length - 1] !== text) seen.push(text);
    }).observe(document.body, {subtree: true, childList: true, characterData: true});
}"""

SEED = "undo-browser"
# Test set-up only: ben (seat 0) deals; ann (seat 1) bids first. Unrated: a rated game
# takes nothing back.
SETUP = """
import json
from accounts.models import User
from games.models import Game
from games.services import lobby
ben, ann = (User.objects.get(username=n) for n in {names!r})
game = lobby.create_game(organizer=ben, name="Take it back", public=False, max_players=2,
                         rated="no")
lobby.invite(game_id=game.pk, by=ben, username=ann.username)
lobby.accept(game_id=game.pk, user=ann)
Game.objects.filter(pk=game.pk).update(seed={seed!r})
lobby.start_game(game_id=game.pk, by=ben)
print("SETUP" + json.dumps({{"id": game.pk}}))
"""


def bid_of(page: Page, seat: int):
    """The bid chip on `seat`'s box of the table on `page`."""
    return page.locator(f"#table .seat[data-seat='{seat}'] .chip-bid")


def test_a_bid_taken_back_by_consent_and_then_refused(
    browser: Browser, base_url: str, e2e_env: dict[str, str]
) -> None:
    expect.set_options(timeout=10_000)
    (ann_name, ben_name), (ann, ben) = people(browser, base_url, "ud", "ann", "ben")
    game_id = shell_json(e2e_env, SETUP.format(names=[ben_name, ann_name], seed=SEED))["id"]
    for page in (ann, ben):
        page.goto(f"{base_url}/games/{game_id}/table/")
        live(page)
    expect(ann.locator("#table.is-my-turn")).to_be_visible()

    # (a) ann bids; ben is to act, and ann may take it back.
    ann.locator("#table").get_by_role("button", name="Bid 15").click()
    expect(ben.locator("#table.is-my-turn")).to_be_visible()
    expect(bid_of(ben, 1)).to_contain_text("15")
    ben.evaluate(WATCH_THE_CLOCK)
    ann.locator("#undo-button").click()
    expect(ann.locator("#table .turn-banner")).to_contain_text(
        "You asked to take back your last move."
    )
    # ben's table asks him, live, with the time left; meanwhile nobody moves.
    expect(ben.locator("#table .turn-banner")).to_have_text(
        re.compile(rf"{ann_name} asks to take back their last move\. Do you agree\?", re.I)
    )
    # It counts down from the question's 30 seconds, never more, from its first drawing (the
    # server's time is set against the page's from when its first byte came: static/js/table.js).
    expect(ben.locator("#undo-question .clock")).to_have_text(re.compile(r"^0:[0-3]\d$"))
    shown = ben.evaluate("window.__undoClock")
    assert shown and all(int(text.split(":")[1]) <= 30 for text in shown), shown
    expect(ben.locator("#table.is-my-turn")).to_have_count(0)
    expect(ben.locator("#table .controls button")).to_have_count(0)  # no bid, no pass
    not_reloaded(ben)
    for size, _scheme in looks(ben, schemes=("light",)):
        assert ben.evaluate(FITS), size
        picture(ben, f"undo-question-{size}-light")

    ben.locator("#undo-yes").click()
    expect(ann.locator("#table.is-my-turn")).to_be_visible()
    expect(ben.locator("#table.is-my-turn")).to_have_count(0)
    for page in (ann, ben):
        expect(bid_of(page, 1)).to_have_count(0)
        expect(page.locator("#undo-question")).to_have_count(0)
        not_reloaded(page)
    expect(ann.locator("#undo-button")).to_have_count(0)
    expect(ann.locator("#table").get_by_role("button", name="Bid 15")).to_be_visible()
    # Both read that it was taken back (pushed to ann's page, the answer on ben's).
    expect(ann.locator("#undo-note")).to_have_text("You took back your move.")
    expect(ben.locator("#undo-note")).to_have_text(
        re.compile(rf"{ann_name} took back their move\.", re.I)
    )

    # The replay, as ben sees it: the bid taken back, then the step that took it back.
    replay = ben.context.new_page()
    replay.goto(f"{base_url}/games/{game_id}/replay/?at=1")
    expect(replay.locator(".turn-banner")).to_contain_text("(taken back)")
    replay.get_by_role("link", name="One move forward").click()
    expect(replay.locator(".turn-banner")).to_contain_text(
        re.compile(rf"{ann_name} took back their move\.", re.I)
    )
    leave(replay)

    # (b) ann bids again and asks again; ben declines, and the bid stands.
    ann.locator("#table").get_by_role("button", name="Bid 15").click()
    expect(bid_of(ben, 1)).to_contain_text("15")
    ann.locator("#undo-button").click()
    ben.locator("#undo-no").click()
    expect(ann.locator("#undo-note")).to_have_text(
        re.compile(rf"{ben_name} declined: the move stands\.", re.I)
    )
    expect(ann.locator("#undo-button")).to_have_count(0)
    expect(bid_of(ann, 1)).to_contain_text("15")
    # Play goes on: ben passes, and ann, the bidder, names trump.
    ben.locator("#table").get_by_role("button", name="Pass").click()
    expect(ann.locator("#table .trump-form")).to_be_visible()
    for page in (ann, ben):
        not_reloaded(page)
