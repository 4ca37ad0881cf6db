"""Property tests over random legal play, 4 and 6 seats (hypothesis, derandomized).

Checked at every step (random legal actions, seeded):
* every card of the deck is accounted for once: hands, the face-down card, the current
  trick, the completed tricks;
* every action `legal_actions` offers is accepted, only the seat to act has any, and the
  view's legal actions are the seat's;
* a seat's view holds its own hand and no card another seat (its partner included) still
  holds; the concealed trump card and suit are in the bidder's view only; a spectator sees no
  hand, no legal action and no concealed trump;
* a view does not change when hidden cards move: a card swapped between two other seats'
  hands, or (for anyone but the bidder) the face-down card swapped with another seat's card;
* finished hands hold all 56 points (8 tricks) or, in tani, what was played; tables always
  add up to twice the starting count; history hides a never-revealed trump from non-bidders;
* states and actions survive a JSON round trip; a finished match has a consistent outcome.
"""

from __future__ import annotations

import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from games.kinds.fifty_six.engine import RULES, cards_of
from games.kinds.fifty_six.engine.cards import BIT, DECK_MASKS
from tests.kinds.play import checked_play

from .helpers import random_step

TABLES = 3


def all_cards(state):
    cards = [c for hand in state.hands for c in cards_of(hand)]
    if state.trump >= 0 and not state.revealed:
        cards.append(state.trump)
    cards += [c for _, c in state.trick]
    cards += [c for trick in state.tricks for _, c in trick.plays]
    return cards


def view_cards(view):
    """Every card of the hand in progress a view shows."""
    cards = list(view.hand) + list(view.legal_plays) + list(view.trump_choices)
    cards += [c for _, c in view.trick]
    cards += [c for trick in view.tricks for _, c in trick.plays]
    return cards


def swapped(state, a, b, card_a, card_b):
    hands = list(state.hands)
    hands[a] ^= BIT[card_a] | BIT[card_b]
    hands[b] ^= BIT[card_a] | BIT[card_b]
    return state._replace(hands=tuple(hands))


def check_hidden_moves_change_no_view(state, rng):
    """Swap hidden cards and compare every view; returns (hand swaps, trump swaps) checked."""
    n = state.seats
    checked = [0, 0]
    for viewer in [*range(n), None]:
        view = RULES.view(state, viewer)
        others = [s for s in range(n) if s != viewer and state.hands[s]]
        if len(others) >= 2:
            a, b = rng.sample(others, 2)
            card_a = rng.choice(cards_of(state.hands[a]))
            card_b = rng.choice(cards_of(state.hands[b]))
            assert RULES.view(swapped(state, a, b, card_a, card_b), viewer) == view
            checked[0] += 1
        concealed = state.trump >= 0 and not state.revealed
        if concealed and viewer != state.bidder and others:
            w = rng.choice(others)
            card = rng.choice(cards_of(state.hands[w]))
            hands = list(state.hands)
            hands[w] ^= BIT[card] | BIT[state.trump]
            other = state._replace(hands=tuple(hands), trump=card)
            assert RULES.view(other, viewer) == view
            checked[1] += 1
    return tuple(checked)


def check_views(state):
    n = state.seats
    concealed = state.trump >= 0 and not state.revealed
    for seat in range(n):
        view = RULES.view(state, seat)
        assert view.hand == cards_of(state.hands[seat])
        others = {c for s in range(n) if s != seat for c in cards_of(state.hands[s])}
        assert not others & set(view_cards(view))
        assert view.legal_actions == tuple(RULES.legal_actions(state, seat))
        assert view.hand_sizes == tuple(h.bit_count() for h in state.hands)
        if concealed:
            if seat == state.bidder:
                assert view.trump_card == state.trump and view.trump_suit is not None
            else:
                assert view.trump_card is None and view.trump_suit is None
                assert state.trump not in view_cards(view)
        for record in view.history:
            if not record.trump_revealed and record.bidder != seat:
                assert record.trump is None
    spectator = RULES.view(state, None)
    assert spectator.hand == () and spectator.legal_actions == () and spectator.bid_options == ()
    assert not spectator.can_ask_trump and not spectator.can_pass
    if concealed:
        assert spectator.trump_card is None and spectator.trump_suit is None
    assert all(r.trump is None or r.trump_revealed for r in spectator.history)


