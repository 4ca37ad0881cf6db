"""The whole of a round with the keyboard alone: Tab, Shift+Tab, Enter and Space, no mouse.

alice plays three bots (seed chosen so she wins the bid in round 1: she bids, names trump,
gives up cards and plays five tricks). After every redraw (her own move's answer and the
pushes of the bots' moves) focus is still on the table, never lost to <body>, and the
focused control shows a visible ring.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, Page, expect

from games.kinds.hundred_and_ten import engine
from games.kinds.hundred_and_ten.engine import Bid, Discard, GameState, Move, Play, SelectTrump
from tests.browser.helpers import (
    SOLO_SEED,
    focus_with_keys,
    live,
    not_reloaded,
    play_out,
    solo_game,
    solo_table,
    table,
)

pytestmark = pytest.mark.any_topology

PREFIX = "kb"


def focused(page: Page) -> str:
    """Where focus is and which table the page shows: what to look at when focus is lost."""
    return str(
        page.evaluate(
            "(() => { const a = document.activeElement, t = document.getElementById('table');"
            " return (a ? a.tagName + '#' + a.id : 'nothing') + ' at table version '"
            " + (t ? t.dataset.version : 'none'); })()"
        )
    )


class Keyboard:
    """Makes the mirror's moves with keys only; remembers which keys it used."""

    def __init__(self) -> None:
        self.keys: set[str] = set()
        self.moves = 0

    def __call__(self, page: Page, state: GameState, move: Move) -> None:
        if self.moves:  # after the first move focus must survive every redraw
            assert page.evaluate(
                "document.activeElement && document.getElementById('table')"
                ".contains(document.activeElement)"
            ), f"focus left the table for {focused(page)}, before {move} (move {self.moves})"
        self.moves += 1
        if isinstance(move, Bid):
            self.press(page, f"#bid-{move.amount}", "Enter")
        elif isinstance(move, SelectTrump):
            self.press(page, f"#trump-{move.suit}", "Space")
        elif isinstance(move, Discard):
            wanted = {engine.format_card(c) for c in move.cards}
            for box in page.locator("#table .discard-form input[name='cards']").all():
                code = box.get_attribute("value") or ""
                if box.is_checked() != (code in wanted):
                    self.press(page, f"#discard-{code}", "Space")
                    expect(box).to_be_checked(checked=code in wanted)
            self.press(page, "#discard-submit", "Enter")
        else:
            assert isinstance(move, Play)
            self.press(page, f"#card-{engine.format_card(move.card)}", "Enter")

    def press(self, page: Page, selector: str, key: str) -> None:
        self.keys.update(focus_with_keys(page, selector))
        page.keyboard.press(key)
        self.keys.add(key)


def test_a_whole_round_with_the_keyboard_alone(
    browser: Browser, base_url: str, e2e_env: dict[str, str]
) -> None:
    expect.set_options(timeout=15_000)
    page, mirror = solo_game(browser, base_url, e2e_env, f"{PREFIX}alice")
    keyboard = Keyboard()
    page.evaluate("document.activeElement && document.activeElement.blur()")

    play_out(mirror, {0: page}, act=keyboard, until=lambda m: m.state.round_index >= 1)

    # Round 1 is over (alice bid, named trump, discarded, played five tricks) and round 2
    # is dealt; the bots have bid and it is alice's turn again.
    record = engine.round_history(mirror.state)[0]
    assert record.bidder == 0 and len(record.tricks) == 5
    expect(table(page)).to_have_attribute("data-round", "2")
    past = page.locator("details.past-round").first
    expect(past).to_contain_text("Round 1:")
    # The past round opens from the keyboard; then Shift+Tab goes back up to the bids.
    keyboard.press(page, "details.past-round summary", "Enter")
    expect(past).to_have_attribute("open", "")
    assert mirror.state.active_seat == 0
    keyboard.press(page, "#bid-0", "Enter")
    mirror.apply(Bid(0, 0))
    mirror.run_bots()
    expect(table(page)).to_have_attribute("data-version", str(mirror.version))
    assert keyboard.keys == {"Tab", "Shift+Tab", "Enter", "Space"}, keyboard.keys


# On the first table a move's answer draws, the moment it is drawn (the next task, as a key
# pressed at once would be): each form is sent a submit event of its own making, which never
# sends a form by itself. htmx's listener takes it (and cancels it) only on a form it has
# wired up; htmx:confirm is refused, so no request leaves.
PROBE_THE_ANSWER = """() => {
    window.__answered = null;
    let probing = false;
    document.addEventListener("htmx:confirm", (event) => { if (probing) event.preventDefault(); });
    document.addEventListener("htmx:afterSwap", (event) => {
        if (window.__answered !== null || !event.detail.target) return;
        if (event.detail.target.id !== "table") return;
        window.__answered = [];
        setTimeout(() => {
            probing = true;
            for (const form of document.querySelectorAll("#table form[hx-post]")) {
                const submit = new SubmitEvent("submit", {bubbles: true, cancelable: true});
                form.dispatchEvent(submit);
                window.__answered.push([form.className || form.id, submit.defaultPrevented]);
            }
            probing = false;
        }, 0);
    });
}"""


def test_a_key_pressed_the_moment_a_move_s_answer_is_drawn_goes_through_htmx(
    browser: Browser, base_url: str, e2e_env: dict[str, str]
) -> None:
    """htmx wires up what it swaps in (hx-post on the new table's forms) when it settles. It
    settles at once (templates/_htmx_config.html): with htmx's default 20 ms, Enter pressed
    in between sent a move the browser's way, a whole page load that lost focus."""
    page = solo_table(browser, base_url, e2e_env, f"{PREFIX}bob", SOLO_SEED)
    live(page)
    page.evaluate(PROBE_THE_ANSWER)

    page.locator("#bid-0").click()  # bob passes; his answer draws the table the bots bid at

    page.wait_for_function("() => window.__answered !== null && window.__answered.length > 0")
    answered = page.evaluate("window.__answered")
    assert all(taken for _, taken in answered), f"forms htmx had not wired up: {answered}"
    not_reloaded(page)
