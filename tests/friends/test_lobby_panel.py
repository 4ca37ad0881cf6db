"""The lobby's friends panel (online, at a table, a link only to a table the viewer may
see, the privacy setting), "Play again with ...", friends' games, the invite box's
suggestions and the "+ friend" buttons of past games."""

from __future__ import annotations

import pytest
from django.urls import reverse

from accounts import blocking
from games.live import online, presence
from games.models import Game, Invitation, Membership
from games.services import lobby
from tests.conftest import logged_in_client
from tests.friends.conftest import befriend
from tests.games.conftest import start_table
from tests.games.history_helpers import over

pytestmark = pytest.mark.django_db


def panel_html(user):
    html = logged_in_client(user).get(reverse("lobby")).content.decode()
    start = html.index('id="friends"')
    return html[start : html.index("</section>", start)]


def test_offline_online_and_hidden(alice, bob):
    befriend(alice, bob)
    assert "offline" in panel_html(alice)
    logged_in_client(bob).get(reverse("lobby"))  # any request: online
    assert online.online_user_ids([bob.pk]) == {bob.pk}
    assert "online" in panel_html(alice)
    response = logged_in_client(bob).post(reverse("privacy-settings"), {"hide_presence": "on"})
    assert response.status_code == 302
    html = panel_html(alice)
    assert "Bob" in html and "online" not in html and "offline" not in html


def test_online_goes_after_a_while(alice, bob, monkeypatch):
    befriend(alice, bob)
    online.stamp_online(bob.pk)
    later = online.now() + online.ONLINE_SECONDS + 1
    monkeypatch.setattr(online, "now", lambda: later)
    assert online.online_user_ids([bob.pk]) == set()


def test_a_public_table_is_named_with_a_link(alice, bob, carol):
    befriend(alice, bob)
    game = start_table([bob, carol], bots=1, public=True, name="Sunday public")
    presence.join(game.pk, bob.pk)
    html = panel_html(alice)
    assert "at a table" in html
    assert "Sunday public" in html and reverse("table", args=[game.pk]) in html


def test_a_private_table_is_never_revealed(alice, bob, carol):
    befriend(alice, bob)
    game = start_table([bob, carol], bots=1, public=False, name="Secret table")
    presence.join(game.pk, bob.pk)
    html = logged_in_client(alice).get(reverse("lobby")).content.decode()
    assert "at a table" in panel_html(alice)
    assert "Secret table" not in html
    assert f"/games/{game.pk}/" not in html
    lists = logged_in_client(alice).get(reverse("lobby-lists")).content.decode()
    assert "Secret table" not in lists and f"/games/{game.pk}/" not in lists


def test_a_private_table_the_viewer_is_invited_to_is_linked(alice, bob, carol):
    befriend(alice, bob)
    game = start_table([bob, carol], bots=1, public=False, name="Secret table")
    Membership.objects.create(game=game, user=alice, role="invitee")
    Invitation.objects.create(game=game, inviter=bob, invitee=alice)
    presence.join(game.pk, bob.pk)
    assert reverse("table", args=[game.pk]) in panel_html(alice)


def test_hidden_presence_hides_the_table_too(alice, bob, carol):
    befriend(alice, bob)
    game = start_table([bob, carol], bots=1, public=True, name="Sunday public")
    presence.join(game.pk, bob.pk)
    bob.hide_presence = True
    bob.save()
    html = panel_html(alice)
    assert "at a table" not in html and "Sunday public" not in html


def test_play_again_creates_a_game_with_the_same_people(alice, bob, carol):
    befriend(alice, bob)
    old = over([alice, bob, carol, "Bot Ada"], name="Thursday")
    html = panel_html(alice)
    assert "Play again with Bob, Carol, Bot Ada" in html
    assert reverse("rematch", args=[old.pk]) in html
    response = logged_in_client(alice).post(reverse("rematch", args=[old.pk]))
    new = Game.objects.get(rematch_of=old)
    assert response.status_code == 302
    assert response["Location"] == reverse("waiting-room", args=[new.pk])
    people = {(m.user_id, m.bot_name, m.seat) for m in new.memberships.all()}
    assert people == {
        (alice.pk, "", 0),
        (bob.pk, "", None),
        (carol.pk, "", None),
        (None, "Bot Ada", 3),
    }
    assert set(new.invitations.values_list("invitee_id", flat=True)) == {bob.pk, carol.pk}
    # Once replayed, the panel offers no second rematch of it.
    assert "Play again" not in panel_html(alice)


