"""Hearts in Chromium, every move through the page, black-box against daphne.

(a) alice plays three bots to 50 points: she ticks three cards and passes in each passing
    hand, and clicks a playable card on each turn; only the legal cards are enabled, a
    disabled card does nothing, and her page never holds another seat's card.
(b) Four people, four browser contexts: the organizer invites three by name, they accept
    from their lobbies, everyone chooses a pass at the same time (nothing moves before the
    fourth pass, the seats say who passed, a half-chosen pass survives the others' pushes),
    the exchange marks three received cards on each page, then one whole hand is played
    live (no reload), each page showing only its own cards and the trick.
(c) The Hearts screenshots (pass picker, a trick in progress, the score sheet after a hand,
    game over; (b) adds a pass waiting for the others) at desktop and phone widths, light
    and dark; UPDATE_SCREENSHOTS=1 writes them to docs/screenshots/hearts-*.png.

A `HeartsMirror` follows each game with the pure engine from the seed (the bots play the
naive bot, deterministic; the humans play what the naive bot would), so the tests know every
version, hand, legal card and every card a page may show. Every websocket frame a page
receives is checked too: the cards in it must be ones that seat may see at that version.
"""

from __future__ import annotations

import os
import re
import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, Request, WebSocket, expect

from games.kinds.hearts.bots import suggest
from games.kinds.hearts.engine import (
    CODES,
    RULES,
    Action,
    Card,
    HeartsState,
    HeartsView,
    Pass,
    Play,
    card_code,
    card_name,
    view_of,
)
from tests.browser.helpers import (
    DESKTOP,
    PHONE,
    ROOM_URL,
    add_bots,
    invite,
    live,
    my_seat,
    not_reloaded,
    set_seed,
    settled,
    sign_up,
    start,
    table,
    version,
    wait_for_version,
)
from tests.conftest import ARTIFACTS, ROOT

pytestmark = pytest.mark.browser

PREFIX = "hb"  # usernames unique to this module (the e2e database is shared)
# alice (seat 0) and three naive bots, to 50: three hands (left, right, across); alice holds
# the 2♣ after the first exchange (only it is enabled), takes no point and wins with 0.
SOLO_SEED = "h1029"
# Four people, to 100: after the exchange seat 2 holds the 2♣; hand 1 scores 5, 0, 21, 0.
FOUR_SEED = "h12"
# alice and three bots, to 50: seat 3 leads the first trick, then shoots the moon; two hands.
SHOTS_SEED = "h1171"
SHOTS_FOLDER = (
    ROOT / "docs" / "screenshots"
    if os.environ.get("UPDATE_SCREENSHOTS") == "1"
    else ARTIFACTS / "screenshots" / "docs"
)
NAMED = {card_name(Card(c)): code for c, code in enumerate(CODES)}
CARD_NAMES = re.compile("|".join(re.escape(name) for name in NAMED))


# --- the game in the test process ---------------------------------------------------------


@dataclass
class HeartsMirror:
    """The game as the server plays it, from the seed and the moves.

    `version` is the version the pages must show; `states` every version's state (for the
    frames, which are checked afterwards). `bots` are the seats the server plays: in a
    passing hand they pass as soon as they may (all in one commit), in the play one at a time.
    """

    state: HeartsState
    version: int
    bots: frozenset[int] = frozenset()
    states: dict[int, HeartsState] = field(default_factory=dict)

    @classmethod
    def of(cls, seed: str, target: int, version: int, bots: Iterable[int] = ()) -> HeartsMirror:
        """The game at `version`, read when the bots' opening moves are made."""
        first = RULES.initial_state(seed, 4, {"target": target})
        mirror = cls(first, 0, frozenset(bots), {0: first})
        mirror.run_bots()
        shift = version - mirror.version
        mirror.states = {v + shift: state for v, state in mirror.states.items()}
        mirror.version = version
        return mirror

    @property
    def over(self) -> bool:
        return self.state.phase == "over"

    @property
    def passing(self) -> bool:
        return self.state.phase == "pass"

    def to_act(self) -> frozenset[int]:
        return RULES.to_act(self.state)

    def view(self, seat: int, at: int | None = None) -> HeartsView:
        return view_of(self.state if at is None else self.states[at], seat)

    def suggestion(self, seat: int) -> Action:
        action = suggest(self.view(seat))
        assert action is not None, seat
        return action

    def apply(self, seat: int, action: Action) -> None:
        self.state = RULES.apply(self.state, seat, action)
        self.version += 1
        self.states[self.version] = self.state

    def run_bots(self) -> None:
        while not self.over:
            seats = sorted(self.to_act() & self.bots)
            if not seats:
                return
            for seat in seats if self.passing else seats[:1]:
                self.apply(seat, self.suggestion(seat))


