"""Table comforts in Chromium, black-box against daphne (docs/comforts.md).

alice ticks "Four-colour deck" and "Confirm before playing" on her profile and plays
Hundred and Ten against three bots (seed: she takes the bid in round 1):
- a big bid (alice bids 30) asks once: dismissed, nothing is sent; accepted, she bids;
- in the tricks, a click on a card only picks it: "Play <card>" appears and nothing is
  sent; the button (first trick) or a second click on the card (second trick) plays it;
- the four suits' computed colours on the card face, light and dark: spades black,
  hearts red, diamonds blue, clubs green, each at 3:1 or more against the face;
- the connection indicator shows a round trip; offline it says "Connection lost" in red,
  and back online "Back".
Screenshots at 1280 and 390 px, light and dark (UPDATE_SCREENSHOTS=1 writes them to
docs/screenshots/comforts-*.png).
"""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from playwright.sync_api import Browser, Dialog, Page, expect

from games.kinds.hundred_and_ten import engine
from games.kinds.hundred_and_ten.engine import Bid, GameState, Move, Play
from tests.browser.helpers import (
    SOLO_SEED,
    Mirror,
    add_bots,
    click_move,
    create_game,
    live,
    play_out,
    set_seed,
    sign_up,
    start,
    table,
    version,
)
from tests.browser.helpers.pictures import looks, picture

pytestmark = pytest.mark.any_topology


# One card of each suit, cloned from a real card of the hand with its suit class changed
# (a hand of five need not hold all four suits): the computed colour of its pip, and the
# card's face behind it.
COLOURS = """() => {
  const real = document.querySelector('#table .hand .pcard');
  const out = {};
  for (const suit of ['S', 'H', 'D', 'C']) {
    const card = real.cloneNode(true);
    card.removeAttribute('id');
    const pair = suit === 'H' || suit === 'D' ? ' pcard-red' : ' pcard-black';
    card.className = 'pcard pcard-suit-' + suit + pair;
    document.querySelector('#table .hand').append(card);
    const pip = card.querySelector('.pcard-pip');
    out[suit] = [getComputedStyle(pip).color, getComputedStyle(card).backgroundColor];
    card.remove();
  }
  return out;
}"""


def rgb(text: str) -> tuple[int, int, int]:
    found = re.findall(r"[\d.]+", text)
    return int(float(found[0])), int(float(found[1])), int(float(found[2]))


