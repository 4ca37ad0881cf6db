"""The scenarios of rules/hearts.md §12 (1-7) and every refusal code, from explicit deals.

Hands are built with `helpers.hand_at` (a hand started at any index with chosen cards and
running totals), so hold hands (index 3) start straight in the play.
"""

from __future__ import annotations

import random
from functools import partial

import pytest

from games.kinds.hearts.engine import (
    RULES,
    Card,
    IllegalMove,
    Pass,
    Play,
    card_code,
    make_pass,
    parse_card,
)
from games.kinds.hearts.engine.cards import CODES
from tests.kinds.refusals import refused_by

from .helpers import PLAIN_DEAL, cards, deal, hand_at, play, play_out

HOLD = 3  # hand index 3 is a hold hand: no passing


def codes_of(values):
    return [CODES[c] for c in values]


refused = partial(refused_by, RULES, IllegalMove)


# --- 1. The pass cycle -------------------------------------------------------------------------


def test_the_pass_cycle_over_five_hands_is_left_right_across_hold_left():
    state = RULES.initial_state("cycle", 4, {"target": 10_000})
    rng = random.Random(5)
    seen = []
    for _ in range(5):
        view = RULES.view(state, 0)
        seen.append((view.pass_direction, view.pass_to, sorted(RULES.to_act(state))))
        state = play_out(state, rng)
    assert [s[0] for s in seen] == ["left", "right", "across", "hold", "left"]
    assert [s[1] for s in seen] == [1, 3, 2, None, 1]
    assert seen[0][2] == [0, 1, 2, 3]
    assert len(seen[3][2]) == 1  # hold: the 2♣ holder leads at once


@pytest.mark.parametrize(("index", "offset"), [(0, 1), (1, 3), (2, 2)])
def test_passed_cards_go_to_the_receiver_of_the_direction(index, offset):
    state = hand_at(index, PLAIN_DEAL)
    passes = {}
    for seat in range(4):
        hand = RULES.view(state, seat).hand
        passes[seat] = hand[-3:]
        state = RULES.apply(state, seat, Pass(hand[-3:]))
    for seat in range(4):
        giver = (seat - offset) % 4
        view = RULES.view(state, seat)
        assert view.received == passes[giver]
        assert view.received_from == giver
        assert view.my_pass == passes[seat]
        assert set(passes[giver]) <= set(view.hand)
        assert not set(passes[seat]) & set(view.hand)


# --- 2. Passing is atomic ----------------------------------------------------------------------


def test_no_card_moves_until_the_fourth_pass():
    state = RULES.initial_state_from_deals([PLAIN_DEAL], 4, {"target": 100})
    dealt = [RULES.view(state, s).hand for s in range(4)]
    for seat in (2, 0, 3):
        state = RULES.apply(state, seat, Pass(dealt[seat][:3]))
        assert [RULES.view(state, s).hand for s in range(4)] == dealt
        assert RULES.view(state, seat).received is None
    assert RULES.to_act(state) == {1}
    assert RULES.view(state, None).phase == "pass"
    state = RULES.apply(state, 1, Pass(dealt[1][:3]))
    assert [RULES.view(state, s).hand for s in range(4)] != dealt
    holder = next(s for s in range(4) if parse_card("2C") in RULES.view(state, s).hand)
    assert RULES.to_act(state) == {holder}
    assert RULES.view(state, None).phase == "play"


# --- 3. The first trick ------------------------------------------------------------------------

# Seat 0: every club; seat 1: Q♠ and 12 hearts; seat 2: A♥ and 12 diamonds; seat 3 the rest.
FIRST_TRICK = deal(
    "2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC KC AC",
    "QS 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH",
    "AH 2D 3D 4D 5D 6D 7D 8D 9D 10D JD QD KD",
)


def test_the_two_of_clubs_holder_may_only_lead_it():
    state = hand_at(HOLD, FIRST_TRICK)
    assert RULES.to_act(state) == {0}
    assert codes_of(RULES.view(state, 0).legal_plays) == ["2C"]
    assert RULES.legal_actions(state, 0) == (Play(parse_card("2C")),)
    refused(state, 0, Play(parse_card("3C")), "play_first_lead_not_2c")