def codes(cards: Iterable[Card]) -> list[str]:
    return [card_code(c) for c in cards]


def visible(view: HeartsView) -> set[str]:
    """Every card `view`'s seat may see now: its hand, the trick, the last trick, the cards it
    passed and the cards it received."""
    cards = set(view.hand) | {c for _, c in view.trick} | {c for _, c in view.last_trick}
    cards |= set(view.my_pass or ()) | set(view.received or ())
    return set(codes(cards))


# --- reading the page -----------------------------------------------------------------------

PAGE_FACTS = """() => {
    const t = document.getElementById("table");
    const cards = (root, sel) => [...root.querySelectorAll(sel)].map(e => e.dataset.card);
    const said = [...document.querySelectorAll("[aria-label], [title], [alt]")].map(e =>
        [e.getAttribute("aria-label"), e.getAttribute("title"), e.getAttribute("alt")].join(" "));
    const chips = cls => [...t.querySelectorAll(".seat")].filter(s => s.querySelector(cls))
        .map(s => Number(s.dataset.seat)).sort();
    return {
        version: Number(t.dataset.version),
        phase: t.dataset.phase,
        mine: t.classList.contains("is-my-turn"),
        everywhere: cards(document, "[data-card]"),
        hand: cards(t, ".hand [data-card]"),
        enabled: cards(t, ".hand button[data-card]:not([disabled])"),
        disabled: cards(t, ".hand button[data-card][disabled]"),
        received: cards(t, ".hand .hand-received > [data-card]"),
        words: document.body.textContent + " " + said.join(" "),
        passed: chips(".chip-passed-cards"),
        choosing: t.dataset.phase === "passing" ? chips(".chip-turn, .chip-choosing") : [],
    };
}"""


def facts_of(page: Page, mirror: HeartsMirror, seat: int) -> dict[str, Any]:
    """The page's facts, checked against the mirror: at its version, holding exactly the
    seat's hand, and no card anywhere (as a card or named in words) that the seat may not
    see."""
    facts: dict[str, Any] = page.evaluate(PAGE_FACTS)
    assert facts["version"] == mirror.version, (facts["version"], mirror.version)
    view = mirror.view(seat)
    allowed = visible(view)
    leaked = set(facts["everywhere"]) - allowed
    assert not leaked, f"seat {seat} sees {sorted(leaked)}"
    named = {NAMED[m] for m in CARD_NAMES.findall(facts["words"])}
    assert named <= allowed, f"seat {seat} reads {sorted(named - allowed)}"
    assert sorted(facts["hand"]) == sorted(codes(view.hand))
    return facts


def record_frames(page: Page) -> list[str]:
    """Every websocket frame the page receives from now on, in order."""
    frames: list[str] = []

    def on_socket(socket: WebSocket) -> None:
        def on_frame(payload: str | bytes) -> None:
            frames.append(payload if isinstance(payload, str) else payload.decode())

        socket.on("framereceived", on_frame)

    page.on("websocket", on_socket)
    return frames


TABLE_TAG = re.compile(r'<section id="table"[^>]*?data-version="(\d+)"')
SIDE_TAG = re.compile(r'<aside id="table-side"[^>]*?data-side="(\d+)\.(\d+)\.(\d)"')
PART = re.compile(r'<(?:section id="table"|aside id="table-side")')
DATA_CARD = re.compile(r'data-card="([^"]+)"')


def side_cards(mirror: HeartsMirror, hands: int, tricks: int, over: int) -> set[str]:
    """The cards of the completed tricks the side panel `hands.tricks.over` may show."""
    for state in mirror.states.values():
        if (len(state.history), len(state.tricks), int(state.phase == "over")) == (
            hands,
            tricks,
            over,
        ):
            return set(codes(c for done in state.tricks for c in done.cards))
    raise AssertionError(f"no state of the game has the side panel {hands}.{tricks}.{over}")


