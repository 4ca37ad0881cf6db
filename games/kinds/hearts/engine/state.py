"""The game state value, the records of tricks and hands, and where each hand's deal comes from.

`HeartsState` is an immutable value (a NamedTuple: really immutable, and cheap to copy with
a few fields changed, which keeps `apply` fast). Hands and passes are card masks (see
`cards`); use the functions of `rules` and `view` rather than reading masks directly.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Literal, NamedTuple

from .cards import BIT, DECK, POINTS, Card

SEATS = 4
DEFAULT_TARGET = 100
TRICKS_PER_HAND = 13

Phase = Literal["pass", "play", "over"]
PASS: Phase = "pass"
PLAY: Phase = "play"
OVER: Phase = "over"

# Hand h passes in direction h mod 4 (rules §4); the receiver of seat s is s + offset mod 4.
DIRECTIONS: tuple[str, ...] = ("left", "right", "across", "hold")
PASS_OFFSETS: tuple[int, ...] = (1, 3, 2, 0)

Deal = tuple[int, int, int, int]  # one card mask per seat


def pass_direction(hand_index: int) -> str:
    """ "left", "right", "across" or "hold" for 0-based hand `hand_index`."""
    return DIRECTIONS[hand_index % 4]


def pass_offset(hand_index: int) -> int:
    """How many seats clockwise a pass travels in hand `hand_index` (0: no pass)."""
    return PASS_OFFSETS[hand_index % 4]


# --- Deal sources ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class SeededDeals:
    """Deals shuffled from (seed, hand index), as the traces were made: the canonical deck
    shuffled by `random.Random(f"{seed}/deal/{h}")`, deck position k to seat k mod 4."""

    seed: str

    def deal(self, hand_index: int) -> Deal:
        return _seeded_deal(self.seed, hand_index)

    def order(self, hand_index: int) -> tuple[tuple[Card, ...], ...]:
        """Each seat's cards in deal order."""
        return _seeded_order(self.seed, hand_index)


@lru_cache(maxsize=1024)
def _seeded_order(seed: str, hand_index: int) -> tuple[tuple[Card, ...], ...]:
    deck = list(DECK)
    random.Random(f"{seed}/deal/{hand_index}").shuffle(deck)
    return tuple(tuple(deck[seat::SEATS]) for seat in range(SEATS))


@lru_cache(maxsize=1024)
def _seeded_deal(seed: str, hand_index: int) -> Deal:
    return deal_masks(_seeded_order(seed, hand_index))


@dataclass(frozen=True, slots=True)
class FixedDeals:
    """Deals given one per hand (traces, tests): `deals[h][s]` is seat s's 13 cards in deal
    order. Needing a deal past the last one is a ValueError."""

    deals: tuple[tuple[tuple[Card, ...], ...], ...]

    def deal(self, hand_index: int) -> Deal:
        if hand_index >= len(self.deals):
            raise ValueError(f"No deal was given for hand {hand_index + 1}.")
        return deal_masks(self.deals[hand_index])

    def order(self, hand_index: int) -> tuple[tuple[Card, ...], ...]:
        """Each seat's cards in deal order."""
        if hand_index >= len(self.deals):
            raise ValueError(f"No deal was given for hand {hand_index + 1}.")
        return self.deals[hand_index]


DealSource = SeededDeals | FixedDeals


def deal_masks(hands: Sequence[Sequence[Card]]) -> Deal:
    """The four hands of a deal as masks."""
    m0, m1, m2, m3 = (_mask(hand) for hand in hands)
    return (m0, m1, m2, m3)


def _mask(cards: Sequence[Card]) -> int:
    mask = 0
    for card in cards:
        mask |= BIT[card]
    return mask


def check_deal(hands: Sequence[Sequence[Card]], hand_index: int) -> tuple[tuple[Card, ...], ...]:
    """`hands` as tuples, if they are 4 hands of 13 that hold the 52 cards; else ValueError."""
    out = tuple(tuple(hand) for hand in hands)
    if len(out) != SEATS or any(len(hand) != 13 for hand in out):
        raise ValueError(f"The deal of hand {hand_index + 1} is not four hands of 13 cards.")
    if len({card for hand in out for card in hand}) != 52:
        raise ValueError(f"The deal of hand {hand_index + 1} does not hold each card once.")
    return out


