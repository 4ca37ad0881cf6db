"""Past games, player pages and watching (games/services/past_games.py, games/views/players.py).

- Past games: the lobby shows the latest five, /games/past/ and the profile a page of twenty,
  newest first by the end of the game: test_past_games_are_listed_newest_first_by_their_end,
  test_the_past_games_page_and_the_profile_are_paged.
- Each row: kind, players (bots marked), the result and the viewer's own result, abandoned
  games marked, links to the table, the replay and the export:
  test_a_row_says_who_won_and_how_you_did, test_a_team_game_is_won_by_a_team,
  test_an_abandoned_game_is_marked_and_offers_no_export.
- A player page: games played and won per kind (a team game's winners are its seats too),
  recent games, recent opponents (people, not bots; latest first; games in progress count;
  from their latest 200 games), a link to the settings on one's own page:
  test_a_player_page_counts_played_and_won_per_kind, test_recent_opponents_are_people_latest_first,
  test_recent_opponents_come_from_the_latest_games_only, test_only_your_own_page_links_to_settings.
- 404 for an unknown or inactive user; signed out, the sign-in page:
  test_unknown_and_inactive_players_are_not_found, test_signed_out_visitors_are_sent_to_sign_in.
- Private stays private: another player's private games and the people in them are listed
  only to its members: test_another_players_private_games_are_listed_to_members_only.
- Watching: public games in progress, not to their own players, never private or over:
  test_public_games_in_progress_are_offered_to_watch_except_to_their_players.
- Names link to player pages (lobby rows, waiting room): test_names_link_to_player_pages.
- The watcher count (games.presence.watchers): test_watchers_are_connected_users_without_a_seat.
- Queries do not grow with the history: test_history_pages_cost_the_same_queries_at_any_length.
- A public game's end reaches everyone's lobby (the watch list): test_a_public_games_end_...
"""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from games import presence
from games.models import Game, Membership
from games.services import past_games
from tests.conftest import logged_in_client, make_user
from tests.games.conftest import seat_game, start_table

pytestmark = pytest.mark.django_db

T0 = timezone.now() - timedelta(days=30)
HUNDRED_AND_TEN, FIFTY_SIX, HEARTS = "hundred-and-ten", "fifty-six", "hearts"


def over(
    players,
    *,
    kind=HUNDRED_AND_TEN,
    winners=(0,),
    team=None,
    public=False,
    ended=None,
    abandoned=False,
    name="Old game",
):
    """A game that is over: `players` by seat (users, or bot names), `winners` seats."""
    humans = [p for p in players if not isinstance(p, str)]
    game = Game.objects.create(
        name=name,
        kind=kind,
        organizer=humans[0],
        public=public,
        max_players=len(players),
        status=Game.Status.ABANDONED if abandoned else Game.Status.FINISHED,
        outcome=None
        if abandoned
        else {"scores": [0] * len(players), "winners": list(winners), "winning_team": team},
        started_at=(ended or T0) - timedelta(hours=1),
        finished_at=ended or T0,
    )
    for seat, who in enumerate(players):
        if isinstance(who, str):
            Membership.objects.create(
                game=game, role="player", seat=seat, bot="naive", bot_name=who
            )
        else:
            role = "organizer" if who == humans[0] else "player"
            Membership.objects.create(game=game, user=who, role=role, seat=seat)
    return game


def bulk_history(user, count, opponents):
    """`count` finished games of `user` against `opponents` in turn (plus a bot), the way a
    long history looks, written in two bulk inserts."""
    games = Game.objects.bulk_create(
        Game(
            name=f"Game {n}",
            kind=(HUNDRED_AND_TEN, HEARTS)[n % 2],
            organizer=user,
            public=n % 3 == 0,
            max_players=3,
            status=Game.Status.FINISHED,
            outcome={"scores": [1, 2, 3], "winners": [n % 3], "winning_team": None},
            started_at=T0 + timedelta(minutes=n),
            finished_at=T0 + timedelta(minutes=n, seconds=30),
        )
        for n in range(count)
    )
    members = []
    for n, game in enumerate(games):
        other = opponents[n % len(opponents)]
        members += [
            Membership(game=game, user=user, role="organizer", seat=0),
            Membership(game=game, user=other, role="player", seat=1),
            Membership(game=game, role="player", seat=2, bot="naive", bot_name="Bot Ada"),
        ]
    Membership.objects.bulk_create(members)


