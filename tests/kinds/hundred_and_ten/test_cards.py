"""Cards: notation, names, suits, the rank tables of rules section 10 and appendix A."""

from __future__ import annotations

import pytest

from games.kinds.hundred_and_ten.engine import (
    SUIT_NAMES,
    SUITS,
    card_name,
    card_rank,
    card_suit,
    format_card,
    is_trump,
    parse_card,
    sort_hand,
)
from games.kinds.hundred_and_ten.engine.cards import FULL_DECK, PLAIN_VALUE, TRUMP_VALUE, suit_index

from .helpers import cards


def test_the_deck_has_53_distinct_cards_with_one_joker():
    notations = [format_card(c) for c in FULL_DECK]
    assert len(set(notations)) == 53
    assert notations.count("JK") == 1
    assert sum(1 for c in FULL_DECK if card_suit(c) is None) == 1


def test_parse_and_format_are_inverse_for_every_card():
    for card in FULL_DECK:
        assert parse_card(format_card(card)) == card


@pytest.mark.parametrize("text", ["", "1H", "11C", "10", "H10", "jk", "AX", "5h", " 5H"])
def test_parse_refuses_what_is_not_a_card(text):
    with pytest.raises(ValueError):
        parse_card(text)


def test_names_suits_and_ranks():
    assert card_name(parse_card("10H")) == "Ten of Hearts"
    assert card_name(parse_card("AH")) == "Ace of Hearts"
    assert card_name(parse_card("QS")) == "Queen of Spades"
    assert card_name(parse_card("JK")) == "Joker"
    assert card_suit(parse_card("2C")) == "C"
    assert card_rank(parse_card("10D")) == "10"
    assert card_rank(parse_card("JK")) == "JK"
    assert SUITS == ("C", "D", "H", "S")
    assert SUIT_NAMES == {"C": "Clubs", "D": "Diamonds", "H": "Hearts", "S": "Spades"}


def test_trumps_are_the_suit_plus_ace_of_hearts_and_joker():
    for trump in SUITS:
        trumps = {format_card(c) for c in FULL_DECK if is_trump(c, trump)}
        assert {"AH", "JK"} <= trumps
        assert len(trumps) == (14 if trump == "H" else 15)
    assert is_trump(parse_card("AH"), "S")
    assert not is_trump(parse_card("AD"), "S")


# Rules 10.2, highest first, written out independently of the engine's formulas.
TRUMP_ORDER = {
    "C": "5C JC JK AH AC KC QC 2C 3C 4C 6C 7C 8C 9C 10C",
    "D": "5D JD JK AH AD KD QD 10D 9D 8D 7D 6D 4D 3D 2D",
    "H": "5H JH JK AH KH QH 10H 9H 8H 7H 6H 4H 3H 2H",
    "S": "5S JS JK AH AS KS QS 2S 3S 4S 6S 7S 8S 9S 10S",
}
# Rules 10.3, highest first.
PLAIN_ORDER = {
    "red": "A K Q J 10 9 8 7 6 5 4 3 2",
    "black": "A K Q J 2 3 4 5 6 7 8 9 10",
}


@pytest.mark.parametrize("trump", SUITS)
def test_trump_order_matches_the_rules_table_and_appendix_a(trump):
    order = cards(TRUMP_ORDER[trump])
    values = [TRUMP_VALUE[suit_index(trump)][c] for c in order]
    # Appendix A: 14 down to 0; with hearts trump there is no ace of trumps, so no 10.
    expected = [14, 13, 12, 11, *range(9 if trump == "H" else 10, -1, -1)]
    assert values == expected


@pytest.mark.parametrize("suit", SUITS)
def test_plain_order_matches_the_rules_table_and_appendix_a(suit):
    ranks = PLAIN_ORDER["red" if suit in "DH" else "black"].split()
    values = [PLAIN_VALUE[parse_card(rank + suit)] for rank in ranks]
    assert values == list(range(12, -1, -1))


def test_sort_hand_before_trump_groups_suits_highest_first():
    hand = cards("2C JK 10H AC 5D KH")
    assert [format_card(c) for c in sort_hand(hand, None)] == ["AC", "2C", "5D", "KH", "10H", "JK"]


def test_sort_hand_before_trump_shows_black_pips_strongest_first_as_the_plain_order_ranks_them():
    # Black number cards rank backwards (rules 10.3: A K Q J 2 3 ... 10): the 2 is the
    # strongest pip and the 10 the weakest, in clubs and spades alike; red ones do not.
    hand = cards("10C 3C KC 2S 9S")
    assert [format_card(c) for c in sort_hand(hand, None)] == ["KC", "3C", "10C", "2S", "9S"]
    hand = cards("2D 10D 5H 9H")
    assert [format_card(c) for c in sort_hand(hand, None)] == ["10D", "2D", "9H", "5H"]


def test_sort_hand_with_trump_puts_trumps_first_highest_first():
    hand = cards("2C AH 10C 5C 9D KD JK")
    shown = [format_card(c) for c in sort_hand(hand, "C")]
    assert shown == ["5C", "JK", "AH", "2C", "10C", "KD", "9D"]