def test_play_again_leaves_out_people_blocked(alice, bob, carol):
    from games.services import rematch

    old = over([alice, bob, carol], name="Thursday")
    blocking.block(by=carol, other=alice)
    new = rematch.rematch(game_id=old.pk, user=alice)
    assert not new.memberships.filter(user=carol).exists()
    assert not new.invitations.filter(invitee=carol).exists()


def test_friends_public_game_appears_in_the_lobby(alice, bob, carol):
    befriend(alice, bob)
    lobby.create_game(organizer=bob, name="Bob open table", public=True, max_players=4)
    lobby.create_game(organizer=bob, name="Bob private table", public=False, max_players=4)
    lobby.create_game(organizer=carol, name="Carol open table", public=True, max_players=4)
    html = logged_in_client(alice).get(reverse("lobby")).content.decode()
    section = html[html.index("Friends' games") : html.index('id="lobby-open"')]
    assert "Bob open table" in section
    assert "Bob private table" not in html
    assert "Carol open table" not in section


def test_invite_box_offers_friends_then_recent_opponents(alice, bob, carol, dave):
    befriend(alice, dave)
    over([alice, carol], name="Last week")
    blocked = type(alice).objects.create_user("eve", display_name="Eve")
    over([alice, blocked], name="Older")
    blocking.block(by=blocked, other=alice)
    game = lobby.create_game(organizer=alice, name="Tonight", public=False, max_players=4)
    lobby.invite(game_id=game.pk, by=alice, username="bob")
    html = logged_in_client(alice).get(reverse("waiting-room", args=[game.pk])).content.decode()
    box = html[html.index("Friends and recent opponents") : html.index("Private link")]
    assert box.index("@dave") < box.index("@carol")  # the friend first
    assert "@bob" not in box  # in the game already
    assert "@eve" not in box  # blocked
    assert "friend</span>" in box[: box.index("@carol")]


def test_past_game_rows_offer_add_friend(alice, bob, carol):
    befriend(alice, bob)
    over([alice, bob, carol], name="Yesterday")
    html = logged_in_client(alice).get(reverse("past-games")).content.decode()
    assert 'aria-label="Add Carol as a friend"' in html
    assert 'aria-label="Add Bob as a friend"' not in html  # a friend already
    assert 'aria-label="Add Alice as a friend"' not in html


def test_player_page_buttons(alice, bob):
    client = logged_in_client(alice)
    html = client.get(reverse("player", args=["bob"])).content.decode()
    assert "Add friend" in html and ">Block</button>" in html
    client.post(reverse("friend-request"), {"username": "bob"})
    html = client.get(reverse("player", args=["bob"])).content.decode()
    assert "Cancel request" in html
    html = logged_in_client(bob).get(reverse("player", args=["alice"])).content.decode()
    assert "Accept friend request" in html
    client.post(reverse("block"), {"username": "bob"})
    html = client.get(reverse("player", args=["bob"])).content.decode()
    assert "Unblock" in html and "Add friend" not in html
    # bob is not told: his page of alice looks like anybody's.
    html = logged_in_client(bob).get(reverse("player", args=["alice"])).content.decode()
    assert "Add friend" in html and "Blocked" not in html


def test_the_lobby_asks_by_username(alice, bob):
    client = logged_in_client(alice)
    assert 'id="friend-ask-name"' in panel_html(alice)
    response = client.post(reverse("friend-request"), {"username": "BOB", "next": "/"})
    assert response.status_code == 302 and response["Location"] == "/"
    html = panel_html(alice)
    assert "Waiting for an answer" in html and "Bob" in html


def test_play_again_of_a_game_that_is_not_theirs_is_refused(alice, bob, carol):
    old = over([bob, carol], name="Not alice's")
    client = logged_in_client(alice)
    assert client.post(reverse("rematch", args=[old.pk])).status_code == 404  # private
    assert client.post(reverse("rematch", args=[987654])).status_code == 404
    assert client.get(reverse("rematch", args=[old.pk])).status_code == 405
    assert not Game.objects.filter(rematch_of=old).exists()
