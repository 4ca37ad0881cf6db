"""Cards of Fifty-Six: two copies of J 9 A 10 K Q in four suits, notation, names, masks.

A card is a small int (`Card`): ``suit * 12 + rank * 2 + copy`` with suits C, D, H, S, ranks
J, 9, A, 10, K, Q (strongest first) and copy 0 or 1. So the canonical order of the traces
(suit, then rank J … Q, then copy) is plain int order, and within a suit a *lower* rank index
is a *stronger* card. The 4-player deck leaves out the Kings and Queens. A set of cards (a
hand) is a 48-bit int mask: following suit is one `&`, and iterating a mask yields the cards
already sorted. Notation ("JC0", "10H1") is parsed and written only in this module.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import NewType

from games.kinds.deck import CLUBS as CLUBS
from games.kinds.deck import DIAMONDS as DIAMONDS
from games.kinds.deck import HEARTS as HEARTS
from games.kinds.deck import SPADES as SPADES
from games.kinds.deck import SUITS as SUITS
from games.kinds.deck import card_phrase, code_reader, suit_tables
from games.kinds.deck import mask_of as mask_of
from games.kinds.words import Phrase

Card = NewType("Card", int)

SUIT_NAMES: tuple[str, ...] = ("Clubs", "Diamonds", "Hearts", "Spades")
SUIT_SINGULAR: tuple[str, ...] = ("club", "diamond", "heart", "spade")
SUIT_SYMBOLS: tuple[str, ...] = ("♣", "♦", "♥", "♠")
RANKS: tuple[str, ...] = ("J", "9", "A", "10", "K", "Q")  # strongest first
RANK_NAMES: tuple[str, ...] = ("Jack", "Nine", "Ace", "Ten", "King", "Queen")
RANK_POINTS: tuple[int, ...] = (3, 2, 1, 1, 0, 0)
KING, QUEEN = 4, 5

DECK: tuple[Card, ...] = tuple(Card(c) for c in range(48))
SUIT_OF: tuple[int, ...] = tuple(c // 12 for c in DECK)
RANK_OF: tuple[int, ...] = tuple(c % 12 // 2 for c in DECK)  # 0 = J (strongest) … 5 = Q
POINTS: tuple[int, ...] = tuple(RANK_POINTS[c % 12 // 2] for c in DECK)
BIT: tuple[int, ...] = tuple(1 << c for c in DECK)
SUIT_MASKS: tuple[int, ...] = tuple(0xFFF << (12 * s) for s in range(4))
SUIT_MASK_OF: tuple[int, ...] = tuple(SUIT_MASKS[c // 12] for c in DECK)
FULL_MASK = (1 << 48) - 1


def deck_for(seats: int) -> tuple[Card, ...]:
    """The deck of a game of `seats` players in canonical order: 48 cards with 6, the 32
    without Kings and Queens with 4."""
    if seats == 6:
        return DECK
    return tuple(c for c in DECK if RANK_OF[c] < KING)


DECK_MASKS: dict[int, int] = {n: sum(BIT[c] for c in deck_for(n)) for n in (4, 6)}

# --- Notation ----------------------------------------------------------------------------------
CODES: tuple[str, ...] = tuple(f"{RANKS[RANK_OF[c]]}{SUITS[SUIT_OF[c]]}{c % 2}" for c in DECK)
_BY_CODE: dict[str, Card] = {code: Card(c) for c, code in enumerate(CODES)}


# The card written `code` ("JC0", "10H1", "QS0"); ValueError for anything else.
parse_card = code_reader(_BY_CODE, "'JC0', '10H1' or 'QS0'")


def card_code(card: Card) -> str:
    """The notation of `card`, as in the traces: rank, suit letter, copy digit ("10H1")."""
    return CODES[card]


def card_rank(card: Card) -> str:
    """The rank of `card` as written on its corner ("J", "9", "A", "10", "K", "Q")."""
    return RANKS[RANK_OF[card]]


card_rank_label = card_rank  # the name the card faces use for a card's corner label


def card_suit(card: Card) -> str:
    """The suit letter of `card` ("C", "D", "H", "S")."""
    return SUITS[SUIT_OF[card]]


def card_name(card: Card) -> str:
    """The card in words, for messages and screen readers: "Jack of Clubs" (a `Phrase`,
    which the Django side translates)."""
    return _NAMES[card]


_NAMES: tuple[Phrase, ...] = tuple(
    card_phrase(RANK_NAMES[RANK_OF[c]], SUIT_NAMES[SUIT_OF[c]]) for c in DECK
)


def card_points(card: Card) -> int:
    """The card points of `card`: J 3, 9 2, A 1, 10 1, K 0, Q 0."""
    return POINTS[card]


def card_face(card: Card) -> tuple[str, str, str]:
    """What a template draws: (code, rank label, suit letter), e.g. ("10H1", "10", "H")."""
    return CODES[card], RANKS[RANK_OF[card]], SUITS[SUIT_OF[card]]


def same_card(a: Card, b: Card) -> bool:
    """Whether `a` and `b` are the two copies of one card (or the same card)."""
    return a >> 1 == b >> 1


def sort_cards(cards: Iterable[Card]) -> tuple[Card, ...]:
    """`cards` in canonical order: by suit C, D, H, S, then rank J … Q, then copy."""
    return tuple(sorted(cards))


_C, _D, _H, _S = suit_tables(Card, 12)


def cards_of(mask: int) -> tuple[Card, ...]:
    """The cards of a mask, in canonical order."""
    return _C[mask & 4095] + _D[mask >> 12 & 4095] + _H[mask >> 24 & 4095] + _S[mask >> 36]


def mask_points(mask: int) -> int:
    """The card points of the cards of a mask."""
    return sum(POINTS[c] for c in cards_of(mask))


def codes(cards: Iterable[Card]) -> list[str]:
    """The notation of each card, in the given order."""
    return [CODES[c] for c in cards]


def strongest(cards: Iterable[Card]) -> Card:
    """The strongest card of `cards` by rank (suits ignored; the first of equals)."""
    return min(cards, key=lambda c: RANK_OF[c])
