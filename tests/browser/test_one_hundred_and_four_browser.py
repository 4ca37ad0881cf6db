"""One Hundred and Four in Chromium, every move through the page, black-box against daphne.

(a) One person and nine bots (of all three levels, chosen with the waiting room's level
    buttons) play the whole game: each turn her hand is sorted, only her cards can be picked,
    the turn banner and the seats' chips say who still chooses, the resolution is played out
    step by step (every step, in order), and the game ends with the mirror's winners.
(b) Three people (the organizer invites two by name; they accept from their lobbies) and a
    bot: a person plays a card lower than every row, and only her page asks for a row (four
    buttons, the your-turn cue); the others read whose card it is and wait; her choice is
    then shown on every page. The game is played to its end, each page live.
(c) Hidden information, in (a) and (b): every page load, htmx answer and websocket frame a
    page receives holds only the cards its seat may see at the version it names (see
    tests/browser/one_hundred_and_four.py, `check_html`), and the page's hand is the seat's.

The e2e server plays a resolution's steps 0.05 s apart (E2E_TABLE_STEP_SECONDS); the
screenshots and the Skip button are in test_one_hundred_and_four_screens_browser.py.
"""

from __future__ import annotations

import re
import time

from playwright.sync_api import Browser, Page, expect

from games.kinds.one_hundred_and_four.engine import Choose, TakeRow, row_cost
from games.words import and_list
from tests.browser.helpers import (
    click_sends_nothing,
    my_seat,
    no_sideways_scroll,
    not_reloaded,
    sign_up_all,
    start_together,
    table,
    version,
)
from tests.browser.one_hundred_and_four import (
    NimmtMirror,
    Traffic,
    act,
    add_nimmt_bots,
    alone_with_bots,
    create_nimmt_game,
    expect_rows,
    facts,
    record_traffic,
    scores_text,
    steps_key,
    steps_seen,
    too_low_play,
    wait_for,
    watch_steps,
)

PREFIX = "nb"  # usernames unique to this module (the e2e database is shared)
# Ten seats: alice (seat 0, plays the naive choice) and nine bots of every level: easy at
# seats 1, 4 and 7, hard at seat 2, medium elsewhere.
SOLO_SEED = "n104a0"
SOLO_BOTS = {s: "easy" if s in (1, 4, 7) else "hard" if s == 2 else "medium" for s in range(1, 10)}
# Four seats: three people and a medium bot (seat 3). Seat 1 (a person) holds the 2, lower
# than every row end and every other card of turn 1: she plays it and must take a row.
FOUR_SEED = "n104b0"
FOUR_BOTS = {3: "medium"}
TOO_LOW_SEAT = 1


def play_turn_checks(page: Page, mirror: NimmtMirror, seat: int) -> dict[str, object]:
    """The chooser's page before its choice: its sorted hand, only its cards to pick, the cue,
    the rows and the seats' points as the mirror has them."""
    view = mirror.view(seat)
    seen = facts(page)
    assert seen["version"] == mirror.version and seen["step"] is None, seen
    assert seen["hand"] == list(view.hand) == sorted(view.hand)
    assert seen["picks"] == list(view.legal_cards) == list(view.hand)
    assert seen["mine"] and seen["banner"] == "Your turn: choose a card.", seen
    expect(page.locator("#table .turn-banner-mine")).to_be_visible()
    assert seen["rowButtons"] == 0
    assert seen["scores"] == scores_text(mirror.state)
    # Who has chosen is public (never what); each seat still to choose has a turn chip.
    assert seen["chosen"] == [s for s, card in enumerate(mirror.state.choices) if card]
    assert seen["turn"] == sorted(mirror.to_act())
    expect_rows(page, mirror.state)
    return seen


