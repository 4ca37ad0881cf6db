"""What the hard bot's sampler reads from the others' bids, trump and discards
(games/kinds/hundred_and_ten/inference.py): the medium bot's meaning of them steers the
hidden hands it deals, from the seat's view only."""

from __future__ import annotations

import random

from games.kinds.hundred_and_ten.engine import (
    Discard,
    SelectTrump,
    apply,
    perspective_of,
)
from games.kinds.hundred_and_ten.engine.bots import best_suit, max_bid
from games.kinds.hundred_and_ten.engine.cards import FULL_DECK, IS_TRUMP, SUITS
from games.kinds.hundred_and_ten.inference import Reading, readings, worth
from games.kinds.hundred_and_ten.search import HundredAndTenSearch

from .helpers import bids, cards, table

HEARTS = SUITS.index("H")
SEARCH = HundredAndTenSearch()
HANDS = ["2S 3S 4S 6S 7S", "AS KS QS JS 5S", "2D 3D 4D 6D 7D", "2C 3C 4C 6C 7C"]


def test_a_hands_worth_is_the_medium_bots_bid_and_suit():
    rng = random.Random(3)
    for _ in range(20_000):
        hand = tuple(rng.sample(FULL_DECK, 5))
        strength, suit = best_suit(hand)
        assert worth(hand) == (max_bid(strength), suit)


def test_bids_passes_and_the_named_trump_are_read_as_the_medium_bot_means_them():
    state = bids(table(HANDS), 15, 0, 20)  # seat 1 bids 15, seat 2 passes, seat 3 bids 20
    found = readings(perspective_of(state, 0))
    assert found == {1: Reading(low=15), 2: Reading(high=20), 3: Reading(low=20)}

    state = bids(state, 20, 0, 0)  # the dealer takes 20 over; seats 1 and 3 pass
    state = apply(state, SelectTrump(0, "S"))
    found = readings(perspective_of(state, 1))
    assert found[0] == Reading(low=20, suit=SUITS.index("S"))
    assert found[1] == Reading(low=15, high=25)  # 25 was the lowest bid open to it
    assert found[3] == Reading(low=20, high=25)
    assert found[1].miss(cards("AS KS QS JS 5S")) == 3  # worth 60: three levels too high
    assert found[0].miss(cards("5H JH QH KH AH")) == 2  # worth a bid, but hearts


def test_a_seats_bid_steers_the_hand_it_is_dealt_in_the_samples():
    state = bids(table(HANDS), 25)  # seat 1 bids 25: its best suit is worth that
    view = perspective_of(state, 2)
    read = [worth(SEARCH.sample(view, random.Random(n)).hands[1])[0] for n in range(300)]
    unseen = [c for c in FULL_DECK if c not in view.hand]  # type: ignore[operator]
    rng = random.Random(5)
    plain = [worth(tuple(rng.sample(unseen, 5)))[0] for _ in range(300)]
    # Rare among random hands, so a few tries find it in only some of the samples, but
    # many times as often; the others come as close as the tries found.
    assert sum(bid >= 25 for bid in plain) < 30
    assert sum(bid >= 25 for bid in read) > 100
    assert sum(bid >= 20 for bid in read) > 200 > 2 * sum(bid >= 20 for bid in plain)


def test_a_seat_that_discarded_three_kept_two_trumps_and_gave_up_non_trumps():
    state = bids(table(HANDS), 0, 0, 0, 15)  # the dealer, seat 0, bids alone
    state = apply(state, SelectTrump(0, "H"))
    state = apply(state, Discard(1, cards("QS JS 5S")))
    state = apply(state, Discard(2, ()))
    view = perspective_of(state, 2)
    trumps = IS_TRUMP[HEARTS]
    for n in range(200):
        world = SEARCH.sample(view, random.Random(n))
        given = world.discards[1]
        assert given is not None and len(given) == 3
        assert not any(trumps[c] for c in given)
        assert sum(trumps[c] for c in world.hands[1]) >= 2
        assert world.discards[3] is None  # seat 3 has not discarded yet
    assert perspective_of(world, 2) == view
