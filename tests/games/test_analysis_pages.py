"""Where the analysis shows outside the replay (docs/analysis.md): the player page's accuracy
per game over time, drawn with the ratings' chart component, counting only analyses done
with the present version of games the viewer may see the replay of, the player's own seat
with a graded move, at a fixed number of queries; and the past games' rows, whose finished
games link to the replay's analysis with its state."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.urls import reverse

from games.models import Game, GameAnalysis, Membership
from games.services import analysis
from tests.conftest import logged_in_client
from tests.games.conftest import start_table
from tests.games.history_helpers import HEARTS, HUNDRED_AND_TEN, T0, html_of, over, plain, section

pytestmark = pytest.mark.django_db

ACCURACY = "Accuracy in analysed games"


def analysed(game, accuracies, *, status=GameAnalysis.Status.DONE, version=None, decisions=9):
    """`game`'s analysis row with each seat's `accuracies` (a seat's summary as the service
    stores it), without running the search."""
    seats = [
        {
            "seat": seat,
            "decisions": decisions,
            "accuracy": accuracy,
            "inaccuracies": 0,
            "mistakes": 0,
            "blunders": 0,
            "hands": 1,
            "mistakes_per_hand": 0.0,
        }
        for seat, accuracy in enumerate(accuracies)
    ]
    return GameAnalysis.objects.create(
        game=game,
        status=status,
        result={"unit": "points", "budget": 8, "hands": 1, "decisions": [], "seats": seats},
        version=analysis.version() if version is None else version,
    )


def accuracy_part(html):
    return plain(section(html, ACCURACY))


def player_page(viewer, player="alice"):
    return html_of(viewer, reverse("player", args=[player]))


# --- the player page ----------------------------------------------------------------------------


def test_the_player_page_draws_accuracy_per_game_with_its_average(alice, bob):
    for n, accuracy in enumerate((80.0, 90.0, 70.0)):
        game = over([alice, bob], kind=HEARTS, ended=T0 + timedelta(days=n))
        analysed(game, [accuracy, 50.0])
    html = player_page(alice)
    part = section(html, ACCURACY)
    assert "Hearts 80.0% average of 3 analysed games" in plain(part)
    # The ratings' chart component: its figure, its label, the highest and lowest figure.
    assert 'class="chart"' in part
    assert 'aria-label="Hearts accuracy in each of 3 analysed games, oldest first"' in part
    ticks = re.findall(r'class="chart-tick"[^>]*>([^<]+)<', part)
    assert ticks == ["90%", "70%"]
    # Oldest first (80, 90, then 70%): SVG's y grows downwards, 90% at the top, 70% at the foot.
    points = re.findall(r'points="([^"]+)"', part)[0].split()
    assert [float(p.split(",")[1]) for p in points] == [60.0, 10.0, 110.0]
    # Bob's page shows bob's seat.
    assert "Hearts 50.0% average of 3 analysed games" in accuracy_part(player_page(bob, "bob"))


def test_one_analysed_game_has_its_figure_and_no_chart(alice, bob):
    analysed(over([alice, bob], kind=HEARTS), [88.5, 50.0])
    part = section(player_page(alice), ACCURACY)
    assert "88.5% average of 1 analysed game" in plain(part)
    assert 'class="chart"' not in part


def test_only_analyses_done_with_the_present_version_count(alice, bob):
    analysed(over([alice, bob], kind=HEARTS), [90.0, 50.0])
    analysed(over([alice, bob], kind=HEARTS), [10.0, 50.0], status=GameAnalysis.Status.RUNNING)
    analysed(over([alice, bob], kind=HEARTS), [10.0, 50.0], status=GameAnalysis.Status.QUEUED)
    analysed(over([alice, bob], kind=HEARTS), [10.0, 50.0], status=GameAnalysis.Status.FAILED)
    analysed(over([alice, bob], kind=HEARTS), [10.0, 50.0], version="older")  # outdated
    over([alice, bob], kind=HEARTS)  # never asked for
    assert "90.0% average of 1 analysed game" in accuracy_part(player_page(alice))


def test_a_private_game_counts_only_for_those_who_may_see_its_replay(alice, bob, carol):
    analysed(over([alice, bob], kind=HEARTS, public=True), [90.0, 50.0])
    analysed(over([alice, bob], kind=HEARTS, public=False), [60.0, 50.0])
    # Carol was in neither game: the public one only.
    assert "90.0% average of 1 analysed game" in accuracy_part(player_page(carol))
    # Bob played both: both, as alice herself sees them.
    assert "75.0% average of 2 analysed games" in accuracy_part(player_page(bob))
    assert "75.0% average of 2 analysed games" in accuracy_part(player_page(alice))


def test_nothing_to_show_says_so(alice, bob, carol):
    analysed(over([alice, bob], kind=HEARTS, public=False), [60.0, 50.0])
    assert "No analysed games you can see." in accuracy_part(player_page(carol))
    assert "No analysed games yet" in accuracy_part(player_page(carol, "carol"))


def test_the_player_s_own_seat_and_only_a_seat_with_a_graded_move(alice, bob, carol):
    # Alice at seat 1 here: her figure is seat 1's.
    analysed(over([bob, alice], kind=HEARTS), [20.0, 95.0])
    # A seat a bot covered throughout has nothing graded: no figure, as on the replay.
    analysed(over([alice, bob], kind=HEARTS), [100.0, 50.0], decisions=0)
    assert "95.0% average of 1 analysed game" in accuracy_part(player_page(alice))
    # A player replaced by a stand-in has left the game: the seat is the stand-in's, as the
    # replay's summary names it.
    game = over([alice, bob], kind=HUNDRED_AND_TEN)
    analysed(game, [40.0, 50.0])
    Membership.objects.filter(game=game, user=alice).delete()
    Membership.objects.create(game=game, user=carol, role="player", seat=0, stand_in=True)
    part = accuracy_part(player_page(alice))
    assert "Hundred and Ten" not in part
    assert "Hundred and Ten 40.0% average of 1 analysed game" in accuracy_part(
        player_page(carol, "carol")
    )


def test_each_game_kind_has_its_own_line(alice, bob):
    analysed(over([alice, bob], kind=HEARTS), [90.0, 50.0])
    analysed(over([alice, bob], kind=HUNDRED_AND_TEN), [70.0, 50.0])
    part = accuracy_part(player_page(alice))
    assert "Hearts 90.0% average of 1 analysed game" in part
    assert "Hundred and Ten 70.0% average of 1 analysed game" in part


@pytest.mark.parametrize("count", [2, 40])
def test_the_page_s_queries_do_not_grow_with_the_analysed_games(
    count, alice, bob, carol, django_assert_max_num_queries
):
    for n in range(count):
        game = over(
            [alice, (bob, carol)[n % 2]],
            kind=(HEARTS, HUNDRED_AND_TEN)[n % 2],
            public=n % 3 == 0,
            ended=T0 + timedelta(hours=n),
        )
        analysed(game, [50.0 + n % 40, 50.0])
    for viewer in (alice, bob):
        client = logged_in_client(viewer)
        with django_assert_max_num_queries(9):  # test_history_queries.py's bound
            html = client.get(reverse("player", args=["alice"])).content.decode()
        assert "analysed game" in accuracy_part(html)


def test_the_latest_games_only_when_there_are_many(alice, bob, monkeypatch):
    monkeypatch.setattr(analysis, "ACCURACY_GAMES", 3)
    for n in range(5):
        game = over([alice, bob], kind=HEARTS, ended=T0 + timedelta(days=n))
        analysed(game, [10.0 if n < 2 else 90.0, 50.0])
    assert "90.0% average of the latest 3 analysed games" in accuracy_part(player_page(alice))


# --- the past games' rows -----------------------------------------------------------------------


def analysis_links(html):
    return re.findall(r'href="(/games/\d+/replay/#analysis)"', html)


def test_a_finished_game_s_row_links_to_its_replay_s_analysis_with_its_state(alice, bob):
    asked = over([alice, bob], kind=HEARTS, name="Asked")
    analysed(asked, [90.0, 50.0], status=GameAnalysis.Status.QUEUED)
    done = over([alice, bob], kind=HEARTS, name="Done")
    analysed(done, [90.0, 50.0])
    never = over([alice, bob], kind=HEARTS, name="Never")
    over([alice, bob], kind=HEARTS, name="Left", abandoned=True)
    html = html_of(alice, reverse("past-games"))
    assert sorted(analysis_links(html)) == sorted(
        f"/games/{g.pk}/replay/#analysis" for g in (asked, done, never)
    )
    rows = {
        name: plain(row)
        for row in re.findall(r'<li class="game-row past-row">(.*?)</li>', html, re.S)
        for name in re.findall(r'class="game-row-name"[^>]*>([^<]+)<', row)
    }
    assert "Analysis waiting" in rows["Asked"]
    assert "Analysed" in rows["Done"]
    assert "Analys" not in rows["Left"]
    assert "Analysed" not in rows["Never"] and "Analysis waiting" not in rows["Never"]


def test_a_game_in_progress_has_no_analysis_link(alice, bob):
    game = start_table([alice, bob], target=30)
    assert game.status == Game.Status.ACTIVE
    html = html_of(alice, reverse("lobby"))
    assert f"/games/{game.pk}/replay/#analysis" not in html
    assert f"/games/{game.pk}/" in html  # the game is listed, without the link


def test_the_past_games_page_s_queries_do_not_grow_with_analysed_rows(
    alice, bob, django_assert_max_num_queries
):
    for n in range(15):
        analysed(over([alice, bob], kind=HEARTS, ended=T0 + timedelta(hours=n)), [80.0, 50.0])
    client = logged_in_client(alice)
    with django_assert_max_num_queries(5):  # test_history_queries.py's bound
        html = client.get(reverse("past-games")).content.decode()
    assert html.count("Analysed") == 15
