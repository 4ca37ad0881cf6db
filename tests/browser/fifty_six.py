"""Fifty-Six in the browser: the match followed with the pure engine, what each page must
show at each version, and the page's controls (used by test_fifty_six_browser.py).

A `FiftySixMirror` plays the match as the server does, from the seed: the bots' seats with
the naive bot (deterministic), one move per version; the people make the moves the test
picks (`choose`: the naive bot's, but a person asks for the trump whenever allowed). It
keeps every version's state, so each page load, htmx answer and websocket frame can be
checked afterwards against what its seat may see at the version it names
(tests/kinds/fifty_six/hidden.py): its own hand, the tricks, the trump card face up once
revealed or, to the bidder alone, face down. Never another hand or the concealed trump.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from playwright.sync_api import Page, expect

from games.kinds.fifty_six.bots import suggest
from games.kinds.fifty_six.engine import (
    RULES,
    Action,
    AskTrump,
    Bid,
    Card,
    ChooseTrump,
    FiftySixState,
    FiftySixView,
    Pass,
    Play,
    card_code,
    view_of,
)
from tests.browser.helpers import (
    PageTraffic,
    Recorded,
    create_game,
    listen,
    table,
)
from tests.kinds.fifty_six.hidden import check, check_no_cards, table_version

KIND = "Fifty-Six"

# --- the match in the test process ----------------------------------------------------------


@dataclass
class FiftySixMirror(Recorded):
    """The match as the server plays it (see `Recorded`); `bots` the seats the server plays
    (naive)."""

    END = "match_over"

    state: FiftySixState
    version: int
    bots: frozenset[int] = frozenset()
    states: dict[int, FiftySixState] = field(default_factory=dict)

    @classmethod
    def of(
        cls, seed: str, seats: int, tables: int, bots: Iterable[int], version: int
    ) -> FiftySixMirror:
        """The match once the bots' opening calls are made, at `version`."""
        first = RULES.initial_state(seed, seats, {"tables_per_team": tables})
        return cls(first, 0, frozenset(bots), {0: first}).opened(version)

    def to_act(self) -> int:
        (seat,) = RULES.to_act(self.state)
        return seat

    def view(self, seat: int | None) -> FiftySixView:
        return view_of(self.state, seat)

    def apply(self, seat: int, action: Action) -> None:
        self.state = RULES.apply(self.state, seat, action)
        self.version += 1
        self.states[self.version] = self.state

    def run_bots(self) -> None:
        while not self.over and self.to_act() in self.bots:
            seat = self.to_act()
            action = suggest(self.view(seat))
            assert action is not None
            self.apply(seat, action)

    def choose(self, seat: int) -> Action:
        """A person's move: ask for the trump whenever allowed, else the naive bot's."""
        view = self.view(seat)
        if view.can_ask_trump:
            return AskTrump()
        action = suggest(view)
        assert action is not None, seat
        return action


# --- everything a page receives ---------------------------------------------------------------


@dataclass
class Traffic(PageTraffic):
    frame_version: int | None = None  # of the last table the socket sent
    cards_seen: int = 0

    def check(self, mirror: FiftySixMirror, seat: int) -> None:
        """Check what came since the last check, and the page as it is now."""
        frames, answers = self.unchecked()
        for text in frames:
            found = table_version(text)
            self.frame_version = self.frame_version if found is None else found
            self.cards_seen += check_text(text, mirror, seat, self.frame_version, "frame")
        for text in answers:
            self.cards_seen += check_text(text, mirror, seat, table_version(text), "answer")
        page = self.page.content()
        self.cards_seen += check_text(page, mirror, seat, table_version(page), "page")


def check_text(text: str, mirror: FiftySixMirror, seat: int, at: int | None, what: str) -> int:
    """`text` against what `seat` may see at version `at` (or the next one: a render can
    race the commit after it); with no version (a push before any table), no card at all."""
    if at is None:
        check_no_cards(text, f"{what} for seat {seat}")
        return 0
    assert at in mirror.states, f"a {what} of version {at}, unknown to the mirror"
    near = [mirror.states[v] for v in (at, at + 1) if v in mirror.states]
    return check(text, near, seat, f"{what} of version {at} for seat {seat}")


def record_traffic(page: Page) -> Traffic:
    traffic = Traffic(page)
    listen(traffic)
    return traffic


# --- reading the page -------------------------------------------------------------------------

