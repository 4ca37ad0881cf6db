"""The scenarios of rules/fifty-six.md §16 (1-10) and the readings the traces follow, from
explicit deals (`helpers.deal` fills unnamed cards in canonical order). Every refusal code:
test_actions.py."""

from __future__ import annotations

from games.kinds.fifty_six.engine import (
    RULES,
    AskTrump,
    Bid,
    FixedDeals,
    Pass,
    make_play,
    must_reveal,
    parse_card,
)
from games.kinds.fifty_six.engine.auction import start_hand
from games.kinds.fifty_six.engine.play import trick_winner_index
from games.kinds.fifty_six.engine.state import check_deal

from .helpers import (
    REVEAL,
    act,
    cards,
    codes_of,
    deal,
    first_plays,
    plain_deal,
    refused,
    start,
)


def dealt_by(dealer, dealt, seats=6):
    """Hand 0 of a match, dealt `dealt` by `dealer` (for auctions that open elsewhere)."""
    source = FixedDeals((check_deal([cards(" ".join(h)) for h in dealt], seats, 0),))
    return start_hand(source, seats, 12, 0, dealer, (12, 12), (0, 0), ())


# --- 1. The auction's restrictions (6 players, dealer 5) ----------------------------------------


def test_1_the_opener_must_bid_and_r1_and_r2_restrict_low_bids():
    state = dealt_by(5, plain_deal(6))
    assert RULES.to_act(state) == {0}
    refused(state, 0, Pass(), "opener_must_bid")
    assert not RULES.view(state, 0).can_pass
    state = act(state, "28", "pass")
    # Seat 2's partner (seat 0) holds 28: R1 allows seat 2 only 40 and more.
    error = refused(state, 2, Bid(35), "bid_r1_teammate_low_bid")
    assert "partner" in str(error) and "40" in str(error)
    view = RULES.view(state, 2)
    assert view.legal_bids == tuple(range(40, 57))
    for option in view.bid_options:
        assert option.allowed == (option.value >= 40)
        if 29 <= option.value <= 39:
            assert option.reason == str(error)
    assert act(state, "40").high_bid == 40
    # Seat 2 passes, seat 3 (the other team) bids 30: seat 0 already bid 28, so R2 applies.
    state = act(state, "pass", "30", "pass", "pass")
    assert RULES.to_act(state) == {0}
    error = refused(state, 0, Bid(35), "bid_r2_second_low_bid")
    assert "already" in str(error)
    assert RULES.view(state, 0).legal_bids == tuple(range(40, 57))
    state = act(state, "41")
    assert (state.high_bid, state.high_bidder) == (41, 0)


# --- 2. The end of the auction ------------------------------------------------------------------


def test_2_the_auction_ends_after_five_passes_following_the_last_bid():
    state = start(plain_deal(6), seats=6)
    state = act(state, "30", "pass", "pass", "35", "pass", "pass", "pass")
    assert RULES.view(state, None).phase == "auction"
    assert RULES.to_act(state) == {2}  # seat 2 passed earlier and may bid again (C-56-08)
    state = act(state, "40", "pass", "pass", "pass", "pass")
    assert RULES.view(state, None).phase == "auction"
    state = act(state, "pass")
    view = RULES.view(state, None)
    assert (view.phase, view.bidder, view.contract) == ("trump_choice", 2, 40)
    assert RULES.to_act(state) == {2}


def test_2_a_bid_of_56_ends_the_auction_at_once():
    state = act(start(plain_deal(6), seats=6), "28", "56")
    view = RULES.view(state, None)
    assert (view.phase, view.bidder, view.contract, view.tani) == ("trump_choice", 2, 56, True)


def test_the_opener_may_open_with_56():
    state = act(start(plain_deal(4)), "56")
    assert RULES.view(state, None).bidder == 1


# --- 3. Identical cards -------------------------------------------------------------------------


