"""One Hundred and Four in the browser: the game followed with the pure engine, what each seat
may see at each version, and the page's controls (used by test_one_hundred_and_four_*).

A `NimmtMirror` plays the game as the server does, from the seed: the bots' seats by their
levels ("easy", "medium", "hard"), in seat order, all of them as soon as they may choose, each
bot's randomness seeded as the server seeds it (the game's seed, the number of actions before,
the seat: games.services.bot_choice.bot_action); the people make the moves the test picks. It
keeps every version's state, so every page load, htmx answer and websocket frame can be
checked afterwards against what its seat may see at the version it names (`check_html`): its
own hand and choice, the rows, the piles, the cards revealed in this and earlier turns. Never
another hand, another seat's choice before the reveal, or the unused cards.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from playwright.sync_api import Browser, Page, expect

from games.kinds.one_hundred_and_four.bots import BOTS, suggest
from games.kinds.one_hundred_and_four.engine import (
    RULES,
    Action,
    Choose,
    HundredAndFourState,
    HundredAndFourView,
    TakeRow,
    view_of,
)
from games.kinds.one_hundred_and_four.engine.state import SeededDeals
from tests.browser.helpers import (
    PageTraffic,
    Recorded,
    create_game,
    listen,
    my_seat,
    reload_when_chosen,
    sign_up,
    start_with_bots,
)

KIND = "One Hundred and Four"


def bot_rng(seed: str, actions: int, seat: int) -> random.Random:
    """The randomness the server gives a bot's move (games.services.bot_choice.bot_action)."""
    return random.Random(f"{seed}:{actions}:{seat}")


# --- the game in the test process ---------------------------------------------------------


@dataclass
class NimmtMirror(Recorded):
    """The game as the server plays it (see `Recorded`); `bots` the server's seats and their
    levels."""

    state: HundredAndFourState
    version: int
    seed: str
    bots: dict[int, str] = field(default_factory=dict)
    states: dict[int, HundredAndFourState] = field(default_factory=dict)
    actions: int = 0  # made so far (a bot's randomness depends on it)

    @classmethod
    def of(cls, seed: str, seats: int, bots: dict[int, str], version: int = 0) -> NimmtMirror:
        """The game once the bots' first choices are made, at `version`."""
        first = RULES.initial_state(seed, seats, {})
        return cls(first, 0, seed, dict(bots), {0: first}).opened(version)

    def view(self, seat: int, at: int | None = None) -> HundredAndFourView:
        return view_of(self.state if at is None else self.states[at], seat)

    def to_act(self) -> frozenset[int]:
        return RULES.to_act(self.state)

    def apply(self, seat: int, action: Action) -> None:
        self.state = RULES.apply(self.state, seat, action)
        self.actions += 1
        self.version += 1
        self.states[self.version] = self.state

    def run_bots(self) -> None:
        """As games.services.bot_moves.play_bot_move: the lowest bot seat to act, one after the
        other (a whole simultaneous choice is one commit of several actions)."""
        while not self.over:
            seats = sorted(self.to_act() & set(self.bots))
            if not seats:
                return
            seat = seats[0]
            rng = bot_rng(self.seed, self.actions, seat)
            self.apply(seat, BOTS[self.bots[seat]].choose(self.state, seat, rng))

    def suggestion(self, seat: int) -> Action:
        action = suggest(self.view(seat))
        assert action is not None, seat
        return action


def too_low_play(mirror: NimmtMirror, seat: int) -> int | None:
    """`seat`'s lowest card if playing it now makes `seat` take a row: below every row end
    and below the card every other seat would play (the bots' choices, the naive one for
    people, who choose after the bots). None otherwise."""
    state, bots = mirror.state, mirror.bots
    if state.phase != "choose" or state.choices[seat]:
        return None
    low = state.hands[seat][0]
    if any(low > row[-1] for row in state.rows):
        return None
    for other in range(state.seats):
        if other == seat:
            continue
        card = state.choices[other]
        if not card:
            level = bots.get(other)
            rng = bot_rng(mirror.seed, mirror.actions, other)  # bots chose before, in order
            action = (
                BOTS[level].choose(state, other, rng) if level else suggest(view_of(state, other))
            )
            assert isinstance(action, Choose)
            card = action.card
        if card < low:
            return None
    return low


