"""Lobby pages and endpoints, per persona: alice (organizer), bob (player), carol (invitee),
dave (outsider). The new-game form: what it makes, and what it refuses. Each asserts the
HTML that persona gets and the database effect; refused requests show a message and change
nothing."""

from __future__ import annotations

import pytest
from django.urls import reverse

from games.models import Game
from games.services import lobby
from tests.conftest import logged_in_client
from tests.games.lobby_helpers import text

pytestmark = pytest.mark.django_db


# --- new game ------------------------------------------------------------------------------


def test_a_new_game_form_leads_to_its_waiting_room(dave):
    client = logged_in_client(dave)
    page = text(client.get(reverse("new-game")))
    assert "Private: only people you invite" in page and "4 players" in page
    response = client.post(
        reverse("new-game"), {"name": "Sunday", "visibility": "public", "max_players": "3"}
    )
    game = Game.objects.get(name="Sunday")
    assert response.status_code == 302
    assert response["Location"] == reverse("waiting-room", args=[game.pk])
    assert game.public and game.max_players == 3 and game.organizer == dave


def test_a_database_too_busy_to_create_the_game_gets_a_503_page_not_a_500(dave, monkeypatch):
    from django.db import OperationalError

    def locked(**kwargs):
        raise OperationalError("database is locked")

    monkeypatch.setattr(lobby, "create_game", locked)
    response = logged_in_client(dave).post(
        reverse("new-game"), {"name": "Sunday", "visibility": "public", "max_players": "3"}
    )
    assert response.status_code == 503
    assert response["Retry-After"] == "2"
    assert "The server is busy right now and nothing was changed." in response.content.decode()
    assert not Game.objects.filter(name="Sunday").exists()


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"name": "", "visibility": "private", "max_players": "4"}, "Give the game a name."),
        ({"name": "x", "visibility": "secret", "max_players": "4"}, "Choose private or public."),
        (
            {"name": "x", "visibility": "private", "max_players": "5"},
            "Hundred and Ten is played by 2 to 4 players.",
        ),
        (
            {"name": "x", "visibility": "private", "max_players": "two"},
            "Hundred and Ten is played by 2 to 4 players.",
        ),
    ],
)
def test_a_bad_new_game_form_says_what_is_wrong(dave, data, message):
    response = logged_in_client(dave).post(reverse("new-game"), data)
    assert response.status_code == 400
    assert message in text(response)
    assert not Game.objects.exists()
