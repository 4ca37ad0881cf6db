"""Fifty-Six in Chromium, every move through the page, black-box against daphne.

(a) One person and three bots play a whole match (one table per team): at each of her turns
    only the legal bids are buttons (the others disabled, with the reasons listed once), Pass
    only when she may, only her legal cards enabled, "Ask for trump" exactly when the rules
    allow it. She bids and wins an auction, lays a trump card face down (seen face up by her
    alone), asks for the trump as a defender and as the bidder, and the match ends with her
    team shown as the winner.
(b) Two people (the organizer invites the other by name) and four bots play a hand of six,
    which ends the match: ann wins the auction and lays the trump face down; ben, on the
    other team, is barred from a second low bid (the reason is shown) and later asks for
    the trump: every page then shows "Trump revealed (asked by …)" with the card, and ben
    must play a trump. Both pages follow live (no reload).
(c) Hidden information, in (a) and (b): every page load, htmx answer and websocket frame a
    page receives shows only what its seat may see at the version it names
    (tests/kinds/fifty_six/hidden.py): never another hand, never the face-down card or its
    suit before the reveal, except to the bidder.
(d) The screenshots of (b) at desktop and 390 px phone width: the auction with a reason,
    the bidder's and the other player's view of the face-down trump, the reveal, the match
    over; no sideways scroll on the phone. UPDATE_SCREENSHOTS=1 writes them to
    docs/screenshots/fifty-six-*.png (else to test-artifacts/).

The seeds were found by playing the match with the engine (tests/browser/fifty_six.py's
mirror): the bots play naively, the people too, but they ask for the trump when allowed.
"""

from __future__ import annotations

import re
import time
from pathlib import Path

from playwright.sync_api import Browser, Page, expect

from games.kinds.fifty_six.engine import AskTrump, Bid, ChooseTrump
from tests.browser.fifty_six import (
    FiftySixMirror,
    Traffic,
    act,
    create_fifty_six_game,
    expect_table,
    facts,
    name_of,
    record_traffic,
    wait_for,
)
from tests.browser.helpers import (
    add_bots,
    click_sends_nothing,
    first_turn,
    live,
    my_seat,
    no_sideways_scroll,
    not_reloaded,
    sign_up,
    sign_up_all,
    start_together,
    start_with_bots,
    table,
)
from tests.browser.helpers.pictures import FITS, looks, picture

PREFIX = "fs"  # usernames unique to this module (the e2e database is shared)
# alice (seat 0) and three bots, one table each: hand 1, her partner (seat 2) bids 29, she
# may only bid 40 over it (R1, shown), passes, and asks for the trump; hand 2 she bids 30,
# lays the 10♣ face down, asks for it herself (the bidder turning it up) and makes it: her
# team wins the match.
SOLO_SEED = "fs4a44"
# ann (seat 0), ben (seat 1) and four bots: ben opens 28, ann bids 31 and wins; ben may not
# bid 29-39 again (R2); ann lays the A♥ face down; ben asks in trick 3 and must play his K♥;
# ann's team loses the contract and, at one table each, the match.
SIX_SEED = "fs6b95"


def expect_match_over(page: Page, seat: int, winning_team: int, names: list[str]) -> None:
    team = "AB"[winning_team]
    members = [names[s] for s in range(len(names)) if s % 2 == winning_team]
    expect(table(page)).to_have_attribute("data-phase", "over")
    heading = page.get_by_role("heading", name=re.compile("^Game over"))
    expect(heading).to_contain_text(f"Team {team} (")
    for member in members:
        expect(heading).to_contain_text(member)
    if seat % 2 == winning_team:
        expect(heading).to_contain_text("your team wins!")
    expect(page.locator(f".fs-team-{winning_team}")).to_contain_text("wins the match")
    expect(page.locator(f".fs-team-{1 - winning_team} .chip-winner")).to_have_count(0)
    expect(page.locator("#table .controls, #table .hand-area")).to_have_count(0)