# --- Records -----------------------------------------------------------------------------------


# The seats in play order from each leader.
SEAT_ORDER: tuple[tuple[int, ...], ...] = tuple(
    tuple((leader + i) % SEATS for i in range(SEATS)) for leader in range(SEATS)
)


class Trick(NamedTuple):
    """A completed trick: who led, the cards in play order, who won it, its penalty points,
    and the (seat, card) plays in play order (derived, kept because views show them)."""

    leader: int
    cards: tuple[Card, ...]
    winner: int
    points: int
    plays: tuple[tuple[int, Card], ...]


def make_trick(leader: int, cards: tuple[Card, ...]) -> Trick:
    """The completed trick `cards` led by `leader`: the highest card of the led suit wins."""
    led = cards[0] // 13
    best = 0
    for i in range(1, len(cards)):
        card = cards[i]
        if card // 13 == led and card > cards[best]:
            best = i
    points = POINTS[cards[0]] + POINTS[cards[1]] + POINTS[cards[2]] + POINTS[cards[3]]
    plays = tuple(zip(SEAT_ORDER[leader], cards, strict=True))
    return Trick(leader, cards, (leader + best) % SEATS, points, plays)


def trick_winner(plays: Sequence[tuple[int, Card]]) -> int:
    """The seat winning (so far) the trick `plays`, (seat, card) in play order: the highest
    card of the led suit. ValueError for an empty trick."""
    if not plays:
        raise ValueError("An empty trick has no winner.")
    led = plays[0][1] // 13
    seat, best = plays[0]
    for other, card in plays[1:]:
        if card // 13 == led and card > best:
            seat, best = other, card
    return seat


@dataclass(frozen=True, slots=True)
class HandRecord:
    """A finished hand: public facts only (no passes), shown to every seat.

    `taken` are the penalty points each seat won in tricks, `points` the hand's score after
    the moon rule, `totals` the running totals after it, `moon_shooter` the seat that took
    all 26 points (else None).
    """

    index: int
    pass_direction: str
    tricks: tuple[Trick, ...]
    taken: tuple[int, ...]
    points: tuple[int, ...]
    totals: tuple[int, ...]
    moon_shooter: int | None


# --- The state ---------------------------------------------------------------------------------


class HeartsState(NamedTuple):
    """A game of Hearts between two actions.

    * `source`: where the deals come from; `target`: the game ends after a hand in which a
      total reaches it; `hand_index`: 0-based hand in progress;
    * `phase`: "pass" (choosing passes), "play" (tricks) or "over";
    * `hands`: the cards each seat holds (masks); `passes`: the cards each seat passed this
      hand (0: not yet, or a hold hand). Passes are kept after the exchange so each seat can
      be shown what it gave and received;
    * `to_play`: the seat to play (-1 outside the play); `leader`: who led the current trick;
      `trick`: its cards in play order; `tricks`: the completed tricks of this hand;
    * `hearts_broken`, `taken` (penalty points won this hand), `totals`, `history`.
    """

    source: DealSource
    target: int
    hand_index: int
    phase: Phase
    hands: Deal
    passes: Deal
    to_play: int
    leader: int
    trick: tuple[Card, ...]
    tricks: tuple[Trick, ...]
    hearts_broken: bool
    taken: tuple[int, int, int, int]
    totals: tuple[int, int, int, int]
    history: tuple[HandRecord, ...]


NO_PASSES: Deal = (0, 0, 0, 0)
NO_POINTS: tuple[int, int, int, int] = (0, 0, 0, 0)


def holder_of(hands: Deal, card: Card) -> int:
    """The seat whose hand holds `card`."""
    bit = BIT[card]
    for seat in range(SEATS):
        if hands[seat] & bit:
            return seat
    raise ValueError(f"Nobody holds card {card}.")
