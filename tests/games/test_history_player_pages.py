"""Player pages (games/views/players.py, games/services/past_games.py).

- A player page: games played and won per kind (a team game's winners are its seats too),
  recent games, recent opponents (people, not bots; latest first; games in progress count;
  from their latest 200 games), a link to the settings on one's own page:
  test_a_player_page_counts_played_and_won_per_kind, test_recent_opponents_are_people_latest_first,
  test_recent_opponents_come_from_the_latest_games_only, test_only_your_own_page_links_to_settings.
- 404 for an unknown or inactive user; signed out, the sign-in page:
  test_unknown_and_inactive_players_are_not_found, test_signed_out_visitors_are_sent_to_sign_in.
- Private stays private: another player's private games and the people in them are listed
  only to its members: test_another_players_private_games_are_listed_to_members_only.
- Names link to player pages (lobby rows, waiting room): test_names_link_to_player_pages.
"""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.urls import reverse

from games.models import Game
from games.services import player_page
from tests.conftest import logged_in_client, make_user
from tests.games.conftest import seat_game, start_table
from tests.games.history_helpers import (
    FIFTY_SIX,
    HUNDRED_AND_TEN,
    T0,
    html_of,
    names_in_order,
    over,
    plain,
    section,
)

pytestmark = pytest.mark.django_db


# --- player pages -------------------------------------------------------------------------------


def test_a_player_page_counts_played_and_won_per_kind(alice, bob, carol, dave):
    over([alice, bob], winners=(0,))  # Hundred and Ten: won
    over([bob, alice], winners=(0,))  # lost
    over([alice, bob], winners=(0, 1))  # shared: a win too
    over([alice, bob, carol, dave], kind=FIFTY_SIX, winners=(0, 2), team=0)  # team A: won
    over([bob, alice, dave, carol], kind=FIFTY_SIX, winners=(0, 2), team=0)  # alice: team B
    over([alice, bob], abandoned=True)  # not played to the end: not counted
    start_table([alice, bob])  # in progress: not counted
    records = {r.slug: (r.played, r.won) for r in player_page.records(alice)}
    assert records == {HUNDRED_AND_TEN: (3, 2), FIFTY_SIX: (2, 1)}
    assert [r.slug for r in player_page.records(alice)] == [HUNDRED_AND_TEN, FIFTY_SIX]
    # Carol won with team A (seat 2), then lost with team B (seat 3).
    assert {r.slug: (r.played, r.won) for r in player_page.records(carol)} == {FIFTY_SIX: (2, 1)}

    html = plain(html_of(dave, reverse("player", args=["alice"])))
    assert "5 finished games, 3 won." in html
    rows = re.findall(
        r'<th scope="row"><a href="[^"]+">([^<]+)</a></th><td>(\d+)</td><td>(\d+)</td><td>(\d+)%',
        html_of(dave, reverse("player", args=["alice"])),
    )
    assert rows == [("Hundred and Ten", "3", "2", "67"), ("Fifty-Six", "2", "1", "50")]


def test_a_new_player_has_no_record_yet(alice, dave):
    html = html_of(dave, reverse("player", args=["alice"]))
    assert "No finished games yet." in html
    assert "Nobody yet." in html


def test_recent_opponents_are_people_latest_first(alice, bob, carol, dave):
    erin, frank = make_user("erin"), make_user("frank")
    over([alice, bob, "Bot Ada"], ended=T0)
    over([alice, carol], ended=T0 + timedelta(days=2))
    over([alice, bob], ended=T0 + timedelta(days=3), abandoned=True)
    over([dave, carol], ended=T0 + timedelta(days=9))  # not alice's
    playing = start_table([alice, erin], bots=1)  # in progress: counts, started now
    seat_game([alice, frank])  # waiting: nobody shared a game yet
    people = player_page.recent_people(alice, alice)
    assert [u.username for u in people] == ["erin", "bob", "carol"]
    assert playing.status == Game.Status.ACTIVE
    html = section(html_of(alice, reverse("player", args=["alice"])), "Recent opponents")
    assert re.findall(r'<a href="/players/(\w+)/">', html) == ["erin", "bob", "carol"]
    assert "Bot" not in html and "frank" not in html.lower()
    # Inactive people have no page: they are left out.
    type(bob).objects.filter(pk=bob.pk).update(is_active=False)
    assert [u.username for u in player_page.recent_people(alice, alice)] == ["erin", "carol"]


