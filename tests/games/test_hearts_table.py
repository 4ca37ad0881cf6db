"""Hearts at the table, through the views: the pass picker, the secret simultaneous pass,
the exchange, legal cards, refusals that change nothing, and a whole game with bots."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from games.kinds.hearts import engine
from games.models import Game, GameAction, Membership
from games.services import states
from tests.conftest import HX, logged_in_client, make_user
from tests.games.conftest import start_table
from tests.games.table_helpers import page, post

CARD_ATTR = re.compile(r'data-card="([^"]+)"')


@pytest.fixture
def four(db):
    return [make_user(name) for name in ("alice", "bob", "carol", "erin")]


def found(pattern, text):
    match = re.search(pattern, text)
    assert match is not None, pattern
    return match.group(1)


def hand_of(game, seat):
    return engine.view_of(states.load_state(game), seat).hand


def codes(cards):
    return [engine.card_code(c) for c in cards]


def test_the_pass_picker_offers_every_card_and_names_the_receiver(four):
    game = start_table(four, kind="hearts", seed="picker")
    html = page(logged_in_client(four[0]), game)
    assert 'class="discard-form pass-form"' in html
    assert "choose three cards to pass to bob" in html.lower()  # hand 1 passes left
    own = set(codes(hand_of(game, 0)))
    assert set(re.findall(r'id="pass-([0-9A-Z]+)"', html)) == own
    # The bar's chip is the same for every viewer: the receiver is named by the picker alone.
    assert "Hearts" in html and "Pass to the left<" in html and "(Bob)" not in html


def test_passing_is_secret_until_all_four_have_passed(four):
    game = start_table(four, kind="hearts", seed="secret")
    clients = [logged_in_client(u) for u in four]
    before = [hand_of(game, s) for s in range(4)]
    passes = [codes(before[s][:3]) for s in range(4)]
    for seat in range(3):
        response = post(clients[seat], game, {"kind": "pass", "cards": passes[seat]})
        assert response.status_code == 200, response.content.decode()[:400]
        game.refresh_from_db()
        assert [hand_of(game, s) for s in range(4)] == before  # no card moves yet
        for other in range(4):
            html = page(clients[other], game)
            shown = set(CARD_ATTR.findall(html))
            for passer in range(seat + 1):
                if passer != other:
                    assert not shown & set(passes[passer]) - set(codes(before[other]))
            assert "passed" in html
    # The others see who is still choosing (the banner), never what was chosen.
    assert "Waiting for Erin to choose their pass." in page(clients[0], game)
    response = post(clients[3], game, {"kind": "pass", "cards": passes[3]})
    assert response.status_code == 200
    game.refresh_from_db()
    after = hand_of(game, 1)
    assert set(codes(after)) >= set(passes[0])  # bob received alice's three
    html = page(clients[1], game)
    assert "hand-received" in html and "from Alice" in html


def test_another_seats_pass_does_not_make_yours_stale(four):
    game = start_table(four, kind="hearts", seed="stale")
    alice, bob = logged_in_client(four[0]), logged_in_client(four[1])
    html = page(bob, game)
    version = int(found(r'data-version="(\d+)"', html))
    turn = found(r'name="turn" value="([^"]*)"', html)
    assert (
        post(alice, game, {"kind": "pass", "cards": codes(hand_of(game, 0)[:3])}).status_code == 200
    )
    game.refresh_from_db()
    assert game.version > version
    response = bob.post(
        reverse("move", kwargs={"game_id": game.pk}),
        {"version": version, "turn": turn, "kind": "pass", "cards": codes(hand_of(game, 1)[:3])},
        headers=HX,
    )
    assert response.status_code == 200, response.content.decode()[:300]
    assert GameAction.objects.filter(game=game).count() == 2


@pytest.mark.parametrize(
    ("cards", "status", "message"),
    [
        (["2C", "3C"], 400, "Choose exactly three cards to pass."),
        (["ZZ", "3C", "4C"], 400, "is not a card"),
        (None, 422, None),  # three cards not in the hand: the rules refuse
    ],
)
def test_a_bad_pass_is_refused_with_a_message_and_changes_nothing(four, cards, status, message):
    game = start_table(four, kind="hearts", seed="bad-pass")
    if cards is None:
        cards = codes(hand_of(game, 1)[:3])  # bob's cards, posted by alice
    version = Game.objects.get(pk=game.pk).version
    response = post(logged_in_client(four[0]), game, {"kind": "pass", "cards": cards})
    assert response.status_code == status
    text = response.content.decode()
    assert 'role="alert"' in text
    if message:
        assert message in text
    game.refresh_from_db()
    assert game.version == version and not GameAction.objects.filter(game=game).exists()


def test_only_legal_cards_are_enabled_and_an_illegal_play_is_refused(four):
    game = start_table([four[0]], bots=3, kind="hearts", seed="legal")
    alice = logged_in_client(four[0])
    assert (
        post(alice, game, {"kind": "pass", "cards": codes(hand_of(game, 0)[-3:])}).status_code
        == 200
    )
    game.refresh_from_db()
    state = states.load_state(game)
    view = engine.view_of(state, 0)
    html = page(alice, game)
    enabled = set(re.findall(r'id="card-([0-9A-Z]+)" name="card"', html))
    assert enabled == set(codes(view.legal_plays))
    illegal = [c for c in view.hand if c not in view.legal_plays]
    if 0 in engine.to_act(state):
        version = game.version
        response = post(alice, game, {"kind": "play", "card": engine.card_code(illegal[0])})
        assert response.status_code == 422
        game.refresh_from_db()
        assert game.version == version


def test_a_whole_game_with_three_bots_ends_with_winners_and_a_score_sheet(four):
    game = start_table([four[0]], bots=3, kind="hearts", seed="whole", options={"target": 50})
    alice = logged_in_client(four[0])
    moves = 0
    while True:
        game.refresh_from_db()
        if game.status == Game.Status.FINISHED:
            break
        state = states.load_state(game)
        view = engine.view_of(state, 0)
        if view.can_pass:
            data = {"kind": "pass", "cards": codes(view.hand[:3])}
        else:
            data = {"kind": "play", "card": engine.card_code(view.legal_plays[0])}
        response = post(alice, game, data)
        assert response.status_code == 200, response.content.decode()[:300]
        moves += 1
        assert moves < 1000
    html = page(alice, game)
    assert "Game over" in html and "Score sheet" in html
    outcome = engine.outcome(states.load_state(game))
    assert outcome is not None
    assert game.winners == tuple(outcome.winners)
    assert not Membership.objects.filter(game=game, must_act=True).exists()
