"""Fifty-Six's naive policy on card masks, fast: the decisions of the hard bot's playouts
(pure Python).

The naive bot (`bots.suggest`) decides from a full `FiftySixView`, which the engine builds
with every legal action and bid option: fine for one decision, far too slow for the
thousands of decisions a search plays out. This module is the same policy computed from a
few facts of the state on card masks, for one seat at a time, using only what that seat may
see (its own hand, the cards played, the face-down card if it is the bidder or once it is
shown).

* `bid_choice`, `trump_choice`, `play_choice`: the naive bot's auction call, trump card and
  play (or ask) from the state's few facts (tests/kinds/fifty_six/test_search.py checks,
  through `playout.fast_action`, that they agree with `bots.suggest` on many random
  positions);
* `estimate`, `lowest_bid`, `best_suit`, `masters`: the naive bot's hand value, the lowest
  allowed bid, best suit and master cards, which the playouts and the sampler use too.

Keys below turn the naive bot's tuple keys into single ints (cards are 0 … 47, so `c` and
`99 - c` fit in two digits), so a min or max over a handful of cards is one C call.
"""

from __future__ import annotations

from functools import lru_cache

from .engine.cards import BIT, POINTS, RANK_OF, SUIT_MASKS, SUIT_OF, cards_of
from .engine.state import LOW_BID_TOP, MAX_BID, MIN_BID

ASK = -1  # `play_choice`'s answer for "ask for the trump"
PASSING = 0  # `bid_choice`'s answer for a pass

# min: fewest points, then the weakest rank, then the lowest card (bots._cheap).
CHEAP: tuple[int, ...] = tuple(POINTS[c] * 1000 + (5 - RANK_OF[c]) * 100 + c for c in range(48))
# max: most points, then the weakest rank, then the lowest card (the discard to a partner, the
# last player's winner).
GIVE: tuple[int, ...] = tuple(POINTS[c] * 1000 + RANK_OF[c] * 100 + 99 - c for c in range(48))
# max: most points, then the lowest card (a master lead).
LEAD: tuple[int, ...] = tuple(POINTS[c] * 1000 + 99 - c for c in range(48))
# max: the weakest rank, then the highest card (the card laid face down).
LAY: tuple[int, ...] = tuple(RANK_OF[c] * 100 + c for c in range(48))
_cheap = CHEAP.__getitem__
_give = GIVE.__getitem__
_lead = LEAD.__getitem__
# The cards of the same suit that rank strictly higher (a copy of the card does not).
STRONGER: tuple[int, ...] = tuple(
    sum(BIT[d] for d in range(48) if SUIT_OF[d] == SUIT_OF[c] and RANK_OF[d] < RANK_OF[c])
    for c in range(48)
)
# For the unseen cards of one suit (12 bits): the cards of that suit none of them beats.
_UNBEATEN: tuple[int, ...] = tuple(
    4095 if not m else (1 << ((m & -m).bit_length() - 1 | 1) + 1) - 1 for m in range(4096)
)


def masters(unseen: int) -> int:
    """The cards that no card of `unseen` ranks above (bots._master for every card)."""
    return (
        _UNBEATEN[unseen & 4095]
        | _UNBEATEN[unseen >> 12 & 4095] << 12
        | _UNBEATEN[unseen >> 24 & 4095] << 24
        | _UNBEATEN[unseen >> 36 & 4095] << 36
    )


POINTED = sum(BIT[c] for c in range(48) if POINTS[c])
JACKS = sum(BIT[c] for c in range(48) if RANK_OF[c] == 0)
# One suit's 12 bits (J J 9 9 A A 10 10 K K Q Q): its points, and bots.suit_score.
SUIT_POINTS: tuple[int, ...] = tuple(
    sum(POINTS[b] for b in range(12) if m >> b & 1) for m in range(4096)
)
SUIT_SCORE: tuple[int, ...] = tuple(m.bit_count() * 3 + SUIT_POINTS[m] for m in range(4096))


def best_suit(hand: int) -> int:
    """bots.best_suit on a mask: the longest suit, then the one with most points, then the
    first."""
    best, score = 0, SUIT_SCORE[hand & 4095]
    for suit in (1, 2, 3):
        value = SUIT_SCORE[hand >> 12 * suit & 4095]
        if value > score:
            best, score = suit, value
    return best


