"""Fifty-Six's playouts of the hard bot, fast (pure Python): the naive policy on card masks
(`policy.py`) for every seat.

Inside a playout every seat still plays on its own knowledge, as the naive bot would: the
policy sees only what that seat may see of the state.

* `fast_action(state, seat)`: the policy's choice for the seat to act as an `Action`, for
  the tests (tests/kinds/fifty_six/test_search.py checks it agrees with `bots.suggest` on
  many random positions);
* `finish_hand(state)`: plays the hand in progress to its end with that policy for every
  seat (the auction, the trump card, the tricks) on local masks, and says how it ended.
"""

from __future__ import annotations

from typing import NamedTuple

from .engine.actions import ASK_TRUMP, PASS, PLAYS, TRUMPS, Action, make_bid
from .engine.cards import BIT, DECK_MASKS, POINTS, RANK_OF, SUIT_MASKS, SUIT_OF
from .engine.play import trick_winner_index
from .engine.state import (
    AUCTION,
    CARDS_PER_HAND,
    LOW_BID_TOP,
    MAX_BID,
    MIN_BID,
    PLAY,
    TRUMP_CHOICE,
    FiftySixState,
)
from .policy import ASK, PASSING, bid_choice, estimate, play_choice, trump_choice

TOTAL_POINTS = 56  # card points in either deck


def _trick_facts(state: FiftySixState) -> tuple[int, int, int, bool, int]:
    """(led suit, winning card, winning seat, winning card is a trump over the led suit,
    points) of the state's current trick; (-1, -1, -1, False, 0) when it is empty."""
    trick = state.trick
    if not trick:
        return -1, -1, -1, False, 0
    led = SUIT_OF[trick[0][1]]
    trump = SUIT_OF[state.trump] if state.revealed else -1
    index = trick_winner_index(trick, trump, state.reveal_pos)
    seat, card = trick[index]
    points = sum(POINTS[c] for _, c in trick)
    return led, card, seat, trump >= 0 and trump != led and SUIT_OF[card] == trump, points


def _played(state: FiftySixState) -> int:
    mask = 0
    for trick in state.tricks:
        for _, card in trick.plays:
            mask |= BIT[card]
    for _, card in state.trick:
        mask |= BIT[card]
    return mask


def fast_action(state: FiftySixState, seat: int) -> Action:
    """The naive bot's action for `seat` (who must be to act), from the state's facts that
    seat may see: what `bots.suggest(view_of(state, seat))` answers."""
    hand = state.hands[seat]
    if state.phase == AUCTION:
        value = bid_choice(
            hand,
            seat,
            state.seats,
            not state.calls,
            state.high_bid,
            state.high_bidder,
            state.low_bidders,
        )
        return make_bid(value) if value else PASS
    if state.phase == TRUMP_CHOICE:
        return TRUMPS[trump_choice(hand)]
    led, win_card, win_seat, win_trump, points = _trick_facts(state)
    count = len(state.trick)
    card = play_choice(
        hand,
        seat,
        state.bidder,
        state.trump,
        state.revealed,
        state.asked,
        _played(state),
        DECK_MASKS[state.seats],
        count,
        state.trick_size() - count - 1,
        led,
        win_card,
        win_seat,
        win_trump,
        points,
    )
    return ASK_TRUMP if card == ASK else PLAYS[card]


class HandEnd(NamedTuple):
    """How a hand played out: `bidder` (-1: a void hand, nobody scores), `contract`, `made`,
    and the card points by team."""

    bidder: int
    contract: int
    made: bool
    points: tuple[int, int]


VOID = HandEnd(-1, 0, False, (0, 0))


