"""JSON snapshots of states: exact round trips at every phase, later rounds dealt alike."""

from __future__ import annotations

import json

import pytest

from games.kinds.hundred_and_ten.engine import (
    Status,
    apply,
    new_game,
    new_game_from_decks,
    state_from_json,
    state_to_json,
    suggestion,
)
from games.kinds.hundred_and_ten.engine.cards import FULL_DECK


def through_json(state):
    return state_from_json(json.loads(json.dumps(state_to_json(state))))


def test_every_state_of_a_seeded_game_round_trips_and_plays_on_identically():
    state = new_game("snap", 3)
    count = 0
    while state.status is not Status.WON:
        copy = through_json(state)
        assert copy == state
        move = suggestion(state)
        assert apply(copy, move) == apply(state, move)  # deals later rounds from the seed
        state = apply(state, move)
        count += 1
    assert through_json(state) == state
    assert count > 50


def test_prepared_decks_are_written_out():
    decks = [tuple(reversed(FULL_DECK)), FULL_DECK]
    state = new_game_from_decks(decks, 2)
    data = state_to_json(state)
    assert data["decks"]["kind"] == "fixed" and len(data["decks"]["decks"]) == 2
    assert through_json(state) == state


def test_a_deck_function_cannot_be_written():
    state = new_game_from_decks(lambda r: FULL_DECK, 2)
    with pytest.raises(ValueError, match="prepared decks"):
        state_to_json(state)


def test_unknown_versions_are_refused():
    data = state_to_json(new_game("v", 2))
    data["version"] = 99
    with pytest.raises(ValueError, match="version"):
        state_from_json(data)
