"""Hearts in Chromium, every move through the page, black-box against daphne: four people.

Four people, four browser contexts: the organizer invites three by name, they accept from
their lobbies, everyone chooses a pass at the same time (nothing moves before the fourth
pass, the seats say who passed, a half-chosen pass survives the others' pushes), the
exchange marks three received cards on each page, then one whole hand is played live (no
reload), each page showing only its own cards and the trick. It takes the screenshots of a
pass waiting for the others (as test_hearts_screenshots_browser.py does the rest).

Each page, and every frame it receives, is checked against the game as tests/browser/hearts.py's
mirror follows it from the seed.
"""

from __future__ import annotations

import time

import pytest
from playwright.sync_api import Browser, expect

from games.kinds.hearts.engine import Pass
from games.presenters.seats import positions
from tests.browser.hearts import PREFIX, HeartsMirror, check_frames, codes, facts_of, record_frames
from tests.browser.hearts_page import (
    act,
    check_score_sheet,
    check_turn,
    create_hearts_game,
    expect_ticked,
    shoot_all,
    tick,
)
from tests.browser.helpers import (
    my_seat,
    not_reloaded,
    sign_up_all,
    start_together,
    version,
    wait_for_version,
)
from tests.timeouts import HEAVY_TIMEOUT

# Four people, to 100: after the exchange seat 2 holds the 2♣; hand 1 scores 5, 0, 21, 0.
FOUR_SEED = "h12"
# Where each card of the trick being played starts its slide, as the page computes it:
# seat -> (--from-x, --from-y), static/css/seats.css by the viewer's chair.
FLY_FROM = """() => Object.fromEntries(
    [...document.querySelectorAll("#table .trick:not(.trick-done) .trick-play")].map(e => {
        const s = getComputedStyle(e);
        return [e.dataset.seat, [s.getPropertyValue("--from-x").trim(),
                                 s.getPropertyValue("--from-y").trim()]];
    }))"""
FROM_SIDE = {
    "bottom": ["", "4rem"],
    "top": ["", "-4rem"],
    "left": ["-5rem", "0"],
    "right": ["5rem", "0"],
}


