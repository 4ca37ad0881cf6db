"""Accessibility and comfort at the table, measured in Chromium.

alice plays three bots (seed chosen: in round 1 the bots pass, pass and bid 15 before her,
and later a trump is led to her while she holds non-trumps). At her bidding turn and at
that bleeding trick the test checks, in light and in dark mode:
- every card and control is a button with a name ("Ace of Hearts", "Bid 20", "Play ...");
- WCAG AA contrast (4.5:1 for text, 3:1 for the focus ring) of the key text on its
  actual background, computed from the page's styles (semi-transparent layers and the
  felt's gradient included);
- a visible focus ring on cards and buttons, on the felt too;
- the phone layout (390 px): no sideways scroll, every card at least 40 px wide, in view;
- a pushed redraw does not move the page (scrollY unchanged) nor steal focus;
- a card reaching the trick slides in, except with prefers-reduced-motion.
And names that say what each thing is: "Add a bot" buttons (the name holds the label seen),
each seat a group named "<player>, seat <n>", the dealer chip one word, the trick a group.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from games.kinds.hundred_and_ten import engine
from games.kinds.hundred_and_ten.engine import Bid, Play, Status
from games.kinds.levels import LEVELS
from tests.browser.helpers import (
    DESKTOP,
    PHONE,
    Mirror,
    add_bots,
    bid_label,
    create_game,
    focus_with_keys,
    legal_split,
    live,
    play_out,
    settled,
    sign_up,
    solo_game,
    start,
    table,
    version,
    wait_for_version,
)

pytestmark = pytest.mark.any_topology

PREFIX = "ax"

# Contrast of an element's text against what is really behind it: the first opaque
# background up the tree (or each colour stop of a gradient), with the translucent layers
# in between blended over it, and the text colour's own alpha blended last.
CONTRAST = """([selector, property, behind]) => {
    const el = document.querySelector(selector);
    if (!el) return {missing: selector};
    const rgba = c => {
        const m = /rgba?\\(([^)]+)\\)/.exec(c);
        if (!m) return null;
        const p = m[1].split(/[\\s,\\/]+/).filter(Boolean).map(parseFloat);
        return [p[0], p[1], p[2], p.length > 3 ? p[3] : 1];
    };
    const over = (top, base) => {
        const a = top[3];
        return [0, 1, 2].map(i => top[i] * a + base[i] * (1 - a)).concat([1]);
    };
    const lum = c => {
        const ch = c.slice(0, 3).map(v => {
            v /= 255;
            return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4);
        });
        return 0.2126 * ch[0] + 0.7152 * ch[1] + 0.0722 * ch[2];
    };
    const ratio = (a, b) => {
        const [hi, lo] = [lum(a), lum(b)].sort((x, y) => y - x);
        return (hi + 0.05) / (lo + 0.05);
    };
    let layers = [];
    let bases = null;
    // A focus ring is drawn outside the element: measure it against what is behind it.
    const start = behind ? el.parentElement : el;
    for (let node = start; node && node.nodeType === 1; node = node.parentElement) {
        const style = getComputedStyle(node);
        const image = style.backgroundImage;
        if (image && image !== "none") {
            const stops = (image.match(/rgba?\\([^)]+\\)/g) || []).map(rgba);
            if (stops.length) {
                const solid = rgba(style.backgroundColor);
                bases = stops.map(s => over(s, solid && solid[3] ? solid : [255, 255, 255, 1]));
                break;
            }
        }
        const bg = rgba(style.backgroundColor);
        if (bg && bg[3] > 0) {
            if (bg[3] >= 1) { bases = [bg]; break; }
            layers.push(bg);
        }
    }
    if (!bases) {
        const dark = matchMedia("(prefers-color-scheme: dark)").matches;
        bases = [dark ? [0, 0, 0, 1] : [255, 255, 255, 1]];
    }
    const style = getComputedStyle(el);
    const fg = rgba(style[property]);
    let worst = Infinity;
    for (let base of bases) {
        for (let i = layers.length - 1; i >= 0; i--) base = over(layers[i], base);
        worst = Math.min(worst, ratio(over(fg, base), base));
    }
    return {ratio: Math.round(worst * 100) / 100, fg: style[property]};
}"""

FLIGHT_RECORDER = """() => {
    window.__flights = [];
    new MutationObserver(() => {
        for (const card of document.querySelectorAll("#table .trick-play.is-new .pcard")) {
            window.__flights.push(getComputedStyle(card).animationName);
        }
    }).observe(document.body, {subtree: true, childList: true});
}"""
# The animation a card of the current trick gets when it is marked new.
FORCED_FLIGHT = """() => {
    const play = document.querySelector("#table .trick:not(.trick-done) .trick-play");
    play.classList.add("is-new");
    const name = getComputedStyle(play.querySelector(".pcard")).animationName;
    play.classList.remove("is-new");
    return name;
}"""

# Text on the page, on the felt and on the cards (selector -> minimum ratio).
TEXT_AT_BIDDING = [
    "#table .table-title",
    "#table .table-facts li",
    "#table .turn-banner-mine",
    # alice sits in seat 0: her own seat (at the felt's foot) and the next (on her left).
    "#table .seat[data-seat='1'] .seat-name",
    "#table .seat[data-seat='0'] .seat-score",
    "#table .seat[data-seat='0'] .seat-you",
    "#table .chip-bid:not(.chip-passed)",
    "#table .chip-passed",
    "#table .chip-dealer",
    "#table .chip-bot",
    "#table .chip-turn",
    "#table .hand .pcard-red .pcard-corner",
    "#table .hand .pcard-black .pcard-corner",
    "#table .bid-form .button-primary",
    "#table .bid-form .button:not(.button-primary)",
    "#table .table-tools .button-danger",
    "#table-side .score-sheet summary",
    "#table-side .score-sheet .muted",
    ".site-header .brand",
]
TEXT_AT_TRICKS = [
    "#table .trick-who",
    "#table .winning-tag",
    "#table .bleeding-chip",
    "#table .trump-chip",
    "#table .hand .pcard-playable .pcard-corner",
    "#table .seat-tricks",
]


def contrast_failures(page: Page, selectors: list[str]) -> list[Any]:
    failures = []
    for selector in selectors:
        result = page.evaluate(CONTRAST, [selector, "color", False])
        assert "missing" not in result, result
        if result["ratio"] < 4.5:
            failures.append((selector, result))
    return failures


def dark_twin(browser: Browser, page: Page) -> Page:
    """The same signed-in table in a context that prefers dark colours."""
    context = browser.new_context(
        viewport=DESKTOP, color_scheme="dark", storage_state=page.context.storage_state()
    )
    twin = context.new_page()
    twin.goto(page.url)
    expect(table(twin)).to_have_attribute("data-version", str(version(page)))
    return twin


def check_contrast(browser: Browser, page: Page, selectors: list[str]) -> None:
    assert page.evaluate("matchMedia('(prefers-color-scheme: light)').matches")
    light = contrast_failures(page, selectors)
    twin = dark_twin(browser, page)
    assert twin.evaluate("matchMedia('(prefers-color-scheme: dark)').matches")
    dark = contrast_failures(twin, selectors)
    twin.context.close()
    assert not light and not dark, {"light": light, "dark": dark}


def check_phone(page: Page, cards: int) -> None:
    page.set_viewport_size(PHONE)
    sizes = page.evaluate("""() => ({
        scroll: document.documentElement.scrollWidth,
        inner: innerWidth,
        cards: [...document.querySelectorAll('#table .hand .pcard')].map(c => {
            const r = c.getBoundingClientRect();
            return {w: r.width, left: r.left, right: r.right};
        }),
    })""")
    assert sizes["scroll"] <= sizes["inner"], sizes
    assert len(sizes["cards"]) == cards
    for card in sizes["cards"]:
        assert card["w"] >= 40 and card["left"] >= 0 and card["right"] <= sizes["inner"], sizes
    page.set_viewport_size(DESKTOP)


# What to look at when a redraw moved a scrolled page: how far it can scroll now, the floor
# static/js/table-feel.js put under it, and the table's version.
SCROLL_FACTS = """(() => {
  const main = document.getElementById('main'), t = document.getElementById('table');
  return {scrollY, innerHeight, scrollHeight: document.documentElement.scrollHeight,
          floor: main ? main.style.minHeight : null, mainHeight: main ? main.offsetHeight : null,
          version: t ? t.dataset.version : null};
})()"""


# The turn bar's height right after each push swapped it in, before anything else ran.
BANNER_HEIGHTS = """() => {
  window.__bannerHeights = [];
  document.addEventListener("htmx:oobAfterSwap", (event) => {
    const banner = event.detail.target;
    if (banner && banner.id === "turn-banner") {
      const now = document.getElementById("turn-banner");
      window.__bannerHeights.push(now.offsetHeight);
    }
  }, true);
}"""


def test_names_contrast_focus_and_the_phone_layout(
    browser: Browser, base_url: str, e2e_env: dict[str, str]
) -> None:
    expect.set_options(timeout=15_000)
    page, mirror = solo_game(browser, base_url, e2e_env, f"{PREFIX}alice")
    state = mirror.state
    assert state.status == Status.BIDDING and state.active_seat == 0

    # Names: cards are buttons named after the card; bids say what they bid.
    t = table(page)
    for card in state.hands[0]:
        expect(t.get_by_role("button", name=engine.card_name(card), exact=True)).to_be_disabled()
    for amount in engine.legal_bids(state, 0):
        expect(t.get_by_role("button", name=bid_label(amount), exact=True)).to_be_enabled()
    unnamed = page.evaluate("""() => [...document.querySelectorAll('#table button')]
        .filter(b => !(b.getAttribute('aria-label') || b.textContent).trim()).length""")
    assert unnamed == 0

    check_contrast(browser, page, TEXT_AT_BIDDING)
    check_phone(page, len(mirror.state.hands[0]))

    # A focus ring on a button on the page, clear against the page.
    focus_with_keys(page, "#bid-0")
    ring = page.evaluate(CONTRAST, ["#bid-0", "outlineColor", True])
    assert ring["ratio"] >= 3, ring

    # A pushed redraw keeps the page where it was: on the phone, scrolled down to the bids,
    # alice bids; her answer and the bots' pushes redraw the table under her.
    page.set_viewport_size({"width": 390, "height": 600})
    page.evaluate(
        "window.scrollTo(0, Math.min(200, document.documentElement.scrollHeight - innerHeight))"
    )
    scroll_y = page.evaluate("scrollY")
    assert scroll_y > 0
    page.evaluate(BANNER_HEIGHTS)
    before = mirror.version
    move = mirror.suggestion()
    assert isinstance(move, Bid)
    mirror.apply(move)
    mirror.run_bots()
    assert mirror.version >= before + 2  # at least one bot move: a push after her answer
    page.locator(f"#bid-{move.amount}").click()
    wait_for_version([page], mirror.version)
    assert page.evaluate("scrollY") == scroll_y, page.evaluate(SCROLL_FACTS)
    # The site-wide turn bar came and went with her turn, and never showed at this table,
    # not even for a moment: it would push the page down and back (the browser keeps what
    # is in view in place, so the page would end up scrolled elsewhere).
    heights = page.evaluate("window.__bannerHeights")
    assert heights and set(heights) == {0}, heights
    page.set_viewport_size(DESKTOP)

    # On to the trick where a trump is led to alice and she holds non-trumps.
    def bleeding_for_alice(m: Mirror) -> bool:
        s = m.state
        return bool(
            s.status == Status.TRICKS and s.active_seat == 0 and s.current_trick and s.bleeding
        )

    # Cards reaching the trick slide in: note every animation a newly played card runs.
    page.evaluate(FLIGHT_RECORDER)
    play_out(mirror, {0: page}, until=bleeding_for_alice)
    assert "card-to-trick" in page.evaluate("window.__flights"), "no card slid into the trick"
    # ...and with reduced motion nothing moves.
    page.emulate_media(reduced_motion="reduce")
    assert page.evaluate(FORCED_FLIGHT) == "none"
    page.emulate_media(reduced_motion="no-preference")
    assert page.evaluate(FORCED_FLIGHT) == "card-to-trick"
    legal, illegal = legal_split(mirror.state, 0)
    assert legal and illegal
    check_contrast(browser, page, TEXT_AT_TRICKS)
    check_phone(page, len(mirror.state.hands[0]))

    # Focus on a playable card on the felt: a solid ring that stands out from the felt.
    focused = f"#card-{legal[0]}"
    focus_with_keys(page, focused)
    ring = page.evaluate(CONTRAST, [focused, "outlineColor", True])
    assert ring["ratio"] >= 3, ring

    # alice plays it with Enter: after the redraws focus is still on the table.
    mirror.apply(Play(0, engine.parse_card(legal[0])))
    mirror.run_bots()
    page.keyboard.press("Enter")
    wait_for_version([page], mirror.version)
    assert page.evaluate("document.getElementById('table').contains(document.activeElement)")


BUTTON_NAME = re.compile(r'button "([^"]*)"')


def test_names_say_what_each_thing_is_seats_chips_the_trick_and_add_bot(
    browser: Browser, base_url: str
) -> None:
    expect.set_options(timeout=15_000)
    name = f"{PREFIX}bea"
    page = sign_up(browser, base_url, name)
    create_game(page, "Named things")
    live(page)  # the room's first push has been swapped in: it will not change under us
    settled(page)

    # "Add a bot" and a button per other level on each of the three empty seats: the name a
    # speech user says is the label they see (WCAG 2.5.3).
    buttons = page.locator("#room form[action$='/bots/'] button")
    expect(buttons).to_have_count(3 * len(LEVELS))
    for button in buttons.all():
        visible = button.inner_text().strip()
        snapshot = button.aria_snapshot()
        found = BUTTON_NAME.search(snapshot)
        assert found, snapshot
        assert visible.lower() in found.group(1).lower(), (visible, found.group(1))
    add_bots(page, (2, 3, 4))
    start(page)

    # Each seat is a group named after its player and seat, not one run of text.
    t = table(page)
    seats = {name: 1, "Bot Ada": 2, "Bot Blaise": 3, "Bot Grace": 4}
    for player, number in seats.items():
        expect(t.get_by_role("group", name=f"{player}, seat {number}", exact=True)).to_be_visible()
    # alice deals the first round: her chip reads "Dealer", one word.
    mine = t.get_by_role("group", name=f"{name}, seat 1", exact=True)
    expect(mine.get_by_role("img", name="Dealer", exact=True)).to_be_visible()
    assert "D ealer" not in mine.aria_snapshot()
    # The trick in the middle is a named group too.
    expect(t.get_by_role("group", name="Current trick", exact=True)).to_be_visible()