def html_of(user, url):
    response = logged_in_client(user).get(url)
    assert response.status_code == 200, (url, response.status_code)
    return response.content.decode()


def section(html, heading):
    match = re.search(rf"<h2[^>]*>{heading}</h2>(.*?)</section>", html, re.S)
    assert match, heading
    return match.group(1)


def names_in_order(html):
    return re.findall(r'class="game-row-name" href="[^"]*">([^<]+)</a>', html)


def plain(html):
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", html))


# --- past games ---------------------------------------------------------------------------------


def test_past_games_are_listed_newest_first_by_their_end(alice, bob):
    # Created in one order, ended in another: the list follows the end.
    for days in (5, 1, 3, 7, 2, 6, 4):
        ago = timezone.now() - timedelta(days=days)
        over([alice, bob], name=f"Ended {days} days ago", ended=ago)
    start_table([alice, bob], name="Still playing")
    lobby = section(html_of(alice, reverse("lobby")), "Past games")
    assert names_in_order(lobby) == [f"Ended {d} days ago" for d in (1, 2, 3, 4, 5)]
    assert reverse("past-games") in lobby and "All past games" in lobby
    page = html_of(alice, reverse("past-games"))
    assert names_in_order(page) == [f"Ended {d} days ago" for d in range(1, 8)]
    assert "Still playing" not in page
    assert "7 games, the latest first." in plain(page)


def test_the_past_games_page_and_the_profile_are_paged(alice, bob):
    for n in range(25):
        over([alice, bob], name=f"G{n:02}", ended=T0 + timedelta(minutes=n))
    first = html_of(alice, reverse("past-games"))
    assert names_in_order(first) == [f"G{n:02}" for n in range(24, 4, -1)]  # 20, newest first
    assert "Page 1 of 2" in first and 'href="?page=2"' in first
    second = html_of(alice, reverse("past-games") + "?page=2")
    assert names_in_order(second) == [f"G{n:02}" for n in range(4, -1, -1)]
    assert 'href="?page=1"' in second
    # A page past the end gives the last one; a page that is not a number, the first.
    assert names_in_order(html_of(alice, reverse("past-games") + "?page=99")) == names_in_order(
        second
    )
    assert names_in_order(html_of(alice, reverse("past-games") + "?page=x")) == names_in_order(
        first
    )
    profile = html_of(alice, reverse("profile") + "?page=2")
    past = profile[profile.index('id="past-games"') :]
    assert names_in_order(past) == [f"G{n:02}" for n in range(4, -1, -1)]
    assert 'href="?page=1#past-games"' in past
    # Nobody else's games: carol has none.
    assert "No past games yet" in html_of(make_user("carol"), reverse("past-games"))


def test_a_row_says_who_won_and_how_you_did(alice, bob, carol):
    won = over([alice, bob, "Bot Ada"], winners=(0,), name="Alice wins", ended=T0)
    shared = over([alice, bob, carol], winners=(0, 2), name="Tie", ended=T0 + timedelta(1))
    lost = over([alice, "Bot Ada"], winners=(1,), name="Bot wins", ended=T0 + timedelta(2))
    rows = {r.game.name: r for r in past_games.latest_past(alice)}
    assert (rows["Alice wins"].result, rows["Alice wins"].outcome) == ("Alice won", "won")
    assert (rows["Tie"].result, rows["Tie"].outcome) == ("Alice and Carol shared the win", "shared")
    assert (rows["Bot wins"].result, rows["Bot wins"].outcome) == ("Bot Ada won", "lost")

    html = plain(section(html_of(alice, reverse("lobby")), "Past games"))
    assert "Alice wins You won Alice, Bob, Bot Ada bot Hundred and Ten · Alice won" in html
    assert "You shared the win" in html and "You lost" in html
    assert T0.strftime("%-d %b %Y") in html
    page = html_of(alice, reverse("past-games"))
    for game in (won, shared, lost):
        assert reverse("table", args=[game.pk]) in page
        assert reverse("replay", args=[game.pk]) in page
        assert reverse("export", args=[game.pk]) in page
    # Bob's side of the same games.
    bob_rows = {r.game.name: r.outcome_text for r in past_games.latest_past(bob)}
    assert bob_rows == {"Alice wins": "You lost", "Tie": "You lost"}