def test_a_club_void_player_cannot_discard_points_on_the_first_trick():
    state = play(hand_at(HOLD, FIRST_TRICK), "2C", "5H")
    assert RULES.to_act(state) == {2}
    assert codes_of(RULES.view(state, 2).legal_plays) == codes_of(
        cards("2D 3D 4D 5D 6D 7D 8D 9D 10D JD QD KD")
    )
    error = refused(state, 2, Play(parse_card("AH")), "play_points_on_first_trick")
    assert "first trick" in str(error)


def test_a_player_holding_only_points_may_play_any_of_them_the_queen_included():
    state = play(hand_at(HOLD, FIRST_TRICK), "2C")
    legal = codes_of(RULES.view(state, 1).legal_plays)
    assert "QS" in legal and "2H" in legal and len(legal) == 13
    state = play(state, "QS", "2D", "AD")
    view = RULES.view(state, None)
    assert view.last_trick_winner == 0 and view.taken == (13, 0, 0, 0)
    assert view.hearts_broken is False


# --- 4. A leader with only hearts may lead one before hearts are broken ------------------------

ALL_HEARTS = deal(
    "2C 3C 4C 5C 2D 3D 4D 5D 6D 7D 8D 9D 10D",
    "AC 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH",
    "6C 7C 8C 9C JD QD KD AD AH 2S 3S 4S 5S",
)


def test_a_leader_holding_only_hearts_may_lead_one_before_hearts_are_broken():
    state = play(hand_at(HOLD, ALL_HEARTS), "2C", "AC", "6C", "10C")
    view = RULES.view(state, 1)
    assert RULES.to_act(state) == {1}
    assert view.hearts_broken is False
    assert len(view.legal_plays) == 12 and all(card_code(c).endswith("H") for c in view.legal_plays)
    state = play(state, "2H")
    assert RULES.view(state, None).trick == ((1, parse_card("2H")),)


# --- 5. The Q♠ does not break hearts -----------------------------------------------------------

QUEEN_DISCARD = deal(
    "2C 2D 3D 4D 5D 6D 7D 8D 9D 10D JD QD KD",
    "3C 4C 5C 6C AD 2H 3H 4H 5H 6H 7H 8H 9H",
    "7C 8C 9C 10C JC QC KC AC 10H JH QH KH AH",
    "2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS AS",
)


def test_the_queen_of_spades_discarded_on_trick_three_does_not_allow_a_heart_lead():
    state = hand_at(HOLD, QUEEN_DISCARD)
    state = play(state, "2C", "3C", "AC", "2S")  # seat 2 wins
    state = play(state, "KC", "3S", "2D", "4C")  # seat 2 wins
    state = play(state, "QC", "QS", "3D", "5C")  # the Q♠ discarded, seat 2 wins it
    view = RULES.view(state, 2)
    assert view.taken == (0, 0, 13, 0) and view.hearts_broken is False
    assert RULES.to_act(state) == {2}
    assert not any(card_code(c).endswith("H") for c in view.legal_plays)
    refused(state, 2, Play(parse_card("AH")), "play_heart_not_broken")


def test_a_leader_with_only_hearts_and_the_queen_must_lead_the_queen():
    state = hand_at(
        HOLD,
        deal(
            "2C 2D 3D 4D 5D 6D 7D 8D 9D 10D JD QD KD",
            "AC QS 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH",
            "3C 4C 5C 6C 7C 8C 9C 10C JC QC KC KH AH",
        ),
    )
    state = play(state, "2C", "AC", "3C", "AD")
    assert codes_of(RULES.view(state, 1).legal_plays) == ["QS"]


# --- 6. Shooting the moon ----------------------------------------------------------------------

# Seat 1 holds every club: it wins every trick and takes all 26 points.
MOON = deal(
    "2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS AS",
    "2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC KC AC",
    "2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH",
    "2D 3D 4D 5D 6D 7D 8D 9D 10D JD QD KD AD",
)


