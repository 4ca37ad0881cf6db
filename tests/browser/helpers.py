"""Shared helpers for browser tests: signing up, gathering a table, and driving it.

Everything goes through the page like a person would, except `set_seed`, which fixes the
deal of a game that has not started (a `manage.py shell` subprocess with the daphne
server's environment, so it works on SQLite and PostgreSQL alike).

A `Mirror` follows the game with the pure engine in the test process: the tests know the
seed and every move (humans click what the mirror says; bots play the same naive
`suggestion`), so they know which version, phase, hand and legal cards each page must show.
"""

from __future__ import annotations

import re
import subprocess
import sys
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from playwright.sync_api import Browser, Locator, Page, Response, ViewportSize, WebSocket, expect

from games.kinds.hundred_and_ten import engine
from games.kinds.hundred_and_ten.engine import (
    Bid,
    Discard,
    GameState,
    Move,
    Play,
    SelectTrump,
    Status,
    Unpass,
)
from tests.conftest import ROOT

DESKTOP: ViewportSize = {"width": 1280, "height": 800}
PHONE: ViewportSize = {"width": 390, "height": 844}
PASSWORD = "a-good-long-password-1"
TABLE_URL = re.compile(r"/games/(\d+)/table/$")
ROOM_URL = re.compile(r"/games/(\d+)/$")


# --- people and pages --------------------------------------------------------------------


def sign_up(browser: Browser, base_url: str, name: str, **context_options: Any) -> Page:
    """A new browser context (its own cookies) in which `name` signs up; on the lobby."""
    options = {"viewport": DESKTOP, **context_options}
    page = browser.new_context(**options).new_page()
    page.goto(f"{base_url}/accounts/signup/")
    page.get_by_label("Username").fill(name)
    page.get_by_label("Password", exact=True).fill(PASSWORD)
    page.get_by_label("Password (again)").fill(PASSWORD)
    page.get_by_role("button", name="Sign up").click()
    expect(page.get_by_role("heading", name="Lobby")).to_be_visible()
    return page


def live(page: Page) -> None:
    """Wait until the page's sockets are open; mark the document to prove no reload later."""
    expect(page.locator("#ws-status")).to_have_attribute("data-state", "connected")
    page.evaluate("window.__sameDocument = true")


def leave(page: Page) -> None:
    """The person closes the tab: the document unloads and its sockets close.

    By navigating to a blank page (bounded by the navigation timeout) rather than with
    `page.close()`, which Chromium can acknowledge without closing the page when it meets a
    navigation commit, and Playwright then waits for ever (microsoft/playwright#41900 and
    #42068, open for 1.64 and 1.65): one such close stalled a whole test run here. Wait for
    a navigation the test started (a click that opens a page) before leaving: it would
    interrupt this one."""
    page.goto("about:blank")


def not_reloaded(page: Page) -> None:
    assert page.evaluate("window.__sameDocument === true"), "the page was reloaded"


def settled(page: Page) -> None:
    """Wait until htmx has wired up the page: loaded, and no swapped-in content still waiting
    for its settle step (until then an input has no htmx listeners, so typing is lost).
    A function, not an expression: Playwright evaluates an expression afresh on each poll,
    with eval, which the site's Content-Security-Policy refuses."""
    page.wait_for_function(
        "() => document.readyState === 'complete' && window.htmx !== undefined"
        " && !document.querySelector('.htmx-added, .htmx-settling')"
    )


def no_sideways_scroll(page: Page) -> None:
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


def create_game(page: Page, name: str, seats: int = 4) -> int:
    """From the lobby: a new private game; returns its id (the page is in its waiting room)."""
    page.get_by_role("link", name="New game").first.click()
    page.get_by_label("Name").fill(name)
    page.get_by_label("Seats").select_option(str(seats))
    page.get_by_role("button", name="Create game").click()
    expect(page.get_by_role("heading", name=name)).to_be_visible()
    found = ROOM_URL.search(page.url)
    assert found, page.url
    return int(found.group(1))


