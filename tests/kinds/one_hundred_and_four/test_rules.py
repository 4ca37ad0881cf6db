"""The worked example of rules/one-hundred-and-four.md §7, the scenarios of §8, every refusal
code, the match variant, deals, options and the JSON forms of actions."""

from __future__ import annotations

import random
from functools import partial

import pytest

from games.kinds.one_hundred_and_four.engine import (
    BULLHEADS,
    DECK,
    OPTIONS,
    RULES,
    SEAT_COUNTS,
    SLUG,
    Choose,
    IllegalMove,
    LastTurn,
    Placement,
    TakeRow,
    bullheads,
    row_cost,
    rows_after_steps,
)
from games.kinds.protocol import resolve_options
from tests.kinds.refusals import refused_by

from .helpers import choose, deal, play_out, table, take

# Rows ending at 20, 35, 41 and 66 (§7).
EXAMPLE_ROWS = ((12, 20), (30, 35), (41,), (50, 66))


def last_turn_of(state) -> LastTurn:
    last = RULES.view(state, None).last_turn
    assert last is not None
    return last


refused = partial(refused_by, RULES, IllegalMove)


# --- §7 The worked example ---------------------------------------------------------------------


def test_the_worked_example_places_each_card_after_the_closest_lower_end():
    state = table(EXAMPLE_ROWS, [[22], [24], [40], [90]])
    state = choose(state, 22, 24, 40, 90)
    view = RULES.view(state, None)
    assert view.rows == ((12, 20, 22, 24), (30, 35, 40), (41,), (50, 66, 90))
    assert last_turn_of(state).placements == (
        Placement(0, 22, 0, None, False),
        Placement(1, 24, 0, None, False),
        Placement(2, 40, 1, None, False),
        Placement(3, 90, 3, None, False),
    )
    assert view.penalties == (0, 0, 0, 0)
    assert view.phase == "choose" and view.turn == 1


def test_the_worked_example_with_a_full_first_row_takes_it_with_22():
    full = (3, 8, 12, 17, 20)
    state = table((full, (30, 35), (41,), (50, 66)), [[22], [24], [40], [90]])
    state = choose(state, 22, 24, 40, 90)
    view = RULES.view(state, None)
    assert view.rows[0] == (22, 24)
    assert last_turn_of(state).placements[0] == Placement(0, 22, 0, full, False)
    assert view.piles[0] == full
    assert view.penalties == (row_cost(full), 0, 0, 0)


def test_the_worked_example_with_a_3_pauses_for_its_owners_row():
    state = table(EXAMPLE_ROWS, [[22], [24], [40], [90], [3]])
    state = choose(state, 22, 24, 40, 90, 3)
    view = RULES.view(state, None)
    assert view.phase == "pause" and view.asked == 4 and view.too_low == 3
    assert view.rows == EXAMPLE_ROWS
    assert view.revealed == ((4, 3), (0, 22), (1, 24), (2, 40), (3, 90))
    state = take(state, 2)
    view = RULES.view(state, None)
    assert view.rows == ((12, 20, 22, 24), (30, 35, 40), (3,), (50, 66, 90))
    assert view.piles[4] == (41,) and view.penalties[4] == 1


# --- §8 More scenarios ------------------------------------------------------------------------


def test_the_penalty_table_holds_171_bullheads():
    assert bullheads(55) == 7
    assert [bullheads(c) for c in (11, 22, 33, 44, 66, 77, 88, 99)] == [5] * 8
    assert [bullheads(c) for c in range(10, 101, 10)] == [3] * 10
    assert [bullheads(c) for c in range(5, 100, 10) if c != 55] == [2] * 9
    assert bullheads(1) == 1
    assert sum(bullheads(c) for c in DECK) == 171
    counts = {v: sum(1 for c in DECK if bullheads(c) == v) for v in (1, 2, 3, 5, 7)}
    assert counts == {1: 76, 2: 9, 3: 10, 5: 8, 7: 1}
    assert BULLHEADS[1:] == tuple(bullheads(c) for c in DECK)


def test_the_sixth_card_takes_exactly_the_five_cards_of_its_row():
    full = (60, 61, 62, 63, 64)
    state = table(((10,), (20,), (30,), full), [[65], [11]])
    state = choose(state, 65, 11)
    view = RULES.view(state, None)
    assert view.rows[3] == (65,)
    assert view.piles[0] == full and len(view.piles[0]) == 5
    assert view.penalties == (row_cost(full), 0)
    assert last_turn_of(state).placements[1] == Placement(0, 65, 3, full, False)


def test_a_too_low_card_pauses_and_later_cards_go_against_the_new_row():
    state = table(((10,), (20,), (30,), (40,)), [[5], [7], [25]])
    state = choose(state, 5, 7, 25)
    assert RULES.to_act(state) == {0}
    assert RULES.legal_actions(state, 0) == tuple(TakeRow(r) for r in range(4))
    assert RULES.legal_actions(state, 1) == () and RULES.legal_actions(state, 2) == ()
    assert RULES.view(state, 0).must_take_row and not RULES.view(state, 1).must_take_row
    state = take(state, 3)
    view = RULES.view(state, None)
    assert view.rows == ((10,), (20, 25), (30,), (5, 7))
    assert last_turn_of(state).placements == (
        Placement(0, 5, 3, (40,), True),
        Placement(1, 7, 3, None, False),
        Placement(2, 25, 1, None, False),
    )


