"""Cards of One Hundred and Four: the values 1 … 104, each card's bullheads, rows' costs.

A card is a plain int (its value); a row is a tuple of cards, oldest first, its last card
being the row's *end*. Every value is unique, so cards never tie.
"""

from __future__ import annotations

from collections.abc import Iterable

LOWEST = 1
HIGHEST = 104
DECK: tuple[int, ...] = tuple(range(LOWEST, HIGHEST + 1))
ROW_COUNT = 4
ROW_LIMIT = 5  # a row holds at most five cards: the sixth takes it
HAND_SIZE = 10  # cards per seat, so turns per deal
MIN_SEATS = 2
MAX_SEATS = 10

Row = tuple[int, ...]
Rows = tuple[Row, ...]


def bullheads(card: int) -> int:
    """The penalty of `card` (rules §1, C-104-02): 55 → 7, multiples of 11 → 5, of 10 → 3,
    of 5 → 2, every other card → 1."""
    if card == 55:
        return 7
    if card % 11 == 0:
        return 5
    if card % 10 == 0:
        return 3
    if card % 5 == 0:
        return 2
    return 1


# BULLHEADS[card] for card in 0 … 104 (index 0 unused): the lookup the engine and bots use.
BULLHEADS: tuple[int, ...] = (0, *(bullheads(c) for c in DECK))


def row_cost(cards: Iterable[int]) -> int:
    """The bullheads of `cards` (a row, a pile) together."""
    table = BULLHEADS
    return sum(table[c] for c in cards)


def is_card(value: object) -> bool:
    """Whether `value` is a card: an int (not a bool) in 1 … 104."""
    return type(value) is int and LOWEST <= value <= HIGHEST


def target_row(rows: Rows, card: int) -> int | None:
    """The row `card` goes to if it fits (the row whose end is the highest value below the
    card), or None when the card is lower than every row end (rules §4)."""
    best = None
    best_end = 0
    for index, row in enumerate(rows):
        end = row[-1]
        if best_end < end < card:
            best, best_end = index, end
    return best