def contrast(a: tuple[int, int, int], b: tuple[int, int, int]) -> float:
    def luminance(c: tuple[int, int, int]) -> float:
        lin = [
            v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4
            for v in (x / 255 for x in c)
        ]
        return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]

    high, low = sorted((luminance(a), luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def check_colours(page: Page) -> None:
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        measured = {s: (rgb(c), rgb(bg)) for s, (c, bg) in page.evaluate(COLOURS).items()}
        colours = {s: c for s, (c, _) in measured.items()}
        red, green, blue = colours["H"], colours["C"], colours["D"]
        assert max(colours["S"]) < 60, (scheme, colours)  # black
        assert red[0] > red[1] + 100 and red[0] > red[2] + 100, (scheme, colours)
        assert blue[2] > blue[0] + 100 and blue[2] > blue[1] + 60, (scheme, colours)
        assert green[1] > green[0] + 60 and green[1] > green[2] + 40, (scheme, colours)
        for suit, (colour, face) in measured.items():
            assert contrast(colour, face) >= 3, (scheme, suit, colour, face)
    page.emulate_media(color_scheme="light")
    # Without the class the deck has two colours again: diamonds as red as hearts.
    page.evaluate("document.documentElement.classList.remove('deck-four')")
    two = page.evaluate(COLOURS)
    assert two["D"][0] == two["H"][0] and two["C"][0] == two["S"][0], two
    page.evaluate("document.documentElement.classList.add('deck-four')")


def shoot(page: Page) -> None:
    for size_name, scheme in looks(page):
        picture(page, f"comforts-{size_name}-{scheme}")


class Confirming:
    """Makes the mirror's moves as a person who chose "Confirm before playing"."""

    def __init__(self) -> None:
        self.plays = 0
        self.big_bids: list[str] = []

    def answer(self, *, accept: bool) -> Callable[[Dialog], None]:
        def answered(dialog: Dialog) -> None:
            self.big_bids.append(dialog.message)
            if accept:
                dialog.accept()
            else:
                dialog.dismiss()

        return answered

    def __call__(self, page: Page, state: GameState, move: Move) -> None:
        if isinstance(move, Bid) and move.amount >= 30 and move.seat == state.active_seat:
            # Asked once: "Cancel" sends nothing, "OK" bids.
            before = version(page)
            page.once("dialog", self.answer(accept=False))
            click_move(page, state, move)
            expect(table(page).locator(f"#bid-{move.amount}")).to_be_enabled()
            assert version(page) == before and len(self.big_bids) == 1
            page.once("dialog", self.answer(accept=True))
        if not isinstance(move, Play):
            click_move(page, state, move)
            return
        code = engine.format_card(move.card)
        name = f"Play {engine.card_name(move.card)}"
        card = table(page).locator(f"#card-{code}")
        before = version(page)
        card.click()
        confirm = table(page).locator("#confirm-play")
        expect(confirm).to_be_visible()
        expect(confirm).to_have_text(name)
        expect(card).to_have_attribute("aria-pressed", "true")
        assert version(page) == before  # a pick sends nothing
        if self.plays == 0:
            check_colours(page)
            expect(page.locator("#ws-ping")).to_have_text(re.compile(r"^\d+ ms$"))
            shoot(page)
            confirm.click()
        else:
            card.click()  # the second click on the same card plays it
        self.plays += 1


def test_four_colours_confirm_and_the_connection_indicator(
    browser: Browser, base_url: str, e2e_env: dict[str, str]
) -> None:
    expect.set_options(timeout=20_000)
    page = sign_up(browser, base_url, "comfy")
    page.goto(f"{base_url}/accounts/profile/")
    page.get_by_label("Four-colour deck").check()
    page.get_by_label("Confirm before playing").check()
    page.get_by_role("button", name="Save table choices").click()
    expect(page.locator("html")).to_have_class("deck-four")
    page.goto(f"{base_url}/")
    game_id = create_game(page, "Comforts")
    add_bots(page, (2, 3, 4))
    set_seed(e2e_env, game_id, SOLO_SEED)
    start(page)
    live(page)
    indicator = page.locator("#ws-ping")
    expect(indicator).to_have_text(re.compile(r"^\d+ ms$"))
    expect(indicator).to_have_attribute("data-level", re.compile("good|fair|poor"))
    mirror = Mirror.solo(page)
    confirming = Confirming()

    def choose(m: Mirror) -> Move:
        """Bid 30 at alice's first bid (a big one), else as the bots would."""
        legal = engine.perspective_of(m.state, 0).legal_bids
        if m.state.status == engine.Status.BIDDING and 30 in legal and not confirming.big_bids:
            return Bid(0, 30)
        return m.suggestion()

    play_out(
        mirror,
        {0: page},
        choose=choose,
        act=confirming,
        until=lambda m: confirming.plays >= 2 or m.state.round_index >= 1,
    )
    assert confirming.plays == 2
    assert confirming.big_bids == ["Bid 30? Confirm"] * 2

    context = page.context
    context.set_offline(True)
    expect(indicator).to_have_text("Connection lost")
    expect(indicator).to_have_attribute("data-level", "lost")
    colour = indicator.evaluate("el => getComputedStyle(el).backgroundColor")
    red = rgb(colour)
    assert red[0] > 150 and red[1] < 80, colour
    context.set_offline(False)
    expect(indicator).to_have_text(re.compile(r"^Back · \d+ ms$"))


# Records every sound a page asks for (the file's name) instead of playing it: Chromium
# headless has no speakers, and a test must see which sound was asked for and when.
SOUNDS = """
(() => {
  window.__sounds = [];
  window.Audio = function (src) {
    window.__sounds.push(String(src).split('/').pop());
    return {play: () => Promise.resolve(), volume: 1};
  };
})();
"""


def sounds(page: Page) -> list[str]:
    """The sounds asked for since the last call, by kind ("turn", "card")."""
    names: list[str] = page.evaluate("window.__sounds.splice(0)")
    return [name.split(".")[0] for name in names]


def test_the_turn_and_card_sounds_follow_the_one_remembered_switch(
    browser: Browser, base_url: str, e2e_env: dict[str, str]
) -> None:
    expect.set_options(timeout=20_000)
    page = sign_up(browser, base_url, "hark")
    page.context.add_init_script(SOUNDS)
    page.goto(f"{base_url}/")
    page.locator(".user-menu summary").click()
    page.locator("#sound-toggle").click()
    expect(page.locator("#sound-toggle")).to_have_text("Sounds: on")
    page.locator(".user-menu summary").click()  # closed again
    game_id = create_game(page, "Sounds")
    add_bots(page, (2, 3, 4))
    set_seed(e2e_env, game_id, SOLO_SEED)
    start(page)
    live(page)
    mirror = Mirror.solo(page)
    plays: list[Move] = []

    def counting(page: Page, state: GameState, move: Move) -> None:
        click_move(page, state, move)
        if isinstance(move, Play):
            plays.append(move)

    # Into the tricks, until alice has played twice: the bots' cards landed on the felt
    # between her turns, and each turn of hers came after theirs.
    play_out(mirror, {0: page}, act=counting, until=lambda m: len(plays) >= 2)
    heard = sounds(page)
    assert heard.count("card") >= 3, heard
    assert "turn" in heard, heard

    # Switched off (on this page, and remembered by the next): two more turns in silence.
    page.locator(".user-menu summary").click()
    page.locator("#sound-toggle").click()
    expect(page.locator("#sound-toggle")).to_have_text("Sounds: off")
    page.reload()
    live(page)
    sounds(page)  # whatever the reload itself asked for is not the switch's doing
    play_out(mirror, {0: page}, act=counting, until=lambda m: len(plays) >= 4 or m.over)
    assert sounds(page) == []