def try_disabled_bid(page: Page, value: int) -> None:
    """A bid that is not allowed is a plain disabled button with its reason as a title:
    clicking it sends nothing."""
    bid = page.locator("#table .fs-bid[disabled]", has_text=re.compile(f"^{value}$"))
    expect(bid).to_be_disabled()
    assert bid.get_attribute("name") is None and bid.get_attribute("type") == "button"
    expect(bid).to_have_attribute("title", re.compile("partner"))
    click_sends_nothing(page, bid, force=True)


# --- (a) one person and three bots ------------------------------------------------------------


def test_alice_plays_a_match_of_fifty_six_against_three_bots(
    browser: Browser, base_url: str, e2e_env: dict[str, str]
) -> None:
    expect.set_options(timeout=15_000)
    began = time.monotonic()
    alice = sign_up(browser, base_url, f"{PREFIX}solo")
    traffic = record_traffic(alice)
    game_id = create_fifty_six_game(alice, "Fifty-Six after lunch", seats=4, tables=1)
    start_with_bots(alice, e2e_env, game_id, SOLO_SEED)
    assert my_seat(alice) == 0
    mirror = FiftySixMirror.of(SOLO_SEED, 4, 1, {1, 2, 3}, first_turn(alice))
    names = [name_of(alice, seat) for seat in range(4)]
    done: list[str] = []
    while not mirror.over:
        assert mirror.to_act() == 0, mirror.to_act()
        expect(alice.locator(f"#table.is-my-turn[data-version='{mirror.version}']")).to_be_visible()
        expect_table(alice, mirror, 0, names)
        traffic.check(mirror, 0)
        view = mirror.view(0)
        if any(not o.allowed and "partner holds" in o.reason for o in view.bid_options):
            expect(alice.locator("#table .fs-reasons")).to_contain_text("Your partner holds")
            if "restricted" not in done:
                try_disabled_bid(alice, 39)
            done.append("restricted")
        action = mirror.choose(0)
        if isinstance(action, AskTrump):
            done.append("ask as bidder" if view.is_bidder else "ask")
        elif isinstance(action, Bid | ChooseTrump):
            done.append(type(action).__name__)
        hand = mirror.state.hand_index
        mirror.apply(0, action)
        mirror.run_bots()
        act(alice, action)
        wait_for([alice], mirror.version)
        if mirror.state.hand_index != hand or mirror.over:
            # A hand ended: it is listed in the side panel, newest first.
            record = mirror.state.history[-1]
            rows = alice.locator("#hand-history .fs-hands li")
            expect(rows).to_have_count(len(mirror.state.history))
            outcome = "made" if record.made else "lost"
            expect(rows.first).to_contain_text(f"bid {record.contract}, took")
            expect(rows.first).to_contain_text(outcome)

    assert done.count("ChooseTrump") == 1 and "ask" in done and "ask as bidder" in done, done
    assert "restricted" in done and "Bid" in done, done
    winning_team = mirror.state.winning_team
    assert winning_team == 0
    expect_match_over(alice, 0, winning_team, names)
    no_sideways_scroll(alice)
    not_reloaded(alice)
    traffic.check(mirror, 0)
    assert len(traffic.frames) > 40 and traffic.cards_seen > 500, traffic.cards_seen
    print(f"solo match: {time.monotonic() - began:.1f} s, {len(traffic.frames)} frames")


# --- (b) two people and four bots, with the screenshots (d) ------------------------------------


def shoot(page: Page, stage: str, wide: list[str]) -> list[Path]:
    """Desktop and phone pictures of `stage`; notes in `wide` a phone page that scrolls
    sideways (checked once every picture is taken, so they can all be looked at)."""
    paths = []
    for size_name, _ in looks(page, schemes=()):
        # From the top: a full-page picture of a scrolled page draws the sticky site header
        # across the middle of the table.
        page.evaluate("() => window.scrollTo(0, 0)")
        if size_name == "phone" and not page.evaluate(FITS):
            wide.append(stage)
        paths.append(picture(page, f"fifty-six-{stage}-{size_name}"))
    return paths


def check_all(
    pages: dict[int, Page], traffic: dict[int, Traffic], mirror: FiftySixMirror, names: list[str]
) -> None:
    """Every page at the mirror's version, showing what its seat must see, nothing more."""
    wait_for(pages.values(), mirror.version)
    for seat, page in pages.items():
        expect_table(page, mirror, seat, names)
        traffic[seat].check(mirror, seat)


