"""Whole games in another language, in Chromium, by a signed-in person whose profile says so.

(a) Hearts in German: alice signs up, creates a game to 50 against three bots, chooses
    "Deutsch" in the footer (saved in her profile: `<html lang="de">` on every page), and
    plays it to the end through the page. At every turn, and at the end, no visible text on
    the page is an English message of the catalogue that German translates.
(b) Fifty-Six in Malayalam: the same for a match of one table a team, and the vendored
    Malayalam font is the one the page's Malayalam text is drawn with (its glyphs, not boxes).
(c) Every game's table in German, Spanish and Malayalam: no English message, no sideways
    scroll at phone width. Screenshots at phone width, light and dark, of these and of (a)
    and (b) (test-artifacts/screenshots/docs/, or docs/screenshots/ with UPDATE_SCREENSHOTS=1).

The English messages come from the committed catalogues (locale/<language>/LC_MESSAGES).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import cache
from typing import Any

import polib
import pytest
from django.conf import settings
from playwright.sync_api import Browser, Page, expect

from games.kinds.hearts.engine import Pass, Play, card_code
from tests.browser.fifty_six import FiftySixMirror, create_fifty_six_game
from tests.browser.fifty_six import act as act_fifty_six
from tests.browser.hearts import HeartsMirror, record_frames
from tests.browser.hearts_page import create_hearts_game
from tests.browser.helpers import (
    create_game,
    first_turn,
    my_seat,
    sign_up,
    start_with_bots,
    table,
)
from tests.browser.helpers.people import PHONE
from tests.browser.helpers.pictures import FITS, looks, picture
from tests.browser.helpers.table_page import reload_when_chosen, version
from tests.browser.one_hundred_and_four import create_nimmt_game

# The whole games run once, on the embedded default (.ci/run's first pass).
pytestmark = pytest.mark.any_topology

PREFIX = "lang"  # usernames unique to this module (the e2e database is shared)
HEARTS_SEED = "h1029"  # as test_hearts_against_bots_browser.py: three hands to 50
FIFTY_SIX_SEED = "fs4a44"  # as test_fifty_six_browser.py: a match of two hands

# Every text node the reader can see (in a shown element), whitespace folded.
VISIBLE_TEXTS = """() => {
  const out = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const text = node.textContent.replace(/\\s+/g, " ").trim();
    const element = node.parentElement;
    if (!text || !element || element.closest("script, style, template")) continue;
    if (!element.getClientRects().length) continue;
    if (getComputedStyle(element).visibility === "hidden") continue;
    out.push(text);
  }
  return out;
}"""
_PLACEHOLDER = re.compile(r"%\(\w+\)[sd]|%[sd]")


@cache
def catalogue(language: str) -> polib.POFile:
    return polib.pofile(str(settings.BASE_DIR / "locale" / language / "LC_MESSAGES" / "django.po"))


def said_in(language: str, english: str) -> str:
    """The catalogue's translation of `english` up to its first placeholder."""
    entry = catalogue(language).find(english)
    assert entry is not None and entry.msgstr, english
    return _PLACEHOLDER.split(entry.msgstr)[0].strip()


@cache
def english_messages(language: str) -> re.Pattern[str]:
    """A pattern matching a whole English message that `language` translates otherwise
    (a placeholder matches any text), from its catalogue."""
    shapes = set()
    for entry in catalogue(language):
        pairs = [(entry.msgid, entry.msgstr)]
        if entry.msgid_plural:
            forms = entry.msgstr_plural
            pairs = [(entry.msgid, forms.get(0, "")), (entry.msgid_plural, forms.get(1, ""))]
        for english, translated in pairs:
            english = " ".join(english.split())
            # Only what is worth catching: words the language says otherwise, outside tags.
            if english == " ".join(translated.split()) or "<" in english:
                continue
            if not re.search(r"[A-Za-z]{2,}", _PLACEHOLDER.sub("", english)):
                continue
            parts = _PLACEHOLDER.split(english)
            shapes.add(".+?".join(re.escape(part) for part in parts))
    return re.compile("|".join(f"(?:{shape})" for shape in sorted(shapes)))


@cache
def translations(language: str) -> frozenset[str]:
    """Every translation of the catalogue: a text that is one ("Hearts", the game's German
    name, is also the English name of the suit) is in the language."""
    said = set()
    for entry in catalogue(language):
        for text in (entry.msgstr, *entry.msgstr_plural.values()):
            said.add(" ".join(text.split()))
    return frozenset(said)


def english_left(page: Page, language: str) -> list[str]:
    """The visible texts of `page` that are an English message of the catalogue."""
    pattern = english_messages(language)
    texts: list[str] = page.evaluate(VISIBLE_TEXTS)
    return [
        text for text in texts if pattern.fullmatch(text) and text not in translations(language)
    ]


def choose_language(page: Page, code: str) -> None:
    """The footer's chooser: the language, saved in the signed-in person's profile."""
    page.locator("#language-choice").select_option(code)
    with page.expect_navigation():
        page.locator("form.language-choice button[type=submit]").click()
    expect(page.locator("html")).to_have_attribute("lang", code)


def check_language(page: Page, code: str) -> None:
    expect(page.locator("html")).to_have_attribute("lang", code)
    left = english_left(page, code)
    assert not left, f"English on the {code} page: {left}"


def phone_pictures(page: Page, name: str) -> None:
    for size, scheme in looks(page, sizes=(("phone", PHONE),)):
        assert page.evaluate(FITS), f"{name} scrolls sideways at {size} width"
        picture(page, f"{name}-{size}-{scheme}")


