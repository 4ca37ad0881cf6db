"""Which Hundred and Ten moves may be taken back by consent (`rules.undoable`): a bid or a
pass on turn that leaves the bidding open (firing no announced pass), a card played to a
trick it does not complete. Never a pre-pass or its withdrawal, the call that ends the
bidding, naming trump, a discard, or the card completing a trick."""

from __future__ import annotations

import random

import pytest

from games.kinds.hundred_and_ten.engine import (
    RULES,
    Bid,
    Discard,
    Play,
    SelectTrump,
    Status,
    Unpass,
    apply,
    legal_plays,
    new_game,
)
from games.kinds.hundred_and_ten.engine.rules import undoable
from tests.kinds.undo import check_undoable_play

from .helpers import bids, contract


def may_undo(state, move):
    """Whether `move` (its seat's), applied to `state`, may be taken back."""
    return RULES.undoable(state, move.seat, move, apply(state, move))


def test_a_bid_or_a_pass_that_leaves_the_bidding_open_may_be_taken_back():
    state = new_game("undo", 4)  # seat 1 opens
    assert may_undo(state, Bid(1, 15))
    state = bids(state, 15)
    assert may_undo(state, Bid(2, 0))
    assert may_undo(state, Bid(2, 20))


def test_the_call_that_ends_the_bidding_may_not():
    state = bids(new_game("undo", 3), 20, 0)  # seat 2 passes; the dealer (0) is to call
    assert state.active_seat == 0
    assert not may_undo(state, Bid(0, 0))  # the last pass: seat 1 holds the bid
    assert apply(state, Bid(0, 0)).status is Status.TRUMP_SELECTION
    passed_out = bids(new_game("undo", 3), 0, 0)
    assert not may_undo(passed_out, Bid(0, 0))  # everybody passed: a new deal


def test_a_pre_pass_its_withdrawal_and_a_call_that_fires_one_may_not():
    state = new_game("undo", 4)  # seat 1 is to call
    assert not may_undo(state, Bid(3, 0))  # seat 3 announces a pass
    state = apply(state, Bid(3, 0))
    assert not may_undo(state, Unpass(3))
    state = bids(state, 15)  # seat 2 is to call; seat 3's pass fires after it
    after = apply(state, Bid(2, 20))
    assert len(after.bids) == len(state.bids) + 2
    assert not RULES.undoable(state, 2, Bid(2, 20), after)


def test_naming_trump_and_discarding_may_not():
    state = bids(new_game("undo", 3), 20, 0, 0)
    bidder = state.bidder
    assert state.status is Status.TRUMP_SELECTION and bidder is not None
    assert not may_undo(state, SelectTrump(bidder, "H"))
    state = apply(state, SelectTrump(bidder, "H"))
    seat = state.active_seat
    assert seat is not None
    assert not may_undo(state, Discard(seat, ()))
    assert not may_undo(state, Discard(seat, state.hands[seat][:2]))


def first_play(state):
    seat = state.active_seat
    return Play(seat, legal_plays(state, seat)[0])


def test_a_card_to_an_unfinished_trick_may_be_taken_back_not_the_one_completing_it():
    state = contract(new_game("undo", 3), 1, 20, "H")
    for _ in range(2):
        move = first_play(state)
        assert may_undo(state, move)
        state = apply(state, move)
    move = first_play(state)
    assert len(apply(state, move).tricks) == 1
    assert not may_undo(state, move)


def test_a_move_named_for_another_seat_may_not():
    state = new_game("undo", 4)
    move = Bid(1, 15)
    assert not undoable(state, 2, move, apply(state, move))


@pytest.mark.parametrize(("seed", "seats"), [(1, 2), (2, 3), (3, 4)])
def test_whatever_may_be_taken_back_was_the_seats_own_turn_in_the_same_round_and_trick(seed, seats):
    state = RULES.initial_state(f"undo{seed}", seats, {"target": 60})
    allowed, end = check_undoable_play(
        RULES, state, seats, random.Random(seed), 5_000, lambda s: len(s.tricks)
    )
    assert allowed > 0
    assert RULES.outcome(end) is not None
