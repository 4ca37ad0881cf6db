"""Lobby pages and endpoints, per persona: alice (organizer), bob (player), carol (invitee),
dave (outsider). The lobby home (its lists in order, their partial, its queries) and
accepting, declining and joining from it. Each asserts the HTML that persona gets and the
database effect; refused requests show a message and change nothing."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from games.models import Membership
from games.services import lobby
from tests.conftest import logged_in_client
from tests.games.conftest import active_seat
from tests.games.lobby_helpers import FROM_LOBBY, section, snapshot, text

pytestmark = pytest.mark.django_db


# --- lobby home ----------------------------------------------------------------------------


def test_the_lobby_lists_each_personas_games_in_order(friday, alice, bob, carol, dave):
    open_game = lobby.create_game(
        organizer=dave, name="Dave's open table", public=True, max_players=2
    )
    html = text(logged_in_client(carol).get(reverse("lobby")))
    headings = re.findall(r"<h2[^>]*>([^<]+)</h2>", html)
    assert headings == [
        "Your turn",
        "Your games in progress",
        "Invitations",
        "Waiting to start",
        "Friends",  # docs/friends.md ("Friends' games" only when there are some)
        "Open public games",
        "Watch a game",
        "Past games",
    ]
    invitations = section(html, "Invitations")
    assert "Friday cards" in invitations and "invited by Alice" in invitations
    assert reverse("accept", args=[friday.pk]) in invitations
    assert reverse("decline", args=[friday.pk]) in invitations
    assert "Dave&#x27;s open table" in section(html, "Open public games")
    assert reverse("join", args=[open_game.pk]) in html

    bob_html = text(logged_in_client(bob).get(reverse("lobby")))
    assert "Friday cards" in section(bob_html, "Waiting to start")
    # The names link to the player pages: the text between the links reads "Alice, Bob".
    waiting = re.sub(r'<span class="rating".*?</span>', "", section(bob_html, "Waiting to start"))
    assert "Alice, Bob" in re.sub(r"<[^>]+>", "", waiting)
    assert "Friday cards" not in section(bob_html, "Invitations")

    dave_html = text(logged_in_client(dave).get(reverse("lobby")))
    assert "Friday cards" not in dave_html  # private means private
    assert "Dave&#x27;s open table" not in section(dave_html, "Open public games")  # his own
    assert "New game" in dave_html


def test_the_lobby_shows_whose_turn_it_is(friday, alice, bob):
    lobby.start_game(game_id=friday.pk, by=alice)
    friday.refresh_from_db()
    seat_user = {0: alice, 1: bob}[active_seat(friday)]
    other = bob if seat_user == alice else alice
    turn_html = text(logged_in_client(seat_user).get(reverse("lobby")))
    assert "Friday cards" in section(turn_html, "Your turn")
    assert reverse("table", args=[friday.pk]) in section(turn_html, "Your turn")
    other_html = text(logged_in_client(other).get(reverse("lobby")))
    assert "Friday cards" in section(other_html, "Your games in progress")
    assert f"{seat_user.shown_name} to play" in section(other_html, "Your games in progress")
    assert "Friday cards" not in section(other_html, "Your turn")


def test_a_game_on_your_turn_is_not_called_no_games_under_way(friday, alice, bob):
    lobby.start_game(game_id=friday.pk, by=alice)
    friday.refresh_from_db()
    seat_user = {0: alice, 1: bob}[active_seat(friday)]
    html = text(logged_in_client(seat_user).get(reverse("lobby")))
    assert "Friday cards" in section(html, "Your turn")
    progress = section(html, "Your games in progress")
    assert "No games under way" not in progress
    assert "No other games under way" in progress


def test_an_empty_lobby_has_friendly_empty_states(dave):
    html = text(logged_in_client(dave).get(reverse("lobby")))
    assert "Nobody is waiting for you" in html
    assert "No invitations right now" in html
    assert 'id="lobby-lists"' in html


def test_the_lobby_lists_partial_is_just_the_lists(friday, carol):
    response = logged_in_client(carol).get(reverse("lobby-lists"))
    html = text(response)
    assert html.lstrip().startswith('<div id="lobby-lists"')
    assert "<html" not in html and "Friday cards" in html


def test_the_lobby_does_not_query_per_game(alice, bob, django_assert_max_num_queries):
    for n in range(6):
        game = lobby.create_game(organizer=alice, name=f"G{n}", public=True, max_players=4)
        lobby.join(game_id=game.pk, user=bob)
    from games.presenters.lobby import lobby_context

    with django_assert_max_num_queries(12):
        context = lobby_context(bob)
    assert len(context["waiting"]) == 6


def test_a_signed_out_visitor_is_sent_to_sign_in(client):
    response = client.get(reverse("lobby-lists"))  # "/" itself is the landing page
    assert response.status_code == 302 and reverse("account_login") in response["Location"]


# --- accept / decline / join from the lobby ------------------------------------------------


def test_carol_accepts_from_her_lobby_and_gets_the_lists_back(friday, carol):
    response = logged_in_client(carol).post(reverse("accept", args=[friday.pk]), headers=FROM_LOBBY)
    assert response.status_code == 200
    html = text(response)
    assert html.lstrip().startswith('<div id="lobby-lists"')
    assert "Friday cards" in section(html, "Waiting to start")
    assert Membership.objects.get(game=friday, user=carol).seat == 2


def test_carol_declines_from_her_lobby(friday, carol):
    response = logged_in_client(carol).post(
        reverse("decline", args=[friday.pk]), headers=FROM_LOBBY
    )
    assert response.status_code == 200
    assert "Friday cards" not in text(response)
    assert not Membership.objects.filter(game=friday, user=carol).exists()


def test_joining_a_full_public_game_from_the_lobby_shows_why(alice, bob, dave):
    game = lobby.create_game(organizer=alice, name="Duo", public=True, max_players=2)
    lobby.join(game_id=game.pk, user=bob)
    before = snapshot(game)
    response = logged_in_client(dave).post(reverse("join", args=[game.pk]), headers=FROM_LOBBY)
    assert response.status_code == 409
    assert "This game is full." in text(response)
    assert snapshot(game) == before