def test_two_people_and_four_bots_play_a_hand_of_six_with_a_trump_ask(
    browser: Browser, base_url: str, e2e_env: dict[str, str]
) -> None:
    expect.set_options(timeout=15_000)
    began = time.monotonic()
    logins = [f"{PREFIX}ann", f"{PREFIX}ben"]
    people = sign_up_all(browser, base_url, logins)
    traffic_of = {name: record_traffic(page) for name, page in people.items()}
    organizer = people[logins[0]]
    game_id = create_fifty_six_game(organizer, "Fifty-Six for six", seats=6, tables=1)
    pages = start_together(
        people,
        e2e_env,
        game_id,
        "Fifty-Six for six",
        SIX_SEED,
        seats=[0, 1],
        bots=lambda page: add_bots(page, (3, 4, 5, 6)),
    )
    traffic = {my_seat(page): traffic_of[name] for name, page in people.items()}
    ann, ben = pages[0], pages[1]
    mirror = FiftySixMirror.of(SIX_SEED, 6, 1, {2, 3, 4, 5}, first_turn(ben))
    live(ann)
    names = [name_of(ann, seat) for seat in range(6)]
    shots: dict[str, list[Path]] = {}
    wide: list[str] = []
    asked_at: int | None = None

    while not mirror.over:
        seat = mirror.to_act()
        page = pages[seat]
        expect(page.locator(f"#table.is-my-turn[data-version='{mirror.version}']")).to_be_visible()
        check_all(pages, traffic, mirror, names)
        view = mirror.view(seat)
        reasons = [o.reason for o in view.bid_options if not o.allowed]
        if any("already bid" in r for r in reasons) and "auction" not in shots:
            # ben opened 28: a second bid of his below 40 is refused, and the page says so.
            assert seat == 1
            expect(ben.locator("#table .fs-reasons")).to_contain_text(
                "You have already bid between 28 and 39 in this auction"
            )
            expect(ben.locator("#table .fs-bid[disabled]").first).to_have_attribute(
                "title", re.compile("^The bid stands at")
            )
            shots["auction"] = shoot(ben, "auction", wide)
        if view.phase == "play" and view.trump_down and "trump-bidder" not in shots:
            assert mirror.view(0).is_bidder and seat == 1
            shots["trump-bidder"] = shoot(ann, "trump-bidder", wide)
            shots["trump-hidden"] = shoot(ben, "trump-hidden", wide)
        if view.must_play_after_ask and "revealed" not in shots:
            # ben asked: he must now play a trump (the A♥ face up for all: his K♥).
            assert seat == 1 and facts(ben)["playable"] == ["KH1"]
            shots["revealed"] = shoot(ben, "revealed", wide)
        action = mirror.choose(seat)
        if isinstance(action, AskTrump):
            asked_at = mirror.version
            expect(page.locator("#ask-trump")).to_have_text("Ask for trump")
        mirror.apply(seat, action)
        mirror.run_bots()
        act(page, action)
    check_all(pages, traffic, mirror, names)

    record = mirror.state.history[0]
    assert len(mirror.state.history) == 1 and record.bidder == 0 and record.revealed_by == 1
    assert asked_at is not None
    # The reveal reached both pages over their sockets, the asker's name and the card in it.
    for seat in pages:
        said = [f for f in traffic[seat].frames if "Trump revealed (asked by " in f]
        assert said and all(names[1] in f for f in said), seat
    for seat, page in pages.items():
        expect_match_over(page, seat, 1, names)
        not_reloaded(page)
    shots["over"] = shoot(ben, "over", wide)
    assert sorted(shots) == ["auction", "over", "revealed", "trump-bidder", "trump-hidden"]
    assert wide == [], f"these phone pages scroll sideways: {wide}"
    for paths in shots.values():
        assert len(paths) == 2 and all(path.stat().st_size > 10_000 for path in paths)
    for seat in pages:  # the checks saw real tables
        assert len(traffic[seat].frames) > 50 and traffic[seat].cards_seen > 400, seat
    print(f"six seats: {time.monotonic() - began:.1f} s, {len(traffic[0].frames)} frames")
