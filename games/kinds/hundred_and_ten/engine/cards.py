"""Cards of Hundred and Ten: the 53-card deck, notation, names and rank tables.

A card is a small int (``Card``): ``suit * 13 + rank`` for the 52 suited cards, with suits
ordered C, D, H, S and ranks 2, 3, ..., 10, J, Q, K, A; the joker is 52. Ints keep the hot
path (bots, playouts) cheap: every question about a card is one tuple lookup in a table
precomputed here. Parsing and formatting of the notation ("10H", "AH", "JK") happen only in
this module.
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
from games.kinds.deck import card_phrase, code_reader
from games.kinds.words import Phrase, gettext_noop

Card = NewType("Card", int)

SUIT_NAMES: dict[str, str] = {"C": "Clubs", "D": "Diamonds", "H": "Hearts", "S": "Spades"}

RED_SUITS = frozenset((DIAMONDS, HEARTS))
JOKER = Card(52)
DECK_SIZE = 53
FULL_DECK: tuple[Card, ...] = tuple(Card(i) for i in range(DECK_SIZE))

_RANK_INDEX = {rank: i for i, rank in enumerate(RANKS)}
_SUIT_INDEX = {suit: i for i, suit in enumerate(SUITS)}
_TWO, _FIVE, _TEN, _JACK, _QUEEN, _KING, _ACE = 0, 3, 8, 9, 10, 11, 12


def make_card(suit: int, rank: int) -> Card:
    """The card of suit index `suit` (0-3, C D H S) and rank index `rank` (0-12, 2..A)."""
    return Card(suit * 13 + rank)


ACE_OF_HEARTS = make_card(HEARTS, _ACE)


def _format(card: int) -> str:
    if card == JOKER:
        return "JK"
    return RANKS[card % 13] + SUITS[card // 13]


NOTATION: tuple[str, ...] = tuple(_format(c) for c in FULL_DECK)
_BY_NOTATION: dict[str, Card] = {text: Card(c) for c, text in enumerate(NOTATION)}


# The card written `text` ("10H", "AH", "JK"); raises ValueError on anything else.
parse_card = code_reader(_BY_NOTATION, "'10H', 'AS' or 'JK'")


def format_card(card: Card) -> str:
    """The notation of `card`: rank then suit letter, or "JK"."""
    return NOTATION[card]


def card_name(card: Card) -> str:
    """English name of `card`: "Ten of Hearts", "Ace of Hearts", "Joker" (a `Phrase`, which
    the Django side translates)."""
    return _NAMES[card]


_NAMES: tuple[Phrase, ...] = (
    *(card_phrase(RANK_NAMES[c % 13], SUIT_NAMES[SUITS[c // 13]]) for c in range(52)),
    Phrase(gettext_noop("Joker")),
)


def card_suit(card: Card) -> str | None:
    """Suit letter of `card` ("C", "D", "H", "S"), None for the joker."""
    return None if card == JOKER else SUITS[card // 13]


def card_rank(card: Card) -> str:
    """Rank of `card` as written ("2".."10", "J", "Q", "K", "A"), "JK" for the joker."""
    return "JK" if card == JOKER else RANKS[card % 13]


def suit_index(suit: str) -> int:
    """Index 0-3 of a suit letter; raises ValueError for anything else."""
    index = _SUIT_INDEX.get(suit) if isinstance(suit, str) else None
    if index is None:
        raise ValueError(f"{suit!r} is not a suit (expected one of C, D, H, S).")
    return index


# --- Rank tables (rules section 10 and appendix A) -------------------------------------------
# Suit index of each card; the joker gets -1 so it never matches a led suit.
SUIT_OF: tuple[int, ...] = tuple(-1 if c == JOKER else c // 13 for c in FULL_DECK)


def _plain_value(card: int) -> int:
    if card == JOKER:
        return -1  # never used: the joker is always a trump
    suit, rank = divmod(card, 13)
    if rank >= _JACK or suit in RED_SUITS:
        return rank  # J 9, Q 10, K 11, A 12; red numbers 2->0 .. 10->8
    return _TEN - rank  # black numbers run backwards: 2->8 .. 10->0


def _trump_value(card: int, trump: int) -> int:
    """Appendix A trump value of `card` with trump suit `trump`, or -1 if it is no trump."""
    if card == JOKER:
        return 12
    if card == ACE_OF_HEARTS:
        return 11
    suit, rank = divmod(card, 13)
    if suit != trump:
        return -1
    special = {_FIVE: 14, _JACK: 13, _ACE: 10, _KING: 9, _QUEEN: 8}
    if rank in special:
        return special[rank]
    if trump in RED_SUITS:
        return rank if rank < _FIVE else rank - 1  # 2->0 3->1 4->2, 6->3 .. 10->7
    return _plain_value(card) - (0 if rank > _FIVE else 1)  # 2->7 3->6 4->5, 6->4 .. 10->0


PLAIN_VALUE: tuple[int, ...] = tuple(_plain_value(c) for c in FULL_DECK)
# TRUMP_VALUE[trump][card]: 0-14 for trumps, -1 for the others.
TRUMP_VALUE: tuple[tuple[int, ...], ...] = tuple(
    tuple(_trump_value(c, t) for c in FULL_DECK) for t in range(4)
)
IS_TRUMP: tuple[tuple[bool, ...], ...] = tuple(
    tuple(v >= 0 for v in values) for values in TRUMP_VALUE
)
# The five of each suit, which costs the bot 10 strength points when missing.
FIVE_OF: tuple[Card, ...] = tuple(make_card(s, _FIVE) for s in range(4))


def is_trump(card: Card, trump_suit: str | int) -> bool:
    """Whether `card` is a trump when `trump_suit` (letter or index) is trump (rules 10.1)."""
    trump = trump_suit if isinstance(trump_suit, int) else suit_index(trump_suit)
    return IS_TRUMP[trump][card]


def sort_hand(cards: Iterable[Card], trump_suit: str | int | None) -> tuple[Card, ...]:
    """Cards in display order.

    Once trump is known: all trumps first, highest first, then the other cards by suit (C D H S)
    and highest plain rank first. Before that: by suit, highest plain rank first (rules 10.3:
    black number cards run backwards, 2 above 10), the joker at the end.
    """
    if trump_suit is None:
        return tuple(
            sorted(cards, key=lambda c: (SUIT_OF[c] if c != JOKER else 4, -PLAIN_VALUE[c]))
        )
    trump = trump_suit if isinstance(trump_suit, int) else suit_index(trump_suit)
    values = TRUMP_VALUE[trump]
    return tuple(
        sorted(
            cards,
            key=lambda c: (
                (0, -values[c], 0) if values[c] >= 0 else (1, SUIT_OF[c], -PLAIN_VALUE[c])
            ),
        )
    )
