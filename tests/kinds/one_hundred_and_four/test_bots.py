"""One Hundred and Four's bots: always legal, the naive policy's habits (C-104-06 row, no
obvious sixth card), decisions from the view only, whole games at every seat count, and the
heuristic taking fewer points than the naive bot on a small sample."""

from __future__ import annotations

import random
import statistics
import time

import pytest

from games.kinds.one_hundred_and_four.bots import (
    BOTS,
    card_risks,
    heuristic_action,
    policy_row,
    suggest,
    unseen_cards,
)
from games.kinds.one_hundred_and_four.engine import RULES, Choose, HundredAndFourState, TakeRow
from games.kinds.simulation import play, simulate
from tests.kinds.play import choices

from .helpers import choose, table


def random_states(count, seed, seats_choices=range(2, 11)):
    """`count` states with somebody to act, reached by random play."""
    rng = random.Random(seed)
    states: list[HundredAndFourState] = []
    game = 0
    while len(states) < count:
        seats = rng.choice(list(seats_choices))
        state = RULES.initial_state(f"bots-{seed}-{game}", seats, {"match_to": None})
        game += 1
        while RULES.to_act(state):
            if rng.random() < 0.1:
                states.append(state)
            seat = rng.choice(sorted(RULES.to_act(state)))
            state = RULES.apply(state, seat, rng.choice(RULES.legal_actions(state, seat)))
    return states[:count]


@pytest.mark.parametrize("name", ["naive", "heuristic", "random"])
def test_bots_always_choose_a_legal_action(name):
    for state, seat, action in choices(RULES, BOTS[name], random_states(300, 7)):
        assert action in RULES.legal_actions(state, seat)


def test_the_policy_row_takes_the_fewest_bullheads_then_cards_then_the_lowest_index():
    assert policy_row(((55,), (1, 2), (3,), (10,))) == 2  # 7, 2, 1, 3 bullheads
    assert policy_row(((1, 2), (3,), (10,), (4, 6))) == 1  # ties at 2 and 1: fewer cards
    assert policy_row(((1, 2), (3, 4), (6,), (7,))) == 2  # 2, 2, 1, 1: the lower index
    assert policy_row(((55,), (1, 2, 3, 4, 6), (11,), (10, 20))) == 2  # 5 = 5: one card


def test_the_naive_bot_takes_the_policy_row_with_a_too_low_card():
    rows = ((20, 30), (40,), (50, 51, 52), (60,))
    state = choose(table(rows, [[5], [95]]), 5, 95)
    assert BOTS["naive"].choose(state, 0, random.Random(0)) == TakeRow(1)
    assert suggest(RULES.view(state, 0)) == TakeRow(1)


def test_the_naive_bot_does_not_play_an_obvious_sixth_card():
    full = (60, 61, 62, 63, 64)
    state = table(((10,), (20,), (30,), full), [[65, 35], [99]])
    assert suggest(RULES.view(state, 0)) == Choose(35)
    # With nothing safe it takes the cheaper risk: too low (the 1-point row 10) rather than
    # the sixth card (7 points).
    state = table(((10,), (20,), (30,), full), [[65, 5], [99]])
    assert RULES.view(state, 0).hand[:2] == (5, 65)
    assert suggest(RULES.view(state, 0)) == Choose(5)


def test_the_heuristic_sees_the_danger_of_a_wide_gap_on_a_long_row():
    rows = ((10, 11, 12, 13), (50,), (70,), (90,))
    unseen = [c for c in range(16, 105) if c not in (30, 50, 70, 90)]
    risks = card_risks(rows, (14, 15, 30), unseen, 3)
    assert risks[30] > risks[15] == risks[14] == 0.0  # nothing can come between 13 and 15


