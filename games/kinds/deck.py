"""What the card games share of the French-suited pack and of cards as small ints (pure).

Each game numbers its own cards (`Card`, a NewType of int in its engine/cards.py) so that a
card's suit and rank are one division away and a set of cards is an int mask; what is the
same in every such numbering lives here: the suits and the 52-card ranks, reading a card's
code, and turning a mask back into its cards; the cards' names, for the Django side to
translate (games/kinds/words.py). No Django here: the engines use it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import Any, TypeVar

from .words import Phrase, gettext_noop

C = TypeVar("C", bound=int)
T = TypeVar("T")

SUITS: tuple[str, ...] = ("C", "D", "H", "S")
CLUBS, DIAMONDS, HEARTS, SPADES = 0, 1, 2, 3
# The 52-card pack's ranks, lowest first (Hearts, Hundred and Ten).
RANKS: tuple[str, ...] = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
RANK_NAMES: tuple[str, ...] = (
    "Two",
    "Three",
    "Four",
    "Five",
    "Six",
    "Seven",
    "Eight",
    "Nine",
    "Ten",
    "Jack",
    "Queen",
    "King",
    "Ace",
)
SUIT_NAMES: tuple[str, ...] = ("Clubs", "Diamonds", "Hearts", "Spades")
SUIT_SINGULAR: tuple[str, ...] = ("club", "diamond", "heart", "spade")
# The translation contexts of the words cards are named with (pgettext's): "Hearts" the suit
# is not Hearts the game. games/kinds/cardfaces.py marks every such word with its context.
RANK_CONTEXT = "card rank"
SUIT_CONTEXT = "card suit"
SUIT_SINGULAR_CONTEXT = "card suit, singular"


def card_phrase(rank_name: str, suit_name: str) -> Phrase:
    """A card's name for messages and screen readers, "Queen of Spades" in English, from a
    rank's name (RANK_NAMES) and a suit's (SUIT_NAMES); the Django side translates the
    pattern and both words."""
    return Phrase(
        # Translators: a card's name, e.g. "Queen of Spades": %(rank)s is a rank's name
        # ("Queen"), %(suit)s a suit's ("Spades"). Order them as your language names cards.
        gettext_noop("%(rank)s of %(suit)s"),
        {
            "rank": Phrase(rank_name, context=RANK_CONTEXT),
            "suit": Phrase(suit_name, context=SUIT_CONTEXT),
        },
    )


def suit_word(suit: int) -> Phrase:
    """Suit index `suit` as one card of it is called, "club", for a sentence ("play a
    club")."""
    return Phrase(SUIT_SINGULAR[suit], context=SUIT_SINGULAR_CONTEXT)


def code_reader(by_code: Mapping[str, C], examples: str) -> Callable[[str], C]:
    """A game's `parse_card`: the card written `code` (a key of `by_code`); ValueError for
    anything else, whose sentence shows the notation by `examples` ("'2C', '10H' or 'QS'")."""

    def parse_card(code: str) -> C:
        card = by_code.get(code) if isinstance(code, str) else None
        if card is None:
            raise ValueError(f"{code!r} is not a card (expected e.g. {examples}).")
        return card

    return parse_card


def suit_tables(card: Callable[[int], C], width: int) -> tuple[tuple[tuple[C, ...], ...], ...]:
    """For a game's `cards_of`: in each of the four suits, the cards of every mask of that
    suit alone (`table[m]`, m < 2 ** `width`), for cards numbered ``suit * width + index``
    (`card` makes a game's card of an int).

    Views and legal plays turn masks into cards all the time: four lookups in these tables
    beat a loop over the bits (each game's `cards_of` is one line, with its widths written
    as constants, since it is that hot)."""

    def suit_table(suit: int) -> tuple[tuple[C, ...], ...]:
        table: list[tuple[C, ...]] = [()]
        for m in range(1, 1 << width):
            high = m.bit_length() - 1
            table.append(table[m ^ (1 << high)] + (card(suit * width + high),))
        return tuple(table)

    return tuple(suit_table(s) for s in range(4))


def mask_of(cards: Iterable[int]) -> int:
    """The mask of `cards`, bit `card` for each (a card given twice counts once)."""
    mask = 0
    for card in cards:
        mask |= 1 << card
    return mask


def by_bits(mask: int, table: Sequence[T]) -> list[T]:
    """`table[card]` for each card of a mask, lowest first: the legal actions of a mask of
    cards from a game's table of one action per card, made once."""
    out: list[T] = []
    while mask:
        low = mask & -mask
        out.append(table[low.bit_length() - 1])
        mask ^= low
    return out


def read_deals(
    deals: Sequence[Any], parse: Callable[[str], C], hands: str
) -> Iterator[list[list[C]]]:
    """The deals of the traces' JSON form (hand h: one list of card codes per seat) as cards,
    one deal at a time, so that a game checks each (its `check_deal`) before the next is
    read; ValueError for a deal that is not a list of `hands` ("four hands") of codes."""
    for index, deal in enumerate(deals):
        if not isinstance(deal, Sequence) or isinstance(deal, str):
            raise ValueError(f"The deal of hand {index + 1} is not a list of {hands}.")
        cards = []
        for hand in deal:
            if not isinstance(hand, Sequence) or isinstance(hand, str):
                raise ValueError(f"A hand of deal {index + 1} is not a list of cards.")
            cards.append([parse(code) for code in hand])
        yield cards
