"""Hearts in the browser: the game followed with the pure engine, and what each page may show
(used by test_hearts_*_browser.py).

A `HeartsMirror` follows each game with the pure engine from the seed (the bots play the
naive bot, deterministic; the humans play what the naive bot would), so the tests know every
version, hand, legal card and every card a page may show. `facts_of` reads a page and checks
it against the mirror; every websocket frame a page receives is checked too (`check_frames`):
the cards in it must be ones that seat may see at that version.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from playwright.sync_api import Page, WebSocket

from games.kinds.hearts.bots import suggest
from games.kinds.hearts.engine import (
    CODES,
    RULES,
    Action,
    Card,
    HeartsState,
    HeartsView,
    card_code,
    card_name,
    view_of,
)
from tests.browser.helpers import Recorded

PREFIX = "hb"  # usernames unique to the Hearts browser tests (the e2e database is shared)
NAMED = {card_name(Card(c)): code for c, code in enumerate(CODES)}
CARD_NAMES = re.compile("|".join(re.escape(name) for name in NAMED))


# --- the game in the test process ---------------------------------------------------------


@dataclass
class HeartsMirror(Recorded):
    """The game as the server plays it, from the seed and the moves (see `Recorded`).

    `bots` are the seats the server plays: in a passing hand they pass as soon as they may (all
    in one commit), in the play one at a time.
    """

    state: HeartsState
    version: int
    bots: frozenset[int] = frozenset()
    states: dict[int, HeartsState] = field(default_factory=dict)

    @classmethod
    def of(cls, seed: str, target: int, version: int, bots: Iterable[int] = ()) -> HeartsMirror:
        """The game at `version`, read when the bots' opening moves are made."""
        first = RULES.initial_state(seed, 4, {"target": target})
        return cls(first, 0, frozenset(bots), {0: first}).opened(version)

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
