""" "Confirm before playing" changes the rendered controls of a trick game (docs/comforts.md):
the hand's form asks for a pick and carries the confirm button, and the big bids (BIG_BID
in the game's table.py) ask once; without the setting neither is there."""

from __future__ import annotations

import random

from games.kinds.hundred_and_ten import engine
from games.services import states
from tests.conftest import HX, logged_in_client
from tests.games.conftest import form_of, post_move, start_table, url


def confirm(user, on: bool) -> None:
    user.confirm_moves = on
    user.save(update_fields=["confirm_moves"])


def test_confirm_before_playing_marks_the_big_bids(alice, bob):
    game = start_table([alice, bob], bots=2, seed="comfort-bids")
    state = states.load_state(game)
    seat = state.active_seat
    user = alice if seat == 0 else bob
    assert 30 in engine.perspective_of(state, seat).legal_bids or state.bid == 30
    client = logged_in_client(user)
    plain = client.get(url("table", game), headers=HX).content.decode()
    assert "data-confirm-bid" not in plain
    confirm(user, True)
    html = client.get(url("table", game), headers=HX).content.decode()
    assert 'data-confirm-bid="Bid 30? Confirm"' in html
    assert 'data-confirm-bid="Shoot the moon (60)? Confirm"' in html
    assert 'id="bid-15" name="amount" value="15" class="button button-primary">' in html


def test_confirm_before_playing_adds_the_pick_and_the_confirm_button(alice, bob):
    """alice and bob play random legal moves until it is alice's turn in a trick."""
    game = start_table([alice, bob], bots=2, seed="comfort-play")
    clients = {0: logged_in_client(alice), 1: logged_in_client(bob)}
    rng = random.Random(3)
    while True:
        game.refresh_from_db()
        state = states.load_state(game)
        seat = state.active_seat
        if seat == 0 and state.status == engine.Status.TRICKS:
            break
        move = rng.choice(engine.perspective_of(state, seat).legal_moves)
        assert post_move(clients[seat], game, **form_of(move, game.version)).status_code == 200
    plain = clients[0].get(url("table", game), headers=HX).content.decode()
    assert "pcard-playable" in plain
    assert "data-confirm-play" not in plain and 'id="confirm-play"' not in plain
    confirm(alice, True)
    html = clients[0].get(url("table", game), headers=HX).content.decode()
    assert 'class="play-form"' in html and "data-confirm-play>" in html
    assert 'id="confirm-play" name="card" value=""' in html
    # bob, not confirming, still sees plain controls
    bob_html = clients[1].get(url("table", game), headers=HX).content.decode()
    assert "data-confirm-play" not in bob_html
