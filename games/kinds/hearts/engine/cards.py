"""Cards of Hearts: the 52-card deck, notation, names, masks and point tables.

A card is a small int (`Card`): ``suit * 13 + rank`` with suits C, D, H, S and ranks 2 … A,
so the canonical order of the traces (by suit C D H S, then rank 2 … A) is plain int order,
and a higher int of the same suit is a higher card. A set of cards (a hand, a pass) is a
52-bit int mask, bit `card` set for each card it holds: membership, following suit and
"holds nothing else" are single `&` operations, and iterating a mask yields the cards
already sorted. Notation ("2C", "10H", "QS") is parsed and written only in this module.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import NewType

from games.kinds.deck import CLUBS as CLUBS
from games.kinds.deck import DIAMONDS as DIAMONDS
from games.kinds.deck import HEARTS as HEARTS
from games.kinds.deck import RANK_NAMES as RANK_NAMES
from games.kinds.deck import RANKS as RANKS
from games.kinds.deck import SPADES as SPADES
from games.kinds.deck import SUITS as SUITS
from games.kinds.deck import card_phrase, code_reader, suit_tables
from games.kinds.deck import mask_of as mask_of
from games.kinds.words import Phrase

Card = NewType("Card", int)

SUIT_NAMES: tuple[str, ...] = ("Clubs", "Diamonds", "Hearts", "Spades")
SUIT_SINGULAR: tuple[str, ...] = ("club", "diamond", "heart", "spade")

DECK: tuple[Card, ...] = tuple(Card(c) for c in range(52))
TWO_OF_CLUBS = Card(0)
QUEEN_OF_SPADES = Card(SPADES * 13 + 10)

# --- Masks -------------------------------------------------------------------------------------
FULL_MASK = (1 << 52) - 1
SUIT_MASKS: tuple[int, ...] = tuple(((1 << 13) - 1) << (13 * s) for s in range(4))
HEARTS_MASK = SUIT_MASKS[HEARTS]
NON_HEARTS_MASK = FULL_MASK & ~HEARTS_MASK
QUEEN_OF_SPADES_BIT = 1 << QUEEN_OF_SPADES
TWO_OF_CLUBS_BIT = 1 << TWO_OF_CLUBS
POINTS_MASK = HEARTS_MASK | QUEEN_OF_SPADES_BIT
NON_POINTS_MASK = FULL_MASK & ~POINTS_MASK

BIT: tuple[int, ...] = tuple(1 << c for c in DECK)
SUIT_OF: tuple[int, ...] = tuple(c // 13 for c in DECK)
RANK_OF: tuple[int, ...] = tuple(c % 13 for c in DECK)
# The mask of the suit of each card: "holds the led suit" is `hand & SUIT_MASK_OF[led]`.
SUIT_MASK_OF: tuple[int, ...] = tuple(SUIT_MASKS[c // 13] for c in DECK)
POINTS: tuple[int, ...] = tuple(
    13 if c == QUEEN_OF_SPADES else 1 if c // 13 == HEARTS else 0 for c in DECK
)

# --- Notation ----------------------------------------------------------------------------------
CODES: tuple[str, ...] = tuple(RANKS[c % 13] + SUITS[c // 13] for c in DECK)
_BY_CODE: dict[str, Card] = {code: Card(c) for c, code in enumerate(CODES)}


# The card written `code` ("2C", "10H", "AS"); ValueError for anything else.
parse_card = code_reader(_BY_CODE, "'2C', '10H' or 'QS'")


def card_code(card: Card) -> str:
    """The notation of `card`: rank then suit letter ("10H")."""
    return CODES[card]


def card_name(card: Card) -> str:
    """The card in words, for messages and screen readers: "Queen of Spades" (a `Phrase`,
    which the Django side translates)."""
    return _NAMES[card]


_NAMES: tuple[Phrase, ...] = tuple(
    card_phrase(RANK_NAMES[c % 13], SUIT_NAMES[c // 13]) for c in DECK
)


def card_suit(card: Card) -> str:
    """The suit letter of `card` ("C", "D", "H", "S")."""
    return SUITS[card // 13]


def card_rank(card: Card) -> str:
    """The rank of `card` as written ("2" … "10", "J", "Q", "K", "A")."""
    return RANKS[card % 13]


card_rank_label = card_rank  # the name the card faces use for a card's corner label


def sort_cards(cards: Iterable[Card]) -> tuple[Card, ...]:
    """`cards` in canonical order: by suit C, D, H, S, then rank 2 … A."""
    return tuple(sorted(cards))


_C, _D, _H, _S = suit_tables(Card, 13)


def cards_of(mask: int) -> tuple[Card, ...]:
    """The cards of a mask, in canonical order."""
    return _C[mask & 8191] + _D[mask >> 13 & 8191] + _H[mask >> 26 & 8191] + _S[mask >> 39]


def codes(cards: Iterable[Card]) -> list[str]:
    """The notation of each card, in the given order."""
    return [CODES[c] for c in cards]


def parse_cards(values: Iterable[str]) -> tuple[Card, ...]:
    """The cards written in `values`, in order; ValueError for an unknown code."""
    return tuple(parse_card(v) for v in values)
