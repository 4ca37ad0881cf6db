"""What a seat may see of a Fifty-Six match (rules §14), as a check on the HTML it is sent.

Used by tests/games/test_hidden_information_fifty_six.py (pages, partials, hints, lobby,
websocket frames) and the browser tests (tests/browser/fifty_six.py). Pure: no Django.

A text is split into the shared side panel (`<aside id="table-side">`, built from the
spectators' view) and everything else (the table, a move's answer, a hint, the lobby):

* everything else may show (`data-card="JC0"`, or a card's name, "Jack of Clubs") only the
  viewer's own hand, the cards of this hand's tricks, and the trump card once it is
  revealed, or, to the bidder alone, while it lies face down. Never another seat's hand,
  the partner's included; never the face-down card, nor any sign of its suit ("Trump
  revealed", the trump chip "Trump ♠ Spades", the bidder's "only you see this"), to anybody
  but the bidder, spectators included. A card's two copies share a name, so a name is only
  a leak when neither copy may be seen;
* the side panel may show only the trump cards of finished hands that were revealed, and
  says nothing about the trump of a hand where nobody asked (C-56-23).

`check` takes the candidate states a text may belong to (a render can race the next
commit: the version it names and the one after); what it may show is their union, what it
must not show their intersection.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from games.kinds.fifty_six.engine import (
    CODES,
    Card,
    FiftySixState,
    card_name,
    parse_card,
    view_of,
)

DATA_CARD = re.compile(r'data-card="([^"]+)"')
NAMES = sorted({card_name(Card(c)) for c in range(len(CODES))})
CARD_NAME = re.compile("|".join(re.escape(name) for name in NAMES))
SIDE = re.compile(r'<aside id="table-side".*?</aside>', re.DOTALL)
SIDE_ROW = re.compile(r"<li>Hand (\d+):(.*?)</li>", re.DOTALL)
TABLE_TAG = re.compile(r'<section id="table"[^>]*?data-version="(\d+)"')
# Signs of the trump's suit or card that only the bidder may see before the reveal.
TRUMP_SIGNS = (
    re.compile(r"Trump revealed"),
    re.compile(r'class="trump-chip"'),
    re.compile(r"fs-trump-suit"),
    re.compile(r"only you see this"),
    re.compile(r"Your trump card"),
    re.compile(r"Trump [♣♦♥♠]"),
)


def trump_secret(state: FiftySixState, seat: int | None) -> bool:
    """A face-down trump card lies on the table and `seat` is not its bidder."""
    return state.trump >= 0 and not state.revealed and seat != state.bidder


def visible(state: FiftySixState, seat: int | None) -> set[str]:
    """The card codes `seat` (None: a spectator) may see on its table at `state`."""
    view = view_of(state, seat)
    cards = set(view.hand) | {c for _, c in view.trick}
    cards |= {c for trick in view.tricks for _, c in trick.plays}
    if view.trump_card is not None:
        cards.add(view.trump_card)
    return {CODES[c] for c in cards}


def hidden(state: FiftySixState, seat: int | None) -> set[str]:
    """The card codes `seat` must not see at `state`: every other hand, and the face-down
    card unless `seat` laid it (once revealed it is in the bidder's hand and face up)."""
    cards: set[Card] = set()
    for other in range(state.seats):
        if other != seat:
            cards.update(view_of(state, other).hand)
    if state.trump >= 0:
        trump = Card(state.trump)
        if state.revealed:
            cards.discard(trump)
        elif seat != state.bidder:
            cards.add(trump)
    return {CODES[c] for c in cards}


def revealed_history_trumps(state: FiftySixState) -> set[str]:
    """The trump cards of finished hands that everybody saw."""
    return {CODES[r.trump] for r in view_of(state, None).history if r.trump is not None}


def check(text: str, states: Sequence[FiftySixState], seat: int | None, where: str) -> int:
    """Assert that `text` shows `seat` nothing hidden from it at every one of `states`;
    return how many card marks it holds (so that a caller can tell it saw real tables)."""
    assert states, where
    allowed = set().union(*(visible(s, seat) for s in states))
    secret = set.intersection(*(hidden(s, seat) for s in states))
    allowed_names = {card_name(parse_card(code)) for code in allowed}
    concealed = all(trump_secret(s, seat) for s in states)
    shown = 0
    sides = SIDE.findall(text)
    rest = SIDE.sub("", text)
    found = DATA_CARD.findall(rest)
    shown += len(found)
    leaked = (set(found) & secret) | (set(found) - allowed)
    assert not leaked, f"{where}: seat {seat} was shown {sorted(leaked)}"
    named = set(CARD_NAME.findall(rest)) - allowed_names
    assert not named, f"{where}: seat {seat} reads {sorted(named)}"
    if concealed:
        for sign in TRUMP_SIGNS:
            assert not sign.search(rest), f"{where}: seat {seat} learns the trump ({sign.pattern})"
    history = {r.index + 1: r for r in view_of(states[-1], None).history}
    side_allowed = set().union(*(revealed_history_trumps(s) for s in states))
    for side in sides:
        found = DATA_CARD.findall(side)
        shown += len(found)
        assert set(found) <= side_allowed, f"{where}: side panel shows {sorted(found)}"
        named = set(CARD_NAME.findall(side)) - {card_name(parse_card(c)) for c in side_allowed}
        assert not named, f"{where}: side panel names {sorted(named)}"
        for number, row in SIDE_ROW.findall(side):
            record = history.get(int(number))
            if record is not None and record.trump is None:
                assert "data-card" not in row, f"{where}: hand {number}'s hidden trump: {row}"
        for sign in TRUMP_SIGNS:
            assert not sign.search(side), f"{where}: side panel: {sign.pattern}"
    return shown


def check_no_cards(text: str, where: str) -> None:
    """Assert that `text` (a push that is not a table: a turn banner, a notice) names no
    card and no trump at all."""
    assert not DATA_CARD.search(text) and not CARD_NAME.search(text), f"{where}: {text[:300]}"
    for sign in TRUMP_SIGNS:
        assert not sign.search(text), f"{where}: {sign.pattern}"


def table_version(text: str) -> int | None:
    """The version of the table in `text` (a page, an answer, a frame), if it has one."""
    found = TABLE_TAG.search(text)
    return int(found.group(1)) if found else None