def test_3_of_two_identical_cards_the_first_played_wins():
    state = start(deal(4, "", "JC0 9C0 JD0 9D0 JH0 9H0 JS0 9S0", "JC1"))
    state = act(state, "28", "pass", "pass", "pass", "trump:9D0", "JC0", "JC1")
    state = first_plays(state, 2)
    assert RULES.view(state, None).tricks[0].winner == 1
    plays = ((2, parse_card("JC1")), (3, parse_card("JC0")))
    assert trick_winner_index(plays, -1, 0) == 0


# --- 4. The reveal trick ------------------------------------------------------------------------


def test_4_a_spade_thrown_before_the_reveal_is_no_trump_the_askers_is():
    state = act(start(REVEAL), "28", "pass", "pass", "pass", "trump:AS1", "10H0")
    assert RULES.view(state, 2).can_ask_trump
    state = act(state, "9S0")  # seat 2 (void in hearts) discards without asking
    assert RULES.view(state, 3).trump_card is None
    state = act(state, "ask")  # seat 3 (void) asks
    view = RULES.view(state, 0)
    assert view.trump_revealed and view.trump_card == parse_card("AS1")
    assert view.trump_suit == "S" and view.revealed_by == 3 and view.must_play_after_ask
    assert RULES.to_act(state) == {3}
    assert parse_card("AS1") in RULES.view(state, 1).hand  # back in the bidder's hand
    assert codes_of(RULES.view(state, 3).legal_plays) == ["JS0", "JS1", "9S1", "10S0", "10S1"]
    refused(state, 3, make_play("AD1"), "play_must_trump_after_ask")
    refused(state, 3, AskTrump(), "ask_trump_already_revealed")
    state = act(state, "10S0", "JH0")
    trick = RULES.view(state, None).tricks[0]
    assert trick.winner == 3  # the 10♠ (a trump) beats the J♥; the 9♠ does not count
    assert trick.points == 1 + 2 + 1 + 3


# --- 5. The forced reveal of the bidder's last card ---------------------------------------------

TWO_OF_EACH = deal(
    4,
    "JC0 9C0 JD0 9D0 JH0 9H0 JS0 9S0",
    "AC0 10C0 AD0 10D0 AH0 10H0 AS0 10S0",
    "JC1 9C1 JD1 9D1 JH1 9H1 JS1 9S1",
    "AC1 10C1 AD1 10D1 AH1 10H1 AS1 10S1",
)


def test_5_the_bidder_with_only_the_face_down_card_left_must_turn_it_up_and_play_it():
    state = act(start(TWO_OF_EACH), "28", "pass", "pass", "pass", "trump:AS0")
    while not must_reveal(state, 1):
        state = first_plays(state, 1)
    assert not state.revealed and len(RULES.view(state, None).tricks) == 7
    assert RULES.view(state, 1).hand == ()
    assert RULES.legal_actions(state, 1) == (AskTrump(),)
    refused(state, 1, make_play("AS0"), "play_concealed_trump_card")
    state = act(state, "ask")
    assert RULES.legal_actions(state, 1) == (make_play("AS0"),)
    trick_before = len(state.trick)
    state = act(state, "AS0")
    if trick_before < 3:
        assert RULES.view(state, None).trick[-1] == (1, parse_card("AS0"))


# --- 6. The concealed trump suit led, the bidder without a card of it ---------------------------

SPADE_LEAD = deal(
    4,
    "9C0 JD0 9D0 JH0 9H0 JS0 9S0 10S0",
    "AS0 AC0 AC1 10C0 AD0 10D0 AH0 10H0",
    "JC0 JD1 9D1 JH1 9H1 JS1 9S1 AS1",
    "JC1 9C1 10C1 AD1 10D1 AH1 10H1 10S1",
)