@pytest.mark.parametrize("length", [1, 2, 3, 4, 5])
def test_the_too_low_owner_may_take_a_row_of_any_length(length):
    rows = ((20,), (30, 31), tuple(range(40, 40 + length)), (90,))
    state = table(rows, [[5], [95]])
    state = take(choose(state, 5, 95), 2)
    view = RULES.view(state, None)
    assert view.piles[0] == rows[2] and view.rows[2] == (5,)
    assert view.penalties[0] == row_cost(rows[2])


def test_with_two_players_the_80_unused_cards_never_appear_in_a_view():
    dealt = deal(2)
    unused = set(dealt["rest"])
    assert len(unused) == 80
    state = RULES.initial_state_from_deals([dealt], 2, {"match_to": None})
    rng = random.Random(2)
    while RULES.to_act(state):
        for seat in (None, 0, 1):
            view = RULES.view(state, seat)
            shown = {c for row in view.rows for c in row} | set(view.hand)
            shown |= {c for pile in view.piles for c in pile}
            shown |= {c for turn in view.played for _, c in turn}
            assert not shown & unused
        seat = min(RULES.to_act(state))
        state = RULES.apply(state, seat, rng.choice(RULES.legal_actions(state, seat)))


def test_the_same_seed_and_actions_give_the_same_game():
    def game():
        state = RULES.initial_state("same", 6, {"match_to": None})
        return play_out(state, random.Random(8))

    first, again = game(), game()
    assert first == again
    assert RULES.view(first, None).piles == RULES.view(again, None).piles


def test_a_seeded_deal_follows_the_layout_of_section_2():
    deck = list(DECK)
    random.Random("layout:0").shuffle(deck)
    state = RULES.initial_state("layout", 3, {"match_to": None})
    assert RULES.view(state, None).rows == tuple((c,) for c in deck[:4])
    for seat in range(3):
        assert RULES.view(state, seat).hand == tuple(sorted(deck[4 + 10 * seat : 14 + 10 * seat]))


# --- Refusals ----------------------------------------------------------------------------------


def test_every_refusal_has_its_code_and_changes_nothing():
    state = table(((10,), (20,), (30,), (40,)), [[5, 50], [7, 60], [25, 70]])
    refused(state, 3, Choose(50), "seat_out_of_range")
    refused(state, -1, Choose(50), "seat_out_of_range")
    refused(state, 0, Choose(60), "card_not_held")
    refused(state, 0, Choose(10), "card_not_held")
    refused(state, 0, Choose(0), "card_out_of_range")
    refused(state, 0, Choose(105), "card_out_of_range")
    refused(state, 0, TakeRow(0), "not_asked")
    state = RULES.apply(state, 0, Choose(5))
    refused(state, 0, Choose(50), "already_chosen")
    refused(state, 0, Choose(5), "already_chosen")
    state = RULES.apply(RULES.apply(state, 1, Choose(7)), 2, Choose(25))
    refused(state, 1, Choose(60), "choose_during_pause")
    refused(state, 1, TakeRow(0), "not_asked")
    refused(state, 0, TakeRow(4), "row_out_of_range")
    refused(state, 0, TakeRow(-1), "row_out_of_range")
    state = play_out(state, random.Random(0))
    refused(state, 0, Choose(50), "game_over")
    refused(state, 1, TakeRow(0), "game_over")


NOT_INTS = [Choose("5"), Choose(True), Choose(None), TakeRow(1.0)]  # type: ignore[arg-type]


@pytest.mark.parametrize("action", NOT_INTS)
def test_actions_with_values_that_are_not_ints_are_refused_cleanly(action):
    state = table(((10,), (20,), (30,), (40,)), [[5], [7]])
    if isinstance(action, TakeRow):
        state = choose(state, 5, 7)
        refused(state, 0, action, "row_out_of_range")
    else:
        refused(state, 0, action, "card_out_of_range")
    refused(state, 0, "choose 5", "not_an_action")


# --- Turns, keys, the match --------------------------------------------------------------------


def test_another_seats_commitment_changes_neither_a_seats_key_nor_its_view():
    state = RULES.initial_state("keys", 5, {"match_to": None})
    before = {s: (RULES.decision_key(state, s), RULES.view(state, s).hand) for s in range(5)}
    card = RULES.view(state, 2).hand[0]
    after = RULES.apply(state, 2, Choose(card))
    for seat in (0, 1, 3, 4):
        assert (RULES.decision_key(after, seat), RULES.view(after, seat).hand) == before[seat]
        assert RULES.view(after, seat).my_choice is None
    assert RULES.decision_key(after, 2) != before[2][0]
    assert RULES.view(after, 2).my_choice == card
    assert RULES.view(after, 0).committed == (False, False, True, False, False)
    assert RULES.to_act(after) == {0, 1, 3, 4}


