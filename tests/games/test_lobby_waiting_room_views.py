"""Lobby pages and endpoints, per persona: alice (organizer), bob (player), carol (invitee),
dave (outsider). The waiting room each of them sees (an outsider of a private game gets a
404 from every endpoint), and starting the game from it. Each asserts the HTML that persona
gets and the database effect; refused requests show a message and change nothing."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from games.models import Game, Invitation, Membership
from games.services import lobby
from tests.conftest import logged_in_client
from tests.games.lobby_helpers import FROM_LOBBY, HTMX, endpoints, snapshot, text

pytestmark = pytest.mark.django_db


# --- the waiting room, per persona ---------------------------------------------------------


def test_alice_sees_every_organizer_control(friday, alice):
    html = text(logged_in_client(alice).get(reverse("waiting-room", args=[friday.pk])))
    assert 'id="room"' in html and "Friday cards" in html
    assert "Organizer" in html and "Player" in html and "Empty seat" in html
    bob_seat = Membership.objects.get(game=friday, user__username="bob")
    assert reverse("remove", args=[friday.pk, bob_seat.pk]) in html
    assert "Add a bot to seat 3" in html
    assert "Start game</button>" in html and "disabled" not in html.split("Start game")[0][-200:]
    assert "Carol" in html and "pending" in html
    assert reverse("user-search", args=[friday.pk]) in html
    assert 'hx-trigger="input changed delay:250ms' in html
    assert "Create invite link" in html


def test_bob_may_invite_and_leave_but_not_manage(friday, bob):
    html = text(logged_in_client(bob).get(reverse("waiting-room", args=[friday.pk])))
    assert "Leave game" in html and "Invite friends" in html
    assert "Add a bot" not in html and ">Remove<" not in html and "Start game" not in html
    assert "Alice starts the game" in html


def test_carol_sees_accept_and_decline(friday, carol):
    html = text(logged_in_client(carol).get(reverse("waiting-room", args=[friday.pk])))
    assert "<strong>Alice</strong> invited you to play" in html
    assert reverse("accept", args=[friday.pk]) in html
    assert reverse("decline", args=[friday.pk]) in html
    assert "Invite friends" not in html and "Leave game" not in html


def test_an_invitee_sees_who_invited_her(friday, bob, dave):
    lobby.invite(game_id=friday.pk, by=bob, username="dave")
    html = text(logged_in_client(dave).get(reverse("waiting-room", args=[friday.pk])))
    assert "<strong>Bob</strong> invited you to play" in html


def test_an_outsider_of_a_public_game_sees_a_join_button(alice, dave):
    game = lobby.create_game(organizer=alice, name="Open", public=True, max_players=2)
    html = text(logged_in_client(dave).get(reverse("waiting-room", args=[game.pk])))
    assert reverse("join", args=[game.pk]) in html
    assert "Invite friends" not in html and "Create invite link" not in html


def test_the_start_button_is_disabled_alone(alice):
    game = lobby.create_game(organizer=alice, name="Alone", public=False, max_players=4)
    html = text(logged_in_client(alice).get(reverse("waiting-room", args=[game.pk])))
    assert re.search(r"<button[^>]*disabled[^>]*>Start game</button>", html)
    assert "Hundred and Ten starts with 2 to 4 players" in html


def test_dave_gets_a_404_from_every_endpoint_of_a_private_game(friday, alice, dave):
    membership = Membership.objects.get(game=friday, user=alice)
    invitation = Invitation.objects.get(game=friday, invitee__username="carol")
    gets, posts = endpoints(friday, membership.pk, invitation.pk)
    client = logged_in_client(dave)
    before = snapshot(friday)
    for url in gets:
        response = client.get(url)
        assert response.status_code == 404, url
        assert "Friday" not in text(response)
    for url in posts:
        for headers in ({}, HTMX, FROM_LOBBY):
            response = client.post(url, {"username": "bob", "seat": "2"}, headers=headers)
            assert response.status_code == 404, (url, headers)
            assert "Friday" not in text(response)
    assert snapshot(friday) == before


def test_the_waiting_room_of_a_missing_game_is_a_404(dave):
    assert logged_in_client(dave).get(reverse("waiting-room", args=[424242])).status_code == 404


def test_lobby_actions_refuse_get(friday, alice):
    client = logged_in_client(alice)
    assert client.get(reverse("start", args=[friday.pk])).status_code == 405
    assert client.get(reverse("invite", args=[friday.pk])).status_code == 405


# --- starting ------------------------------------------------------------------------------


def test_alice_starts_and_everyone_goes_to_the_table(friday, alice, bob):
    response = logged_in_client(alice).post(reverse("start", args=[friday.pk]), headers=HTMX)
    table_url = reverse("table", args=[friday.pk])
    assert response.status_code == 200 and response["HX-Redirect"] == table_url
    friday.refresh_from_db()
    assert friday.status == Game.Status.ACTIVE
    room = logged_in_client(bob).get(reverse("waiting-room", args=[friday.pk]))
    assert room.status_code == 302 and room["Location"] == table_url


def test_bob_cannot_start(friday, bob):
    before = snapshot(friday)
    response = logged_in_client(bob).post(reverse("start", args=[friday.pk]), headers=HTMX)
    assert response.status_code == 403
    assert "Only the organizer can start the game." in text(response)
    assert snapshot(friday) == before


def test_starting_alone_is_refused_in_the_page(alice):
    game = lobby.create_game(organizer=alice, name="Alone", public=False, max_players=4)
    before = snapshot(game)
    response = logged_in_client(alice).post(reverse("start", args=[game.pk]), headers=HTMX)
    assert response.status_code == 409
    assert "At least two players are needed to start." in text(response)
    assert snapshot(game) == before


def test_actions_after_the_start_get_409_not_500(friday, alice, bob):
    lobby.start_game(game_id=friday.pk, by=alice)
    before = snapshot(friday)
    client = logged_in_client(bob)
    response = client.post(reverse("leave", args=[friday.pk]), headers=HTMX)
    assert response.status_code == 409 and "already started" in text(response)
    response = logged_in_client(alice).post(
        reverse("add-bot", args=[friday.pk]), {"seat": "3"}, headers=HTMX
    )
    assert response.status_code == 409
    assert snapshot(friday) == before
