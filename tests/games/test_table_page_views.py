"""The table views: the page and its htmx partial, and who may see and do what (outsiders of a
private table, a spectator of a public one, signed-out visitors, a game not started yet)."""

from __future__ import annotations

from django.urls import reverse

from games.kinds.hundred_and_ten import engine
from games.models import Game
from games.services import states
from tests.conftest import HX, logged_in_client
from tests.games.conftest import post_move, seat_game, start_table, unchanged, url


def test_members_get_the_page_with_the_table_root_and_their_hand(two, alice):
    response = logged_in_client(alice).get(url("table", two))
    html = response.content.decode()
    assert response.status_code == 200
    assert 'id="table-root"' in html and f'data-game-id="{two.pk}"' in html
    assert 'id="table"' in html
    hand = states.load_state(two).hands[0]
    for card in hand:
        assert f'data-card="{engine.format_card(card)}"' in html
        assert engine.card_name(card) in html
    assert "Waiting for Bob to bid." in html


def test_htmx_get_returns_only_the_table_partial(two, bob):
    response = logged_in_client(bob).get(url("table", two), headers=HX)
    html = response.content.decode()
    assert html.lstrip().startswith('<section id="table"')
    assert "<html" not in html
    assert "Your turn: bid or pass." in html
    for label in ("Pass", "Bid 15", "Bid 20", "Bid 25", "Bid 30", "Shoot the moon (60)"):
        assert f">{label}</button>" in html


def test_a_waiting_game_redirects_to_the_waiting_room(alice, bob):
    game = seat_game([alice, bob])
    response = logged_in_client(alice).get(url("table", game))
    assert response.status_code == 302
    assert response["Location"] == reverse("waiting-room", kwargs={"game_id": game.pk})


def test_outsiders_get_404_for_a_private_table_and_its_actions(two, dave):
    client = logged_in_client(dave)
    assert client.get(url("table", two)).status_code == 404
    assert client.get(url("hint", two)).status_code == 404
    assert post_move(client, two, kind="bid", amount=15, version=0).status_code == 404
    assert client.post(url("automate", two), headers=HX).status_code == 404
    assert client.post(url("rematch", two), headers=HX).status_code == 404
    assert unchanged(two, 0, 0)


def test_a_move_gets_404_from_an_outsider_even_when_malformed_and_on_a_missing_game(two, dave):
    client = logged_in_client(dave)
    assert post_move(client, two, kind="nonsense", version=0).status_code == 404
    assert post_move(client, two, kind="bid", amount=15, version=7).status_code == 404
    missing = reverse("move", kwargs={"game_id": Game.objects.order_by("-pk")[0].pk + 1})
    response = client.post(missing, {"kind": "bid", "amount": 15, "version": 0}, headers=HX)
    assert response.status_code == 404
    assert unchanged(two, 0, 0)


def test_a_spectator_of_a_public_game_sees_no_hand_and_cannot_move(alice, bob, dave):
    game = start_table([alice, bob], public=True, seed="public")
    client = logged_in_client(dave)
    html = client.get(url("table", game)).content.decode()
    assert "You are watching" in html
    assert "data-card" not in html
    response = post_move(client, game, kind="bid", amount=15, version=game.version)
    assert response.status_code == 403
    assert "Only the players at this table can make moves." in response.content.decode()
    assert client.post(url("automate", game), headers=HX).status_code == 403
    assert client.get(url("hint", game)).status_code == 403
    assert unchanged(game, 0, 0)


def test_signed_out_visitors_are_sent_to_sign_in(two, client):
    response = client.get(url("table", two))
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    assert client.post(url("move", two), {"kind": "bid"}).status_code == 302
    assert unchanged(two, 0, 0)


def test_the_table_page_s_chat_reads_only_the_user_s_mutes_blocks_and_lines(two, alice, bob):
    """The chat panel takes the members and whether a hand is being played from the table
    basis the page was drawn from; a mute makes it no dearer (it names Bob, from the same
    members). Before, the page read the members three times, the hand twice and the mutes
    and blocks twice each: 18 queries."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from games.talk.models import ChatMute

    ChatMute.objects.create(user=alice, muted=bob)
    client = logged_in_client(alice)
    client.get(url("table", two))
    with CaptureQueriesContext(connection) as queries:
        response = client.get(url("table", two))
    assert response.status_code == 200
    assert f"Unmute {bob.shown_name}" in response.content.decode()
    read = [q["sql"].split(" FROM ", 1)[1].split()[0] for q in queries if " FROM " in q["sql"]]
    for table in ('"games_chatmute"', '"accounts_block"', '"games_chatmessage"'):
        assert read.count(table) == 1, (table, read)
    assert len(queries) <= 12, read