def check_frames(frames: list[str], mirror: HeartsMirror, seat: int) -> int:
    """Each frame's cards against what `seat` may see at the frame's version (or the next
    one: a render can race the commit after it), the side panel's against its tricks.
    Returns how many frames held cards."""
    with_cards = 0
    for text in frames:
        starts = [m.start() for m in PART.finditer(text)]
        assert not DATA_CARD.search(text[: starts[0] if starts else len(text)]), text[:300]
        if not starts:
            continue
        for begin, end in zip(starts, [*starts[1:], len(text)], strict=True):
            part = text[begin:end]
            found = set(DATA_CARD.findall(part))
            if not found:
                continue
            with_cards += 1
            if table_tag := TABLE_TAG.match(part):
                at = int(table_tag.group(1))
                assert at in mirror.states, f"a table at version {at}, unknown to the mirror"
                allowed = set().union(
                    *(visible(mirror.view(seat, v)) for v in (at, at + 1) if v in mirror.states)
                )
            else:
                side_tag = SIDE_TAG.match(part)
                assert side_tag, part[:200]
                hands, tricks, over = (int(g) for g in side_tag.groups())
                allowed = side_cards(mirror, hands, tricks, over)
            assert found <= allowed, f"seat {seat} was sent {sorted(found - allowed)}"
    return with_cards


# --- acting on the page --------------------------------------------------------------------


def create_hearts_game(page: Page, name: str, target: int) -> int:
    """From the lobby: a new private game of Hearts to `target`; returns its id."""
    page.get_by_role("link", name="New game").first.click()
    settled(page)
    page.get_by_role("radio", name="Hearts").check()
    expect(page.locator("#game-setup")).to_contain_text("Hearts is played by")
    expect(page.get_by_label("Play to")).to_be_visible()
    settled(page)
    page.get_by_label("Name").fill(name)
    expect(page.get_by_label("Seats").locator("option")).to_have_count(1)
    page.get_by_label("Play to").select_option(str(target))
    page.get_by_role("button", name="Create game").click()
    expect(page.get_by_role("heading", name=name)).to_be_visible()
    found = ROOM_URL.search(page.url)
    assert found, page.url
    return int(found.group(1))


def tick(page: Page, cards: Iterable[Card]) -> None:
    """Tick `cards` in the pass picker by clicking their faces (each one once)."""
    for code in codes(cards):
        box = page.locator(f"#pass-{code}")
        if not box.is_checked():
            page.locator(f"#table label.pcard-toggle[data-card='{code}']").click()
            expect(box).to_be_checked()


def expect_ticked(page: Page, cards: Iterable[Card]) -> None:
    """Exactly `cards` are ticked, each visibly marked, and the button says so."""
    wanted = codes(cards)
    ticked = page.locator("#table .pcard-toggle:has(input:checked)")
    expect(ticked).to_have_count(len(wanted))
    for code in wanted:
        mark = page.locator(f"#table .pcard-toggle[data-card='{code}'] .pcard-mark")
        expect(mark).to_be_visible()
    text = "Pass 3 cards" if len(wanted) == 3 else f"Choose 3 cards ({len(wanted)} chosen)"
    expect(page.locator("#pass-submit")).to_have_text(text)


def check_turn(page: Page, mirror: HeartsMirror, seat: int) -> dict[str, Any]:
    """The mover's page before its move: the right phase and controls, nothing hidden."""
    facts = facts_of(page, mirror, seat)
    assert facts["mine"]
    view = mirror.view(seat)
    if view.can_pass:
        assert facts["phase"] == "passing"
        expect(page.locator("#table .pass-form .pcard-toggle")).to_have_count(len(view.hand))
        assert facts["enabled"] == [] and facts["disabled"] == []
    else:
        assert facts["phase"] == "tricks"
        legal = codes(view.legal_plays)
        assert sorted(facts["enabled"]) == sorted(legal)
        assert sorted(facts["disabled"]) == sorted(set(codes(view.hand)) - set(legal))
        received = set(codes(view.received or ())) & set(codes(view.hand))
        assert sorted(facts["received"]) == sorted(received)
    return facts


def try_disabled_card(page: Page, code: str) -> None:
    """A disabled card is a plain disabled button: clicking it sends nothing."""
    card = page.locator(f"#card-{code}")
    expect(card).to_be_disabled()
    assert card.get_attribute("name") is None and card.get_attribute("type") == "button"
    sent: list[str] = []

    def on_request(request: Request) -> None:
        if request.method == "POST":
            sent.append(request.url)

    page.on("request", on_request)
    before = version(page)
    card.click(force=True)
    page.wait_for_timeout(300)
    page.remove_listener("request", on_request)
    assert sent == [] and version(page) == before


def act(page: Page, action: Action) -> None:
    if isinstance(action, Pass):
        tick(page, action.cards)
        expect_ticked(page, action.cards)
        page.locator("#pass-submit").click()
    else:
        assert isinstance(action, Play)
        page.locator(f"#card-{card_code(action.card)}").click()


