"""Playing cards as HTML, for the games played with French-suited cards (♣ ♦ ♥ ♠).

A game maps each of its cards to a code (what a form posts, e.g. "10H" or "JC0"), a rank
label, a suit letter and a name; `face(...)` gives what its templates need: the card's inside,
an image-like span with its name (`html`, `small`), CSS classes. The markup is built once per
card and process: tables show many cards, and template includes are slow.

Every rendered card carries `data-card` with its code; the hidden-information tests look for
it. Only cards the viewer may see ever get here.

Names are shown in the active language: a game names its cards in English `Phrase`s
(games/kinds/deck.py `card_phrase`), translated here from the words marked below, so the
markup is built once per card, process and language.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Protocol

from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language, gettext, pgettext, pgettext_lazy

from games.phrases import translated

SUIT_SYMBOLS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}
SUIT_NAMES = {"C": "Clubs", "D": "Diamonds", "H": "Hearts", "S": "Spades"}

# For makemessages: the words the games name their cards with, in the contexts of
# games/kinds/deck.py (RANK_CONTEXT, SUIT_CONTEXT, SUIT_SINGULAR_CONTEXT), which
# `translated` looks them up in. A card's name is "%(rank)s of %(suit)s" (deck.card_phrase).
MARKED_WORDS = (
    # Translators: a card's rank (here and below), in a card's name ("Two of Clubs").
    pgettext_lazy("card rank", "Two"),
    pgettext_lazy("card rank", "Three"),
    pgettext_lazy("card rank", "Four"),
    pgettext_lazy("card rank", "Five"),
    pgettext_lazy("card rank", "Six"),
    pgettext_lazy("card rank", "Seven"),
    pgettext_lazy("card rank", "Eight"),
    pgettext_lazy("card rank", "Nine"),
    pgettext_lazy("card rank", "Ten"),
    pgettext_lazy("card rank", "Jack"),
    pgettext_lazy("card rank", "Queen"),
    pgettext_lazy("card rank", "King"),
    pgettext_lazy("card rank", "Ace"),
    # Translators: a suit (here and below), in a card's name ("Two of Clubs") and alone.
    pgettext_lazy("card suit", "Clubs"),
    pgettext_lazy("card suit", "Diamonds"),
    pgettext_lazy("card suit", "Hearts"),
    pgettext_lazy("card suit", "Spades"),
    # Translators: one card of a suit, as in "You must follow suit: play a club."
    pgettext_lazy("card suit, singular", "club"),
    pgettext_lazy("card suit, singular", "diamond"),
    pgettext_lazy("card suit, singular", "heart"),
    pgettext_lazy("card suit, singular", "spade"),
)


def suit_name(suit: str) -> str:
    """The name of suit letter `suit` ("Spades"), in the active language."""
    return pgettext("card suit", SUIT_NAMES[suit])


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
        "name": suit_name(suit),
        "symbol": SUIT_SYMBOLS[suit],
        "color": "red" if suit in "DH" else "black",
    }


def _inside(rank: str, suit: str | None) -> str:
    if suit is None:  # the joker
        return (
            '<span class="pcard-corner" aria-hidden="true">JK</span>'
            '<span class="pcard-pip" aria-hidden="true">★</span>'
            f'<span class="pcard-word" aria-hidden="true">{escape(gettext("Joker"))}</span>'
        )
    symbol = SUIT_SYMBOLS[suit]
    corner = f"{rank}<br>{symbol}"
    return (
        f'<span class="pcard-corner" aria-hidden="true">{corner}</span>'
        f'<span class="pcard-pip" aria-hidden="true">{symbol}</span>'
        f'<span class="pcard-corner pcard-corner-end" aria-hidden="true">{corner}</span>'
    )


def face(code: str, rank: str, suit: str | None, name: str) -> CardFace:
    """The card called `name` (English, a `Phrase` or a marked message: shown translated),
    posted as `code`: rank label ("10", "Q"), suit letter (None for a joker)."""
    return _face(code, rank, suit, name, get_language())


@lru_cache(maxsize=4096)
def _face(code: str, rank: str, suit: str | None, name: str, language: str | None) -> CardFace:
    """`face` in `language`, the active one (its cache key: the markup holds words)."""
    name = translated(name)
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