def invite(page: Page, username: str) -> None:
    """In the waiting room: search for `username` and invite them."""
    settled(page)  # the box an earlier invitation swapped in listens only once settled
    page.get_by_label("Username").fill(username)
    page.get_by_role("button", name=re.compile(f"Invite .*\\({re.escape(username)}\\)")).click()
    # Wait for the answer to swap the invite box: typing into the old box would be lost.
    expect(page.locator("#invite-box [role=status]")).to_contain_text(f"Invited {username}.")
    expect(page.locator(".invitee-list")).to_contain_text(username)


def add_bots(page: Page, seats: Iterable[int]) -> None:
    for seat in seats:  # 1-based, as the page says
        page.get_by_role("button", name=f"Add a bot to seat {seat}").click()
        expect(page.get_by_role("button", name=f"Add a bot to seat {seat}")).to_have_count(0)


def set_seed(env: dict[str, str], game_id: int, seed: str) -> None:
    """Test set-up only: fix the deal of a game that has not started yet."""
    code = (
        "from games.models import Game; "
        f"n = Game.objects.filter(pk={game_id}, status='waiting').update(seed={seed!r}); "
        "assert n == 1, n"
    )
    subprocess.run(
        [sys.executable, "manage.py", "shell", "-c", code],
        cwd=ROOT,
        env=env,
        check=True,
        capture_output=True,
    )


def start(page: Page) -> None:
    page.get_by_role("button", name="Start game").click()
    expect(page).to_have_url(TABLE_URL)


def solo_table(
    browser: Browser,
    base_url: str,
    env: dict[str, str],
    name: str,
    seed: str,
    **context_options: Any,
) -> Page:
    """`name` signs up, seats three bots, fixes the seed and starts: on the table."""
    page = sign_up(browser, base_url, name, **context_options)
    game_id = create_game(page, f"{name} vs bots")
    add_bots(page, (2, 3, 4))
    set_seed(env, game_id, seed)
    start(page)
    live(page)
    return page


# --- the table -----------------------------------------------------------------------------


def first_turn(page: Page) -> int:
    """Wait for the human's first turn (the bots have played up to it) and return the table's
    version then. The page is loaded afresh once: a page rendered while a bot's move was being
    committed can show the new state under the version before it (harmless for a player: a
    move with that version is refused as stale and the push brings the right one), and the
    tests count versions from here. Nothing moves while the human thinks, so this load is
    exact; `live` marks it, so later reloads would still be caught."""
    expect(page.locator("#table.is-my-turn")).to_be_visible()
    page.reload()
    expect(page.locator("#table.is-my-turn")).to_be_visible()
    live(page)
    return version(page)


def table(page: Page) -> Locator:
    return page.locator("#table")


def version(page: Page) -> int:
    return int(table(page).get_attribute("data-version") or "-1")


def my_seat(page: Page) -> int:
    return int(page.locator("#table .seat-bottom").get_attribute("data-seat") or "-1")


def hand_codes(page: Page) -> list[str]:
    found = page.locator("#table .hand [data-card]").evaluate_all(
        "els => els.map(e => e.dataset.card)"
    )
    return [str(code) for code in found]


def codes(cards: Iterable[engine.Card]) -> list[str]:
    return [engine.format_card(c) for c in cards]


def bid_label(amount: int) -> str:
    if amount == 0:
        return "Pass"
    if amount == 60:
        return "Shoot the moon (60)"
    return f"Bid {amount}"


def move_control(page: Page, state: GameState, move: Move) -> Locator:
    """The one control on `page` that makes `move` (the page belongs to the mover)."""
    t = table(page)
    if isinstance(move, Bid):
        if move.seat != state.active_seat:
            return t.get_by_role("button", name="Pass in advance")
        return t.locator(".bid-form").get_by_role("button", name=bid_label(move.amount), exact=True)
    if isinstance(move, Unpass):
        return t.get_by_role("button", name="Cancel my pass")
    if isinstance(move, SelectTrump):
        return t.get_by_role("button", name=f"{engine.SUIT_NAMES[move.suit]} as trump")
    if isinstance(move, Play):
        return t.get_by_role("button", name=f"Play {engine.card_name(move.card)}", exact=True)
    assert isinstance(move, Discard)
    return t.locator(".discard-submit")


