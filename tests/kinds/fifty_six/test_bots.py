"""Fifty-Six's bots: always legal, the naive policy's main habits, whole matches, a small
strength sample, and the naive bot's decision depends only on its seat's view."""

from __future__ import annotations

import random

import pytest

from games.kinds.fifty_six.bots import BOTS, choose_trump, suggest
from games.kinds.fifty_six.engine import RULES, AskTrump, Bid, make_play, parse_card
from games.kinds.fifty_six.engine.cards import BIT
from games.kinds.simulation import play, share_interval, simulate

from .helpers import act, deal, start


def random_states(count, seed):
    """`count` states reached by random play from several 4- and 6-seat matches."""
    rng = random.Random(seed)
    states = []
    for game in range(count):
        seats = (4, 6)[game % 2]
        state = RULES.initial_state(f"bots-{seed}-{game}", seats, {"tables_per_team": 12})
        for _ in range(rng.randrange(0, 200)):
            if not RULES.to_act(state):
                break
            (seat,) = RULES.to_act(state)
            state = RULES.apply(state, seat, rng.choice(RULES.legal_actions(state, seat)))
            if rng.random() < 0.1:
                states.append(state)
        if len(states) >= count:
            break
    return [s for s in states if RULES.to_act(s)][:count]


@pytest.fixture(scope="module")
def states():
    return random_states(400, 7)


@pytest.mark.parametrize("name", ["naive", "random"])
def test_bots_always_choose_a_legal_action(name, states):
    bot = BOTS[name]
    rng = random.Random(1)
    for state in states:
        (seat,) = RULES.to_act(state)
        action = bot.choose(state, seat, rng)
        assert action in RULES.legal_actions(state, seat)


def swap_hidden(state, viewer, rng):
    """`state` with one card swapped between two other seats' hands, or (when the viewer is
    not the bidder) the face-down card swapped with another seat's card."""
    others = [s for s in range(state.seats) if s != viewer and state.hands[s]]
    hands = list(state.hands)
    if state.trump >= 0 and not state.revealed and viewer != state.bidder and rng.random() < 0.5:
        w = rng.choice(others)
        card = rng.choice([c for c in range(48) if hands[w] >> c & 1])
        hands[w] ^= BIT[card] | BIT[state.trump]
        return state._replace(hands=tuple(hands), trump=card)
    if len(others) < 2:
        return None
    a, b = rng.sample(others, 2)
    card_a = rng.choice([c for c in range(48) if hands[a] >> c & 1])
    card_b = rng.choice([c for c in range(48) if hands[b] >> c & 1])
    hands[a] ^= BIT[card_a] | BIT[card_b]
    hands[b] ^= BIT[card_a] | BIT[card_b]
    return state._replace(hands=tuple(hands))


def test_the_naive_bot_decides_from_the_view_only(states):
    rng = random.Random(3)
    bot = BOTS["naive"]
    compared = 0
    for state in states:
        (seat,) = RULES.to_act(state)
        other = swap_hidden(state, seat, rng)
        if other is None:
            continue
        assert RULES.view(other, seat) == RULES.view(state, seat)
        assert bot.choose(other, seat, random.Random(9)) == bot.choose(
            state, seat, random.Random(9)
        )
        compared += 1
    assert compared > 100


# Seat 1 (bidder, trump laid: the A♠) leads the 9♣; seat 2 covers with the 10♣; seat 3,
# seat 1's partner, holds the J♣, the A♣ and the 10♣.
PARTNER = deal(
    4,
    "JS0 JS1 AD0 AD1 10D0 10D1 AH0 AH1",
    "9C0 JD0 9D0 JH0 9H0 9S0 AS0 10S0",
    "10C0 9C1 JC0 AC0 9S1 AS1 10S1 JD1",
    "JC1 AC1 10C1 9D1 JH1 9H1 10H0 10H1",
)


