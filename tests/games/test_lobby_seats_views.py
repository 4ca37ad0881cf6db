"""Lobby pages and endpoints, per persona: alice (organizer), bob (player), carol (invitee),
dave (outsider). The seats: adding bots (at each level), forged seats, removing people,
leaving, accepting in the waiting room, joining a public game. Each asserts the HTML that
persona gets and the database effect; refused requests show a message and change nothing."""

from __future__ import annotations

import pytest
from django.urls import reverse

from games import registry
from games.models import Membership
from games.services import lobby
from tests.conftest import logged_in_client
from tests.games.lobby_helpers import HTMX, snapshot, text

pytestmark = pytest.mark.django_db


# --- seats, bots, removal, leaving ---------------------------------------------------------


def test_alice_adds_a_bot_to_an_empty_seat(friday, alice):
    response = logged_in_client(alice).post(
        reverse("add-bot", args=[friday.pk]), {"seat": "3"}, headers=HTMX
    )
    assert response.status_code == 200
    assert "Bot Ada" in text(response)
    assert Membership.objects.get(game=friday, seat=3).bot == "medium"


@pytest.mark.parametrize("kind", sorted(registry.REGISTRY))
def test_the_organizer_picks_each_bots_level_and_the_seats_say_which(alice, kind):
    game = lobby.create_game(organizer=alice, name="Levels", public=False, max_players=4, kind=kind)
    client = logged_in_client(alice)
    url = reverse("add-bot", kwargs={"game_id": game.pk})
    room = client.get(reverse("waiting-room", kwargs={"game_id": game.pk})).content.decode()
    assert "Add a bot to seat 2" in room  # the default: medium
    assert 'name="level" value="easy"' in room and "Add a easy bot to seat 2" not in room
    assert "Add an easy bot to seat 2" in room and "Add a hard bot to seat 2" in room
    for seat, level in ((1, "easy"), (2, "hard")):
        assert client.post(url, {"seat": seat, "level": level}, headers=HTMX).status_code == 200
    answer = client.post(url, {"seat": 3}, headers=HTMX)
    assert answer.status_code == 200
    levels = dict(Membership.objects.filter(game=game, seat__gt=0).values_list("seat", "bot"))
    assert levels == {1: "easy", 2: "hard", 3: "medium"}
    shown = text(answer)
    assert "Easy bot" in shown and "Hard bot" in shown and "Medium bot" in shown
    for bad in ("random", "naive", "wizard", "x" * 40):
        response = client.post(url, {"seat": 1, "level": bad}, headers=HTMX)
        assert response.status_code == 400, bad
    assert Membership.objects.filter(game=game).count() == 4


@pytest.mark.parametrize(
    ("seat", "status", "message"),
    [
        ("1", 409, "That seat is taken."),
        ("9", 400, "That seat does not exist."),
        ("-1", 400, "That seat does not exist."),
        ("two", 400, "That seat does not exist."),
        ("", 400, "Choose a seat."),
    ],
)
def test_forged_seats_are_refused(friday, alice, seat, status, message):
    before = snapshot(friday)
    response = logged_in_client(alice).post(
        reverse("add-bot", args=[friday.pk]), {"seat": seat}, headers=HTMX
    )
    assert response.status_code == status
    assert message in text(response)
    assert snapshot(friday) == before


def test_bob_cannot_add_bots_or_remove_people(friday, alice, bob):
    alice_seat = Membership.objects.get(game=friday, user=alice)
    client = logged_in_client(bob)
    before = snapshot(friday)
    response = client.post(reverse("add-bot", args=[friday.pk]), {"seat": "2"}, headers=HTMX)
    assert response.status_code == 403 and "Only the organizer can add a bot." in text(response)
    response = client.post(reverse("remove", args=[friday.pk, alice_seat.pk]), headers=HTMX)
    assert response.status_code == 403 and "Only the organizer can remove people." in text(response)
    assert snapshot(friday) == before


def test_a_forged_membership_id_gets_a_message(friday, alice):
    before = snapshot(friday)
    response = logged_in_client(alice).post(
        reverse("remove", args=[friday.pk, 987654]), headers=HTMX
    )
    assert response.status_code == 400
    assert "That person is not in this game." in text(response)
    assert snapshot(friday) == before


def test_alice_removes_bob(friday, alice, bob):
    bob_seat = Membership.objects.get(game=friday, user=bob)
    response = logged_in_client(alice).post(
        reverse("remove", args=[friday.pk, bob_seat.pk]), headers=HTMX
    )
    assert response.status_code == 200
    assert not Membership.objects.filter(game=friday, user=bob).exists()
    assert logged_in_client(bob).get(reverse("waiting-room", args=[friday.pk])).status_code == 404


def test_bob_leaves_and_is_sent_back_to_the_lobby(friday, bob):
    response = logged_in_client(bob).post(reverse("leave", args=[friday.pk]), headers=HTMX)
    assert response.status_code == 200
    assert response["HX-Redirect"] == reverse("lobby")
    assert not Membership.objects.filter(game=friday, user=bob).exists()


def test_carol_accepts_in_the_waiting_room(friday, carol):
    response = logged_in_client(carol).post(reverse("accept", args=[friday.pk]), headers=HTMX)
    assert response.status_code == 200
    assert "Leave game" in text(response)
    assert Membership.objects.get(game=friday, user=carol).role == "player"


def test_dave_joins_a_public_game(alice, dave):
    game = lobby.create_game(organizer=alice, name="Open", public=True, max_players=3)
    response = logged_in_client(dave).post(reverse("join", args=[game.pk]))
    assert response.status_code == 302
    assert Membership.objects.get(game=game, user=dave).seat == 1
