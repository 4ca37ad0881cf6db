"""The rules, one test per rule (rules file sections in the test names' docstrings)."""

from __future__ import annotations

import pytest

from games.kinds.hundred_and_ten.engine import (
    Bid,
    Discard,
    IllegalMove,
    Play,
    SelectTrump,
    Status,
    Trick,
    Unpass,
    apply,
    can_prepass,
    can_unpass,
    events_of,
    format_card,
    legal_bids,
    legal_moves,
    legal_plays,
    new_game,
    parse_card,
    round_history,
)
from games.kinds.hundred_and_ten.engine.rules import find_winner, score_round, trick_winner

from .helpers import bids, cards, contract, plays, table

C, D, H, S = 0, 1, 2, 3


def names(cs):
    return [format_card(c) for c in cs]


def winner_of(trump, *notations):
    """Seat index (order of play) winning a trick of `notations` with `trump`."""
    return trick_winner(list(enumerate(cards(" ".join(notations)))), trump)


def refused(state, move, code):
    with pytest.raises(IllegalMove) as caught:
        apply(state, move)
    assert caught.value.code == code, str(caught.value)
    assert str(caught.value)  # a sentence for the player
    return caught.value


# --- Appendix B -------------------------------------------------------------------------------


def test_five_beats_jack_beats_joker_beats_ace_of_hearts():
    for trump, suit in ((C, "C"), (D, "D"), (H, "H"), (S, "S")):
        assert winner_of(trump, f"J{suit}", f"5{suit}") == 1
        assert winner_of(trump, "JK", f"J{suit}") == 1
        assert winner_of(trump, "AH", "JK") == 1
        assert winner_of(trump, "AH", f"K{suit}") == 0


def test_low_black_and_high_red_number_trumps_win():
    assert winner_of(C, "10C", "2C") == 1
    assert winner_of(D, "2D", "10D") == 1


def test_ace_of_hearts_is_a_trump_whatever_the_trump_suit():
    assert winner_of(S, "9H", "KH", "AH") == 2


def test_off_suit_cards_cannot_win_and_ten_is_the_lowest_club():
    assert winner_of(D, "9C", "AD", "10C") == 1  # with diamonds trump the AD trumps...
    assert winner_of(H, "9C", "AD", "10C") == 0  # ...with hearts trump nothing does


def test_red_plain_six_beats_five_and_black_five_beats_six():
    assert winner_of(H, "6D", "5D") == 0
    assert winner_of(H, "6C", "5C") == 1


def test_leading_the_ace_of_hearts_bleeds_trumps():
    state = table(["JK 7S 8S 9S 10S", "3C KD QD JD 10D", "AH 2D 3D 4D 6D"])
    state = contract(state, bidder=1, amount=15, trump="C")
    assert state.active_seat == 2  # left of the bidder leads
    state = plays(state, "AH")
    assert state.bleeding
    assert names(legal_plays(state, 0)) == ["JK"]
    refused(state, Play(0, parse_card("7S")), "must_play_trump")
    state = plays(state, "JK")
    assert names(legal_plays(state, 1)) == ["3C"]


def test_failed_bid_of_twenty_with_two_plain_tricks():
    tricks = [
        Trick(0, ((w, parse_card("9C")), (1 - w, parse_card("8C"))), w) for w in (0, 1, 0, 1, 1)
    ]
    bonus, outcome, events, round_scores = score_round(tricks, D, bidder=0, bid=20, players=2)
    assert (bonus, outcome) == (None, "failed")
    assert events == ((0, -20), (1, 5), (1, 5), (1, 5))
    assert round_scores == (-20, 15)


def _tricks_won(winners, trump_winner_trick=None):
    """Tricks of two players won by `winners`; one won with the 5 of clubs if asked."""
    result = []
    for index, winner in enumerate(winners):
        card = "5C" if index == trump_winner_trick else "9D"
        result.append(Trick(winner, ((winner, parse_card(card)),), winner))
    return result


def test_shoot_the_moon_all_five_scores_sixty_and_four_loses_sixty():
    moon = score_round(_tricks_won([0] * 5, 2), C, bidder=0, bid=60, players=2)
    assert moon[1:] == ("moon", ((0, 60),), (60, 0))
    short = score_round(_tricks_won([0, 0, 1, 0, 0], 2), C, bidder=0, bid=60, players=2)
    assert short[1] == "failed"
    assert short[3] == (-60, 10)  # the opponent took the bonus trick


