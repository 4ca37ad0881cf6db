"""The naive bot of rules section 16, and the determinize/playout path for search bots."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from games.kinds.hundred_and_ten.engine import (
    Bid,
    Discard,
    Play,
    SelectTrump,
    Status,
    apply,
    determinize,
    new_game,
    parse_card,
    playout,
    suggestion,
)
from games.kinds.hundred_and_ten.engine.bots import best_suit, max_bid

from .helpers import bids, cards, contract, plays, table

C, D, H, S = 0, 1, 2, 3


def test_hand_strength_sums_trump_values_minus_ten_without_the_five():
    assert best_suit(cards("5H JH JK AH KH")) == (14 + 13 + 12 + 11 + 9, H)
    assert best_suit(cards("JC 2C 3D 4D 6D")) == (13 + 7 - 10, C)


@pytest.mark.parametrize(
    ("strength", "amount"),
    [
        (51, 60),
        (50, 30),
        (41, 30),
        (40, 25),
        (31, 25),
        (30, 20),
        (26, 20),
        (25, 15),
        (21, 15),
        (20, 0),
        (-10, 0),
    ],
)
def test_bid_ceiling_thresholds(strength, amount):
    assert max_bid(strength) == amount


@pytest.mark.parametrize(
    ("hand", "suit"),
    [("KC KH 10S 2D 3D", "H"), ("KC KS 2H 3H 4D", "C"), ("KS KD 2H 10C 4C", "S")],
)
def test_trump_ties_go_hearts_clubs_spades_diamonds(hand, suit):
    state = bids(table([hand, "2S 3S 4S 6S 7S"]), 0, 15)
    assert suggestion(state) == SelectTrump(0, suit)


def test_the_bot_bids_the_lowest_legal_amount_it_is_willing_to():
    strong = table(["2S 3S 4S 6S 7S", "5H JH JK AH KH", "2D 3D 4D 6D 7D"])
    assert suggestion(strong) == Bid(1, 15)  # 59 > 50: any amount up to 60, lowest first
    # seat 0 deals; hearts: 14 + 13 + 5 = 32 > 30 allows up to 25, and the dealer may match
    state = table(["5H JH 8H 9C 9D", "2S 3S 4S 6S 7S", "2D 3D 4D 6D 7D"])
    state = bids(state, 20, 0)
    assert suggestion(state) == Bid(0, 20)
    state = bids(table(["5H JH 8H 9C 9D", "2S 3S 4S 6S 7S", "2D 3D 4D 6D 7D"]), 25, 0)
    assert suggestion(state) == Bid(0, 25)
    state = bids(table(["5H JH 8H 9C 9D", "2S 3S 4S 6S 7S", "2D 3D 4D 6D 7D"]), 30, 0)
    assert suggestion(state) == Bid(0, 0)


def test_the_bot_discards_every_non_trump_in_hand_order():
    state = bids(table(["2S 3S 4S 6S 7S", "5H JH JK AH KH"]), 0, 15)  # dealer 0 bids
    state = apply(state, SelectTrump(0, "S"))
    assert suggestion(state) == Discard(1, cards("5H JH KH"))


def play_state():
    hands = ["10C 8C 5H KD 2S", "6D 7D 8D 9D 2D", "9C 7S 8S AD QH"]
    return contract(table(hands), bidder=1, amount=15, trump="H")  # seat 2 leads


def test_a_leader_who_is_not_the_bidder_plays_its_worst_card():
    state = play_state()
    # plain values: 9C 1, 7S 3, 8S 2, AD 12 (QH is a trump): the nine of clubs is the worst
    assert suggestion(state) == Play(2, parse_card("9C"))


def test_following_plays_the_worst_beating_card_preferring_the_led_suit():
    state = plays(play_state(), "9C")
    assert suggestion(state) == Play(0, parse_card("8C"))


def test_without_a_beating_card_the_worst_candidate():
    state = plays(play_state(), "9C", "8C")
    # W is 8C: seat 1 holds no club nor trump, so nothing beats it: the worst is 2D
    assert suggestion(state) == Play(1, parse_card("2D"))


def test_against_a_winning_trump_only_higher_trumps_beat_it():
    hands = ["JH 2H KD 3S 4S", "6D 7D 8D 9D 2D", "AH 7S 8S AD QH"]
    state = contract(table(hands), bidder=1, amount=15, trump="H")
    state = plays(state, "AH")
    assert suggestion(state) == Play(0, parse_card("JH"))
    hands = ["KH 2H KD 3S 4S", "6D 7D 8D 9D 2D", "JH 7S 8S AD QH"]
    state = plays(contract(table(hands), bidder=1, amount=15, trump="H"), "JH")
    assert suggestion(state) == Play(0, parse_card("2H"))  # the lowest trump


def test_a_leading_bidder_plays_its_highest_trump():
    state = contract(table(["5H 2C 3C JH 4C", "7S 8S KD 9C QD"]), bidder=0, amount=15, trump="H")
    state = plays(state, "7S", "5H")
    assert state.active_seat == 0
    assert suggestion(state) == Play(0, parse_card("JH"))


def test_ties_of_worst_cards_go_to_the_first_in_hand():
    state = contract(table(["5H JH 8H 9C 9D", "7S 7C KD 2C QH"]), bidder=0, amount=15, trump="H")
    assert suggestion(state) == Play(1, parse_card("7S"))


def test_a_bot_move_is_always_legal_over_whole_games():
    for players in (2, 3, 4):
        state = new_game(f"legal-{players}", players)
        while state.status is not Status.WON:
            state = apply(state, suggestion(state))


def test_determinize_keeps_what_the_seat_knows_and_redeals_the_rest():
    state = new_game("determinize", 4)
    state = bids(state, 0, 0, 0, 20)
    state = apply(state, SelectTrump(0, "S"))
    state = apply(state, Discard(1, state.hands[1][:3]))
    state = apply(state, Discard(2, state.hands[2][:1]))
    other = determinize(state, 1, random.Random(1))
    assert other.hands[1] == state.hands[1] and other.discards[1] == state.discards[1]
    assert [len(h) for h in other.hands] == [len(h) for h in state.hands]
    assert other.discards[3] is None
    assert other.discards[2] is not None and len(other.discards[2]) == 1
    assert other.draw_pile_size == state.draw_pile_size

    def everything(s):
        hands = [c for h in s.hands for c in h]
        discards = [c for d in s.discards if d for c in d]
        return Counter(hands + discards + list(s.pile[s.pile_pos :]))

    assert everything(other) == everything(state)
    assert other.hands != state.hands
    assert determinize(state, 1, random.Random(1)) == other  # same rng, same deal


def step_by_step(state):
    start = state.round_index
    while state.round_index == start and state.status is not Status.WON:
        state = apply(state, suggestion(state))
    return state


@pytest.mark.parametrize("players", [2, 3, 4])
def test_playout_gives_exactly_what_applying_suggestions_gives(players):
    rng = random.Random(players)
    state = new_game(f"fast-{players}", players, target=60)
    checked = 0
    while state.status is not Status.WON:
        if rng.random() < 0.3:
            assert playout(state) == step_by_step(state)
            other = determinize(state, state.active_seat or 0, rng)
            assert playout(other, rng) == step_by_step(other)
            checked += 1
        state = apply(state, suggestion(state))
    assert checked > 20


def test_playout_finishes_the_round():
    state = new_game("playout", 3)
    after = playout(determinize(state, 1, random.Random(2)), random.Random(3))
    assert after.round_index == 1 or after.status is Status.WON
    assert len(after.history) == 1