def after_resolution(page: Page, mirror: NimmtMirror, turn_before: int) -> None:
    """The turn just resolved was played out on `page` one step after the other (all of
    them, in order), and the page then shows the current state."""
    key, count = steps_key_of(mirror, turn_before)
    page.wait_for_function(
        "([key, last]) => (window.__steps || []).includes(key + ':' + last)",
        arg=[key, count - 1],
        timeout=20_000,
    )
    wait_for([page], mirror.version)
    # Every step, in order. (A step may show twice: the move's own answer, the current state,
    # can land between two steps, and the next push draws the step again.)
    seen = steps_seen(page, key)
    assert seen == sorted(seen) and sorted(set(seen)) == list(range(count)), seen


def steps_key_of(mirror: NimmtMirror, turn: int) -> tuple[str, int]:
    """The steps of the resolution of `turn` (the mirror may have gone on since)."""
    for state in mirror.states.values():
        if state.last_turn is not None and state.last_turn.turn == turn:
            return steps_key(state)
    raise AssertionError(f"turn {turn} has not been resolved")


def name_of(page: Page, seat: int) -> str:
    text = page.locator(f"#table .seat[data-seat='{seat}'] .seat-name").inner_text()
    return text.removesuffix("(you)").strip()


def nothing_sent_without_a_pick(page: Page) -> None:
    """The hand's radios are required: "Play the picked card" with none picked sends nothing."""
    click_sends_nothing(page, page.locator("#choose-submit"))


def expect_game_over(page: Page, mirror: NimmtMirror, seat: int, names: list[str]) -> None:
    outcome = mirror.state.totals
    best = min(outcome)
    winners = [s for s, total in enumerate(outcome) if total == best]
    expect(table(page)).to_have_attribute("data-phase", "over")
    heading = page.get_by_role("heading", name=re.compile("^Game over"))
    if seat in winners:
        expect(heading).to_contain_text("you")
    else:
        for winner in winners:
            expect(heading).to_contain_text(names[winner])
    scores = ", ".join(f"{names[s]} {total}" for s, total in enumerate(outcome))
    expect(page.locator("#table .game-over")).to_contain_text(f"Final scores: {scores}.")
    expect(page.locator("#table .turn-banner")).to_have_text("Game over.")
    assert facts(page)["scores"] == scores_text(mirror.state)
    expect(page.locator("#table .choose-form, #table .row-choice")).to_have_count(0)


# --- (a) one person and nine bots ------------------------------------------------------------


def test_alice_plays_a_whole_game_against_nine_bots(
    browser: Browser, base_url: str, e2e_env: dict[str, str]
) -> None:
    expect.set_options(timeout=15_000)
    began = time.monotonic()
    alice, traffic = alone_with_bots(
        browser, base_url, e2e_env, f"{PREFIX}solo", "Bullheads for ten", SOLO_SEED, SOLO_BOTS
    )
    mirror = NimmtMirror.of(SOLO_SEED, 10, SOLO_BOTS, version(alice))
    assert mirror.to_act() == {0}
    names = [name_of(alice, seat) for seat in range(10)]
    no_sideways_scroll(alice)
    nothing_sent_without_a_pick(alice)

    took_sixth = bot_too_low = False
    while not mirror.over:
        assert mirror.to_act() == {0}, mirror.to_act()
        play_turn_checks(alice, mirror, 0)
        traffic.check(mirror, 0)
        turn = mirror.state.turn
        action = mirror.suggestion(0)
        mirror.apply(0, action)
        assert mirror.state.phase != "pause" or mirror.state.asked != 0
        mirror.run_bots()
        act(alice, action)
        after_resolution(alice, mirror, turn)
        last = mirror.state.last_turn
        assert last is not None and last.turn == turn
        for placement in last.placements:
            who = names[placement.seat]  # the felt names every seat, the viewer's too
            if placement.too_low:
                # A bot's too-low card: the table waited for its row choice, then showed it.
                bot_too_low = True
                said = f"{who}: {placement.card} is lower than every row: takes row"
                assert any(said in frame for frame in traffic.frames), said
            elif placement.took is not None:
                took_sixth |= placement.seat == 0
                said = f"{who}: {placement.card} is the sixth card of row {placement.row + 1}"
                expect(alice.locator("#table .last-turn")).to_contain_text(said)

    assert took_sixth and bot_too_low
    expect_game_over(alice, mirror, 0, names)
    no_sideways_scroll(alice)
    not_reloaded(alice)
    traffic.check(mirror, 0)
    assert len(traffic.frames) > 100
    print(f"solo game: {time.monotonic() - began:.1f} s, {len(traffic.frames)} frames")