def check_score_sheet(page: Page, state: HeartsState) -> None:
    rows = page.locator("#score-sheet tbody tr")
    expect(rows).to_have_count(len(state.history))
    if state.history:
        last = state.history[-1]
        totals = rows.last.locator(".score-total")
        expect(totals).to_have_text([str(t) for t in last.totals])
    for seat, total in enumerate(state.totals):
        expect(page.locator(f"#table .seat[data-seat='{seat}'] .seat-score")).to_have_text(
            f"{total} pts"
        )


# --- (a) one person and three bots -----------------------------------------------------------


def test_alice_plays_hearts_to_fifty_against_three_bots(
    browser: Browser, base_url: str, e2e_env: dict[str, str]
) -> None:
    expect.set_options(timeout=15_000)
    began = time.monotonic()
    alice = sign_up(browser, base_url, f"{PREFIX}solo")
    frames = record_frames(alice)
    game_id = create_hearts_game(alice, "Hearts after dinner", target=50)
    expect(alice.locator(".room-seat")).to_have_count(4)
    add_bots(alice, (2, 3, 4))
    set_seed(e2e_env, game_id, SOLO_SEED)
    start(alice)
    live(alice)
    assert my_seat(alice) == 0
    # The bots pass at once; then the game waits for alice alone. Loaded afresh once, so the
    # version counted from is exact (see helpers.first_turn).
    expect(alice.locator("#table .seat .chip-passed-cards")).to_have_count(3)
    expect(alice.locator("#table.is-my-turn")).to_be_visible()
    alice.reload()
    live(alice)
    mirror = HeartsMirror.of(SOLO_SEED, 50, version(alice), bots=(1, 2, 3))
    assert mirror.to_act() == {0}

    # A pass of two cards is refused with a sentence, and nothing moves.
    first = mirror.suggestion(0)
    assert isinstance(first, Pass)
    tick(alice, first.cards[:2])
    expect_ticked(alice, first.cards[:2])
    alice.locator("#pass-submit").click()
    expect(alice.locator("#table .table-error")).to_contain_text("Choose exactly three cards")
    assert version(alice) == mirror.version

    hands_seen: set[int] = set()
    tried_disabled = False
    moves = 0
    while not mirror.over:
        assert mirror.to_act() == {0}, mirror.to_act()
        expect(alice.locator(f"#table.is-my-turn[data-version='{mirror.version}']")).to_be_visible()
        facts = check_turn(alice, mirror, 0)
        view = mirror.view(0)
        if view.hand_index not in hands_seen and not view.can_pass:
            # The first play of a hand after an exchange: the three cards passed to alice are
            # marked in her hand, and the felt says who passed them.
            hands_seen.add(view.hand_index)
            if view.received:
                assert len(facts["received"]) == 3
                for mark in alice.locator("#table .received-mark").all():
                    expect(mark).to_be_visible()
                sender = alice.locator(f"#table .seat[data-seat='{view.received_from}'] .seat-name")
                expect(alice.locator("#table .received-line")).to_have_text(
                    f"new passed to you from {sender.inner_text()}"
                )
        if not tried_disabled and facts["disabled"]:
            try_disabled_card(alice, facts["disabled"][0])
            tried_disabled = True
        action = mirror.suggestion(0)
        mirror.apply(0, action)
        mirror.run_bots()
        act(alice, action)
        moves += 1
        wait_for_version([alice], mirror.version)
        if not mirror.over and mirror.state.hand_index != view.hand_index:
            # A hand ended: its row is on the score sheet, the totals on the seats.
            check_score_sheet(alice, mirror.state)
            facts_of(alice, mirror, 0)

    assert tried_disabled and len(mirror.state.history) == 3 and moves == 42
    assert mirror.state.totals[0] == 0
    expect(table(alice)).to_have_attribute("data-phase", "over")
    expect(alice.get_by_role("heading", name=re.compile("^Game over"))).to_have_text(
        "Game over: you win!"
    )
    expect(alice.get_by_role("button", name="Rematch")).to_be_visible()
    check_score_sheet(alice, mirror.state)
    facts_of(alice, mirror, 0)
    not_reloaded(alice)
    assert check_frames(frames, mirror, 0) > 40
    print(f"solo game: {time.monotonic() - began:.1f} s, {len(frames)} frames")


# --- (b) four people ---------------------------------------------------------------------------