def test_the_naive_bot_does_not_overtake_its_partners_winning_card():
    state = act(start(PARTNER), "28", "pass", "pass", "pass", "trump:AS0", "9C0", "10C0")
    view = RULES.view(state, 3)
    assert view.trick_winning == 1
    assert suggest(view) == make_play("10C1")  # not the J♣: low, and no overtaking


def test_the_naive_bot_gives_points_to_a_partners_safe_trick_and_never_asks_then():
    state = act(start(PARTNER), "28", "pass", "pass", "pass", "trump:AS0", "9C0", "JC0")
    # Seat 3 cannot beat the J♣ (its own J♣ would come second): its cheapest club.
    assert suggest(RULES.view(state, 3)) == make_play("10C1")
    state = act(state, "AC1")
    view = RULES.view(state, 0)
    # Seat 0, last and void in clubs: its partner (seat 2) wins, so no asking; it gives a
    # point, but keeps its Jacks of spades (sure winners).
    assert view.can_ask_trump and view.trick_winning == 2
    assert suggest(view) == make_play("10D0")


def test_the_naive_bot_asks_for_the_trump_against_an_opponents_trick_with_points():
    state = act(start(PARTNER), "28", "pass", "pass", "pass", "trump:AS0", "9C0", "9C1", "AC1")
    view = RULES.view(state, 0)
    assert view.trick_winning == 1 and view.can_ask_trump
    assert suggest(view) == AskTrump()
    state = act(state, "ask")
    # Seat 0 holds no spade but the Jacks: it must (and does) play a spade, a winning one.
    assert suggest(RULES.view(state, 0)) == make_play("JS0")


def test_the_naive_bot_lays_down_the_weakest_card_of_its_longest_suit():
    state = act(start(PARTNER), "28", "pass", "pass", "pass")
    view = RULES.view(state, 1)
    assert choose_trump(view) == parse_card("10S0")


def test_the_naive_opener_always_bids():
    for game in range(20):
        state = RULES.initial_state(f"open-{game}", 4, {"tables_per_team": 12})
        assert isinstance(BOTS["naive"].choose(state, 1, random.Random(0)), Bid)


def test_a_spectator_and_a_waiting_seat_get_no_suggestion():
    state = RULES.initial_state("x", 4, {"tables_per_team": 12})
    assert suggest(RULES.view(state, None)) is None
    assert suggest(RULES.view(state, 0)) is None
    with pytest.raises(ValueError):
        BOTS["naive"].choose(state, 0, random.Random(0))
    with pytest.raises(ValueError):
        BOTS["random"].choose(state, 0, random.Random(0))


@pytest.mark.parametrize("seats", [4, 6])
@pytest.mark.parametrize("name", ["naive", "random"])
def test_a_whole_bot_match_ends_with_an_outcome(seats, name):
    played = play(RULES, seats, {"tables_per_team": 3}, f"whole-{name}", [BOTS[name]] * seats)
    outcome = played.outcome
    assert outcome.winning_team in (0, 1)
    assert outcome.winners == tuple(range(outcome.winning_team, seats, 2))


@pytest.mark.parametrize("seats", [4, 6])
def test_the_naive_team_beats_the_random_team_in_a_small_sample(seats):
    lineup = ["naive", "random"] * (seats // 2)
    result = simulate(RULES, seats, {"tables_per_team": 6}, 30, "strength", lineup, BOTS)
    share, _ = share_interval(result.positions[0].wins, result.games)
    assert share >= 0.8
    assert result.positions[0].wins + result.positions[1].wins == result.games


def test_the_random_bot_is_deterministic_for_a_seeded_rng():
    state = RULES.initial_state("det", 6, {"tables_per_team": 12})
    bot = BOTS["random"]
    assert bot.choose(state, 1, random.Random(4)) == bot.choose(state, 1, random.Random(4))
    assert isinstance(bot.choose(state, 1, random.Random(4)), Bid)  # the opener may not pass