def test_a_made_bid_scores_real_points_with_a_ten_point_bonus_trick():
    bonus, outcome, events, round_scores = score_round(
        _tricks_won([0, 1, 0, 0, 1], 3), C, bidder=0, bid=15, players=2
    )
    assert (bonus, outcome) == (3, "made")
    assert events == ((0, 5), (1, 5), (0, 5), (0, 10), (1, 5))
    assert round_scores == (20, 10)


def test_a_round_without_trumps_is_worth_twenty_five():
    bonus, _, _, round_scores = score_round(_tricks_won([0, 1, 0, 1, 1]), C, 0, 15, 2)
    assert bonus is None
    assert sum(round_scores) == -15 + 15


def test_thirty_needs_all_five_tricks_with_a_trump():
    made = score_round(_tricks_won([0] * 5, 1), C, bidder=0, bid=30, players=2)
    assert made[1] == "made" and made[3] == (30, 0)
    no_trump = score_round(_tricks_won([0] * 5), C, bidder=0, bid=30, players=2)
    assert no_trump[1] == "failed" and no_trump[3] == (-30, 0)


def test_three_passed_out_rounds_move_the_deal_left():
    state = new_game("passes", 3)
    dealers = []
    for _ in range(7):
        dealers.append(state.dealer)
        state = bids(state, 0, 0, 0)
    assert dealers == [0, 0, 0, 1, 1, 1, 2]
    assert state.scores == (0, 0, 0)
    assert [r.outcome for r in round_history(state)] == ["no_bidders"] * 7


def test_tie_break_the_bidder_wins_else_who_reached_110_first():
    # p1 (bidder) 95 -> 105, p3 100 -> 110: only p3 is at 110.
    assert find_winner((95, 50, 100), (105, 50, 110), 0, [(0, 10), (2, 10)]) == 2
    # p1 ends on 115: the bidder wins although p3 also reached 110.
    assert find_winner((95, 50, 100), (115, 50, 110), 0, [(2, 10), (0, 20)]) == 0
    # p2 bids and fails; p1 reaches 110 with trick 2, p3 with trick 4: p1 wins.
    events = [(1, -15), (2, 5), (0, 10), (2, 5), (0, 5)]
    assert find_winner((100, 95, 100), (115, 80, 110), 1, events) == 0
    assert find_winner((100, 95, 100), (115, 80, 110), 1, [(1, -15), (2, 10), (0, 15)]) == 2
    assert find_winner((0, 0), (20, 10), 0, [(0, 20)]) is None


# --- Dealing and bidding (sections 5-7) ---------------------------------------------------------


def test_dealing_gives_five_cards_in_seat_order_and_the_rest_is_the_pile():
    state = table(["5H JH JK AH KH", "2C 3C 4C 6C 7C", "2D 3D 4D 6D 7D"], pile="QS KS")
    assert names(state.hands[1]) == ["2C", "3C", "4C", "6C", "7C"]
    assert state.draw_pile_size == 53 - 15
    assert names(state.pile[:2]) == ["QS", "KS"]
    assert (state.status, state.dealer, state.active_seat) == (Status.BIDDING, 0, 1)


def test_same_seed_same_game_and_players_are_checked():
    assert new_game("x", 4) == new_game("x", 4)
    assert new_game("x", 4).hands != new_game("y", 4).hands
    for players in (1, 5):
        with pytest.raises(ValueError):
            new_game("x", players)


def test_legal_bids_first_bid_then_higher_and_the_dealer_may_match():
    state = new_game("bids", 4)
    assert legal_bids(state, 1) == (0, 15, 20, 25, 30, 60)
    assert legal_bids(state, 2) == ()  # not their turn
    state = bids(state, 25)
    assert legal_bids(state, 2) == (0, 30, 60)
    state = bids(state, 0, 0)
    assert legal_bids(state, 0) == (0, 25, 30, 60)
    state = bids(new_game("bids", 3), 60)
    assert legal_bids(state, 2) == (0,)
    state = bids(state, 0)
    assert legal_bids(state, 0) == (0, 60)


def test_the_rules_example_of_bidding():
    state = bids(new_game("example", 4), 15, 0, 20, 20, 25, 0, 25, 0)
    assert state.status is Status.TRUMP_SELECTION
    assert (state.bidder, state.bid, state.active_seat) == (0, 25, 0)
    assert state.bids == ((1, 15), (2, 0), (3, 20), (0, 20), (1, 25), (3, 0), (0, 25), (1, 0))