def test_four_people_pass_at_once_and_play_a_hand_live(
    browser: Browser, base_url: str, e2e_env: dict[str, str]
) -> None:
    expect.set_options(timeout=15_000)
    began = time.monotonic()
    names = [f"{PREFIX}{who}" for who in ("ann", "ben", "cat", "dan")]
    people = {name: sign_up(browser, base_url, name) for name in names}
    frames = {name: record_frames(page) for name, page in people.items()}
    organizer = people[names[0]]
    for page in people.values():
        live(page)

    game_id = create_hearts_game(organizer, "Hearts for four", target=100)
    for name in names[1:]:
        invite(organizer, name)
    for name in names[1:]:  # the invitation reaches each lobby live; accept from the notice
        notice = people[name].locator("#notices .notice")
        expect(notice).to_contain_text("Hearts for four")
        notice.get_by_role("button", name="Accept").click()
        expect(people[name]).to_have_url(re.compile(rf"/games/{game_id}/$"))
    expect(organizer.locator(".room-seat-list")).to_contain_text(names[3])
    for page in people.values():
        live(page)
    set_seed(e2e_env, game_id, FOUR_SEED)
    start(organizer)
    for page in people.values():  # the waiting rooms move to the table by themselves
        expect(page).to_have_url(re.compile(rf"/games/{game_id}/table/$"))
        expect(table(page)).to_have_attribute("data-phase", "passing")
        live(page)

    pages = {my_seat(page): page for page in people.values()}
    assert sorted(pages) == [0, 1, 2, 3]
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


# --- (c) screenshots ------------------------------------------------------------------------


FITS = "document.documentElement.scrollWidth <= window.innerWidth"


def shoot_all(page: Page, stage: str, wide: list[str]) -> list[Path]:
    """Desktop and phone, light and dark; notes in `wide` the phone pages that scroll
    sideways (checked once every picture is taken, so they can all be looked at)."""
    SHOTS_FOLDER.mkdir(parents=True, exist_ok=True)
    paths = []
    for size_name, size in (("desktop", DESKTOP), ("phone", PHONE)):
        page.set_viewport_size(size)
        for scheme in ("light", "dark"):
            page.emulate_media(color_scheme=scheme)
            if size_name == "phone" and not page.evaluate(FITS):
                wide.append(f"{stage}-{scheme}")
            path = SHOTS_FOLDER / f"hearts-{stage}-{size_name}-{scheme}.png"
            page.screenshot(path=str(path), full_page=True, animations="disabled")
            paths.append(path)
    page.emulate_media(color_scheme="light")
    page.set_viewport_size(DESKTOP)
    return paths


def test_screenshots_of_the_hearts_table(
    browser: Browser, base_url: str, e2e_env: dict[str, str]
) -> None:
    expect.set_options(timeout=15_000)
    shots: dict[str, list[Path]] = {}
    wide: list[str] = []
    alice = sign_up(browser, base_url, f"{PREFIX}shots")
    game_id = create_hearts_game(alice, "Hearts by the fire", target=50)
    add_bots(alice, (2, 3, 4))
    set_seed(e2e_env, game_id, SHOTS_SEED)
    start(alice)
    live(alice)
    expect(alice.locator("#table .seat .chip-passed-cards")).to_have_count(3)
    alice.reload()
    live(alice)
    mirror = HeartsMirror.of(SHOTS_SEED, 50, version(alice), bots=(1, 2, 3))

    while not mirror.over:
        expect(alice.locator(f"#table.is-my-turn[data-version='{mirror.version}']")).to_be_visible()
        check_turn(alice, mirror, 0)
        view = mirror.view(0)
        action = mirror.suggestion(0)
        if view.can_pass and view.hand_index == 0:
            assert isinstance(action, Pass)
            tick(alice, action.cards)
            expect_ticked(alice, action.cards)
            shots["pass"] = shoot_all(alice, "pass", wide)
        elif view.can_pass and "score" not in shots:
            expect(alice.locator("#score-sheet tbody tr")).to_have_count(1)
            expect(alice.locator("#score-sheet .chip-moon")).to_be_visible()
            shots["score"] = shoot_all(alice, "score", wide)
        elif len(view.trick) >= 2 and view.received and "trick" not in shots:
            expect(alice.locator("#table .trick .trick-play")).to_have_count(len(view.trick))
            expect(alice.locator("#table .hand li.hand-received")).not_to_have_count(0)
            shots["trick"] = shoot_all(alice, "trick", wide)
        mirror.apply(0, action)
        mirror.run_bots()
        act(alice, action)
        wait_for_version([alice], mirror.version)

    expect(table(alice)).to_have_attribute("data-phase", "over")
    expect(alice.get_by_role("heading", name=re.compile("^Game over"))).to_be_visible()
    shots["over"] = shoot_all(alice, "over", wide)
    assert sorted(shots) == ["over", "pass", "score", "trick"]
    assert wide == [], f"these phone pages scroll sideways: {wide}"
    for paths in shots.values():
        assert len(paths) == 4 and all(path.stat().st_size > 10_000 for path in paths)