PAGE_FACTS = """() => {
    const t = document.getElementById("table");
    const cards = sel => [...t.querySelectorAll(sel)].map(e => e.dataset.card);
    const text = el => el ? el.textContent.replace(/\\s+/g, " ").trim() : "";
    return {
        version: Number(t.dataset.version),
        phase: t.dataset.phase,
        mine: t.classList.contains("is-my-turn"),
        banner: text(t.querySelector(".turn-banner")),
        hand: cards(".hand-area .hand [data-card]"),
        playable: cards(".play-form .hand button[data-card]:not([disabled])"),
        bids: [...t.querySelectorAll("button[id^=bid-]")].map(e => Number(e.value)),
        refused: [...t.querySelectorAll(".fs-bid[disabled]")].map(e => Number(e.textContent)),
        reasons: [...t.querySelectorAll(".fs-reasons li")].map(text),
        pass: t.querySelectorAll("#pass-button").length,
        ask: t.querySelectorAll("#ask-trump").length,
        choices: [...t.querySelectorAll("button[id^=trump-]")].map(e => e.value),
        trump: text(t.querySelector(".fs-center .fs-trump")),
        secret: text(t.querySelector(".fs-trump-mine")),
        trumpCards: cards(".fs-trump [data-card]"),
        backs: t.querySelectorAll(".fs-center .fs-trump .card-back").length,
    };
}"""


def facts(page: Page) -> dict[str, Any]:
    return dict(page.evaluate(PAGE_FACTS))


def name_of(page: Page, seat: int) -> str:
    text = page.locator(f"#table .seat[data-seat='{seat}'] .seat-name").inner_text()
    return text.removesuffix("(you)").strip()


def codes(cards: Iterable[Card]) -> list[str]:
    return [card_code(c) for c in cards]


def expect_table(page: Page, mirror: FiftySixMirror, seat: int, names: list[str]) -> None:
    """The page at the mirror's version shows what `seat` must see now: its hand, the
    controls of its turn (only legal bids and cards, the reasons for the others), "Ask for
    trump" exactly when allowed, and the trump card face down (face up for the bidder) or
    revealed with who asked."""
    view = mirror.view(seat)
    seen = facts(page)
    assert seen["version"] == mirror.version, (seen["version"], mirror.version)
    assert seen["mine"] == view.is_my_turn, seen
    assert sorted(seen["hand"]) == sorted(codes(view.hand)), seen["hand"]
    assert seen["ask"] == int(view.can_ask_trump), seen
    if view.is_my_turn and view.phase == "auction":
        assert seen["bids"] == list(view.legal_bids), seen["bids"]
        refused = [o.value for o in view.bid_options if not o.allowed]
        assert seen["refused"] == refused, seen["refused"]
        for reason in {o.reason for o in view.bid_options if not o.allowed}:
            assert any(reason in line for line in seen["reasons"]), (reason, seen["reasons"])
        assert seen["pass"] == int(view.can_pass)
    else:
        assert seen["bids"] == [] and seen["pass"] == 0, seen
    if view.is_my_turn and view.phase == "trump_choice":
        assert seen["choices"] == codes(view.trump_choices)
    else:
        assert seen["choices"] == []
    if view.is_my_turn and view.phase == "play":
        assert sorted(seen["playable"]) == sorted(codes(view.legal_plays)), seen
    else:
        assert seen["playable"] == [], seen
    if view.trump_down:
        # The felt shows everyone its back; the bidder alone sees its face, by their hand.
        assert seen["backs"] == 1 and seen["trump"] == "Trump card, face down:", seen
    if view.trump_down and view.is_bidder:
        assert view.trump_card is not None
        assert seen["trumpCards"] == [card_code(view.trump_card)], seen
        assert seen["secret"].startswith("Your trump card, face down:"), seen["secret"]
        assert seen["secret"].endswith("only you see this"), seen["secret"]
    elif view.trump_down:
        assert seen["trumpCards"] == [] and seen["secret"] == "", seen
    elif view.trump_revealed:
        assert view.trump_card is not None and view.revealed_by is not None
        assert seen["trumpCards"] == [card_code(view.trump_card)], seen
        asker = names[view.revealed_by]
        assert seen["trump"].startswith(f"Trump revealed (asked by {asker}):"), seen["trump"]


# --- acting on the page -----------------------------------------------------------------------


def create_fifty_six_game(page: Page, name: str, seats: int, tables: int) -> int:
    """From the lobby: a new private game of Fifty-Six for `seats` with `tables` per team."""
    values = {"Tables per team": str(tables)}
    game_id = create_game(page, name, seats, kind=KIND, played_by="4 or 6 players", values=values)
    expect(page.locator(".room-seat")).to_have_count(seats)
    return game_id


def act(page: Page, action: Action) -> None:
    """Make `action` with its control on the page."""
    t = table(page)
    if isinstance(action, Bid):
        t.locator(f"#bid-{action.value}").click()
    elif isinstance(action, Pass):
        t.locator("#pass-button").click()
    elif isinstance(action, AskTrump):
        t.locator("#ask-trump").click()
    elif isinstance(action, ChooseTrump):
        t.locator(f"#trump-{card_code(action.card)}").click()
    else:
        assert isinstance(action, Play)
        t.locator(f"#card-{card_code(action.card)}").click()


def wait_for(pages: Iterable[Page], version: int, timeout: float = 20_000) -> None:
    for page in pages:
        expect(table(page)).to_have_attribute("data-version", str(version), timeout=timeout)