def test_shooting_the_moon_scores_zero_for_the_shooter_and_26_for_the_others():
    state = play_out(hand_at(HOLD, MOON), random.Random(1))
    record = RULES.view(state, None).history[-1]
    assert record.taken == (0, 26, 0, 0)
    assert record.moon_shooter == 1
    assert record.points == (26, 0, 26, 26)
    assert record.totals == (26, 0, 26, 26)


def test_a_hand_without_a_moon_scores_the_points_taken():
    state = play_out(hand_at(HOLD, PLAIN_DEAL), random.Random(3))
    record = RULES.view(state, None).history[-1]
    assert record.moon_shooter is None
    assert record.points == record.taken and sum(record.taken) == 26


# --- 7. The end of the game --------------------------------------------------------------------


def test_a_total_over_the_target_ends_the_game_and_the_lowest_totals_share_the_win():
    state = play_out(hand_at(HOLD, MOON, totals=(75, 45, 19, 64)), random.Random(2))
    assert RULES.view(state, None).totals == (101, 45, 45, 90)
    outcome = RULES.outcome(state)
    assert outcome is not None
    assert outcome.scores == (101, 45, 45, 90) and outcome.winners == (1, 2)
    assert RULES.to_act(state) == frozenset()
    view = RULES.view(state, 3)
    assert view.phase == "over" and view.winners == (1, 2)
    assert RULES.legal_actions(state, 0) == ()
    refused(state, 0, Play(parse_card("2C")), "game_over")
    refused(state, 0, make_pass(["2C", "3C", "4C"]), "game_over")


def test_totals_under_the_target_play_on_with_the_next_hand():
    state = play_out(hand_at(HOLD, MOON, totals=(73, 60, 44, 54)), random.Random(2))
    assert RULES.outcome(state) is None
    view = RULES.view(state, None)
    assert view.totals == (99, 60, 70, 80)
    assert view.hand_index == HOLD + 1 and RULES.hand_number(state) == HOLD + 1
    assert view.pass_direction == "left" and RULES.to_act(state) == {0, 1, 2, 3}


def test_a_total_of_exactly_the_target_ends_the_game():
    state = play_out(hand_at(HOLD, MOON, totals=(74, 0, 0, 0)), random.Random(2))
    outcome = RULES.outcome(state)
    assert outcome is not None and outcome.scores == (100, 0, 26, 26)
    assert outcome.winners == (1,)


def test_a_shorter_target_ends_the_game_sooner():
    state = play_out(hand_at(HOLD, MOON, target=50, totals=(0, 30, 0, 0)), random.Random(2))
    assert RULES.outcome(state) is None  # 26 < 50
    state = RULES.initial_state("short", 4, {"target": 50})
    while RULES.to_act(state):
        state = play_out(state, random.Random(4))
    outcome = RULES.outcome(state)
    assert outcome is not None and max(outcome.scores) >= 50


def test_needing_a_deal_past_the_given_ones_is_a_value_error():
    state = RULES.initial_state_from_deals([MOON], 4, {"target": 100})
    for seat in range(4):
        state = RULES.apply(state, seat, Pass(RULES.view(state, seat).hand[:3]))
    with pytest.raises(ValueError, match="No deal"):
        play_out(state, random.Random(1))


# --- Every refusal, and a refused action changes nothing ---------------------------------------


def test_plays_refused_for_each_reason():
    passing = RULES.initial_state_from_deals([PLAIN_DEAL], 4, {"target": 100})
    refused(passing, 0, Play(parse_card("2C")), "play_wrong_phase")
    state = hand_at(HOLD, FIRST_TRICK)
    refused(state, 1, Play(parse_card("2H")), "play_out_of_turn")
    refused(state, 0, Play(parse_card("2H")), "play_not_in_hand")
    state = hand_at(HOLD, ALL_HEARTS)
    state = play(state, "2C")
    error = refused(state, 1, Play(parse_card("2H")), "play_must_follow_suit")
    assert str(error) == "You must follow suit: play a club."


