"""A `Mirror` follows the game with the pure engine in the test process: the tests know the
seed and every move (humans click what the mirror says; bots play the same naive
`suggestion`), so they know which version, phase, hand and legal cards each page must show.
`play_out` has the people make the mirror's moves through their pages.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any, ClassVar, Self

from playwright.sync_api import Browser, Page, expect

from games.kinds.hundred_and_ten import engine
from games.kinds.hundred_and_ten.engine import (
    Bid,
    Discard,
    GameState,
    Move,
    Play,
    SelectTrump,
    Status,
)
from tests.browser.helpers.people import SOLO_SEED, solo_table
from tests.browser.helpers.table_page import click_move, codes, first_turn, hand_codes, table

# --- following the game with the engine -----------------------------------------------------


@dataclass
class Mirror:
    """The game as the server plays it, from the seed and the moves (see the module doc).

    `version` is the game's version the pages must show: the server bumps it once per
    recorded move. `bots` are the seats the server plays itself (the naive suggestion).
    """

    state: GameState
    version: int
    bots: frozenset[int] = frozenset()
    events: list[str] = field(default_factory=list)

    @classmethod
    def of(cls, seed: str, players: int, version: int, bots: Iterable[int] = ()) -> Mirror:
        """The game as it stands when a human is first to act; `version` is read then
        (the page shows `.is-my-turn`), after the bots' opening moves."""
        mirror = cls(engine.new_game(seed, players), 0, frozenset(bots))
        mirror.run_bots()
        mirror.version = version
        return mirror

    @classmethod
    def solo(cls, page: Page, seed: str = SOLO_SEED) -> Mirror:
        """The game of a solo table (the page's person at seat 0, bots at 1-3) at that
        person's first turn, its version read then (see `first_turn`)."""
        return cls.of(seed, 4, first_turn(page), bots=(1, 2, 3))

    @property
    def over(self) -> bool:
        return self.state.status == Status.WON

    def apply(self, move: Move) -> None:
        before = self.state
        self.note(before, move)
        self.state = engine.apply(before, move)
        self.version += 1
        if self.state.round_index != before.round_index or self.over:
            record = engine.round_history(self.state)[-1]
            self.events.append(f"round:{record.outcome}")
        if self.over:
            self.events.append("won")

    def note(self, state: GameState, move: Move) -> None:
        if isinstance(move, Bid):
            if move.seat != state.active_seat:
                self.events.append("prepass")
            elif move.amount == 0:
                self.events.append("pass")
            elif (
                move.seat == state.dealer and state.holder is not None and move.amount == state.bid
            ):
                self.events.append("dealer-takes")
            else:
                self.events.append("bid")
        elif isinstance(move, SelectTrump):
            self.events.append("trump")
        elif isinstance(move, Discard):
            self.events.append("discard")
        elif isinstance(move, Play) and state.current_trick and state.bleeding:
            self.events.append("bleeding")

    def run_bots(self) -> None:
        while not self.over and self.state.active_seat in self.bots:
            self.apply(engine.suggestion(self.state))

    def suggestion(self) -> Move:
        return engine.suggestion(self.state)


class Recorded:
    """What the mirrors of the games of the rules protocol (Fifty-Six, Hearts, One Hundred and
    Four) share: `state`, the `version` the pages must show, `states` every version's state
    (for the frames, which are checked afterwards), and the game's last phase, `END`."""

    END: ClassVar[str] = "over"
    state: Any
    version: int
    states: dict[int, Any]

    @property
    def over(self) -> bool:
        return bool(self.state.phase == self.END)

    def run_bots(self) -> None:
        raise NotImplementedError

    def opened(self, version: int) -> Self:
        """The game once the bots' opening moves are made, that being `version` (read from
        the page then); earlier versions are shifted to match."""
        self.run_bots()
        shift = version - self.version
        self.states = {v + shift: state for v, state in self.states.items()}
        self.version = version
        return self


def solo_game(
    browser: Browser,
    base_url: str,
    env: dict[str, str],
    name: str,
    seed: str = SOLO_SEED,
    game: str = "",
) -> tuple[Page, Mirror]:
    """A solo table (see `solo_table`) at its person's first turn, and its game."""
    page = solo_table(browser, base_url, env, name, seed, game)
    return page, Mirror.solo(page, seed)


def wait_for_version(pages: Iterable[Page], number: int, timeout: float = 20_000) -> None:
    """Every page's table reaches version `number`; else the failure says, for every page,
    what it shows (a CI failure is read from its log)."""
    pages = list(pages)
    try:
        for page in pages:
            expect(table(page)).to_have_attribute("data-version", str(number), timeout=timeout)
    except AssertionError as failure:
        raise AssertionError(f"{failure}\n{pages_now(pages)}") from None


def pages_now(pages: Iterable[Page]) -> str:
    """What each page shows now: its address, table version, banner and any error."""
    lines = []
    for number, page in enumerate(pages):
        shown = page.evaluate(
            """() => {
                const text = (selector) => {
                    const found = document.querySelector(selector);
                    return found ? found.textContent.trim().slice(0, 200) : null;
                };
                const table = document.getElementById("table");
                return {version: table ? table.dataset.version : null,
                        banner: text("#table .turn-banner"), error: text(".table-error"),
                        title: document.title};
            }"""
        )
        lines.append(f"page {number} {page.url}: {shown}")
    return "\n".join(lines)


def expect_hand(page: Page, state: GameState, seat: int) -> None:
    """The page shows exactly the seat's cards (as the engine sorts them)."""
    expected = codes(engine.sort_hand(state.hands[seat], state.trump))
    expect(page.locator("#table .hand [data-card]")).to_have_count(len(expected))
    assert sorted(hand_codes(page)) == sorted(expected)


def legal_split(state: GameState, seat: int) -> tuple[list[str], list[str]]:
    """(legal, illegal) card codes of `seat` now."""
    legal = set(engine.legal_plays(state, seat))
    hand = state.hands[seat]
    return codes(c for c in hand if c in legal), codes(c for c in hand if c not in legal)


def play_out(
    mirror: Mirror,
    pages: dict[int, Page],
    *,
    choose: Callable[[Mirror], Move] | None = None,
    before_move: Callable[[Mirror, Page, Move], None] | None = None,
    until: Callable[[Mirror], bool] = lambda m: m.over,
    act: Callable[[Page, GameState, Move], None] = click_move,
) -> None:
    """Humans (seats in `pages`) make the mirror's moves through their pages; bots play on
    the server. After every human move every page must reach the mirror's version."""
    choose = choose or Mirror.suggestion
    while not until(mirror):
        seat = mirror.state.active_seat
        assert seat is not None and seat in pages, (seat, mirror.state.status)
        page = pages[seat]
        expect(page.locator(f"#table.is-my-turn[data-version='{mirror.version}']")).to_be_visible()
        move = choose(mirror)
        if before_move is not None:
            before_move(mirror, page, move)
        state = mirror.state
        mirror.apply(move)
        mirror.run_bots()
        act(page, state, move)
        wait_for_version(pages.values(), mirror.version)
