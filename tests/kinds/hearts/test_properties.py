"""Property tests over random legal play (hypothesis, derandomized so runs are repeatable).

Checked at every step (random legal actions of random waiting seats, seeded):
* the 52 cards are all accounted for: hands + completed tricks + current trick, once each;
* every action `legal_actions` offers is accepted, and a seat waits iff it has one;
* each finished hand hands out 26 points, or 0 + 3 × 26 after a moon; totals add up;
* a seat's view holds its own hand and no card another seat still holds (its own pass
  excepted: it knows where those went), and never another seat's pass;
* a spectator's view holds no hand, pass or legal play;
* another seat's pass changes neither a seat's decision key nor its view (but the flags);
* states and actions survive a JSON round trip;
* a game played to the end has an outcome: totals over the target, lowest totals win.
"""

from __future__ import annotations

import dataclasses
import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from games.kinds.hearts.engine import RULES, Pass, Play, cards_of
from games.kinds.hearts.engine.cards import DECK
from tests.kinds.play import checked_play

MAX_STEPS = 200


def all_cards(state):
    cards = [c for hand in state.hands for c in cards_of(hand)]
    cards += state.trick
    cards += [c for trick in state.tricks for c in trick.cards]
    return cards


def view_cards(view):
    """Every card of the hand in progress a view shows, except the viewer's own pass
    (finished hands in `history` show cards of earlier deals)."""
    cards = list(view.hand) + list(view.legal_plays) + list(view.received or ())
    cards += [c for _, c in view.trick] + [c for _, c in view.last_trick]
    cards += [c for trick in view.tricks for c in trick.cards]
    return cards


def check_views(state):
    for seat in range(4):
        view = RULES.view(state, seat)
        assert view.hand == cards_of(state.hands[seat])
        others = {c for s in range(4) if s != seat for c in cards_of(state.hands[s])}
        assert not others & set(view_cards(view))
        assert view.my_pass == (cards_of(state.passes[seat]) if state.passes[seat] else None)
        if view.received is not None:
            assert view.phase != "pass"
        if view.phase != "pass":
            plays = RULES.legal_actions(state, seat)
            assert view.legal_plays == tuple(a.card for a in plays if isinstance(a, Play))
            assert len(plays) == len(view.legal_plays)
        assert view.hand_sizes == tuple(len(cards_of(h)) for h in state.hands)
    spectator = RULES.view(state, None)
    assert spectator.hand == () and spectator.legal_plays == ()
    assert spectator.my_pass is None and spectator.received is None
    assert spectator.pass_to is None and spectator.received_from is None


def check_hand_end(before, after):
    record = after.history[-1]
    assert sum(record.taken) == 26
    if record.moon_shooter is None:
        assert record.points == record.taken
    else:
        assert record.taken[record.moon_shooter] == 26
        assert sorted(record.points) == [0, 26, 26, 26]
        assert record.points[record.moon_shooter] == 0
    assert record.totals == tuple(t + p for t, p in zip(before.totals, record.points, strict=True))
    assert record.totals == after.totals


def check_step(state, rng):
    """Check `state`, take one random legal step; returns the next state."""
    cards = all_cards(state)
    assert sorted(cards) == list(DECK)
    waiting = RULES.to_act(state)
    for seat in range(4):
        actions = RULES.legal_actions(state, seat)
        assert bool(actions) == (seat in waiting)
        for action in actions:
            RULES.apply(state, seat, action)  # accepted
            assert (
                RULES.action_from_json(json.loads(json.dumps(RULES.action_to_json(action))))
                == action
            )
    data = json.loads(json.dumps(RULES.state_to_json(state)))
    assert RULES.state_from_json(data) == state
    check_views(state)
    seat = rng.choice(sorted(waiting))
    if RULES.view(state, seat).can_pass:
        hand = RULES.view(state, seat).hand
        action = Pass(tuple(sorted(rng.sample(hand, 3))))
        others = [s for s in range(4) if s != seat]
        keys = {s: RULES.decision_key(state, s) for s in others}
        views = {s: RULES.view(state, s) for s in others}
    else:
        action = rng.choice(RULES.legal_actions(state, seat))
        keys, views = {}, {}
    after = RULES.apply(state, seat, action)
    if len(after.history) > len(state.history):
        check_hand_end(state, after)
    elif keys:
        for s, key in keys.items():
            assert RULES.decision_key(after, s) == key or RULES.view(after, s).phase == "play"
            if RULES.view(after, s).phase == "pass":
                changed = RULES.view(after, s)
                same = dataclasses.replace(changed, passed=views[s].passed, to_act=views[s].to_act)
                assert same == views[s]
    if RULES.view(state, None).phase == "play":
        assert RULES.decision_key(after, seat) != RULES.decision_key(state, seat)
    return after


@settings(max_examples=12, deadline=None, derandomize=True)
@given(st.integers(min_value=0, max_value=10**9), st.integers(min_value=0, max_value=3))
def test_random_play_keeps_every_invariant(seed, skip):
    rng = random.Random(seed)
    state = RULES.initial_state(f"prop-{seed}", 4, {"target": 100})
    # Start some games in a later hand, so hold and across hands are covered too.
    for _ in range(skip * 53):
        if not RULES.to_act(state):
            break
        seat = min(RULES.to_act(state))
        state = RULES.apply(state, seat, RULES.legal_actions(state, seat)[0])
    checked_play(RULES, state, lambda s: check_step(s, rng), MAX_STEPS)


@settings(max_examples=4, deadline=None, derandomize=True)
@given(st.integers(min_value=0, max_value=10**9), st.sampled_from([50, 100]))
def test_a_random_game_ends_with_the_lowest_totals_winning(seed, target):
    rng = random.Random(seed)
    state = RULES.initial_state(f"end-{seed}", 4, {"target": target})
    steps = 0
    while RULES.to_act(state):
        seat = rng.choice(sorted(RULES.to_act(state)))
        state = RULES.apply(state, seat, rng.choice(RULES.legal_actions(state, seat)))
        steps += 1
        assert steps < 5000
    outcome = RULES.outcome(state)
    assert outcome is not None
    assert max(outcome.scores) >= target
    history = RULES.view(state, None).history
    assert all(max(record.totals) < target for record in history[:-1])
    assert outcome.winners == tuple(s for s in range(4) if outcome.scores[s] == min(outcome.scores))
    assert RULES.hand_number(state) == len(history) - 1
    assert RULES.state_from_json(RULES.state_to_json(state)) == state