def test_recent_opponents_come_from_the_latest_games_only(alice, bob, carol, monkeypatch):
    monkeypatch.setattr(player_page, "RECENT_WINDOW", 2)  # 200 by default
    over([alice, carol], ended=T0)
    over([alice, bob], ended=T0 + timedelta(days=1))
    over([alice, bob], ended=T0 + timedelta(days=2))
    assert [u.username for u in player_page.recent_people(alice, alice)] == ["bob"]
    monkeypatch.setattr(player_page, "RECENT_WINDOW", 3)
    assert [u.username for u in player_page.recent_people(alice, alice)] == ["bob", "carol"]


def test_recent_games_are_the_last_ten_with_the_players_result(alice, bob):
    for n in range(12):
        over([alice, bob], winners=(n % 2,), name=f"R{n:02}", ended=T0 + timedelta(hours=n))
    html = section(html_of(alice, reverse("player", args=["bob"])), "Recent games")
    assert names_in_order(html) == [f"R{n:02}" for n in range(11, 1, -1)]
    text = plain(html)
    # Bob's results, seen by alice: "Won"/"Lost", not "You won".
    assert "You won" not in text and "Won" in text and "Lost" in text


def test_only_your_own_page_links_to_settings(alice, bob):
    own = html_of(alice, reverse("player", args=["alice"]))
    assert reverse("profile") + '">Your settings' in own
    assert "Your settings" not in html_of(alice, reverse("player", args=["bob"]))
    assert reverse("player", args=["alice"]) in html_of(alice, reverse("profile"))


def test_unknown_and_inactive_players_are_not_found(alice, bob):
    client = logged_in_client(alice)
    assert client.get(reverse("player", args=["nobody"])).status_code == 404
    type(bob).objects.filter(pk=bob.pk).update(is_active=False)
    assert client.get(reverse("player", args=["bob"])).status_code == 404
    assert client.get(reverse("player", args=["alice"])).status_code == 200


def test_signed_out_visitors_are_sent_to_sign_in(client, alice):
    for url in (reverse("player", args=["alice"]), reverse("past-games")):
        response = client.get(url)
        assert response.status_code == 302
        assert response["Location"].startswith(reverse("account_login") + "?next=")


# --- private stays private ------------------------------------------------------------------------


def test_another_players_private_games_are_listed_to_members_only(alice, bob, carol, dave):
    over([bob, carol], name="Private duel", public=False, ended=T0)
    over([bob, alice], name="Public duel", public=True, ended=T0 + timedelta(1))
    secret = start_table([bob, carol], name="Private table")
    start_table([bob, alice], name="Public table", public=True)

    for viewer, sees_private in ((dave, False), (alice, False), (carol, True), (bob, True)):
        html = html_of(viewer, reverse("player", args=["bob"]))
        assert ("Private duel" in html) == sees_private, viewer
        assert "Public duel" in html
        people = section(html, "Recent opponents")
        assert ('href="/players/carol/"' in people) == sees_private, viewer
        assert "Private table" not in html_of(viewer, reverse("lobby")) or viewer in (bob, carol)

    # The record counts every game (numbers only).
    assert "2 finished games" in plain(html_of(dave, reverse("player", args=["bob"])))
    # Nobody else's past games in anyone's lists; private games in progress are never offered.
    assert "Private duel" not in html_of(dave, reverse("past-games"))
    assert "Private duel" not in html_of(dave, reverse("lobby"))
    assert "Private table" not in section(html_of(dave, reverse("lobby")), "Watch a game")
    assert secret.status == Game.Status.ACTIVE


# --- names link to player pages -----------------------------------------------------------------


def test_names_link_to_player_pages(alice, bob):
    room = seat_game([alice, bob], bots=1, name="Room")
    start_table([alice, bob], name="Playing")
    lobby = html_of(alice, reverse("lobby"))
    progress = section(lobby, "Your turn") + section(lobby, "Your games in progress")
    assert f'<a href="{reverse("player", args=["bob"])}">Bob</a>' in progress
    waiting = html_of(alice, reverse("waiting-room", args=[room.pk]))
    assert f'<a href="{reverse("player", args=["bob"])}">Bob</a>' in waiting
    assert f'<a href="{reverse("player", args=["alice"])}">Alice</a>' in waiting
    assert "/players/Bot" not in waiting