# --- what a seat may see ------------------------------------------------------------------


def allowed(state: HundredAndFourState, seat: int) -> set[int]:
    """The cards `seat` may see in `state` (rules §6): its hand and its own choice, the rows,
    every pile, the turns revealed earlier (and the rows they were placed on), and in a
    too-low pause the cards of this turn."""
    cards = set(state.hands[seat]) | {state.choices[seat]} - {0}
    cards |= {c for row in state.rows for c in row} | {c for pile in state.piles for c in pile}
    cards |= {c for turn in state.played for _, c in turn}
    if state.last_turn is not None:
        cards |= {c for _, c in state.last_turn.choices}
        cards |= {c for row in state.last_turn.rows_before for c in row}
    if state.phase == "pause":
        cards |= set(state.choices)
    return cards


def forbidden(state: HundredAndFourState, seat: int) -> set[int]:
    """The cards `seat` must not see: other hands, other seats' choices before the reveal,
    the cards nobody was dealt."""
    cards = {c for other, hand in enumerate(state.hands) if other != seat for c in hand}
    if state.phase == "choose":
        cards |= {c for other, c in enumerate(state.choices) if other != seat and c}
    cards |= set(SeededDeals(_seed(state)).deal(state.deal, state.seats).rest)
    return cards


def _seed(state: HundredAndFourState) -> str:
    source = state.source
    assert isinstance(source, SeededDeals)
    return source.seed


# Every way a card reaches a page: drawn (data-card), named for screen readers, written in
# the felt's sentences, or in the hint ("Play 23 (1 ♉).").
MENTIONS = (
    re.compile(r'data-card="(\d+)"'),
    re.compile(r'aria-label="(\d+), \d+ bullheads?"'),
    re.compile(r'class="ncard-value"[^>]*>(\d+)<'),
    re.compile(r'id="pick-(\d+)"'),
    re.compile(r"\b(\d+)(?:</span>)?,? \d+ bullheads?\b"),
    re.compile(r"\b(\d+) (?:is lower than every row|goes on row|is the sixth card)"),
    re.compile(r"\bPlay (\d+) \("),
)
TABLE_TAG = re.compile(r'<section id="table"[^>]*?data-version="(\d+)"')
SIDE_TAG = re.compile(r'<aside id="table-side"[^>]*?data-side="([\d.]+)"')
PART = re.compile(r'<(?:section id="table"|aside id="table-side"|div id="center-area")')
CENTER_TAG = re.compile(r'<div id="center-area"')


def mentioned(text: str) -> set[int]:
    return {int(found) for pattern in MENTIONS for found in pattern.findall(text)}


def side_key(state: HundredAndFourState) -> str:
    """As HundredAndFourTable.side_key."""
    piles = sum(len(pile) for pile in state.piles)
    return f"{state.deal}.{len(state.history)}.{piles}.{int(state.phase == 'over')}"