def choose_discards(page: Page, cards: Iterable[engine.Card]) -> None:
    """Tick exactly `cards` in the discard form (clicking the card faces)."""
    wanted = set(codes(cards))
    for label in page.locator("#table .discard-form .pcard-toggle").all():
        box = label.locator("input")
        if box.is_checked() != (label.get_attribute("data-card") in wanted):
            label.click()
    submit = page.locator("#table .discard-submit")
    expect(submit).to_have_text(f"Discard {len(wanted)}" if wanted else "Keep my hand")


def click_move(page: Page, state: GameState, move: Move) -> None:
    if isinstance(move, Discard):
        choose_discards(page, move.cards)
    move_control(page, state, move).click()


# --- keyboard -------------------------------------------------------------------------

WHERE = """sel => {
    const target = document.querySelector(sel);
    if (!target) return "missing";
    const active = document.activeElement;
    if (active === target) return "here";
    if (!active || active === document.body) return "after";
    return active.compareDocumentPosition(target) & Node.DOCUMENT_POSITION_FOLLOWING
        ? "after" : "before";
}"""

RING = """() => {
    const el = document.activeElement;
    const ringed = el.matches("input") ? el.closest("label") : el;
    const style = getComputedStyle(ringed);
    return {width: parseFloat(style.outlineWidth), style: style.outlineStyle,
            visible: el.matches(":focus-visible")};
}"""


def focus_with_keys(page: Page, selector: str, limit: int = 80) -> list[str]:
    """Tab (or Shift+Tab, when the target comes earlier) until `selector` has focus."""
    pressed: list[str] = []
    for _ in range(limit):
        where = page.evaluate(WHERE, selector)
        assert where != "missing", selector
        if where == "here":
            ring = page.evaluate(RING)
            assert ring["visible"] and ring["style"] != "none" and ring["width"] >= 2, ring
            return pressed
        key = "Tab" if where == "after" else "Shift+Tab"
        page.keyboard.press(key)
        pressed.append(key)
    raise AssertionError(f"could not reach {selector} with the keyboard")


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


def wait_for_version(pages: Iterable[Page], number: int, timeout: float = 20_000) -> None:
    for page in pages:
        expect(table(page)).to_have_attribute("data-version", str(number), timeout=timeout)


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


# --- what a page receives -------------------------------------------------------------------

# The table's page and the htmx answers a table sends (moves, hints, handing a seat over).
TABLE_URLS = re.compile(r"/games/\d+/(?:table|move|hint|automate)/$")


@dataclass
class PageTraffic:
    """Everything one page receives: websocket frames, and the text of every load of the
    table and every htmx answer from it (read as they come, before the page moves on). A
    game's tests subclass it with a `check` of what the seat may see."""

    page: Page
    frames: list[str] = field(default_factory=list)
    answers: list[str] = field(default_factory=list)
    checked_frames: int = 0
    checked_answers: int = 0

    def unchecked(self) -> tuple[list[str], list[str]]:
        """The frames and answers that came since the last call."""
        frames = self.frames[self.checked_frames :]
        answers = self.answers[self.checked_answers :]
        self.checked_frames, self.checked_answers = len(self.frames), len(self.answers)
        return frames, answers


def listen(traffic: PageTraffic) -> None:
    """Record into `traffic` what its page receives from now on."""

    def on_socket(socket: WebSocket) -> None:
        def on_frame(payload: str | bytes) -> None:
            traffic.frames.append(payload if isinstance(payload, str) else payload.decode())

        socket.on("framereceived", on_frame)

    def on_response(response: Response) -> None:
        if TABLE_URLS.search(response.url.split("?")[0]):
            # Read at once: a body is gone once the page loads another document.
            traffic.answers.append(response.text())

    traffic.page.on("websocket", on_socket)
    traffic.page.on("response", on_response)
