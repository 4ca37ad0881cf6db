"""Watching, and the lobby's lists of games to watch and past games kept live.

- Watching: public games in progress, not to their own players, never private or over:
  test_public_games_in_progress_are_offered_to_watch_except_to_their_players,
  test_the_watch_list_shows_the_latest_ten.
- The watcher count (games.live.presence.watchers):
  test_watchers_are_connected_users_without_a_seat,
  test_the_watcher_roster_heals_and_reads_no_database.
- A public game's end reaches everyone's lobby (the watch list), and the pushed lists hold
  the new sections: test_a_public_games_end_reaches_everyones_lobby,
  test_the_pushed_lobby_lists_hold_the_new_sections.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse

from games.live import presence
from games.models import Game
from tests.conftest import logged_in_client
from tests.games.conftest import seat_game, start_table
from tests.games.history_helpers import T0, html_of, names_in_order, over, section

pytestmark = pytest.mark.django_db


# --- watching -----------------------------------------------------------------------------------


def test_public_games_in_progress_are_offered_to_watch_except_to_their_players(
    alice, bob, carol, dave
):
    public = start_table([alice, bob], name="Open duel", public=True)
    start_table([alice, bob], name="Closed duel", public=False)
    seat_game([carol, bob], name="Not started", public=True)
    over([carol, bob], name="Done", public=True)
    watch = section(html_of(dave, reverse("lobby")), "Watch a game")
    assert names_in_order(watch) == ["Open duel"]
    assert f'href="{reverse("table", args=[public.pk])}"' in watch and ">Watch</a>" in watch
    assert "No public games are being played" in section(
        html_of(alice, reverse("lobby")), "Watch a game"
    )
    assert "Open duel" not in section(html_of(bob, reverse("lobby")), "Watch a game")
    # A spectator opens the table.
    assert logged_in_client(dave).get(reverse("table", args=[public.pk])).status_code == 200


def test_the_watch_list_shows_the_latest_ten(alice, bob, dave):
    for n in range(12):
        game = start_table([alice, bob], name=f"W{n:02}", public=True)
        Game.objects.filter(pk=game.pk).update(started_at=T0 + timedelta(minutes=n))
    watch = section(html_of(dave, reverse("lobby")), "Watch a game")
    assert names_in_order(watch) == [f"W{n:02}" for n in range(11, 1, -1)]


def test_watchers_are_connected_users_without_a_seat(alice, bob, carol, dave):
    game_id = 41
    seated = [alice.pk, bob.pk, None]  # a bot's seat has no user
    assert presence.watchers(game_id, seated) == 0
    presence.join(game_id, alice.pk)
    presence.join(game_id, carol.pk)
    presence.join(game_id, dave.pk)
    presence.join(game_id, dave.pk)  # two tabs: one watcher
    assert presence.watchers(game_id, seated) == 2
    assert presence.watchers(game_id + 1, seated) == 0  # another game
    presence.leave(game_id, dave.pk)
    assert presence.watchers(game_id, seated) == 2  # one tab still open
    presence.leave(game_id, dave.pk)
    assert presence.watchers(game_id, seated) == 1
    presence.leave(game_id, alice.pk)  # a player leaving changes nothing
    assert presence.watchers(game_id, seated) == 1


def test_the_watcher_roster_heals_and_reads_no_database(carol, dave, django_assert_num_queries):
    from django.core.cache import cache

    presence.join(7, carol.pk)
    presence.join(7, dave.pk)
    cache.set("presence-roster:7", [carol.pk])  # dave's entry lost to a concurrent write
    assert presence.watchers(7, []) == 1
    presence.touch(7, [dave.pk])  # his next heartbeat puts it back
    # On Redis a read is kept up to presence.READ_SECONDS (games/live/presence.py).
    presence.forget(7)
    with django_assert_num_queries(0):
        assert presence.watchers(7, []) == 2
    # Departed users are pruned when the roster is next written.
    presence.leave(7, carol.pk)
    newcomer = max(carol.pk, dave.pk) + 1  # not a fixed number: a user's key may be it
    presence.join(7, newcomer)
    assert sorted(cache.get("presence-roster:7")) == sorted([dave.pk, newcomer])


# --- live lists ---------------------------------------------------------------------------------


def test_a_public_games_end_reaches_everyones_lobby(
    alice, pushes, django_capture_on_commit_callbacks
):
    from games.services import absence

    game = start_table([alice], bots=1, name="Alone", public=True)
    with django_capture_on_commit_callbacks(execute=True):
        absence.abandon(game_id=game.pk, by=alice)
    assert ("public_games_changed", ()) in pushes
    pushes.clear()
    private = start_table([alice], bots=1, name="Hidden")
    with django_capture_on_commit_callbacks(execute=True):
        absence.abandon(game_id=private.pk, by=alice)
    assert ("public_games_changed", ()) not in pushes


def test_the_pushed_lobby_lists_hold_the_new_sections(alice, bob, dave):
    from django.template.loader import render_to_string

    from games.presenters.lobby import lobby_context

    over([alice, bob], name="Pushed past")
    start_table([alice, bob], name="Pushed watch", public=True)

    lists = render_to_string("games/lobby.html#lists", lobby_context(dave))
    assert "Pushed watch" in section(lists, "Watch a game")
    lists = render_to_string("games/lobby.html#lists", {**lobby_context(alice), "user": alice})
    assert "Pushed past" in section(lists, "Past games")