# A whole game: 58-120 s and more on a busy machine, past a browser test's 120 s limit.
@pytest.mark.timeout(HEAVY_TIMEOUT)
def test_four_people_pass_at_once_and_play_a_hand_live(
    browser: Browser, base_url: str, e2e_env: dict[str, str]
) -> None:
    expect.set_options(timeout=15_000)
    began = time.monotonic()
    names = [f"{PREFIX}{who}" for who in ("ann", "ben", "cat", "dan")]
    people = sign_up_all(browser, base_url, names)
    frames = {name: record_frames(page) for name, page in people.items()}
    organizer = people[names[0]]
    game_id = create_hearts_game(organizer, "Hearts for four", target=100)
    pages = start_together(
        people, e2e_env, game_id, "Hearts for four", FOUR_SEED, seats=range(4), phase="passing"
    )
    mirror = HeartsMirror.of(FOUR_SEED, 100, version(organizer))
    wait_for_version(pages.values(), mirror.version)
    before = {}
    for seat, page in pages.items():
        facts = check_turn(page, mirror, seat)
        assert facts["choosing"] == [0, 1, 2, 3] and facts["passed"] == []
        before[seat] = facts["hand"]
        expect(page.locator("#table .turn-banner")).to_contain_text(
            "Your turn: choose three cards to pass to"
        )

    # Everyone chooses at the same time; three send their pass without waiting for each other.
    passes = {seat: mirror.suggestion(seat) for seat in pages}
    for seat, page in pages.items():
        action = passes[seat]
        assert isinstance(action, Pass)
        tick(page, action.cards)
    for seat in (0, 1, 2):
        pages[seat].locator("#pass-submit").click()
    for seat in (0, 1, 2):
        mirror.apply(seat, passes[seat])
    wait_for_version(pages.values(), mirror.version)
    last = pages[3]
    for seat, page in pages.items():
        facts = facts_of(page, mirror, seat)
        assert facts["hand"] == before[seat], "a hand changed before the fourth pass"
        assert facts["passed"] == [0, 1, 2] and facts["choosing"] == [3]
        assert facts["phase"] == "passing" and facts["mine"] == (seat == 3)
        if seat != 3:
            # The cards on their way are shown to their giver only; the banner names who
            # still chooses.
            center = page.locator("#table .pass-status")
            expect(center).to_contain_text("You pass to")
            expect(page.locator("#table .turn-banner")).to_have_text(
                f"Waiting for {names[3]} to choose their pass."
            )
            passed = center.locator(".pass-cards [data-card]")
            expect(passed).to_have_count(3)
            action = passes[seat]
            assert isinstance(action, Pass)
            assert sorted(passed.evaluate_all("els => els.map(e => e.dataset.card)")) == sorted(
                codes(action.cards)
            )
            expect(page.locator("#table .pass-form")).to_have_count(0)
    wide: list[str] = []
    shoot_all(pages[0], "passed", wide)  # a pass on its way, the others still choosing
    assert wide == [], f"these phone pages scroll sideways: {wide}"
    # The last one's three ticks survived the three pushes meanwhile: patches of the seats
    # and the banner, not whole tables (a whole table keeps them too: hx-preserve).
    last_name = next(name for name, page in people.items() if page is last)
    assert any('id="table"' not in f and "data-table-version" in f for f in frames[last_name])
    fourth = passes[3]
    assert isinstance(fourth, Pass)
    expect_ticked(last, fourth.cards)
    last.locator("#pass-submit").click()
    mirror.apply(3, fourth)
    wait_for_version(pages.values(), mirror.version)
    assert mirror.state.phase == "play"
    for seat, page in pages.items():
        facts = facts_of(page, mirror, seat)
        view = mirror.view(seat)
        assert view.received is not None
        assert sorted(facts["received"]) == sorted(codes(view.received))
        expect(page.locator("#table .hand li.hand-received")).to_have_count(3)
        expect(page.locator("#table .received-mark")).to_have_count(3)
        expect(page.locator("#table .received-line")).to_have_text(
            f"new passed to you from {names[view.received_from or 0]}"
        )
        assert facts["mine"] == (seat in mirror.to_act())

    # One whole hand: each plays on their turn, everybody follows live.
    while mirror.state.hand_index == 0:
        (seat,) = mirror.to_act()
        page = pages[seat]
        expect(page.locator(f"#table.is-my-turn[data-version='{mirror.version}']")).to_be_visible()
        check_turn(page, mirror, seat)
        expect(page.locator("#table .turn-banner-mine")).to_have_text("Your turn: play a card.")
        for other, other_page in pages.items():
            if other != seat:
                facts = facts_of(other_page, mirror, other)
                assert not facts["mine"] and facts["enabled"] == []
        action = mirror.suggestion(seat)
        mirror.apply(seat, action)
        act(page, action)
        wait_for_version(pages.values(), mirror.version)
        state = mirror.state
        if len(state.trick) == 3 and not state.tricks:
            # The trick is the same bytes on every page; each sees every card come from
            # where its player sits as that page's viewer sees the table.
            for viewer, viewer_page in pages.items():
                sides = positions(4, viewer)
                assert viewer_page.evaluate(FLY_FROM) == {
                    str((state.leader + i) % 4): FROM_SIDE[sides[(state.leader + i) % 4]]
                    for i in range(3)
                }

    record = mirror.state.history[0]
    assert record.points == (5, 0, 21, 0)
    for seat, page in pages.items():
        facts = facts_of(page, mirror, seat)
        assert facts["phase"] == "passing" and facts["choosing"] == [0, 1, 2, 3]
        expect(page.locator("#table .table-facts")).to_contain_text("Pass to the right")
        check_score_sheet(page, mirror.state)
        not_reloaded(page)
    for name, page in people.items():
        assert check_frames(frames[name], mirror, my_seat(page)) > 50
    print(f"four people: {time.monotonic() - began:.1f} s")