def test_a_match_deals_again_until_a_total_reaches_66():
    state = RULES.initial_state("match", 4, {"match_to": 66})
    state = play_out(state, random.Random(4))
    view = RULES.view(state, None)
    assert len(view.history) >= 2 and RULES.hand_number(state) == len(view.history) - 1
    assert all(max(record.totals) < 66 for record in view.history[:-1])
    assert max(view.history[-1].totals) >= 66
    assert view.totals == view.history[-1].totals
    outcome = RULES.outcome(state)
    assert outcome is not None and outcome.scores == view.totals
    assert outcome.winners == tuple(s for s in range(4) if view.totals[s] == min(view.totals))


def test_a_new_deal_of_a_match_keeps_the_previous_last_turn_until_the_next_resolves():
    state = RULES.initial_state("keep", 3, {"match_to": 66})
    rng = random.Random(1)
    while RULES.hand_number(state) == 0:
        seat = min(RULES.to_act(state))
        state = RULES.apply(state, seat, rng.choice(RULES.legal_actions(state, seat)))
    view = RULES.view(state, 0)
    assert (view.deal, view.turn, view.phase) == (1, 0, "choose")
    assert view.last_turn is not None and (view.last_turn.deal, view.last_turn.turn) == (0, 9)
    assert view.penalties == (0, 0, 0) and view.totals == view.history[0].totals


def test_rows_after_steps_replays_a_turn_placement_by_placement():
    full = (60, 61, 62, 63, 64)
    state = table(((10,), (20,), (30,), full), [[65], [11], [5]])
    state = take(choose(state, 65, 11, 5), 1)
    last = last_turn_of(state)
    assert rows_after_steps(last, 0) == ((10,), (20,), (30,), full)
    assert rows_after_steps(last, 1) == ((10,), (5,), (30,), full)
    assert rows_after_steps(last, 2) == ((10, 11), (5,), (30,), full)
    assert rows_after_steps(last, 3) == last.rows_after == RULES.view(state, None).rows
    assert last.choices == ((2, 5), (1, 11), (0, 65))


# --- Deals, options, JSON ---------------------------------------------------------------------


def test_the_seam_describes_the_game():
    assert SLUG == "one-hundred-and-four" and tuple(range(2, 11)) == SEAT_COUNTS
    assert resolve_options(OPTIONS, {}) == {"match_to": None}
    assert resolve_options(OPTIONS, {"match_to": 66}) == {"match_to": 66}
    with pytest.raises(ValueError):
        resolve_options(OPTIONS, {"match_to": 100})


@pytest.mark.parametrize(
    "change",
    [
        lambda d: d["rows"].pop(),
        lambda d: d["hands"][0].pop(),
        lambda d: d["hands"].pop(),
        lambda d: d["hands"][1].__setitem__(0, d["hands"][0][0]),
        lambda d: d["rows"].__setitem__(0, 105),
        lambda d: d["rows"].__setitem__(0, True),
        lambda d: d["rest"].pop(),
        lambda d: d.pop("hands"),
    ],
)
def test_a_bad_deal_is_a_value_error(change):
    dealt = deal(3)
    change(dealt)
    with pytest.raises(ValueError):
        RULES.initial_state_from_deals([dealt], 3, {"match_to": None})


def test_a_match_needing_a_deal_past_the_last_one_given_is_a_value_error():
    state = RULES.initial_state_from_deals([deal(2)], 2, {"match_to": 1000})
    with pytest.raises(ValueError, match="No deal"):
        play_out(state, random.Random(0))


@pytest.mark.parametrize("seats", [1, 11, True])
def test_seat_counts_outside_2_to_10_are_refused(seats):
    with pytest.raises(ValueError):
        RULES.initial_state("x", seats, {"match_to": None})


def test_actions_round_trip_through_json():
    for action in (Choose(17), TakeRow(2), Choose(0), TakeRow(-1)):
        assert RULES.action_from_json(RULES.action_to_json(action)) == action
    assert RULES.action_to_json(Choose(17)) == {"action": "choose", "card": 17}
    assert RULES.action_to_json(TakeRow(2)) == {"action": "take_row", "row": 2}


@pytest.mark.parametrize(
    "data",
    [
        {"action": "choose"},
        {"action": "choose", "card": "17"},
        {"action": "choose", "card": True},
        {"action": "take_row", "row": 1.0},
        {"action": "take_row"},
        {"action": "play", "card": 3},
        {"card": 3},
        [],
    ],
)
def test_malformed_actions_are_value_errors(data):
    with pytest.raises(ValueError):
        RULES.action_from_json(data)


def test_malformed_snapshots_are_value_errors():
    data = RULES.state_to_json(RULES.initial_state("snap", 3, {"match_to": None}))
    assert RULES.state_from_json(data) == RULES.initial_state("snap", 3, {"match_to": None})
    for key, value in (("phase", "x"), ("seats", 1), ("asked", 0), ("rows", [[1]]), ("version", 9)):
        with pytest.raises(ValueError):
            RULES.state_from_json({**data, key: value})
