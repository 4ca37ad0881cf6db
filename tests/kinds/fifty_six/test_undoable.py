"""Which Fifty-Six actions may be taken back by consent (`rules.undoable`): a bid or a pass
that leaves the auction open, a card played to a trick it does not complete and that reveals
nothing. Never the call that ends the auction, the trump card laid down, asking for the trump
(the reveal), or the card completing a trick."""

from __future__ import annotations

import random

import pytest

from games.kinds.fifty_six.engine import RULES, AskTrump, make_bid, make_play, make_trump
from games.kinds.fifty_six.engine.actions import PASS
from tests.kinds.undo import check_undoable_play

from .helpers import REVEAL, act, plain_deal, start


def action_of(move: str):
    """The action `helpers.act` takes for `move` ("28", "pass", "trump:AS0", "ask", "JH0")."""
    if move == "pass":
        return PASS
    if move == "ask":
        return AskTrump()
    if move.startswith("trump:"):
        return make_trump(move[6:])
    return make_bid(int(move)) if move.isdigit() else make_play(move)


def may_undo(state, move: str):
    """Whether `move`, taken by the seat to act, may be taken back; and the state after it."""
    (seat,) = RULES.to_act(state)
    action = action_of(move)
    after = RULES.apply(state, seat, action)
    return RULES.undoable(state, seat, action, after), after


def test_bids_and_passes_that_leave_the_auction_open_may_be_taken_back():
    state = start(REVEAL)
    for move in ("28", "30", "pass", "pass"):
        undo, state = may_undo(state, move)
        assert undo, move
    undo, state = may_undo(state, "pass")  # the third pass after the high bid ends it
    assert not undo
    assert RULES.view(state, None).phase == "trump_choice"


def test_a_bid_of_56_ends_the_auction_and_may_not():
    undo, state = may_undo(start(plain_deal(4)), "56")
    assert not undo
    assert RULES.view(state, None).phase == "trump_choice"


def test_the_trump_card_the_ask_and_the_card_completing_a_trick_may_not():
    state = act(start(REVEAL), "28", "pass", "pass", "pass")
    undo, state = may_undo(state, "trump:AS1")
    assert not undo
    undo, state = may_undo(state, "10H0")  # the lead
    assert undo
    undo, state = may_undo(state, "9S0")  # seat 2, void in hearts, discards without asking
    assert undo
    undo, state = may_undo(state, "ask")  # seat 3 asks: the trump is shown
    assert not undo
    assert RULES.view(state, None).trump_revealed
    undo, state = may_undo(state, "10S0")  # seat 3's card after the ask reveals nothing more
    assert undo
    undo, state = may_undo(state, "JH0")  # the fourth card completes the trick
    assert not undo
    assert len(RULES.view(state, None).tricks) == 1


@pytest.mark.parametrize(("seed", "seats"), [(1, 4), (2, 4), (3, 6)])
def test_whatever_may_be_taken_back_was_the_seats_own_turn_in_the_same_hand_and_trick(seed, seats):
    state = RULES.initial_state(f"undo{seed}", seats, {"tables_per_team": 1})
    allowed, end = check_undoable_play(
        RULES, state, seats, random.Random(seed), 5_000, lambda s: len(s.tricks)
    )
    assert allowed > 0
    assert RULES.outcome(end) is not None
