"""The table views, playing on: the hint, handing a seat to a bot, the discard form, the
rematch, and a whole game played through HTTP with humans and bots."""

from __future__ import annotations

import random
import re

import pytest
from django.urls import reverse

from games.kinds.hundred_and_ten import engine
from games.models import Game, GameAction, Membership, Snapshot
from games.services import states
from tests.conftest import HX, logged_in_client
from tests.games.conftest import form_of, post_move, start_table, url


def test_the_hint_is_the_bot_suggestion_for_your_own_turn(two, alice, bob):
    response = logged_in_client(bob).get(url("hint", two), headers=HX)
    state = states.load_state(two)
    suggestion = engine.suggestion(state)
    assert isinstance(suggestion, engine.Bid)
    text = response.content.decode()
    assert response.status_code == 200 and 'id="hint"' in text
    expected = "Pass." if suggestion.amount == 0 else f"Bid {suggestion.amount}"
    assert expected in text
    waiting = logged_in_client(alice).get(url("hint", two), headers=HX).content.decode()
    assert "Hints are shown on your turn." in waiting


def test_hand_my_seat_to_a_bot(two, bob):
    client = logged_in_client(bob)
    html = client.get(url("table", two), headers=HX).content.decode()
    assert 'hx-confirm="Hand your seat to a bot' in html
    response = client.post(url("automate", two), headers=HX)
    assert response.status_code == 200
    assert Membership.objects.get(game=two, user=bob).automated
    assert GameAction.objects.filter(game=two, seat=1, auto=True).exists()
    assert "A bot plays your seat." in response.content.decode()
    again = client.post(url("automate", two), headers=HX)
    assert again.status_code == 422


def test_discard_offers_toggle_cards_with_non_trumps_preselected(alice):
    game = start_table([alice], bots=1, seed="discard-view")
    client = logged_in_client(alice)
    rng = random.Random(2)
    for _ in range(200):
        game.refresh_from_db()
        state = states.load_state(game)
        if state.status == engine.Status.DISCARD and state.active_seat == 0:
            break
        bids = engine.legal_bids(state, 0)
        # alice bids whenever she can, so the round is not passed out
        move = engine.Bid(0, bids[1]) if len(bids) > 1 else rng.choice(engine.legal_moves(state, 0))
        post_move(client, game, **form_of(move, game.version))
    else:
        pytest.fail("never reached alice's discard")
    html = client.get(url("table", game), headers=HX).content.decode()
    trump = state.trump
    assert trump is not None
    hand = state.hands[0]
    for card in hand:
        code = engine.format_card(card)
        box = re.search(rf'<input type="checkbox"[^>]*name="cards" value="{code}"[^>]*>', html)
        assert box, code
        assert ("checked" in box.group(0)) == (not engine.is_trump(card, trump))
    assert "Keep my hand" in html or "Discard " in html
    keep = post_move(client, game, kind="discard", version=game.version)
    assert keep.status_code == 200
    mine = GameAction.objects.filter(game=game, seat=0, move__type="discard").get()
    assert mine.move["cards"] == []


def test_rematch_button_after_the_end_opens_the_new_table(alice, bob):
    game = start_table([alice, bob], seed="rematch-view", target=30)
    rng = random.Random(4)
    clients = {0: logged_in_client(alice), 1: logged_in_client(bob)}
    while game.status != Game.Status.FINISHED:
        state = states.load_state(game)
        seat = state.active_seat
        assert seat is not None
        move = rng.choice(engine.perspective_of(state, seat).legal_moves)
        assert post_move(clients[seat], game, **form_of(move, game.version)).status_code == 200
        game.refresh_from_db()
    html = clients[0].get(url("table", game), headers=HX).content.decode()
    assert "Game over:" in html and ">Rematch</button>" in html
    assert "the others are invited" in html
    response = clients[1].post(url("rematch", game), headers=HX)
    new = Game.objects.get(rematch_of=game)
    assert response.status_code == 204
    assert response["HX-Redirect"] == url("waiting-room", new)  # alice is invited
    assert "Go to the rematch" in clients[0].get(url("table", game), headers=HX).content.decode()
    room = clients[0].get(url("waiting-room", new)).content.decode()
    assert "invited you to a rematch" in room and ">Accept</button>" in room
    assert "starts when everyone has answered" in room
    mine = clients[1].get(url("waiting-room", new)).content.decode()
    assert "Kept for Alice (invited)" in mine
    assert "The rematch starts by itself when everyone has answered" in mine
    accepted = clients[0].post(reverse("accept", args=[new.pk]), headers=HX)
    assert accepted["HX-Redirect"] == url("table", new)  # the last answer started it


def test_rematch_refused_while_the_game_is_on(two, alice):
    response = logged_in_client(alice).post(url("rematch", two), headers=HX)
    assert response.status_code == 422
    assert Game.objects.count() == 1


def test_a_whole_game_through_the_views_with_humans_and_bots(alice, bob):
    """alice and bob play random legal moves over HTTP against two bots, to the end."""
    game = start_table([alice, bob], bots=2, seed="whole-game")
    clients = {0: logged_in_client(alice), 1: logged_in_client(bob)}
    rng = random.Random(7)
    posts = 0
    while True:
        game.refresh_from_db()
        if game.status == Game.Status.FINISHED:
            break
        state = states.load_state(game)
        seat = state.active_seat
        assert seat in clients  # bots never leave a bot's turn hanging
        move = rng.choice(engine.perspective_of(state, seat).legal_moves)
        response = post_move(clients[seat], game, **form_of(move, game.version))
        assert response.status_code == 200, response.content.decode()[:500]
        posts += 1
    initial = engine.state_from_json(Snapshot.objects.get(game=game, seq=0).state)
    log = [engine.move_from_json(a.move) for a in GameAction.objects.filter(game=game)]
    final = engine.replay(initial, log)
    assert final.status == engine.Status.WON
    assert game.winners[0] == final.winner
    assert posts == GameAction.objects.filter(game=game, auto=False).count()
    assert GameAction.objects.filter(game=game, auto=True).exists()
    winner = Membership.objects.get(game=game, seat=final.winner).name
    html = clients[0].get(url("table", game)).content.decode()
    assert f"{winner} wins." in html or "you win!" in html
