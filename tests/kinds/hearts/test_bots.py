"""Hearts' bots: always legal, the naive policy's main habits, whole games, and the naive
bot's decision depends only on its seat's view."""

from __future__ import annotations

import random

import pytest

from games.kinds.hearts.bots import BOTS, suggest
from games.kinds.hearts.engine import RULES, Pass, Play, parse_card
from games.kinds.hearts.engine.cards import BIT, QUEEN_OF_SPADES
from games.kinds.hearts.engine.rules import start_hand
from games.kinds.hearts.engine.state import SeededDeals
from games.kinds.simulation import play, simulate
from tests.kinds.play import choices

from .helpers import HOLD_INDEX, deal, hand_at
from .helpers import play as play_cards


def random_states(count, seed):
    """`count` states reached by random play from several games."""
    rng = random.Random(seed)
    states = []
    for game in range(count // 40 + 1):
        state = RULES.initial_state(f"bots-{seed}-{game}", 4, {"target": 100})
        for _ in range(rng.randrange(40, 400)):
            if not RULES.to_act(state):
                break
            seat = rng.choice(sorted(RULES.to_act(state)))
            state = RULES.apply(state, seat, rng.choice(RULES.legal_actions(state, seat)))
            if rng.random() < 0.12:
                states.append(state)
    return [s for s in states if RULES.to_act(s)][:count]


@pytest.mark.parametrize("name", ["naive", "random"])
def test_bots_always_choose_an_accepted_action(name):
    for state, seat, action in choices(RULES, BOTS[name], random_states(300, 7)):
        RULES.apply(state, seat, action)  # raises if refused
        if isinstance(action, Play):
            assert action in RULES.legal_actions(state, seat)
        else:
            assert len(set(action.cards)) == 3


def test_the_naive_bot_passes_the_queen_of_spades_when_it_holds_it():
    bot = BOTS["naive"]
    checked = 0
    for game in range(40):
        state = RULES.initial_state(f"queen-{game}", 4, {"target": 100})
        for seat in range(4):
            if state.hands[seat] & BIT[QUEEN_OF_SPADES]:
                action = bot.choose(state, seat, random.Random(0))
                assert isinstance(action, Pass) and QUEEN_OF_SPADES in action.cards
                checked += 1
    assert checked == 40


def test_the_naive_bot_opens_a_hold_hand_with_the_two_of_clubs():
    state = start_hand(SeededDeals("hold"), 100, HOLD_INDEX, (0, 0, 0, 0), ())
    (seat,) = RULES.to_act(state)
    assert BOTS["naive"].choose(state, seat, random.Random(0)) == Play(parse_card("2C"))


def test_the_naive_bot_ducks_and_dumps_the_queen():
    state = hand_at(
        HOLD_INDEX,
        deal(
            "2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC KC AC",
            "QS 2D 3D 4D 5D 6D 7D 8D 9D 10D JD QD KD",
        ),
    )
    state = play_cards(state, "2C")
    # Seat 1 is void in clubs: on trick 1 it may not discard the Q♠, so the highest diamond.
    assert suggest(RULES.view(state, 1)) == Play(parse_card("KD"))
    state = play_cards(state, "KD", "AD", "2S")
    # Seat 0 won and leads a club; seat 1, void, dumps the Q♠ at once.
    state = play_cards(state, "3C")
    assert suggest(RULES.view(state, 1)) == Play(parse_card("QS"))


def test_the_naive_bot_ducks_under_the_highest_card():
    state = hand_at(
        HOLD_INDEX,
        deal(
            "2C 3D 4D 5D 6D 7D 8D 9D 10D JD QD KD AD",
            "AC 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH",
            "3C 4C 5C 6C 7C 8C 9C 10C JC QC KC 2D AH",
        ),
    )
    state = play_cards(state, "2C", "AC")
    # Seat 2 cannot beat the A♣: it ducks with its highest club.
    assert suggest(RULES.view(state, 2)) == Play(parse_card("KC"))


def test_a_spectator_and_a_waiting_seat_get_no_suggestion():
    state = RULES.initial_state("x", 4, {"target": 100})
    assert suggest(RULES.view(state, None)) is None
    state = RULES.apply(state, 0, Pass(RULES.view(state, 0).hand[:3]))
    assert suggest(RULES.view(state, 0)) is None
    with pytest.raises(ValueError):
        BOTS["naive"].choose(state, 0, random.Random(0))


@pytest.mark.parametrize("lineup", [["naive"] * 4, ["random"] * 4, ["naive", "random"] * 2])
def test_a_whole_bot_game_ends_with_an_outcome(lineup):
    played = play(RULES, 4, {"target": 100}, "whole", [BOTS[n] for n in lineup])
    assert max(played.outcome.scores) >= 100
    assert played.outcome.winners
    assert played.hands >= 2


def test_simulation_over_the_protocol_is_deterministic():
    first = simulate(RULES, 4, {"target": 50}, 4, "sim", ["naive", "random"] * 2, BOTS)
    again = simulate(RULES, 4, {"target": 50}, 4, "sim", ["naive", "random"] * 2, BOTS)
    assert first.actions == again.actions
    assert [p.scores for p in first.positions] == [p.scores for p in again.positions]


def swap_hidden_cards(state, viewer, rng):
    """`state` with one card swapped between two other seats' hands (same suits or not)."""
    a, b = rng.sample([s for s in range(4) if s != viewer], 2)
    hands = list(state.hands)
    if not hands[a] or not hands[b]:
        return None
    card_a = rng.choice([c for c in range(52) if hands[a] >> c & 1])
    card_b = rng.choice([c for c in range(52) if hands[b] >> c & 1])
    hands[a] ^= BIT[card_a] | BIT[card_b]
    hands[b] ^= BIT[card_a] | BIT[card_b]
    return state._replace(hands=tuple(hands))


def test_the_naive_bot_decides_from_the_view_only():
    rng = random.Random(3)
    compared = 0
    for state in random_states(400, 11):
        if state.phase != "play":
            continue
        (seat,) = RULES.to_act(state)
        other = swap_hidden_cards(state, seat, rng)
        if other is None or other == state:
            continue
        assert RULES.view(other, seat) == RULES.view(state, seat)
        for bot in (BOTS["naive"],):
            assert bot.choose(other, seat, random.Random(9)) == bot.choose(
                state, seat, random.Random(9)
            )
        compared += 1
    assert compared > 50


def test_the_random_bot_is_deterministic_for_a_seeded_rng():
    state = RULES.initial_state("det", 4, {"target": 100})
    bot = BOTS["random"]
    assert bot.choose(state, 2, random.Random(4)) == bot.choose(state, 2, random.Random(4))
