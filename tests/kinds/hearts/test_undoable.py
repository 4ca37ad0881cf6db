"""Which Hearts actions may be taken back by consent (`rules.undoable`): a card played to a
trick it does not complete; never the card completing a trick, never a pass."""

from __future__ import annotations

import random

import pytest

from games.kinds.hearts.engine import RULES, Pass, Play
from tests.kinds.undo import check_undoable_play

from .helpers import PLAIN_DEAL, hand_at

HOLD = 3  # hand index 3 is a hold hand: the play starts at once


def first_card(state):
    """(before, seat, action, after) for the seat to play playing its first legal card."""
    (seat,) = RULES.to_act(state)
    action = RULES.legal_actions(state, seat)[0]
    return state, seat, action, RULES.apply(state, seat, action)


def test_a_card_played_to_an_unfinished_trick_may_be_taken_back():
    state = hand_at(HOLD, PLAIN_DEAL)
    for _ in range(3):  # the lead, the second and the third card of the first trick
        before, seat, action, after = first_card(state)
        assert isinstance(action, Play)
        assert RULES.undoable(before, seat, action, after)
        state = after


def test_the_card_completing_a_trick_may_not():
    state = hand_at(HOLD, PLAIN_DEAL)
    for _ in range(3):
        state = first_card(state)[3]
    before, seat, action, after = first_card(state)
    assert len(after.tricks) == 1 and not after.trick
    assert not RULES.undoable(before, seat, action, after)
    # The lead of the next trick may again.
    assert RULES.undoable(*first_card(after))


def test_the_last_card_of_the_hand_may_not():
    state = hand_at(HOLD, PLAIN_DEAL)
    for _ in range(51):
        state = first_card(state)[3]
    before, seat, action, after = first_card(state)
    assert RULES.hand_number(after) == HOLD + 1
    assert not RULES.undoable(before, seat, action, after)


@pytest.mark.parametrize("passes", [1, 4])
def test_a_pass_may_not_be_taken_back(passes):
    state = hand_at(0, PLAIN_DEAL)
    for seat in range(passes):
        action = Pass(RULES.view(state, seat).hand[:3])
        after = RULES.apply(state, seat, action)
        assert not RULES.undoable(state, seat, action, after)
        state = after


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_whatever_may_be_taken_back_was_the_seats_own_turn_in_the_same_hand_and_trick(seed):
    state = RULES.initial_state(f"undo{seed}", 4, {"target": 50})
    allowed, end = check_undoable_play(
        RULES, state, 4, random.Random(seed), 5_000, lambda s: len(s.tricks)
    )
    assert allowed > 0
    assert RULES.outcome(end) is not None  # a whole game