def check_html(text: str, mirror: NimmtMirror, seat: int, at: int | None = None) -> int | None:
    """The cards of `text` (a page, an htmx answer or a websocket frame) against what `seat`
    may see at the version its table names (or the next one: a render can race the commit
    after it); the side panel's against the piles of its key. A frame of the felt's middle
    alone (a later step of a resolution) belongs to the table sent before it, of version
    `at`. Returns the version of the table in `text` (else `at`)."""
    starts = [m.start() for m in PART.finditer(text)]
    head = text[: starts[0] if starts else len(text)]
    # Outside the table's parts (a push of the banner, the page's frame) no card at all.
    assert not mentioned(head), head[:300]
    for begin, end in zip(starts, [*starts[1:], len(text)][: len(starts)], strict=True):
        part = text[begin:end]
        table_tag = TABLE_TAG.match(part)
        if table_tag:
            at = int(table_tag.group(1))
        found = mentioned(part)
        if not found:
            continue
        if table_tag or CENTER_TAG.match(part):
            assert at is not None and at in mirror.states, f"a table at {at}, unknown to the mirror"
            near = [mirror.states[v] for v in (at, at + 1) if v in mirror.states]
            ok = set().union(*(allowed(s, seat) for s in near))
            bad = set.intersection(*(forbidden(s, seat) for s in near))
        else:
            side_tag = SIDE_TAG.match(part)
            assert side_tag, part[:200]
            same = [s for s in mirror.states.values() if side_key(s) == side_tag.group(1)]
            assert same, f"no state of the game has the side panel {side_tag.group(1)}"
            ok = {c for pile in same[-1].piles for c in pile}
            bad = set()
        assert not found & bad, f"seat {seat} was sent {sorted(found & bad)} (hidden)"
        assert found <= ok, f"seat {seat} was sent {sorted(found - ok)}"
    return at


@dataclass
class Traffic(PageTraffic):
    frame_version: int | None = None  # of the last whole table the socket sent

    def check(self, mirror: NimmtMirror, seat: int) -> None:
        """Check what came since the last check, and the page as it is now."""
        frames, answers = self.unchecked()
        for text in frames:
            self.frame_version = check_html(text, mirror, seat, self.frame_version)
        for text in answers:
            check_html(text, mirror, seat)
        check_html(self.page.content(), mirror, seat)


def record_traffic(page: Page) -> Traffic:
    traffic = Traffic(page)
    listen(traffic)
    return traffic


# --- reading and driving the page ---------------------------------------------------------

# The step of a resolution a page shows: later steps may redraw only the felt's middle.
STEP_OF = """const stepOf = () => {
    const c = document.getElementById("center-area"), t = document.getElementById("table");
    return (c && c.dataset.step) || (t && t.dataset.step) || "";
};"""

PAGE_FACTS = (
    """() => {
    """
    + STEP_OF
    + """
    const t = document.getElementById("table");
    const cards = sel => [...t.querySelectorAll(sel)].map(e => Number(e.dataset.card));
    const chips = cls => [...t.querySelectorAll(".seat")].filter(s => s.querySelector(cls))
        .map(s => Number(s.dataset.seat)).sort((a, b) => a - b);
    return {
        version: Number(t.dataset.version),
        phase: t.dataset.phase,
        step: stepOf() || null,
        mine: t.classList.contains("is-my-turn"),
        banner: t.querySelector(".turn-banner").textContent.trim(),
        hand: cards(".hand-area .nhand [data-card]"),
        picks: [...t.querySelectorAll(".choose-form input[name=card]")].map(e => Number(e.value)),
        rows: [...t.querySelectorAll(".nrow")].map(r => [...r.querySelectorAll("[data-card]")]
            .map(e => Number(e.dataset.card))),
        rowButtons: t.querySelectorAll("[id^=take-row-]").length,
        chosen: chips(".chip-passed-cards"),
        turn: chips(".chip-turn"),
        scores: [...t.querySelectorAll(".seat")].sort((a, b) => a.dataset.seat - b.dataset.seat)
            .map(s => s.querySelector(".seat-score").textContent.trim()),
    };
}"""
)

# Each #table the page shows in turn: its data-step (or "" for the current state).
WATCH_STEPS = (
    """() => {
    """
    + STEP_OF
    + """
    if (window.__steps) return;
    window.__steps = [];
    let last = null;
    const note = () => {
        const step = stepOf();
        if (step !== last) { window.__steps.push(step); last = step; }
    };
    new MutationObserver(note).observe(document.body, {childList: true, subtree: true});
    note();
}"""
)


