"""What each seat may see (`perspective_of`). Visibility rules and the test of each:

1. A seat sees its own hand; a spectator sees none.
   -> test_a_seat_sees_its_own_hand_and_a_spectator_none
2. Other hands are seen only as card counts.
   -> test_other_hands_are_only_counts
3. The draw pile is seen only as its size.
   -> test_the_draw_pile_is_only_a_size
4. Discards of the current round: everybody sees how many cards each seat gave up; only the
   seat itself sees which.  -> test_discards_show_counts_and_only_your_own_cards
5. A pending pre-pass is private to its maker until it fires; then it is a public pass.
   -> test_a_prepass_is_private_until_it_fires
6. Bids, passes, bidder, bid, trump, current trick, completed tricks of the round, scores,
   dealer, active seat, status, winner are public (the same for every seat and spectators).
   -> test_public_facts_are_the_same_for_everybody
7. Legal moves are only the viewer's own.  -> test_legal_moves_are_only_your_own
8. Finished rounds are fully visible in the history.
   -> test_finished_rounds_are_fully_visible
9. Nothing else leaks: a view does not change when every card the seat has not seen is dealt
   again (other hands, others' discards, the pile), at every step of whole games.
   -> test_views_do_not_change_when_unseen_cards_are_redealt (and the property tests)
"""

from __future__ import annotations

import random
from dataclasses import fields

import pytest

from games.kinds.hundred_and_ten.engine import (
    Bid,
    Discard,
    SelectTrump,
    Status,
    apply,
    determinize,
    new_game,
    perspective_of,
    suggestion,
)

from .helpers import bids, cards, table

HANDS = ["5H JH JK AH KH", "2C 3C 4C 6C 7C", "2D 3D 4D 6D 7D"]


def in_discard():
    state = bids(table(HANDS, pile="QS KS AS"), 0, 0, 15)
    state = apply(state, SelectTrump(0, "H"))
    return apply(state, Discard(1, cards("2C 3C")))


def test_a_seat_sees_its_own_hand_and_a_spectator_none():
    state = table(HANDS)
    assert perspective_of(state, 1).hand == cards(HANDS[1])
    assert perspective_of(state, None).hand is None
    with pytest.raises(ValueError):
        perspective_of(state, 3)


def test_other_hands_are_only_counts():
    view = perspective_of(in_discard(), 2)
    assert view.hand_sizes == (5, 5, 5)
    assert view.hand is not None
    seen = set(view.hand) | {c for _, c in view.current_trick}
    assert not seen & (set(cards(HANDS[0])) | set(cards(HANDS[1])))


def test_the_draw_pile_is_only_a_size():
    view = perspective_of(in_discard(), 0)
    assert view.draw_pile_size == 53 - 15 - 2
    assert not hasattr(view, "pile")


def test_discards_show_counts_and_only_your_own_cards():
    state = in_discard()
    assert perspective_of(state, 1).own_discards == cards("2C 3C")
    assert perspective_of(state, 1).hand == cards("4C 6C 7C QS KS")
    for seat in (0, 2, None):
        view = perspective_of(state, seat)
        assert view.discard_counts == (None, 2, None)
        assert view.own_discards in (None,)


def test_a_prepass_is_private_until_it_fires():
    state = apply(new_game("private", 3), Bid(0, 0))
    assert perspective_of(state, 0).pre_passed is True
    assert perspective_of(state, 1).pre_passed is False
    assert perspective_of(state, 1) == perspective_of(apply(new_game("private", 3), Bid(2, 0)), 1)
    state = bids(state, 15, 0)  # reaches seat 0, whose pre-pass fires
    assert all(perspective_of(state, s).passed == (0, 2) for s in (0, 1, 2, None))


PUBLIC = [
    "status",
    "round_index",
    "dealer",
    "active_seat",
    "winner",
    "scores",
    "hand_sizes",
    "bids",
    "passed",
    "bid",
    "holder",
    "bidder",
    "trump",
    "discard_counts",
    "draw_pile_size",
    "current_trick",
    "tricks",
    "bleeding",
    "history",
]


def test_public_facts_are_the_same_for_everybody():
    state = new_game("public", 4)
    for _ in range(60):
        views = [perspective_of(state, s) for s in (0, 1, 2, 3, None)]
        for name in PUBLIC:
            assert len({repr(getattr(v, name)) for v in views}) == 1, name
        state = apply(state, suggestion(state))
    names = {f.name for f in fields(views[0])}
    private = {
        "seat",
        "hand",
        "pre_passed",
        "own_discards",
        "legal_bids",
        "legal_plays",
        "can_prepass",
        "can_unpass",
        "legal_moves",
        "players",
        "target",
    }
    assert names == set(PUBLIC) | private


def test_legal_moves_are_only_your_own():
    state = new_game("legal", 3)
    assert perspective_of(state, 1).legal_bids == (0, 15, 20, 25, 30, 60)
    assert perspective_of(state, 2).legal_bids == ()
    assert perspective_of(state, 2).legal_moves == (Bid(2, 0),)  # a pre-pass
    assert perspective_of(state, None).legal_moves == ()
    assert all(m.seat == 1 for m in perspective_of(state, 1).legal_moves)


def test_finished_rounds_are_fully_visible():
    state = bids(new_game("history", 2), 0, 0)
    view = perspective_of(state, 0)
    assert view.history[0].hands[1] == new_game("history", 2).hands[1]
    assert view.round_index == 1


@pytest.mark.parametrize("players", [2, 3, 4])
def test_views_do_not_change_when_unseen_cards_are_redealt(players):
    rng = random.Random(players)
    state = new_game(f"redeal-{players}", players)
    steps = 0
    while state.status is not Status.WON and steps < 400:
        for seat in range(players):
            other = determinize(state, seat, rng)
            assert other != state or state.status is Status.TRICKS
            assert perspective_of(other, seat) == perspective_of(state, seat)
        state = apply(state, suggestion(state))
        steps += 1
