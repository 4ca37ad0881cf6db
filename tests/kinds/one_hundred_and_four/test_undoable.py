"""One Hundred and Four never lets an action be taken back (`rules.undoable`): every card is
chosen in a simultaneous, secret phase, and taking a row is part of a turn's resolution."""

from __future__ import annotations

import random

import pytest

from games.kinds.one_hundred_and_four.engine import RULES, Choose, TakeRow
from tests.kinds.undo import check_undoable_play

from .helpers import choose, table


def test_no_choice_may_be_taken_back_not_the_first_nor_the_last_of_a_turn():
    state = table([(10,), (20,), (30,), (40,)], [(11,), (21,), (31,)])
    for seat, card in enumerate((11, 21, 31)):
        after = RULES.apply(state, seat, Choose(card))
        assert not RULES.undoable(state, seat, Choose(card), after)
        state = after
    assert RULES.view(state, None).last_turn is not None  # the last choice resolved the turn


def test_taking_a_row_may_not_be_taken_back():
    state = choose(table([(10,), (20,), (30,), (40,)], [(5,), (21,), (31,)]), 5, 21, 31)
    assert RULES.to_act(state) == {0}  # the 5 is too low: its owner takes a row
    after = RULES.apply(state, 0, TakeRow(2))
    assert not RULES.undoable(state, 0, TakeRow(2), after)


@pytest.mark.parametrize(("seed", "seats"), [(1, 2), (2, 5), (3, 10)])
def test_nothing_in_a_whole_game_may_be_taken_back(seed, seats):
    state = RULES.initial_state(f"undo{seed}", seats, {"match_to": None})
    allowed, end = check_undoable_play(RULES, state, seats, random.Random(seed), 5_000)
    assert allowed == 0
    assert RULES.outcome(end) is not None