def finish_hand(state: FiftySixState) -> HandEnd:
    """Play the hand of `state` (auction, trump choice or play) to its end with the fast naive
    policy for every seat."""
    n = state.seats
    hands = list(state.hands)
    phase = state.phase
    bidder = state.bidder
    contract = state.contract
    if phase == AUCTION:
        seat = state.to_play
        high, high_bidder, low_bidders, passes = (
            state.high_bid,
            state.high_bidder,
            state.low_bidders,
            state.passes,
        )
        opening = not state.calls
        estimates: list[int | None] = [None] * n
        while True:
            lowest = high + 1 if high >= MIN_BID else MIN_BID
            if lowest <= LOW_BID_TOP and (
                low_bidders >> seat & 1
                or (high_bidder >= 0 and high_bidder != seat and (high_bidder ^ seat) & 1 == 0)
            ):
                lowest = LOW_BID_TOP + 1  # R2, or R1 over a partner's low bid
            if opening:
                value = lowest
                opening = False
            else:
                target = estimates[seat]
                if target is None:
                    target = estimates[seat] = estimate(hands[seat], n)
                if high_bidder >= 0 and (high_bidder ^ seat) & 1 == 0:
                    target -= 4
                if target >= MAX_BID or lowest > MAX_BID or lowest > min(target, MAX_BID - 1):
                    value = PASSING
                else:
                    value = lowest
            if value:
                high, high_bidder, passes = value, seat, 0
                if value <= LOW_BID_TOP:
                    low_bidders |= 1 << seat
                if value >= MAX_BID:
                    break
            else:
                passes += 1
                if passes >= n - 1:
                    break
            seat = (seat + 1) % n
        bidder, contract = high_bidder, high
        phase = TRUMP_CHOICE
    if phase == TRUMP_CHOICE:
        trump = trump_choice(hands[bidder])
        hands[bidder] &= ~BIT[trump]
        tmask = SUIT_MASKS[SUIT_OF[trump]]
        if not any(hands[s] & tmask for s in range(1 - (bidder & 1), n, 2)):
            return VOID
        revealed = asked = False
        seat = bidder if contract >= MAX_BID else (state.dealer + 1) % n
        count = 0
        led = win_card = win_seat = -1
        win_trump = False
        trick_points = 0
        played = 0
        tricks = 0
        p0 = p1 = 0
    else:
        assert phase == PLAY
        trump = state.trump
        tmask = SUIT_MASKS[SUIT_OF[trump]]
        revealed, asked = state.revealed, state.asked
        seat = state.to_play
        count = len(state.trick)
        led, win_card, win_seat, win_trump, trick_points = _trick_facts(state)
        played = _played(state)
        tricks = len(state.tricks)
        p0, p1 = state.points
    tani = contract >= MAX_BID
    size = n // 2 + 1 if tani else n
    deck = DECK_MASKS[n]
    trump_suit = SUIT_OF[trump]
    following_seat = [(s + 1) % n for s in range(n)]
    if tani:  # the bidder's partners sit out
        for s in range(n):
            nxt = (s + 1) % n
            if nxt != bidder and (nxt - bidder) % 2 == 0:
                following_seat[s] = (nxt + 1) % n
    while True:
        hand = hands[seat]
        # A follower with one card of the led suit has no choice (nor may it ask): the
        # most common decision, taken here without the policy.
        following = hand & SUIT_MASKS[led] if count and not asked else 0
        if following and not following & (following - 1):
            card = following.bit_length() - 1
        else:
            card = play_choice(
                hand,
                seat,
                bidder,
                trump,
                revealed,
                asked,
                played,
                deck,
                count,
                size - count - 1,
                led,
                win_card,
                win_seat,
                win_trump,
                trick_points,
            )
        if card == ASK:
            hands[bidder] |= BIT[trump]
            revealed = asked = True
            continue
        bit = BIT[card]
        hands[seat] = hand & ~bit
        played |= bit
        trick_points += POINTS[card]
        asked = False
        suit = SUIT_OF[card]
        if not count:
            led, win_card, win_seat, win_trump = suit, card, seat, False
        elif revealed and suit == trump_suit and trump_suit != led:
            if not win_trump or RANK_OF[card] < RANK_OF[win_card]:
                win_card, win_seat, win_trump = card, seat, True
        elif suit == led and not win_trump and RANK_OF[card] < RANK_OF[win_card]:
            win_card, win_seat = card, seat
        count += 1
        if count < size:
            seat = following_seat[seat]
            continue
        if win_seat & 1:
            p1 += trick_points
        else:
            p0 += trick_points
        tricks += 1
        if tani:
            if win_seat != bidder:
                return HandEnd(bidder, contract, False, (p0, p1))
            if tricks == CARDS_PER_HAND:
                return HandEnd(bidder, contract, True, (p0, p1))
        else:
            # Stop once the contract is made or beaten: the rest changes no table.
            taken, against = (p1, p0) if bidder & 1 else (p0, p1)
            if taken >= contract:
                return HandEnd(bidder, contract, True, (p0, p1))
            if against > TOTAL_POINTS - contract or tricks == CARDS_PER_HAND:
                return HandEnd(bidder, contract, False, (p0, p1))
        seat = win_seat
        count = 0
        trick_points = 0
        led = win_card = win_seat = -1
        win_trump = False
