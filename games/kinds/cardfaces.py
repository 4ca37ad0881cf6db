"""Playing cards as HTML, for the games played with French-suited cards (♣ ♦ ♥ ♠).

A game maps each of its cards to a code (what a form posts, e.g. "10H" or "JC0"), a rank
label, a suit letter and a name; `face(...)` gives what its templates need: the card's inside,
an image-like span with its name (`html`, `small`), CSS classes. The markup is built once per
card and process: tables show many cards, and template includes are slow.

Every rendered card carries `data-card` with its code; the hidden-information tests look for
it. Only cards the viewer may see ever get here.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Protocol

from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

SUIT_SYMBOLS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}
SUIT_NAMES = {"C": "Clubs", "D": "Diamonds", "H": "Hearts", "S": "Spades"}


@dataclass(frozen=True)
class CardFace:
    """One card as the templates draw it."""

    code: str
    name: str
    classes: str
    face: SafeString  # the inside of a card (corners, pip); decorative
    html: SafeString  # a face-up card that is not a control, named for screen readers
    small: SafeString  # the same, small (score sheets, history)
    joker: bool = False

    def info(self, **extra: Any) -> dict[str, Any]:
        """The card as a template dict, with per-table facts (e.g. playable=True)."""
        return {
            "code": self.code,
            "name": self.name,
            "classes": self.classes,
            "face": self.face,
            "html": self.html,
            "small": self.small,
            "joker": self.joker,
            **extra,
        }


def suit_info(suit: str) -> dict[str, str]:
    """A suit as the templates show it (trump chips, suit buttons)."""
    return {
        "code": suit,
        "name": SUIT_NAMES[suit],
        "symbol": SUIT_SYMBOLS[suit],
        "color": "red" if suit in "DH" else "black",
    }


def _inside(rank: str, suit: str | None) -> str:
    if suit is None:  # the joker
        return (
            '<span class="pcard-corner" aria-hidden="true">JK</span>'
            '<span class="pcard-pip" aria-hidden="true">★</span>'
            '<span class="pcard-word" aria-hidden="true">Joker</span>'
        )
    symbol = SUIT_SYMBOLS[suit]
    corner = f"{rank}<br>{symbol}"
    return (
        f'<span class="pcard-corner" aria-hidden="true">{corner}</span>'
        f'<span class="pcard-pip" aria-hidden="true">{symbol}</span>'
        f'<span class="pcard-corner pcard-corner-end" aria-hidden="true">{corner}</span>'
    )


@lru_cache(maxsize=1024)
def face(code: str, rank: str, suit: str | None, name: str) -> CardFace:
    """The card called `name`, posted as `code`: rank label ("10", "Q"), suit letter (None
    for a joker)."""
    if suit is None:
        classes = "pcard pcard-joker"
    else:
        # The colour pair for the two-colour deck, and the suit itself for the four-colour
        # one (.deck-four on <html>: docs/comforts.md).
        pair = "pcard-red" if suit in "DH" else "pcard-black"
        classes = f"pcard {pair} pcard-suit-{suit}"
    inside = _inside(rank, suit)

    def shown(size: str) -> SafeString:
        return mark_safe(
            f'<span class="{classes}{size}" data-card="{escape(code)}" role="img" '
            f'aria-label="{escape(name)}">{inside}</span>'
        )

    return CardFace(
        code=code,
        name=name,
        classes=classes,
        face=mark_safe(inside),
        html=shown(""),
        small=shown(" pcard-small"),
        joker=suit is None,
    )


class Notation(Protocol):
    """What a card's face is drawn from: a game's engine/cards.py module, which names these
    functions alike in every game."""

    def card_code(self, card: Any, /) -> str: ...
    def card_rank_label(self, card: Any, /) -> str: ...
    def card_suit(self, card: Any, /) -> str | None: ...
    def card_name(self, card: Any, /) -> str: ...


def face_of(cards: Notation, card: Any) -> CardFace:
    """The face of a game's `card`, as its `cards` module writes and names it."""
    return face(
        cards.card_code(card),
        cards.card_rank_label(card),
        cards.card_suit(card),
        cards.card_name(card),
    )