def test_a_team_game_is_won_by_a_team(alice, bob, carol, dave):
    over([alice, bob, carol, dave], kind=FIFTY_SIX, winners=(0, 2), team=0, name="Teams")
    alice_row = past_games.latest_past(alice)[0]
    assert alice_row.result == "Team A won (Alice and Carol)"
    assert alice_row.outcome == "won"  # partners win together: not "shared"
    assert past_games.latest_past(carol)[0].outcome == "won"
    assert past_games.latest_past(bob)[0].outcome == "lost"
    assert "Fifty-Six · Team A won (Alice and Carol)" in plain(html_of(bob, reverse("past-games")))


def test_an_abandoned_game_is_marked_and_offers_no_export(alice, bob):
    game = over([alice, bob], abandoned=True, name="Left early")
    html = html_of(alice, reverse("past-games"))
    assert '<span class="tag tag-abandoned">Abandoned</span>' in html
    assert reverse("table", args=[game.pk]) in html
    assert reverse("export", args=[game.pk]) not in html  # an abandoned game never ended
    row = past_games.latest_past(alice)[0]
    assert row.abandoned and row.result == "Abandoned" and row.outcome == ""


def test_a_replay_or_export_link_appears_only_if_its_url_exists(alice, bob, monkeypatch):
    over([alice, bob])
    row = past_games.latest_past(alice)[0]
    assert row.replay_url == reverse("replay", args=[row.game.pk])
    monkeypatch.setattr(past_games, "reverse", _reverse_without("replay", "export"))
    assert row.replay_url == "" and row.export_url == ""
    assert row.table_url == reverse("table", args=[row.game.pk])


def _reverse_without(*names):
    from django.urls import NoReverseMatch

    def fake(name, *args, **kwargs):
        if name in names:
            raise NoReverseMatch(name)
        return reverse(name, *args, **kwargs)

    return fake


# --- player pages -------------------------------------------------------------------------------


def test_a_player_page_counts_played_and_won_per_kind(alice, bob, carol, dave):
    over([alice, bob], winners=(0,))  # Hundred and Ten: won
    over([bob, alice], winners=(0,))  # lost
    over([alice, bob], winners=(0, 1))  # shared: a win too
    over([alice, bob, carol, dave], kind=FIFTY_SIX, winners=(0, 2), team=0)  # team A: won
    over([bob, alice, dave, carol], kind=FIFTY_SIX, winners=(0, 2), team=0)  # alice: team B
    over([alice, bob], abandoned=True)  # not played to the end: not counted
    start_table([alice, bob])  # in progress: not counted
    records = {r.slug: (r.played, r.won) for r in past_games.records(alice)}
    assert records == {HUNDRED_AND_TEN: (3, 2), FIFTY_SIX: (2, 1)}
    assert [r.slug for r in past_games.records(alice)] == [HUNDRED_AND_TEN, FIFTY_SIX]
    # Carol won with team A (seat 2), then lost with team B (seat 3).
    assert {r.slug: (r.played, r.won) for r in past_games.records(carol)} == {FIFTY_SIX: (2, 1)}

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
    people = past_games.recent_people(alice, alice)
    assert [u.username for u in people] == ["erin", "bob", "carol"]
    assert playing.status == Game.Status.ACTIVE
    html = section(html_of(alice, reverse("player", args=["alice"])), "Recent opponents")
    assert re.findall(r'<a href="/players/(\w+)/">', html) == ["erin", "bob", "carol"]
    assert "Bot" not in html and "frank" not in html.lower()
    # Inactive people have no page: they are left out.
    type(bob).objects.filter(pk=bob.pk).update(is_active=False)
    assert [u.username for u in past_games.recent_people(alice, alice)] == ["erin", "carol"]


