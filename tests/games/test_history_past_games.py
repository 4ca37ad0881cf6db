"""Past games (games/services/past_games.py, the lobby, /games/past/, the profile).

- The lobby shows the latest five, /games/past/ and the profile a page of twenty, newest
  first by the end of the game: test_past_games_are_listed_newest_first_by_their_end,
  test_the_past_games_page_and_the_profile_are_paged.
- Each row: kind, players (bots marked), the result and the viewer's own result, abandoned
  games marked, links to the table, the replay and the export (when their URLs exist):
  test_a_row_says_who_won_and_how_you_did, test_a_team_game_is_won_by_a_team,
  test_an_abandoned_game_is_marked_and_offers_no_export,
  test_a_replay_or_export_link_appears_only_if_its_url_exists.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from games.services import past_games
from tests.conftest import make_user
from tests.games.conftest import start_table
from tests.games.history_helpers import FIFTY_SIX, T0, html_of, names_in_order, over, plain, section

pytestmark = pytest.mark.django_db


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
