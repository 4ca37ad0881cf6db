"""Lobby pages and endpoints, per persona: alice (organizer), bob (player), carol (invitee),
dave (outsider). Inviting by name (the room's and the invite box's answers, the refusals)
and the user search. Each asserts the HTML that persona gets and the database effect;
refused requests show a message and change nothing."""

from __future__ import annotations

import pytest
from django.urls import reverse

from games.models import Membership
from tests.conftest import logged_in_client, make_user
from tests.games.lobby_helpers import FROM_INVITE_BOX, HTMX, snapshot, text

pytestmark = pytest.mark.django_db


def invite(user, game, username, headers):
    """`user` invites `username` to `game` from the room (HTMX) or the invite box."""
    return logged_in_client(user).post(
        reverse("invite", args=[game.pk]), {"username": username}, headers=headers
    )


# --- inviting ------------------------------------------------------------------------------


def test_alice_invites_dave_by_name_and_the_room_shows_him_pending(friday, alice, dave):
    response = invite(alice, friday, "dave", HTMX)
    assert response.status_code == 200
    html = text(response)
    assert html.lstrip().startswith('<section id="room"')
    assert "Dave" in html and "pending" in html
    assert Membership.objects.get(game=friday, user=dave).role == "invitee"


@pytest.mark.parametrize(
    ("username", "status", "message"),
    [
        ("nobody", 400, "There is nobody called “nobody”."),
        ("carol", 409, "They have already been invited."),
        ("bob", 409, "They are already playing in this game."),
        ("", 400, "Type the username of the person to invite."),
    ],
)
def test_bad_invitations_show_a_message_and_change_nothing(
    friday, alice, username, status, message
):
    before = snapshot(friday)
    response = invite(alice, friday, username, HTMX)
    assert response.status_code == status
    assert message in text(response) and 'id="room"' in text(response)
    assert snapshot(friday) == before


def test_the_invite_box_answers_with_itself_and_the_room_out_of_band(friday, alice, dave):
    response = invite(alice, friday, "dave", FROM_INVITE_BOX)
    assert response.status_code == 200
    html = text(response)
    assert html.lstrip().startswith('<section id="invite-box"')
    assert "Invited dave." in html
    room = html[html.index('<section id="room"') :]
    assert 'hx-swap-oob="true"' in room.split(">")[0]
    assert "Dave" in room and "pending" in room


def test_a_refusal_in_the_invite_box_shows_there(friday, alice):
    before = snapshot(friday)
    response = invite(alice, friday, "nobody", FROM_INVITE_BOX)
    assert response.status_code == 400
    box = text(response).split('<section id="room"')[0]
    assert "There is nobody called “nobody”." in box and "message-error" in box
    assert snapshot(friday) == before


def test_a_plain_form_refusal_becomes_a_message_after_a_redirect(friday, alice):
    client = logged_in_client(alice)
    response = client.post(reverse("invite", args=[friday.pk]), {"username": "bob"}, follow=True)
    assert response.redirect_chain[-1][0] == reverse("waiting-room", args=[friday.pk])
    assert "They are already playing in this game." in text(response)


def test_carol_cannot_invite(friday, carol):
    before = snapshot(friday)
    response = invite(carol, friday, "dave", HTMX)
    assert response.status_code == 403
    assert "Only players of this game can invite." in text(response)
    assert snapshot(friday) == before


def test_user_search_matches_prefixes_and_skips_members(friday, alice):
    make_user("dan")
    erin = make_user("erin")
    erin.display_name = "Daphne"
    erin.save()
    for n in range(10):
        make_user(f"zed{n}")
    client = logged_in_client(alice)
    html = text(client.get(reverse("user-search", args=[friday.pk]), {"q": "da"}))
    assert html.lstrip().startswith('<div id="user-results"')
    assert "@dave" in html and "@dan" in html and "@erin" in html
    assert "@alice" not in html
    html = text(client.get(reverse("user-search", args=[friday.pk]), {"q": "ca"}))
    assert "@carol" not in html  # already invited
    assert "Nobody found" in html
    html = text(client.get(reverse("user-search", args=[friday.pk]), {"q": "zed"}))
    assert html.count('class="user-result"') == 8
    html = text(client.get(reverse("user-search", args=[friday.pk]), {"username": "zed1"}))
    assert "@zed1" in html


def test_an_invitee_cannot_search_users(friday, carol):
    response = logged_in_client(carol).get(reverse("user-search", args=[friday.pk]), {"q": "d"})
    assert response.status_code == 403