def test_6_the_bidder_void_in_the_concealed_trump_suit_may_discard_and_it_stays_down():
    state = act(start(SPADE_LEAD), "28", "pass", "pass", "pass", "trump:AS0")
    state = act(state, "AC0", "JC0", "9C1", "9C0")
    assert RULES.view(state, None).tricks[0].winner == 2
    state = act(state, "JS1", "10S1", "9S0")
    legal = RULES.legal_actions(state, 1)
    assert legal[0] == AskTrump() and len(legal) == 7  # ask, or any of its 6 cards
    state = act(state, "AH0")
    view = RULES.view(state, 0)
    assert not view.trump_revealed and view.trump_card is None and view.trump_down
    assert view.tricks[1].winner == 2


# --- 7. The bidder's lead while the trump is concealed ------------------------------------------


def test_7_the_bidder_may_not_lead_the_concealed_trump_suit_while_holding_another():
    dealt = deal(4, "JS0 JS1", "AS0 10S0 AC0 AC1 10C0 AD0 10D0 AH0")
    state = act(start(dealt), "28", "pass", "pass", "pass", "trump:AS0")
    assert "10S0" not in codes_of(RULES.view(state, 1).legal_plays)
    error = refused(state, 1, make_play("10S0"), "play_bidder_leads_concealed_trump")
    assert "lead" in str(error)


def test_7_a_bidder_holding_only_the_trump_suit_may_lead_it():
    dealt = deal(6, "KS0", "JS0 JS1 9S0 9S1 AS0 AS1 10S0 10S1")
    state = act(start(dealt, seats=6), "28", *["pass"] * 5, "trump:10S1")
    assert codes_of(RULES.view(state, 1).legal_plays) == [
        "JS0",
        "JS1",
        "9S0",
        "9S1",
        "AS0",
        "AS1",
        "10S0",
    ]


# --- 8. Tani with six players -------------------------------------------------------------------

TANI_MADE = [
    ["9C0", "9C1", "9D0", "9D1", "9H0", "9H1", "9S0", "9S1"],
    ["JC0", "JC1", "JD0", "JD1", "JH0", "JH1", "JS0", "JS1"],
    ["AC0", "AC1", "AD0", "AD1", "AH0", "AH1", "AS0", "AS1"],
    ["KC0", "KC1", "KD0", "KD1", "KH0", "KH1", "KS0", "KS1"],
    ["10C0", "10C1", "10D0", "10D1", "10H0", "10H1", "10S0", "10S1"],
    ["QC0", "QC1", "QD0", "QD1", "QH0", "QH1", "QS0", "QS1"],
]


def test_8_tani_made_the_partners_sit_out_and_the_bidder_wins_six_tables():
    state = act(start(TANI_MADE, seats=6), "56", "trump:JS1")
    view = RULES.view(state, 3)
    assert view.tani and view.sitting_out == (3, 5)
    assert RULES.to_act(state) == {1}  # the bidder leads (the opener here too)
    acted = []
    for lead in ("JC0", "JC1", "JD0", "JD1", "JH0", "JH1", "JS0"):
        state = act(state, lead)
        for _ in range(3):
            acted.append(min(RULES.to_act(state)))
            state = first_plays(state, 1)
    assert set(acted) == {0, 2, 4}
    assert acted[:3] == [2, 4, 0]
    assert RULES.legal_actions(state, 1) == (AskTrump(),)
    state = act(state, "ask", "JS1")
    state = first_plays(state, 3)
    record = RULES.view(state, None).history[0]
    assert record.outcome == "made" and record.game_points == 6
    assert [t.winner for t in record.tricks] == [1] * 8
    assert all(len(t.plays) == 4 for t in record.tricks)
    assert record.tables == (6, 18) and record.tables_change == (-6, 6)
    assert [len(RULES.view(state, s).hand) for s in (3, 5)] == [8, 8]  # never played


