"""What the other seats' bids, trump and discards say about their cards, for the search's
sampler (`search._Layout`). Pure Python (no Django), and read from the seat's view only.

The bids, the named trump and how many cards each seat discarded are public. Read as the
medium bot means them (rules section 16), they say a good deal about the hands:

* a bid of A: the hand's best suit is worth a bid of A at least (`max_bid`);
* a pass when the lowest bid open was L: it is worth less than L;
* the trump the bidder named: the best suit of the hand it was dealt;
* discarding n cards: the n discarded were its non-trumps, so it kept 5 - n trumps (those not
  played since are still in its hand).

People do not always play so, so the readings steer the sampler without binding it: a seat's
cards are drawn again up to `TRIES` times until they fit its reading, and the closest draw
is kept if none does. What the rules make certain (a seat that showed no trump has none) is
never given up.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from .engine.bots import _SUIT_PREFERENCE, max_bid
from .engine.cards import FIVE_OF, FULL_DECK, SUITS, TRUMP_VALUE, Card
from .engine.moves import BID_AMOUNTS
from .engine.perspective import SeatView

TRIES = 12  # draws of a seat's cards to find some that fit its reading
HAND = 5  # cards dealt to each seat
NONE = 1_000  # no upper bound on what a hand is worth
_LEVEL = {amount: i for i, amount in enumerate((0, *BID_AMOUNTS, NONE))}

# Each card's worth in every suit's strength (`engine.bots.best_suit`: its trump value if
# it is a trump of the suit, 10 more for the suit's five) packed into one integer, a byte a
# suit in the rules' tie order: a hand's four strengths are the bytes of one sum.
_PACKED = tuple(
    sum(
        (max(TRUMP_VALUE[suit][card], 0) + (10 if card == FIVE_OF[suit] else 0)) << (8 * i)
        for i, suit in enumerate(_SUIT_PREFERENCE)
    )
    for card in range(len(FULL_DECK))
)
_H, _C, _S, _D = _SUIT_PREFERENCE


def worth(dealt: Sequence[Card]) -> tuple[int, int]:
    """The naive bot's most to bid with the hand (`max_bid`), and its best suit (`best_suit`:
    ties go to the first of H, C, S, D): the same as the engine's, a few times faster."""
    total = 0
    for card in dealt:
        total += _PACKED[card]
    best, suit = total & 255, _H
    if (field := total >> 8 & 255) > best:
        best, suit = field, _C
    if (field := total >> 16 & 255) > best:
        best, suit = field, _S
    if (field := total >> 24 & 255) > best:
        best, suit = field, _D
    return max_bid(best - 10), suit  # strength: the values, 10 less without the five


@dataclass(frozen=True, slots=True)
class Reading:
    """What one seat's public moves of this round say about the hand it was dealt."""

    low: int = 0  # its best suit is worth a bid of `low` at least
    high: int = NONE  # ... and of less than `high`
    suit: int | None = None  # its best suit (the trump it named)

    def miss(self, dealt: Sequence[Card]) -> int:
        """How far the hand is from the reading: 0 if it fits, else the bid levels it is off
        by, and 2 more if its best suit is not the one named."""
        most, suit = worth(dealt)
        level = _LEVEL[most]
        off = max(0, _LEVEL[self.low] - level) + max(0, level + 1 - _LEVEL[self.high])
        return off + (2 if self.suit is not None and suit != self.suit else 0)

    @property
    def says_something(self) -> bool:
        return self.low > 0 or self.high < NONE or self.suit is not None


def readings(view: SeatView) -> dict[int, Reading]:
    """Each seat's reading from this round's bids and the named trump (seats with nothing
    to read are left out)."""
    low: dict[int, int] = {}
    high: dict[int, int] = {}
    top = 0
    for seat, amount in view.bids:
        if amount:
            low[seat] = max(low.get(seat, 0), amount)
            top = max(top, amount)
            continue
        takes_over = seat == view.dealer
        open_bids = [a for a in BID_AMOUNTS if a > top or (takes_over and a == top)]
        if open_bids:  # it passed with these open: its hand was worth less than the lowest
            high[seat] = min(high.get(seat, NONE), open_bids[0])
    bidder = view.bidder if view.trump is not None else None
    suit = SUITS.index(view.trump) if view.trump is not None else None
    found = {}
    for seat in {*low, *high, *([bidder] if bidder is not None else [])}:
        reading = Reading(low.get(seat, 0), high.get(seat, NONE), suit if seat == bidder else None)
        if reading.says_something:
            found[seat] = reading
    return found


@dataclass(frozen=True, slots=True)
class Seat:
    """One other seat as the sampler deals it."""

    seat: int
    size: int  # cards in hand now
    no_trump: bool  # showed it holds no trump (certain)
    discarded: int | None  # how many cards it discarded this round (None: not yet)
    kept_played: tuple[Card, ...]  # trumps it has played since, as many as it can have kept
    reading: Reading | None