def play_out(
    page: Page,
    code: str,
    picture_name: str,
    choose: Callable[[int], Any],
    act: Callable[[Page, Any], None],
    mirror: Any,
) -> int:
    """Seat 0 plays `mirror`'s game to its end through the page (`choose` its move, `act` it
    with the page's controls), the page checked in `code` at every turn and pictured at the
    first; the number of moves made."""
    moves = 0
    while not mirror.over:
        assert mirror.to_act() in ({0}, 0), mirror.to_act()  # a set (Hearts) or a seat
        expect(page.locator(f"#table.is-my-turn[data-version='{mirror.version}']")).to_be_visible()
        check_language(page, code)
        if moves == 0:
            phone_pictures(page, picture_name)
        action = choose(0)
        mirror.apply(0, action)
        mirror.run_bots()
        act(page, action)
        moves += 1
        expect(table(page)).to_have_attribute("data-version", str(mirror.version))
    return moves


def hearts_act(page: Page, action: Pass | Play) -> None:
    """The move through the page, by the cards' codes (the words are German)."""
    if isinstance(action, Pass):
        for code in (card_code(card) for card in action.cards):
            page.locator(f"#table label.pcard-toggle[data-card='{code}']").click()
            expect(page.locator(f"#pass-{code}")).to_be_checked()
        page.locator("#pass-submit").click()
    else:
        page.locator(f"#card-{card_code(action.card)}").click()


def test_alice_plays_hearts_in_german(
    browser: Browser, base_url: str, e2e_env: dict[str, str]
) -> None:
    expect.set_options(timeout=15_000)
    alice = sign_up(browser, base_url, f"{PREFIX}de")
    frames = record_frames(alice)
    game_id = create_hearts_game(alice, "Herzen am Abend", target=50)
    start_with_bots(alice, e2e_env, game_id, HEARTS_SEED)
    assert my_seat(alice) == 0
    reload_when_chosen(alice, 3)
    choose_language(alice, "de")
    expect(alice.locator("#table.is-my-turn")).to_be_visible()
    mirror = HeartsMirror.of(HEARTS_SEED, 50, version(alice), bots=(1, 2, 3))
    # The first turn's prompt, in German.
    prompt = said_in("de", "Your turn: choose three cards to pass to %(name)s.")
    expect(alice.locator("#table")).to_contain_text(prompt)
    moves = play_out(alice, "de", "language-hearts-de-pass", mirror.suggestion, hearts_act, mirror)
    expect(table(alice)).to_have_attribute("data-phase", "over")
    check_language(alice, "de")
    phone_pictures(alice, "language-hearts-de-over")
    assert moves == 42 and len(frames) > 40
    # Another page of the site: the lobby, in German as her profile says.
    alice.goto(f"{base_url}/")
    check_language(alice, "de")


def test_alice_plays_fifty_six_in_malayalam(
    browser: Browser, base_url: str, e2e_env: dict[str, str]
) -> None:
    expect.set_options(timeout=15_000)
    alice = sign_up(browser, base_url, f"{PREFIX}ml")
    game_id = create_fifty_six_game(alice, "ഉച്ചയ്ക്ക് ശേഷം", seats=4, tables=1)
    start_with_bots(alice, e2e_env, game_id, FIFTY_SIX_SEED)
    assert my_seat(alice) == 0
    mirror = FiftySixMirror.of(FIFTY_SIX_SEED, 4, 1, {1, 2, 3}, first_turn(alice))
    choose_language(alice, "ml")
    # The vendored font draws the page's Malayalam: the browser fetched it for this text
    # (its unicode-range) and holds it loaded.
    malayalam_font = alice.evaluate(
        """async () => {
          await document.fonts.ready;
          return [...document.fonts].some(
            (f) => f.family.includes("Noto Sans Malayalam") && f.status === "loaded");
        }"""
    )
    assert malayalam_font, "the Malayalam font was not loaded for the page's Malayalam text"
    moves = play_out(
        alice, "ml", "language-fifty-six-ml-auction", mirror.choose, act_fifty_six, mirror
    )
    expect(table(alice)).to_have_attribute("data-phase", "over")
    check_language(alice, "ml")
    phone_pictures(alice, "language-fifty-six-ml-over")
    assert moves > 10


def test_every_game_in_every_language_at_phone_width(
    browser: Browser, base_url: str, e2e_env: dict[str, str]
) -> None:
    """Each game's table (at its first turn) in German, Spanish and Malayalam at phone width,
    light and dark: no English message left, no sideways scroll (longer German words,
    Malayalam script), a picture of each."""
    expect.set_options(timeout=15_000)
    alice = sign_up(browser, base_url, f"{PREFIX}shots")
    tables = {}
    made = {
        # Names of no language: a name is the players' own words, never translated.
        "hundred-and-ten": lambda: create_game(alice, "Q1"),
        "hearts": lambda: create_hearts_game(alice, "Q2", target=50),
        "one-hundred-and-four": lambda: create_nimmt_game(alice, "Q3", seats=4),
        "fifty-six": lambda: create_fifty_six_game(alice, "Q4", seats=4, tables=1),
    }
    seeds = {"hearts": HEARTS_SEED, "fifty-six": FIFTY_SIX_SEED}
    for slug, create in made.items():
        game_id = create()
        start_with_bots(alice, e2e_env, game_id, seeds.get(slug, f"{PREFIX}-{slug}"))
        tables[slug] = alice.url
        alice.goto(f"{base_url}/")
    for code in ("de", "es", "ml"):
        choose_language(alice, code)
        for slug, url in tables.items():
            alice.goto(url)
            expect(table(alice)).to_be_visible()
            check_language(alice, code)
            phone_pictures(alice, f"language-{slug}-{code}")
