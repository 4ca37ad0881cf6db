"""Fifty-Six at the table, through the views: the auction with only legal bids offered and
the restrictions explained, the trump card laid face down (face up for the bidder alone),
"Ask for trump" exactly when the rules allow it, refusals that change nothing, and whole
matches with bots ending with the winning team."""

from __future__ import annotations

import random
import re

import pytest

from games.kinds.fifty_six.bots import BOTS
from games.kinds.fifty_six.engine import (
    RULES,
    AskTrump,
    card_code,
)
from games.models import Game
from games.services import states
from tests.conftest import logged_in_client, make_user
from tests.games.conftest import start_table
from tests.games.table_helpers import fifty_six_form as form
from tests.games.table_helpers import page, post, state_of

KIND = "fifty-six"
ONE_TABLE = {"tables_per_team": 1}


@pytest.fixture
def four(db):
    return [make_user(name) for name in ("alice", "bob", "carol", "erin")]


def play_naive(game, clients, until, limit=400):
    """Every seat plays the naive bot's move through the views until `until(state)`."""
    rng = random.Random(1)
    for _ in range(limit):
        state = state_of(game)
        if until(state) or game.status == Game.Status.FINISHED:
            return state
        (seat,) = RULES.to_act(state)
        action = BOTS["naive"].choose(state, seat, rng)
        response = post(clients[seat], game, form(action))
        assert response.status_code == 200, response.content.decode()[:400]
    raise AssertionError("the condition never came")


def test_the_opener_must_bid_and_sees_every_legal_bid(four):
    game = start_table(four, kind=KIND, seed="open", options=ONE_TABLE)
    state = state_of(game)
    (opener,) = RULES.to_act(state)
    html = page(logged_in_client(four[opener]), game)
    offered = [int(v) for v in re.findall(r'id="bid-(\d+)"', html)]
    assert offered == list(RULES.view(state, opener).legal_bids) == list(range(28, 57))
    assert 'id="pass-button"' not in html  # the opener may not pass
    assert "you open, so you must bid" in html


def test_a_bid_that_is_not_allowed_is_explained_and_refused(four):
    game = start_table(four, kind=KIND, seed="restrict", options=ONE_TABLE)
    clients = [logged_in_client(u) for u in four]
    state = state_of(game)
    (opener,) = RULES.to_act(state)
    assert post(clients[opener], game, {"kind": "bid", "amount": "28"}).status_code == 200
    # The opponent passes; now the opener's partner may not bid low over its partner's 28.
    nxt = (opener + 1) % 4
    assert post(clients[nxt], game, {"kind": "pass"}).status_code == 200
    partner = (opener + 2) % 4
    view = RULES.view(state_of(game), partner)
    refused = [o for o in view.bid_options if not o.allowed]
    assert refused, "the rules restrict this bid"
    html = page(clients[partner], game)
    assert refused[0].reason in html.replace("&#x27;", "'")  # said once, with its values
    assert f'id="bid-{refused[0].value}"' not in html  # not offered as a control
    before = state_of(game)
    response = post(clients[partner], game, {"kind": "bid", "amount": str(refused[0].value)})
    assert response.status_code == 422
    assert refused[0].reason in response.content.decode().replace("&#x27;", "'")
    assert state_of(game) == before


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"kind": "bid", "amount": "x"}, "Choose a bid from 28 to 56."),
        ({"kind": "bid", "amount": "２８"}, "Choose a bid from 28 to 56."),
        ({"kind": "play", "card": "ZZ9"}, "is not a card"),
        ({"kind": "play"}, "Choose one card."),
        ({"kind": "shout"}, "unknown kind of move"),
    ],
)
def test_a_malformed_move_is_refused_and_changes_nothing(four, data, message):
    game = start_table(four, kind=KIND, seed="bad", options=ONE_TABLE)
    before = state_of(game)
    (seat,) = RULES.to_act(before)
    response = post(logged_in_client(four[seat]), game, data)
    assert response.status_code == 400
    assert message in response.content.decode()
    assert state_of(game) == before


def test_the_trump_card_is_face_up_for_the_bidder_alone(four):
    game = start_table(four, kind=KIND, seed="trump", options=ONE_TABLE)
    clients = [logged_in_client(u) for u in four]
    state = play_naive(game, clients, lambda s: RULES.view(s, 0).trump_down)
    view = RULES.view(state, 0)
    bidder = view.bidder
    assert bidder is not None
    trump = RULES.view(state, bidder).trump_card
    assert trump is not None
    mine = page(clients[bidder], game)
    assert "only you see this" in mine and f'data-card="{card_code(trump)}"' in mine
    for seat in range(4):
        if seat == bidder:
            continue
        html = page(clients[seat], game)
        assert "Trump card, face down" in html and "only you see this" not in html
        assert f'data-card="{card_code(trump)}"' not in html


def test_ask_for_trump_is_offered_exactly_when_the_rules_allow_it(four):
    game = start_table(four, kind=KIND, seed="ask", options=ONE_TABLE)
    clients = [logged_in_client(u) for u in four]
    seen = 0
    for _ in range(200):
        state = state_of(game)
        if game.status == Game.Status.FINISHED or RULES.view(state, 0).hand_index > 0:
            break
        for seat in range(4):
            html = page(clients[seat], game)
            assert ('id="ask-trump"' in html) == RULES.view(state, seat).can_ask_trump
            seen += RULES.view(state, seat).can_ask_trump
        (seat,) = RULES.to_act(state)
        view = RULES.view(state, seat)
        action = (
            AskTrump()
            if view.can_ask_trump
            else BOTS["naive"].choose(state, seat, random.Random(2))
        )
        assert post(clients[seat], game, form(action)).status_code == 200
    assert seen >= 1
    state = state_of(game)
    if RULES.view(state, 0).trump_revealed:
        assert "Trump revealed" in page(clients[1], game)


@pytest.mark.parametrize("seats", [4, 6])
def test_a_whole_match_with_bots_ends_with_the_winning_team(db, seats):
    alice = make_user("alice")
    game = start_table([alice], bots=seats - 1, kind=KIND, seed=f"whole-{seats}", options=ONE_TABLE)
    client = logged_in_client(alice)
    rng = random.Random(3)
    for _ in range(400):
        game.refresh_from_db()
        if game.status == Game.Status.FINISHED:
            break
        state = states.load_state(game)
        assert RULES.to_act(state) == frozenset({0})
        action = BOTS["naive"].choose(state, 0, rng)
        assert post(client, game, form(action)).status_code == 200
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    outcome = RULES.outcome(states.load_state(game))
    assert outcome is not None and outcome.winning_team is not None
    html = page(client, game)
    assert f"Team {'AB'[outcome.winning_team]}" in html and "wins the match" in html