def check_step(state, rng):
    """Check `state`, take one random legal step; returns the next state."""
    assert sorted(all_cards(state)) == sorted(cards_of(DECK_MASKS[state.seats]))
    assert sum(state.tables) == 2 * TABLES
    waiting = RULES.to_act(state)
    assert len(waiting) == 1
    for seat in range(state.seats):
        actions = RULES.legal_actions(state, seat)
        assert bool(actions) == (seat in waiting)
        for action in actions:
            RULES.apply(state, seat, action)  # accepted
            text = json.dumps(RULES.action_to_json(action))
            assert RULES.action_from_json(json.loads(text)) == action
    data = json.loads(json.dumps(RULES.state_to_json(state)))
    assert RULES.state_from_json(data) == state
    check_views(state)
    check_hidden_moves_change_no_view(state, rng)
    (seat,) = waiting
    after = RULES.apply(state, seat, rng.choice(RULES.legal_actions(state, seat)))
    assert RULES.decision_key(after, seat) != RULES.decision_key(state, seat)
    if len(after.history) > len(state.history):
        check_hand_end(after.history[-1], state.seats)
    return after


def check_hand_end(record, seats):
    if record.outcome == "void":
        assert record.tricks == () and record.game_points == 0
        return
    played = sum(trick.points for trick in record.tricks)
    assert sum(record.points) == played
    if record.contract < 56:
        assert len(record.tricks) == 8 and played == 56
        assert (record.outcome == "made") == (record.points[record.bidder % 2] >= record.contract)
    else:
        lost = any(trick.winner != record.bidder for trick in record.tricks)
        assert (record.outcome == "lost") == lost
        assert all(len(trick.plays) == seats // 2 + 1 for trick in record.tricks)


def check_outcome(state):
    outcome = RULES.outcome(state)
    assert outcome is not None and RULES.to_act(state) == frozenset()
    team = outcome.winning_team
    assert team is not None
    assert outcome.winners == tuple(range(team, state.seats, 2))
    assert outcome.scores == tuple(state.tables[s % 2] for s in range(state.seats))
    assert state.tables[1 - team] == 0 and state.tables[team] == 2 * TABLES
    last = state.history[-1]
    assert last.outcome in ("made", "lost")
    assert RULES.hand_number(state) == last.index
    view = RULES.view(state, None)
    assert view.winners == outcome.winners and view.winning_team == team
    assert RULES.state_from_json(json.loads(json.dumps(RULES.state_to_json(state)))) == state


@settings(max_examples=16, deadline=None, derandomize=True)
@given(st.integers(min_value=0, max_value=10**9), st.sampled_from([4, 6]))
def test_random_play_keeps_every_invariant(seed, seats):
    rng = random.Random(seed)
    state = RULES.initial_state(f"prop-{seed}", seats, {"tables_per_team": TABLES})
    state = checked_play(RULES, state, lambda s: check_step(s, rng), 150)
    if not RULES.to_act(state):
        check_outcome(state)


@settings(max_examples=8, deadline=None, derandomize=True)
@given(st.integers(min_value=0, max_value=10**9), st.sampled_from([4, 6]))
def test_a_random_match_ends_with_a_consistent_outcome(seed, seats):
    rng = random.Random(seed)
    state = RULES.initial_state(f"end-{seed}", seats, {"tables_per_team": TABLES})
    steps = 0
    while RULES.to_act(state):
        (seat,) = RULES.to_act(state)
        state = RULES.apply(state, seat, rng.choice(RULES.legal_actions(state, seat)))
        if len(state.history) and state.history[-1].index == RULES.hand_number(state) - 1:
            check_hand_end(state.history[-1], seats)
        steps += 1
        assert steps < 20_000
    check_outcome(state)


def test_hidden_moves_change_no_view_over_whole_matches():
    rng = random.Random(5)
    hands = trumps = 0
    for seats in (4, 6):
        for game in range(3):
            state = RULES.initial_state(f"hidden-{game}", seats, {"tables_per_team": TABLES})
            while RULES.to_act(state):
                h, t = check_hidden_moves_change_no_view(state, rng)
                hands, trumps = hands + h, trumps + t
                state = random_step(state, rng)
    assert hands > 500 and trumps > 100