def test_passes_refused_for_each_reason():
    state = RULES.initial_state_from_deals([PLAIN_DEAL], 4, {"target": 100})
    hand = [CODES[c] for c in RULES.view(state, 0).hand]
    other = CODES[RULES.view(state, 1).hand[0]]
    refused(state, 0, make_pass([hand[0], other, hand[1]]), "pass_not_in_hand")
    refused(state, 0, make_pass([hand[0], hand[0], hand[1]]), "pass_duplicate_card")
    for count in (0, 1, 2, 4):
        refused(state, 0, make_pass(hand[:count]), "pass_wrong_count")
    after = RULES.apply(state, 0, make_pass(hand[:3]))
    refused(after, 0, make_pass(hand[3:6]), "pass_already_submitted")
    refused(hand_at(HOLD, PLAIN_DEAL), 0, make_pass(hand[:3]), "pass_wrong_phase")
    playing = after
    for seat in (1, 2, 3):
        playing = RULES.apply(playing, seat, Pass(RULES.view(playing, seat).hand[:3]))
    leader = next(iter(RULES.to_act(playing)))
    mine = [CODES[c] for c in RULES.view(playing, leader).hand]
    refused(playing, leader, make_pass(mine[:3]), "pass_wrong_phase")


def test_engine_refusals_for_bad_seats_and_foreign_actions():
    state = hand_at(HOLD, PLAIN_DEAL)
    refused(state, 4, Play(parse_card("2C")), "not_a_seat")
    refused(state, -1, Play(parse_card("2C")), "not_a_seat")
    refused(state, 0, "2C", "not_an_action")
    refused(state, 0, Play(Card(52)), "not_an_action")
    refused(state, 0, Pass((Card(1), Card(2), Card(99))), "not_an_action")


def test_a_refused_action_leaves_the_state_equal():
    state = hand_at(HOLD, FIRST_TRICK)
    copy = RULES.state_from_json(RULES.state_to_json(state))
    with pytest.raises(IllegalMove):
        RULES.apply(state, 0, Play(parse_card("AC")))
    assert state == copy
    assert RULES.to_act(state) == {0}


# --- Actions as JSON ---------------------------------------------------------------------------


def test_actions_read_and_write_the_trace_json():
    assert RULES.action_to_json(Play(parse_card("2C"))) == {"play": "2C"}
    assert RULES.action_to_json(make_pass(["4C", "7S", "8S"])) == {"pass": ["4C", "7S", "8S"]}
    assert RULES.action_from_json({"play": "10H"}) == Play(parse_card("10H"))
    odd = RULES.action_from_json({"pass": ["5D", "5D", "9S", "2C"]})
    assert odd == Pass(cards("5D 5D 9S 2C"))


@pytest.mark.parametrize(
    "data",
    [
        {},
        {"play": "1C"},
        {"play": 5},
        {"play": ["2C"]},
        {"pass": "2C 3C 4C"},
        {"pass": ["2C", 3, "4C"]},
        {"pass": ["2C", "3C", "ZZ"]},
        {"play": "2C", "pass": ["2C", "3C", "4C"]},
        {"play": "2C", "seat": 1},
        {"bid": 20},
        ["play", "2C"],
        None,
    ],
)
def test_malformed_actions_are_value_errors(data):
    with pytest.raises(ValueError):
        RULES.action_from_json(data)


def test_initial_state_checks_its_arguments():
    with pytest.raises(ValueError):
        RULES.initial_state("x", 3, {"target": 100})
    with pytest.raises(ValueError):
        RULES.initial_state_from_deals([PLAIN_DEAL[:3]], 4, {"target": 100})
    with pytest.raises(ValueError):
        RULES.initial_state_from_deals([[PLAIN_DEAL[0]] * 4], 4, {"target": 100})
    with pytest.raises(ValueError):
        RULES.initial_state_from_deals([deal()[:3] + [["2C"] * 13]], 4, {"target": 100})


def test_the_seeded_deal_is_the_traces_deal():
    state = RULES.initial_state("hearts-public-v1-0001", 4, {"target": 100})
    assert codes_of(RULES.view(state, 0).hand) == [
        "10C", "KC", "2D", "4D", "5D", "KD", "3H", "9H", "10H", "AH", "4S", "10S", "KS"
    ]  # fmt: skip