@lru_cache(maxsize=8192)
def estimate(hand: int, seats: int) -> int:
    """bots.estimate on a mask (the same arithmetic, so the same int)."""
    average_points = 56 / seats
    points = (
        SUIT_POINTS[hand & 4095]
        + SUIT_POINTS[hand >> 12 & 4095]
        + SUIT_POINTS[hand >> 24 & 4095]
        + SUIT_POINTS[hand >> 36 & 4095]
    )
    jacks = (hand & JACKS).bit_count()
    length = (hand & SUIT_MASKS[best_suit(hand)]).bit_count()
    strength = (points - average_points) + 2 * (jacks - 8 / seats) + 2.5 * max(0, length - 3)
    return int((31 if seats == 4 else 29) + 1.5 * strength)


def lowest_bid(high: int, high_bidder: int, low_bidders: int, seat: int) -> int:
    """The lowest value `seat` may bid (above 56: none), by the rules' R1 and R2."""
    low = max(MIN_BID, high + 1)
    if (
        high_bidder >= 0
        and high_bidder != seat
        and (high_bidder - seat) % 2 == 0
        and high <= LOW_BID_TOP
    ) or low_bidders >> seat & 1:
        low = max(low, LOW_BID_TOP + 1)
    return low


def bid_choice(
    hand: int, seat: int, seats: int, opening: bool, high: int, high_bidder: int, low_bidders: int
) -> int:
    """bots.choose_bid: the value to bid, or PASSING."""
    lowest = lowest_bid(high, high_bidder, low_bidders, seat)
    if opening:
        return lowest
    target = estimate(hand, seats)
    if high_bidder >= 0 and (high_bidder ^ seat) & 1 == 0:
        target -= 4
    if target >= MAX_BID or lowest > MAX_BID or lowest > min(target, MAX_BID - 1):
        return PASSING
    return lowest


def trump_choice(hand: int) -> int:
    """bots.choose_trump: the weakest card of the best suit."""
    return max(cards_of(hand & SUIT_MASKS[best_suit(hand)]), key=LAY.__getitem__)


def play_choice(
    hand: int,
    seat: int,
    bidder: int,
    trump: int,
    revealed: bool,
    asked: bool,
    played: int,
    deck: int,
    count: int,
    after: int,
    led: int,
    win_card: int,
    win_seat: int,
    win_trump: bool,
    trick_points: int,
) -> int:
    """bots.choose_play for `seat` holding `hand`: a card, or ASK.

    `played`: every card played this hand (the current trick's too); `deck`: the game's deck
    mask; `count`: cards in the current trick; `after`: seats still to play after `seat`;
    `led`: the led suit (-1 when leading); `win_card` / `win_seat`: the card winning the trick
    so far and its seat; `win_trump`: that card is a trump beating the led suit."""
    tmask = SUIT_MASKS[SUIT_OF[trump]]
    led_mask = SUIT_MASKS[led] if count else 0
    if asked:
        legal = hand & tmask or hand
    elif not count:
        legal = hand & ~tmask or hand if seat == bidder and not revealed else hand
    else:
        legal = hand & led_mask or hand
    partner = count > 0 and (win_seat ^ seat) & 1 == 0
    may_ask = not revealed and ((seat == bidder and not hand) or (count and not hand & led_mask))
    if may_ask and (not hand or (not partner and (trick_points >= 2 or after == 0))):
        return ASK
    if not legal & (legal - 1):
        return legal.bit_length() - 1
    sees_trump = revealed or seat == bidder
    unseen = deck & ~(hand | played | (BIT[trump] if sees_trump else 0))
    if not count:  # lead: a master with points, else the cheapest (no revealed trump)
        best = legal & POINTED & masters(unseen)
        if best:
            return max(cards_of(best), key=_lead)
        plain = (legal & ~tmask if revealed else legal) or legal
        return min(cards_of(plain), key=_cheap)
    if revealed and SUIT_OF[trump] != led:
        winners = legal & (STRONGER[win_card] if win_trump else STRONGER[win_card] | tmask)
    else:
        winners = legal & STRONGER[win_card]
    if partner:
        keep = legal & ~winners or legal
        plain = (keep & ~tmask if sees_trump else keep) or keep
        if after == 0 or not unseen & STRONGER[win_card]:  # the partner's trick is safe
            spare = plain & ~masters(unseen) or plain
            return max(cards_of(spare), key=_give)
        return min(cards_of(plain), key=_cheap)
    if hand & led_mask:  # follow
        if winners:
            if after == 0:
                return max(cards_of(winners), key=_give)
            sure = winners & masters(unseen)
            if sure:
                return min(cards_of(sure), key=_cheap)
        return min(cards_of(legal), key=_cheap)
    if winners and (trick_points or after == 0 or asked):
        return min(cards_of(winners), key=_cheap)
    plain = (legal & ~tmask if sees_trump else legal) or legal
    return min(cards_of(plain), key=_cheap)