def test_8_tani_lost_ends_at_the_first_trick_a_defender_wins():
    dealt = deal(
        6,
        "JH0 JH1 9H0 9H1 AH0 AH1 10H0 10H1",
        "JC0 JC1 9C0 9C1 AC0 AC1 10C0 10C1",
        "QC0 QC1 KC0 KC1 QD0 QD1 KD0 KD1",
    )
    state = act(start(dealt, seats=6), "28", "56", "trump:KD1")
    assert RULES.to_act(state) == {2}  # the bidder leads, not the opener
    state = act(state, "QC0")
    assert RULES.to_act(state) == {3}
    state = first_plays(state, 1)
    assert RULES.to_act(state) == {5}  # seat 4, a partner, is skipped
    state = first_plays(state, 1)
    assert RULES.to_act(state) == {1}
    state = act(state, "JC0")
    view = RULES.view(state, None)
    record = view.history[0]
    assert record.outcome == "lost" and record.game_points == -7
    assert [t.winner for t in record.tricks] == [1]
    assert record.tables == (5, 19)
    assert (view.hand_index, view.dealer, view.phase) == (1, 1, "auction")


# --- 9. A void hand -----------------------------------------------------------------------------


def test_9_a_void_hand_is_not_scored_and_the_same_dealer_deals_again():
    dealt = deal(4, "", "JS0 JS1 9S0 9S1", "", "AS0 AS1 10S0 10S1")
    state = act(start(dealt), "28", "pass", "pass", "pass", "trump:JS0")
    view = RULES.view(state, None)
    assert (view.hand_index, view.dealer, view.phase, view.tables) == (1, 0, "auction", (12, 12))
    assert RULES.to_act(state) == {1}
    record = view.history[0]
    assert record.outcome == "void" and record.game_points == 0 and record.tricks == ()
    assert record.trump is None  # never revealed: hidden from all but the bidder
    assert RULES.view(state, 1).history[0].trump == parse_card("JS0")
    assert RULES.view(state, 3).history[0].trump is None
    assert RULES.view(state, 0).hand == tuple(sorted(cards(" ".join(plain_deal(4)[0]))))


# --- 10. Tables ---------------------------------------------------------------------------------

# Team 0 (seats 0, 2) holds every Jack and Nine: team 1 cannot make 40.
STRONG_DEFENCE = deal(
    4,
    "JC0 JC1 9C0 9C1 JD0 JD1 9D0 9D1",
    "AC0 AC1 10C0 10C1 AD0 AD1 10D0 10D1",
    "JH0 JH1 9H0 9H1 JS0 JS1 9S0 9S1",
)


def test_10_a_team_at_one_table_losing_a_40_contract_loses_the_match():
    state = act(start(STRONG_DEFENCE, tables=1), "40", "pass", "pass", "pass", "trump:10D1")
    state = first_plays(state, 32)
    assert RULES.to_act(state) == frozenset()
    view = RULES.view(state, None)
    assert view.phase == "match_over" and view.hand_index == 0
    assert view.history[0].outcome == "lost" and view.history[0].game_points == -3
    assert view.tables == (2, 0) and view.game_points == (0, -3)
    assert len(view.tricks) == 8 and view.trick == ()
    outcome = RULES.outcome(state)
    assert outcome is not None
    assert (outcome.winners, outcome.winning_team, outcome.scores) == ((0, 2), 0, (2, 0, 2, 0))
    assert view.winners == (0, 2) and view.winning_team == 0
    refused(state, 1, Bid(40), "after_match_over")


def test_a_team_owing_exactly_its_tables_plays_on_at_zero():
    state = act(start(STRONG_DEFENCE, tables=2), "28", "pass", "pass", "pass", "trump:10D1")
    state = first_plays(state, 32)
    view = RULES.view(state, None)
    assert view.history[0].outcome == "lost" and view.tables == (4, 0)
    assert view.phase == "auction" and RULES.outcome(state) is None
    assert (view.hand_index, view.dealer) == (1, 1)
