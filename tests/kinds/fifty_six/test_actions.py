"""Refusals (every code of the traces, each a sentence), decision keys, the JSON forms of
actions, and the checks on given and seeded deals."""

from __future__ import annotations

import pytest

from games.kinds.fifty_six.engine import (
    RULES,
    AskTrump,
    Bid,
    Pass,
    Play,
    make_bid,
    make_play,
    make_trump,
)

from .helpers import REVEAL, act, plain_deal, refused, start


def test_every_phase_refuses_the_other_phases_actions():
    state = start(REVEAL)
    refused(state, 1, make_play("10H0"), "play_wrong_phase")
    refused(state, 1, make_trump("10H0"), "choose_trump_wrong_phase")
    refused(state, 1, AskTrump(), "ask_trump_wrong_phase")
    refused(state, 2, Bid(30), "bid_out_of_turn")
    refused(state, 2, Pass(), "pass_out_of_turn")
    refused(state, 1, Bid(27), "bid_below_minimum")
    refused(state, 1, Bid(57), "bid_above_maximum")
    state = act(state, "30")
    refused(state, 2, Bid(30), "bid_not_higher")
    state = act(state, "pass", "pass", "pass")
    refused(state, 1, Bid(40), "bid_wrong_phase")
    refused(state, 1, Pass(), "pass_wrong_phase")
    refused(state, 2, make_trump("9S0"), "choose_trump_not_bidder")
    refused(state, 1, make_trump("9S0"), "choose_trump_not_in_hand")
    state = act(state, "trump:AS1")
    refused(state, 2, make_play("9S0"), "play_out_of_turn")
    refused(state, 2, AskTrump(), "ask_trump_out_of_turn")
    refused(state, 1, AskTrump(), "ask_trump_when_leading")
    refused(state, 1, make_play("JH0"), "play_not_in_hand")
    refused(state, 1, make_play("AS1"), "play_concealed_trump_card")
    state = act(state, "10H0", "9S0", "10S0")
    refused(state, 0, make_play("10S1"), "play_not_in_hand")
    refused(state, 0, make_play("JD0"), "play_revoke")
    refused(state, 0, AskTrump(), "ask_trump_can_follow")
    refused(state, 7, Pass(), "not_a_seat")


def test_the_decision_key_names_the_hand_and_the_actions_taken_in_it():
    state = start(REVEAL)
    keys = {RULES.decision_key(state, s) for s in range(4)}
    assert keys == {"0.0"}
    after = act(state, "28")
    assert RULES.decision_key(after, 0) == "0.1" != RULES.decision_key(state, 0)
    assert RULES.hand_number(after) == 0


@pytest.mark.parametrize(
    "data",
    [
        {"bid": True},
        {"bid": "30"},
        {"bid": 30.0},
        {"pass": False},
        {"pass": 1},
        {"ask_trump": "yes"},
        {"play": 12},
        {"play": "XX0"},
        {"trump": None},
        {"double": True},
        {},
        {"bid": 30, "pass": True},
        ["play", "JC0"],
    ],
)
def test_malformed_actions_are_value_errors(data):
    with pytest.raises(ValueError):
        RULES.action_from_json(data)


def test_actions_round_trip_through_json():
    for action in (Bid(41), Pass(), make_trump("10C0"), AskTrump(), make_play("QS1")):
        assert RULES.action_from_json(RULES.action_to_json(action)) == action
    assert RULES.action_to_json(make_bid(57)) == {"bid": 57}  # refused by apply, not unreadable


def test_deals_are_checked_and_a_missing_deal_is_a_value_error():
    good = plain_deal(4)
    with pytest.raises(ValueError):
        RULES.initial_state_from_deals([good[:3]], 4, {})
    with pytest.raises(ValueError):
        RULES.initial_state_from_deals([[good[0]] * 4], 4, {})
    with pytest.raises(ValueError):
        RULES.initial_state_from_deals([[["KC0", *good[0][1:]], *good[1:]]], 4, {})
    with pytest.raises(ValueError):
        RULES.initial_state_from_deals(["JC0"], 4, {})
    with pytest.raises(ValueError):
        RULES.initial_state_from_deals([good], 5, {})
    with pytest.raises(ValueError):
        RULES.initial_state_from_deals([good], 4, {"tables_per_team": 0})
    state = RULES.initial_state_from_deals([good], 4, {})
    state = act(state, "28", "pass", "pass", "pass")
    with pytest.raises(ValueError, match="No deal"):
        # Whatever card is laid down, the hand ends void or is played out: hand 2 needs a deal.
        while True:
            (seat,) = RULES.to_act(state)
            state = RULES.apply(state, seat, RULES.legal_actions(state, seat)[0])


def test_seeded_deals_are_deterministic_and_use_the_right_deck():
    one = RULES.initial_state("seed", 4, {"tables_per_team": 12})
    assert one == RULES.initial_state("seed", 4, {"tables_per_team": 12})
    assert one.hands != RULES.initial_state("other", 4, {"tables_per_team": 12}).hands
    assert all(hand.bit_count() == 8 for hand in one.hands)
    assert not any(card_is_court(c) for s in range(4) for c in RULES.view(one, s).hand)
    six = RULES.initial_state("seed", 6, {})
    assert sum(any(card_is_court(c) for c in RULES.view(six, s).hand) for s in range(6)) > 0


def card_is_court(card):
    return RULES.action_to_json(Play(card))["play"][0] in "KQ"