# --- (b) three people and a bot ----------------------------------------------------------------


# The rows' boxes that a seat box overlaps or the felt does not contain (none: [] ).
ROWS_CLEAR = """() => {
  const box = (e) => e.getBoundingClientRect();
  const felt = box(document.querySelector("#table .felt"));
  const seats = [...document.querySelectorAll("#table .felt .seat")].map(box);
  const over = (a, b) =>
    a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
  return [...document.querySelectorAll("#table .nrow, #table .nrow *")].map(box).filter(r =>
    seats.some(s => over(r, s)) || r.left < felt.left || r.right > felt.right
  ).map(r => [r.left, r.top, r.right, r.bottom]);
}"""


def check_all(pages: dict[int, Page], traffic: dict[int, Traffic], mirror: NimmtMirror) -> None:
    """Every page at the mirror's version, its hand its own, nothing hidden received."""
    wait_for(pages.values(), mirror.version)
    for seat, page in pages.items():
        seen = facts(page)
        assert seen["hand"] == list(mirror.view(seat).hand)
        assert seen["mine"] == (seat in mirror.to_act())
        traffic[seat].check(mirror, seat)


def test_three_people_and_a_bot_one_takes_a_row_with_a_too_low_card(
    browser: Browser, base_url: str, e2e_env: dict[str, str]
) -> None:
    expect.set_options(timeout=15_000)
    began = time.monotonic()
    logins = [f"{PREFIX}{who}" for who in ("ann", "ben", "cat")]
    people = sign_up_all(browser, base_url, logins)
    traffic_of = {name: record_traffic(page) for name, page in people.items()}
    organizer = people[logins[0]]
    game_id = create_nimmt_game(organizer, "Bullheads for four", seats=4)
    pages = start_together(
        people,
        e2e_env,
        game_id,
        "Bullheads for four",
        FOUR_SEED,
        seats=[0, 1, 2],
        bots=lambda page: add_nimmt_bots(page, FOUR_BOTS),
    )
    for page in pages.values():
        watch_steps(page)
    traffic = {my_seat(page): traffic_of[name] for name, page in people.items()}
    names = [name_of(organizer, seat) for seat in range(4)]
    expect(pages[0].locator("#table .seat .chip-passed-cards")).to_have_count(1)  # the bot
    mirror = NimmtMirror.of(FOUR_SEED, 4, FOUR_BOTS, version(pages[0]))
    check_all(pages, traffic, mirror)

    # Turn 1: seat 1 plays her 2 last, after the two others, each page live.
    low = too_low_play(mirror, TOO_LOW_SEAT)
    assert low == 2
    for seat in (0, 2, TOO_LOW_SEAT):
        play_turn_checks(pages[seat], mirror, seat)
        action = Choose(low) if seat == TOO_LOW_SEAT else mirror.suggestion(seat)
        assert isinstance(action, Choose)
        mirror.apply(seat, action)
        act(pages[seat], action)
        check_all(pages, traffic, mirror)
        if mirror.state.phase == "choose":
            # The chooser's card stays with her: "You chose", and the banner says who still
            # chooses (on the others' pages too, as their commitments patch it in).
            waiting = [n for s, n in enumerate(names) if not mirror.state.choices[s]]
            note = pages[seat].locator("#table .chosen-note")
            expect(note).to_contain_text(f"You chose {action.card}")
            for other, page in pages.items():
                if mirror.state.choices[other]:
                    expect(page.locator("#table .turn-banner")).to_have_text(
                        f"Waiting for {and_list(waiting)} to choose a card."
                    )
            for page in pages.values():
                assert facts(page)["chosen"] == [s for s, c in enumerate(mirror.state.choices) if c]
    # Those commitments came to the pages that had chosen before as patches, not tables.
    assert any(
        "data-table-version" in frame and 'id="table"' not in frame for frame in traffic[0].frames
    )

    # The pause: only seat 1 is asked, with four row buttons and the cue.
    assert mirror.state.phase == "pause" and mirror.state.asked == TOO_LOW_SEAT
    # Four seats fit around the rows: no seat box lies over a row, no row runs off the felt.
    for page in pages.values():
        assert page.evaluate(ROWS_CLEAR) == [], "a row runs under a seat or off the felt"
    asked = names[TOO_LOW_SEAT]
    for seat, page in pages.items():
        seen = facts(page)
        if seat == TOO_LOW_SEAT:
            assert seen["mine"] and seen["rowButtons"] == 4, seen
            assert seen["banner"] == f"Your {low} is lower than every row: choose a row to take."
            for row in range(4):
                cost = mirror.view(seat).row_costs[row]
                expect(page.locator(f"#take-row-{row}")).to_contain_text(
                    f"Row {row + 1}: {cost} ♉"
                )
            expect(page.locator("#table .turn-banner-mine")).to_be_visible()
        else:
            assert not seen["mine"] and seen["rowButtons"] == 0, seen
            assert seen["banner"] == f"Waiting for {asked} to choose a row to take."
            expect(page.locator("#table .turn-banner-mine")).to_have_count(0)
            expect(page.locator("#table .choose-form")).to_have_count(0)
        # The middle of the felt says it alike to all, the player asked included.
        expect(page.locator("#table .reveal-pause")).to_contain_text(
            f"{asked}’s {low} is lower than every row: {asked} must choose a row to take."
        )
        # Every card of the turn is on the table now, with its owner.
        owners = page.locator("#table .reveal-pause .reveal-owner")
        expect(owners).to_have_count(4)
    take = mirror.suggestion(TOO_LOW_SEAT)
    assert isinstance(take, TakeRow)
    taken = mirror.state.rows[take.row]
    mirror.apply(TOO_LOW_SEAT, take)
    mirror.run_bots()
    act(pages[TOO_LOW_SEAT], take)
    cost = row_cost(taken)
    assert mirror.state.penalties[TOO_LOW_SEAT] == cost
    for page in pages.values():
        after_resolution(page, mirror, 0)
        expect(page.locator("#table .last-turn")).to_contain_text(
            f"{asked}: {low} is lower than every row: takes row {take.row + 1} "
            f"({len(taken)} card{'s' if len(taken) > 1 else ''}, {cost} ♉)."
        )
        assert facts(page)["scores"] == scores_text(mirror.state)
        expect(page.locator("#piles")).to_contain_text(f"{asked} {cost} ♉")
        expect_rows(page, mirror.state)
    check_all(pages, traffic, mirror)

    # The rest of the game, every page following live.
    while not mirror.over:
        (seat,) = sorted(mirror.to_act())[:1]
        turn = mirror.state.turn
        action = mirror.suggestion(seat)
        if isinstance(action, Choose):
            play_turn_checks(pages[seat], mirror, seat)
        mirror.apply(seat, action)
        mirror.run_bots()
        act(pages[seat], action)
        if mirror.state.turn != turn or mirror.over:
            for page in pages.values():
                after_resolution(page, mirror, turn)
        check_all(pages, traffic, mirror)
    for seat, page in pages.items():
        expect_game_over(page, mirror, seat, names)
        not_reloaded(page)
    print(f"four players: {time.monotonic() - began:.1f} s")