def test_a_spectator_and_a_committed_seat_get_no_suggestion():
    state = RULES.initial_state("x", 3, {"match_to": None})
    assert suggest(RULES.view(state, None)) is None
    assert heuristic_action(RULES.view(state, None)) is None
    state = RULES.apply(state, 0, Choose(RULES.view(state, 0).hand[0]))
    assert suggest(RULES.view(state, 0)) is None
    for bot in BOTS.values():
        with pytest.raises(ValueError):
            bot.choose(state, 0, random.Random(0))


def hide_differently(state, viewer, rng):
    """`state` with one card swapped between two other seats' hands (or between a hand and
    the committed card of another seat): what `viewer` may not see changes."""
    others = [s for s in range(state.seats) if s != viewer]
    if len(others) < 2 or state.phase != "choose":
        return None
    a, b = rng.sample(others, 2)
    hands = [list(h) for h in state.hands]
    if not hands[a] or not hands[b]:
        return None
    i, j = rng.randrange(len(hands[a])), rng.randrange(len(hands[b]))
    hands[a][i], hands[b][j] = hands[b][j], hands[a][i]
    return state._replace(hands=tuple(tuple(sorted(h)) for h in hands))


def test_the_bots_decide_from_the_view_only():
    rng = random.Random(3)
    compared = 0
    for state in random_states(300, 11):
        seat = min(RULES.to_act(state))
        other = hide_differently(state, seat, rng)
        if other is None or other == state:
            continue
        assert RULES.view(other, seat) == RULES.view(state, seat)
        for bot in BOTS.values():
            assert bot.choose(other, seat, random.Random(9)) == bot.choose(
                state, seat, random.Random(9)
            )
        compared += 1
    assert compared > 100


def test_the_unseen_cards_are_the_other_hands_and_the_unused_cards():
    state = RULES.initial_state("unseen", 4, {"match_to": None})
    view = RULES.view(state, 1)
    deal = state.source.deal(0, 4)
    expected = sorted([*deal.rest, *(c for s in (0, 2, 3) for c in deal.hands[s])])
    assert unseen_cards(view) == expected


@pytest.mark.parametrize("seats", [2, 5, 10])
@pytest.mark.parametrize("match_to", [None, 66])
def test_a_whole_bot_game_ends_with_an_outcome(seats, match_to):
    names = ["heuristic", "naive", "random"]
    lineup = [BOTS[names[s % 3]] for s in range(seats)]
    played = play(RULES, seats, {"match_to": match_to}, f"whole-{seats}", lineup)
    assert played.outcome.winners
    if match_to is not None:
        assert max(played.outcome.scores) >= match_to


def test_a_ten_seat_heuristic_game_takes_well_under_a_second():
    started = time.perf_counter()
    play(RULES, 10, {"match_to": None}, "fast", [BOTS["heuristic"]] * 10)
    assert time.perf_counter() - started < 0.5


def test_the_bots_are_deterministic_for_a_seeded_rng():
    state = RULES.initial_state("det", 6, {"match_to": None})
    for bot in (BOTS["naive"], BOTS["heuristic"], BOTS["random"]):
        assert bot.choose(state, 2, random.Random(4)) == bot.choose(state, 2, random.Random(4))
    lineup = ["heuristic", "naive", "random", "naive"]
    first = simulate(RULES, 4, {"match_to": None}, 5, "sim", lineup, BOTS)
    again = simulate(RULES, 4, {"match_to": None}, 5, "sim", lineup, BOTS)
    assert [p.scores for p in first.positions] == [p.scores for p in again.positions]


def test_the_heuristic_takes_fewer_points_than_the_naive_bot():
    lineup = ["heuristic", "naive", "heuristic", "naive"]
    result = simulate(RULES, 4, {"match_to": None}, 200, "strength", lineup, BOTS)
    by: dict[str, list[int]] = {"heuristic": [], "naive": []}
    for position in result.positions:
        by[position.label].extend(position.scores)
    assert statistics.fmean(by["heuristic"]) < statistics.fmean(by["naive"])