def facts(page: Page) -> dict[str, Any]:
    return dict(page.evaluate(PAGE_FACTS))


def watch_steps(page: Page) -> None:
    page.evaluate(WATCH_STEPS)


def steps_seen(page: Page, key: str) -> list[int]:
    """The steps of resolution `key` the page has shown so far, in order."""
    seen: list[str | None] = page.evaluate("() => window.__steps")
    return [int(s.rsplit(":", 1)[1]) for s in seen if s and s.rsplit(":", 1)[0] == key]


def steps_key(state: HundredAndFourState) -> tuple[str, int]:
    """The key and count of the last resolution's steps (as HundredAndFourTable.steps)."""
    last = state.last_turn
    assert last is not None
    return f"{last.deal}.{last.turn}", len(last.placements) + 1


def create_nimmt_game(page: Page, name: str, seats: int) -> int:
    """From the lobby: a new private game of One Hundred and Four for `seats`."""
    game_id = create_game(page, name, seats, kind=KIND, played_by="2 to 10 players")
    expect(page.locator(".room-seat")).to_have_count(seats)
    return game_id


def alone_with_bots(
    browser: Browser,
    url: str,
    env: dict[str, str],
    name: str,
    game: str,
    seed: str,
    bots: dict[int, str],
) -> tuple[Page, Traffic]:
    """`name` signs up (what their page receives recorded from then on), creates `game` for
    one more than `bots` and seats them, fixes the seed and starts, at seat 0; the page is
    loaded afresh once the bots have chosen, and shows each resolution's steps to the test."""
    page = sign_up(browser, url, name)
    traffic = record_traffic(page)
    game_id = create_nimmt_game(page, game, seats=len(bots) + 1)
    start_with_bots(page, env, game_id, seed, bots, add=add_nimmt_bots)
    assert my_seat(page) == 0
    reload_when_chosen(page, len(bots))
    watch_steps(page)
    return page, traffic


def add_nimmt_bots(page: Page, levels: dict[int, str]) -> None:
    """Seat a bot of each level (seat index -> "easy" | "medium" | "hard"): "Add a bot" seats
    the medium one, the default; "Easy bot" and "Hard bot" beside it the others."""
    for seat, level in sorted(levels.items()):
        number = seat + 1
        name = {"medium": "Add a bot", "easy": "Add an easy bot", "hard": "Add a hard bot"}[level]
        page.get_by_role("button", name=f"{name} to seat {number}").click()
        expect(page.get_by_role("button", name=f"Add a bot to seat {number}")).to_have_count(0)


def pick(page: Page, card: int) -> None:
    """Pick `card` by clicking its face; it is ticked and lifted."""
    page.locator(f"#table label.ncard-pick[data-card='{card}']").click()
    expect(page.locator(f"#pick-{card}")).to_be_checked()


def act(page: Page, action: Action) -> None:
    if isinstance(action, Choose):
        pick(page, action.card)
        page.locator("#choose-submit").click()
    else:
        assert isinstance(action, TakeRow)
        page.locator(f"#take-row-{action.row}").click()


def wait_for(pages: Iterable[Page], version: int, timeout: float = 20_000) -> None:
    """Every page at `version`, showing the current state (no resolution playing out)."""
    for page in pages:
        current = f"#table[data-version='{version}']:not([data-step]) #center-area:not([data-step])"
        expect(page.locator(current)).to_have_count(1, timeout=timeout)


def expect_rows(page: Page, state: HundredAndFourState) -> None:
    rows = page.locator("#table .nrow")
    for index, row in enumerate(state.rows):
        expect(rows.nth(index).locator("[data-card]")).to_have_count(len(row))
    assert facts(page)["rows"] == [list(row) for row in state.rows]


def scores_text(state: HundredAndFourState) -> list[str]:
    return [f"{p} ♉" for p in state.penalties]