def test_bids_that_are_not_allowed_are_refused():
    state = bids(new_game("refuse", 4), 20)
    error = refused(state, Bid(2, 20), "bid_not_allowed")
    assert str(error) == "You can only bid more than 20."
    refused(state, Bid(2, 17), "bid_not_allowed")
    refused(bids(state, 0, 0), Bid(0, 15), "bid_not_allowed")
    refused(new_game("refuse", 4), Bid(1, 10), "bid_not_allowed")
    refused(state, Bid(3, 25), "not_your_turn")
    assert str(refused(state, Bid(3, 25), "not_your_turn")) == "It is not your turn."


def test_everybody_passing_ends_the_round_without_scores():
    state = new_game("nobody", 3)
    state = bids(state, 0, 0)
    assert state.active_seat == 0  # the dealer still has to decide
    assert legal_bids(state, 0) == (0, 15, 20, 25, 30, 60)
    after = bids(state, 0)
    assert (after.round_index, after.status, after.scores) == (1, Status.BIDDING, (0, 0, 0))
    record = events_of(state, after, Bid(0, 0)).round_end
    assert record is not None and record.outcome == "no_bidders"


def test_the_dealer_wins_only_by_bidding_when_all_others_passed():
    state = bids(new_game("dealer", 3), 0, 0, 15)
    assert (state.status, state.bidder, state.bid) == (Status.TRUMP_SELECTION, 0, 15)


def test_a_prepass_waits_for_its_turn_then_fires():
    state = new_game("prepass", 4)
    state = apply(state, Bid(3, 0))
    assert (state.pre_passed, state.passed, state.active_seat) == ((3,), (), 1)
    before = bids(state, 15)
    after = bids(before, 20)
    assert after.active_seat == 0 and after.passed == (3,) and after.pre_passed == ()
    assert events_of(before, after, Bid(2, 20)).auto_passes == (3,)


def test_several_prepasses_fire_one_after_another():
    state = new_game("prepasses", 4)
    state = apply(apply(state, Bid(2, 0)), Bid(3, 0))
    after = bids(state, 15)
    assert after.passed == (2, 3) and after.active_seat == 0
    assert events_of(state, after, Bid(1, 15)).auto_passes == (2, 3)


def test_unpass_cancels_a_prepass():
    state = apply(new_game("unpass", 3), Bid(2, 0))
    assert can_unpass(state, 2) and not can_prepass(state, 2)
    state = apply(state, Unpass(2))
    assert state.pre_passed == ()
    state = bids(state, 15)
    assert state.active_seat == 2  # they bid normally


def test_a_prepass_of_the_high_bidder_is_forgotten_when_the_others_pass():
    state = bids(new_game("forgotten", 3), 15)
    state = apply(state, Bid(1, 0))  # pre-pass by the holder
    state = bids(state, 0, 0)
    assert (state.status, state.bidder, state.bid) == (Status.TRUMP_SELECTION, 1, 15)
    assert state.pre_passed == ()


def test_an_active_players_pass_is_an_ordinary_pass():
    state = apply(new_game("ordinary", 3), Bid(1, 0))
    assert state.passed == (1,) and state.active_seat == 2


def test_prepasses_and_unpasses_refused_where_section_17_says():
    state = bids(new_game("refusals", 4), 0)  # seat 1 passed
    refused(state, Bid(1, 0), "already_passed")
    refused(state, Bid(7, 0), "not_a_player")
    refused(state, Bid(-1, 0), "not_a_player")
    refused(state, Unpass(3), "no_prepass")
    refused(state, Unpass(9), "not_a_player")
    prepassed = apply(state, Bid(3, 0))
    refused(prepassed, Bid(3, 0), "already_passed")
    in_tricks = contract(table(["5H JH JK AH KH", "2C 3C 4C 6C 7C"]), 0, 15, "H")
    refused(in_tricks, Bid(1, 0), "wrong_phase")
    refused(in_tricks, Unpass(1), "no_prepass")


def test_pending_prepasses_are_forgotten_when_the_round_ends():
    state = apply(new_game("forget", 3), Bid(0, 0))
    state = bids(state, 0, 0)  # seat 0's pre-pass fires: nobody bid
    assert state.round_index == 1 and state.pre_passed == () and state.passed == ()


# --- Trump, discards, tricks (sections 8, 9, 11) -------------------------------------------------


def test_only_the_bidder_names_trump_and_only_then():
    state = bids(new_game("trump", 3), 0, 20, 0)
    assert state.bidder == 2
    refused(state, SelectTrump(1, "H"), "not_bidder")
    refused(state, SelectTrump(2, "X"), "not_a_suit")
    refused(new_game("trump", 3), SelectTrump(1, "H"), "wrong_phase")
    assert set(legal_moves(state, 2)) == {SelectTrump(2, s) for s in "CDHS"}
    state = apply(state, SelectTrump(2, "S"))
    assert (state.status, state.trump, state.active_seat) == (Status.DISCARD, "S", 1)