def test_recent_opponents_come_from_the_latest_games_only(alice, bob, carol, monkeypatch):
    monkeypatch.setattr(past_games, "RECENT_WINDOW", 2)  # 200 by default
    over([alice, carol], ended=T0)
    over([alice, bob], ended=T0 + timedelta(days=1))
    over([alice, bob], ended=T0 + timedelta(days=2))
    assert [u.username for u in past_games.recent_people(alice, alice)] == ["bob"]
    monkeypatch.setattr(past_games, "RECENT_WINDOW", 3)
    assert [u.username for u in past_games.recent_people(alice, alice)] == ["bob", "carol"]


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
    presence.forget(7)  # on Redis a read is kept up to presence.READ_SECONDS (games/presence.py)
    with django_assert_num_queries(0):
        assert presence.watchers(7, []) == 2
    # Departed users are pruned when the roster is next written.
    presence.leave(7, carol.pk)
    presence.join(7, 99)
    assert sorted(cache.get("presence-roster:7")) == sorted([dave.pk, 99])


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


# --- bounded queries ----------------------------------------------------------------------------

# The most queries each page may take, whatever the length of the history: the session's
# user, then a page of games (a count for the pager) and its memberships; the player page
# adds the player, the per-kind record and the opponents; the lobby has its other lists.
BOUNDS = {"lobby": 10, "profile": 5, "player": 6, "past-games": 4}


@pytest.mark.parametrize("count", [10, 1000])
def test_history_pages_cost_the_same_queries_at_any_length(
    count, alice, bob, carol, django_assert_max_num_queries
):
    bulk_history(alice, count, [bob, carol])
    client = logged_in_client(alice)
    urls = {
        "lobby": reverse("lobby"),
        "profile": reverse("profile"),
        "player": reverse("player", args=["alice"]),
        "past-games": reverse("past-games") + "?page=3",
    }
    for name, url in urls.items():
        with django_assert_max_num_queries(BOUNDS[name]):
            response = client.get(url)
        assert response.status_code == 200
    player = client.get(reverse("player", args=["alice"])).content.decode()
    assert f"{count} finished games" in plain(player)
    # Seen by bob: only the games he shared (half of them), the same bound.
    bob_client = logged_in_client(bob)
    with django_assert_max_num_queries(BOUNDS["player"]):
        assert bob_client.get(reverse("player", args=["alice"])).status_code == 200


def test_the_query_count_is_exactly_the_same_for_10_and_1000_games(alice, bob, carol):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    client = logged_in_client(alice)
    urls = [
        reverse("lobby"),
        reverse("profile"),
        reverse("player", args=["alice"]),
        reverse("player", args=["bob"]),
        reverse("past-games"),
    ]

    def counts():
        found = []
        for url in urls:
            with CaptureQueriesContext(connection) as queries:
                assert client.get(url).status_code == 200
            found.append(len(queries))
        return found

    bulk_history(alice, 10, [bob, carol])
    few = counts()
    bulk_history(alice, 990, [bob, carol])
    assert counts() == few


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

    from games.views.lobby import lobby_context

    over([alice, bob], name="Pushed past")
    start_table([alice, bob], name="Pushed watch", public=True)

    lists = render_to_string("games/lobby.html#lists", lobby_context(dave))
    assert "Pushed watch" in section(lists, "Watch a game")
    lists = render_to_string("games/lobby.html#lists", {**lobby_context(alice), "user": alice})
    assert "Pushed past" in section(lists, "Past games")
