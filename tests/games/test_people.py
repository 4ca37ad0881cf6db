"""A player's new display name reaches their games: at once on a reload (the table's shared
part is kept per game version, so the change bumps the version of every game they are in),
and pushed to the pages open on those games and on the lobby."""

from __future__ import annotations

import pytest
from django.urls import reverse

from games.models import Game
from tests.conftest import logged_in_client
from tests.games.conftest import start_table


def table_html(user, game) -> str:
    return logged_in_client(user).get(reverse("table", args=[game.pk])).content.decode()


@pytest.mark.django_db(transaction=True)  # real commits: the table's shared part is kept
def test_a_new_display_name_shows_on_the_table_at_once(alice, bob):
    game = start_table([alice, bob], name="Duel")
    assert "Alice" in table_html(bob, game)  # this version's shared part is now kept
    response = logged_in_client(alice).post(reverse("profile"), {"display_name": "Alicia"})
    assert response.status_code == 302
    html = table_html(bob, game)
    assert "Alicia" in html
    assert ">Alice<" not in html


def test_a_new_display_name_is_pushed_to_every_game_and_lobby_of_the_player(
    alice, bob, carol, pushes, django_capture_on_commit_callbacks
):
    playing = start_table([alice, bob], name="Duel")
    finished = start_table([alice, carol], name="Old")
    Game.objects.filter(pk=finished.pk).update(status=Game.Status.FINISHED)
    elsewhere = start_table([bob, carol], name="Not hers")
    before = {g.pk: g.version for g in Game.objects.all()}
    with django_capture_on_commit_callbacks(execute=True):
        logged_in_client(alice).post(reverse("profile"), {"display_name": "Alicia"})
    after = {g.pk: g.version for g in Game.objects.all()}
    assert after[playing.pk] == before[playing.pk] + 1
    assert after[finished.pk] == before[finished.pk] + 1
    assert after[elsewhere.pk] == before[elsewhere.pk]
    changed = sorted(args for name, args in pushes if name == "game_changed")
    assert changed == sorted([(playing.pk, after[playing.pk]), (finished.pk, after[finished.pk])])
    lobbies = [set(args[0]) for name, args in pushes if name == "lobby_changed"]
    assert lobbies == [{alice.pk, bob.pk}]  # her games under way (the finished one is not listed)


def test_saving_the_same_display_name_changes_nothing(alice, bob, pushes):
    game = start_table([alice, bob], name="Duel")
    logged_in_client(alice).post(reverse("profile"), {"display_name": "Alice"})
    game_after = Game.objects.get(pk=game.pk)
    assert game_after.version == game.version
    assert pushes == []