def seats_of(
    view: SeatView, others: Sequence[tuple[int, int, bool]], is_trump: Sequence[bool]
) -> tuple[Seat, ...]:
    """The other seats (`others`: seat, hand size, holds no trump), the most read first."""
    found = readings(view)
    played: dict[int, list[Card]] = {}
    for trick in [*(t.plays for t in view.tricks), view.current_trick]:
        for seat, card in trick:
            played.setdefault(seat, []).append(card)
    seats = []
    for seat, size, no_trump in others:
        discarded = view.discard_counts[seat]
        kept = HAND - discarded if discarded is not None else 0
        trumps = tuple(c for c in played.get(seat, ()) if is_trump[c])[:kept]
        seats.append(Seat(seat, size, no_trump, discarded, trumps, found.get(seat)))
    seats.sort(key=lambda s: s.reading is None)
    return tuple(seats)


def shuffled(cards: Sequence[Card], rng: random.Random) -> list[Card]:
    """`cards` in a uniformly random order (sorted by random keys: a few times faster than
    `rng.shuffle`, which draws each index in Python)."""
    draw = rng.random
    keys = {card: draw() for card in cards}
    return sorted(cards, key=keys.__getitem__)


def deal_read(
    seats: Sequence[Seat], unseen: Sequence[Card], is_trump: Sequence[bool], rng: random.Random
) -> tuple[dict[int, tuple[tuple[Card, ...], tuple[Card, ...]]], list[Card]]:
    """Each seat's hand and discards (empty before it discards), drawn from `unseen` to fit
    its reading where some draw of `TRIES` does; and the unseen cards left over, in a
    random order."""
    order = shuffled(unseen, rng)
    left = set(unseen)
    placed: dict[int, tuple[tuple[Card, ...], tuple[Card, ...]]] = {}
    for seat in seats:
        free = [c for c in order if c in left]
        given: tuple[Card, ...] = ()
        if seat.discarded is None:
            hand = _undiscarded(seat, free, is_trump, rng)
        else:
            hand, given = _discarded(seat, free, is_trump, rng)
        left.difference_update(hand)
        left.difference_update(given)
        placed[seat.seat] = (hand, given)
    return placed, [c for c in order if c in left]


def _pick(
    reading: Reading | None,
    known: tuple[Card, ...],
    pools: list[list[Card]],
    sizes: list[int],
    rng: random.Random,
) -> list[list[Card]]:
    """`sizes[i]` cards of each of `pools` (each in a random order), drawn again up to
    `TRIES` times until the hand they were dealt (`known` and the cards drawn) fits
    `reading`, else the closest draw. A draw is the next slice of each pool (a new order
    of it when it runs out), so it costs no shuffle."""
    sizes = [min(size, len(pool)) for size, pool in zip(sizes, pools, strict=True)]
    starts = [0] * len(pools)
    best: list[list[Card]] = []
    best_miss = 1_000
    for _ in range(TRIES if reading is not None else 1):
        parts = []
        for i, size in enumerate(sizes):
            start = starts[i]
            if start + size > len(pools[i]):
                pools[i] = shuffled(pools[i], rng)
                start = 0
            parts.append(pools[i][start : start + size])
            starts[i] = start + size
        if reading is None:
            return parts
        dealt = known + tuple(card for part in parts for card in part)
        if len(dealt) != HAND:
            return parts
        miss = reading.miss(dealt)
        if miss < best_miss:
            best, best_miss = parts, miss
            if not miss:
                break
    return best


def _undiscarded(
    seat: Seat, free: list[Card], is_trump: Sequence[bool], rng: random.Random
) -> tuple[Card, ...]:
    """A seat that has not discarded yet holds the hand it was dealt (`free`: the cards
    still to deal, in a random order)."""
    if seat.no_trump:
        plain = [c for c in free if not is_trump[c]]
        free = plain if len(plain) >= seat.size else free
    (hand,) = _pick(seat.reading, (), [free], [seat.size], rng)
    return tuple(hand)


def _discarded(
    seat: Seat, free: list[Card], is_trump: Sequence[bool], rng: random.Random
) -> tuple[tuple[Card, ...], tuple[Card, ...]]:
    """A seat that discarded n cards gave up its non-trumps and kept its 5 - n trumps: those
    not played since are in its hand (none if it showed it has none), beside the cards it
    drew (`free`: the cards still to deal, in a random order)."""
    count = seat.discarded or 0
    trumps = [c for c in free if is_trump[c]]
    plain = [c for c in free if not is_trump[c]]
    keep = 0 if seat.no_trump else min(seat.size, HAND - count - len(seat.kept_played))
    kept, given = _pick(seat.reading, seat.kept_played, [trumps, plain], [keep, count], rng)
    if len(given) < count:  # too few non-trumps left: it gave trumps too
        given += [c for c in trumps if c not in kept][: count - len(given)]
    taken = {*kept, *given}
    rest = [c for c in free if c not in taken]
    drawn = [c for c in rest if not is_trump[c]] if seat.no_trump else rest
    hand = [*kept, *drawn[: seat.size - len(kept)]]
    if len(hand) < seat.size:  # the sample's other seats took what it had to hold
        hand += [c for c in rest if c not in hand][: seat.size - len(hand)]
    return tuple(hand), tuple(given)