def test_discards_go_left_of_the_dealer_first_and_refill_from_the_pile():
    state = table(["5H JH JK AH KH", "2C 3C 4C 6C 7C", "2D 3D 4D 6D 7D"], pile="QS KS AS")
    state = bids(state, 0, 0, 15)
    state = apply(state, SelectTrump(0, "H"))
    assert state.active_seat == 1
    refused(state, Discard(0, ()), "not_your_turn")
    refused(state, Discard(1, cards("2D")), "card_not_in_hand")
    error = refused(state, Discard(1, cards("2C 2C")), "duplicate_card")
    assert "twice" in str(error)
    state = apply(state, Discard(1, cards("6C 2C")))
    assert names(state.hands[1]) == ["3C", "4C", "7C", "QS", "KS"]
    state = apply(state, Discard(2, ()))
    assert names(state.hands[2]) == ["2D", "3D", "4D", "6D", "7D"]
    assert state.active_seat == 0  # the dealer discards last
    state = apply(state, Discard(0, cards("KH")))
    assert names(state.hands[0]) == ["5H", "JH", "JK", "AH", "AS"]
    assert state.status is Status.TRICKS
    assert state.active_seat == 1  # left of the bidder leads
    assert state.discards == (cards("KH"), cards("2C 6C"), ())
    refused(state, Discard(1, ()), "wrong_phase")


def test_tricks_follow_the_winner_and_no_suit_needs_following():
    state = table(["5H JH JK AH KH", "2C 3C 4C 6C 7C", "2D 3D 4D 6D 7D"])
    state = contract(state, bidder=2, amount=15, trump="S")
    assert state.active_seat == 0  # left of bidder 2 is seat 0
    refused(state, Play(1, parse_card("2C")), "not_your_turn")
    refused(state, Play(0, parse_card("2C")), "card_not_in_hand")
    state = plays(state, "KH")
    assert not state.bleeding
    assert legal_plays(state, 1) == state.hands[1]  # no obligation to follow suit
    before = plays(state, "2C")
    state = plays(before, "2D")
    assert events_of(before, state, Play(2, parse_card("2D"))).trick_winner == 0
    assert state.current_trick == () and state.active_seat == 0
    assert state.tricks[-1].winner == 0 and names(state.tricks[-1].cards) == ["KH", "2C", "2D"]


def test_play_refused_outside_tricks():
    state = new_game("early", 2)
    refused(state, Play(1, state.hands[1][0]), "wrong_phase")


def test_a_whole_moon_round_scores_sixty_and_moves_the_deal():
    state = table(["5H JH JK AH KH", "2C 3C 4C 6C 7C"])
    state = contract(state, bidder=0, amount=60, trump="H")
    state = plays(state, "2C", "5H", "JH", "3C", "JK", "4C", "AH", "6C", "KH", "7C")
    assert state.scores == (60, 0)
    assert (state.round_index, state.dealer, state.status) == (1, 1, Status.BIDDING)
    record = round_history(state)[-1]
    assert (record.outcome, record.bonus_trick, record.score_events) == ("moon", 0, ((0, 60),))
    assert [t.winner for t in record.tricks] == [0] * 5


def test_the_game_ends_at_the_target_and_then_refuses_everything():
    state = table(["5H JH JK AH KH", "2C 3C 4C 6C 7C"], target=30)
    state = contract(state, bidder=0, amount=30, trump="H")
    state = plays(state, "2C", "5H", "JH", "3C", "JK", "4C", "AH", "6C", "KH", "7C")
    assert (state.status, state.winner, state.active_seat, state.scores) == (
        Status.WON,
        0,
        None,
        (30, 0),
    )
    assert (state.round_index, state.bid, state.bidder, state.trump) == (0, 30, 0, "H")
    assert state.hands == ((), ())
    for move in (
        Bid(0, 0),
        Bid(1, 0),
        Unpass(1),
        SelectTrump(0, "C"),
        Discard(0, ()),
        Play(0, parse_card("5H")),
    ):
        refused(state, move, "game_over")
    assert legal_moves(state, 0) == () and legal_moves(state, 1) == ()


def test_a_rejected_move_changes_nothing():
    state = new_game("values", 3)
    snapshot = tuple(state)
    with pytest.raises(IllegalMove):
        apply(state, Bid(2, 15))
    assert tuple(state) == snapshot
    moved = apply(state, Bid(1, 15))
    assert tuple(state) == snapshot and moved != state
