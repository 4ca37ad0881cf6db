"""Moves as JSON: round trips, and clear errors for malformed stored rows."""

from __future__ import annotations

import json

import pytest

from games.kinds.hundred_and_ten.engine import (
    Bid,
    Discard,
    Play,
    SelectTrump,
    Unpass,
    move_from_json,
    move_to_json,
    parse_card,
)

from .helpers import cards

MOVES = [
    Bid(1, 20),
    Bid(0, 0),
    Unpass(3),
    SelectTrump(2, "H"),
    Discard(0, cards("10H JK")),
    Discard(1, ()),
    Play(3, parse_card("AH")),
]


@pytest.mark.parametrize("move", MOVES)
def test_moves_round_trip_through_json_text(move):
    assert move_from_json(json.loads(json.dumps(move_to_json(move)))) == move


def test_json_uses_card_notation():
    assert move_to_json(Bid(1, 20)) == {"type": "bid", "seat": 1, "amount": 20}
    assert move_to_json(Discard(0, cards("10H JK"))) == {
        "type": "discard",
        "seat": 0,
        "cards": ["10H", "JK"],
    }
    assert move_to_json(Play(2, parse_card("5C"))) == {"type": "play", "seat": 2, "card": "5C"}


@pytest.mark.parametrize(
    ("data", "words"),
    [
        ([], "JSON object"),
        ({"type": "fold", "seat": 1}, "Unknown move type"),
        ({"seat": 1}, "Unknown move type"),
        ({"type": "bid", "seat": 1}, "missing 'amount'"),
        ({"type": "bid", "seat": "1", "amount": 15}, "'seat' must be int"),
        ({"type": "bid", "seat": True, "amount": 15}, "'seat' must be int"),
        ({"type": "bid", "seat": 1, "amount": 15, "extra": 1}, "unexpected fields: extra"),
        ({"type": "select_trump", "seat": 1, "suit": "X"}, "not a suit"),
        ({"type": "play", "seat": 1, "card": "11H"}, "not a card"),
        ({"type": "discard", "seat": 1, "cards": "5H"}, "'cards' must be list"),
        ({"type": "discard", "seat": 1, "cards": ["5H", 7]}, "not a card"),
    ],
)
def test_malformed_moves_raise_value_error_with_a_clear_message(data, words):
    with pytest.raises(ValueError, match=words):
        move_from_json(data)


def test_moves_are_frozen_values():
    move = Bid(1, 15)
    with pytest.raises(AttributeError):
        move.amount = 20  # type: ignore[misc]
    assert Bid(1, 15) == move
    assert move_to_json(Bid(1, 15)) != move_to_json(Play(1, parse_card("2C")))
