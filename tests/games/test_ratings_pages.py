"""Where people see the ratings: by each name at the table, in the waiting room and in the
lobby; the player page's ratings with their chart; the leaderboard, ordered and paged; the
new-game form's choice. Queries per page stay the same however many games were rated."""

from __future__ import annotations

import re
from typing import Any

import pytest
from allauth.account.models import EmailAddress
from django.urls import reverse

from games.charts import line_chart
from games.models import BotRating, Game, Rating, RatingChange
from games.ratings.board import MIN_GAMES, PAGE_SIZE
from tests.conftest import logged_in_client, make_user
from tests.games.conftest import seat_game
from tests.games.history_helpers import html_of, plain
from tests.games.rating_helpers import finished

pytestmark = pytest.mark.django_db

KIND = "one-hundred-and-four"


def shown_ratings(html: str) -> list[str]:
    return re.findall(r'<span class="rating"[^>]*>(\d+)', html)


def figure(user: Any) -> str:
    return str(Rating.objects.get(user=user, kind=KIND).shown.value)


def test_the_table_shows_each_seat_s_rating_after_a_rated_game(alice, bob):
    BotRating.objects.create(kind=KIND, level="hard", mu=30.0, sigma=2.0, games=40)
    game = finished(KIND, [alice, bob], ("hard", "medium"), rated=Game.Rated.WITH_BOTS)
    html = html_of(alice, reverse("table", args=[game.pk]))
    hard = BotRating.objects.get(level="hard").shown.value
    # In the felt's order around the viewer: every seat's figure, once.
    assert sorted(shown_ratings(html)) == sorted([figure(alice), figure(bob), str(hard), "1500"])
    assert figure(alice) != "1500"  # the game changed it


def test_the_waiting_room_and_the_lobby_show_ratings_by_the_names(alice, bob):
    Rating.objects.create(user=bob, kind=KIND, mu=31.0, sigma=5.0, games=30)
    game = seat_game([alice, bob], 1, kind=KIND)
    game.memberships.filter(seat=2).update(bot="medium")
    room = html_of(alice, reverse("waiting-room", args=[game.pk]))
    assert shown_ratings(room) == ["1500", "1620", "1500"]  # alice new, bob, the medium bot
    assert 'title="Rating 1500 ± 333, provisional">1500<abbr' in room  # alice
    assert 'title="Rating 1500 ± 0">1500</span>' in room  # the anchor
    lobby = html_of(alice, reverse("lobby"))
    assert shown_ratings(lobby) == ["1500", "1620"]
    assert 'title="Rating 1620 ± 200">1620</span>' in lobby  # settled: no "?"


def test_the_player_page_charts_the_rating_after_each_rated_game(alice, bob):
    games = [finished(KIND, [alice, bob], seed=f"chart{n}") for n in range(3)]
    html = html_of(bob, reverse("player", args=["alice"]))
    history = [c.shown.value for c in RatingChange.objects.filter(user=alice).order_by("number")]
    chart = line_chart(history, "")
    assert chart is not None and f'points="{chart.points}"' in html
    assert f"{Rating.objects.get(user=alice).shown.text}" in plain(html)
    assert "3 rated games" in plain(html)
    assert reverse("leaderboard", args=[KIND]) in html
    assert len(games) == 3


def test_a_private_game_s_opponents_and_dates_stay_hidden_from_outsiders(alice, bob, carol):
    finished(KIND, [alice, bob], seed="private")
    html = html_of(carol, reverse("player", args=["alice"]))
    assert "Bob" not in plain(html) and "<time" not in html
    assert shown_ratings(html) == [] and "1 rated game" in plain(html)


def rated_people(count: int, **fields: Any) -> list[Any]:
    users = [make_user(f"r{count}x{n}") for n in range(count)]
    EmailAddress.objects.bulk_create(
        EmailAddress(user=u, email=u.email, verified=True, primary=True) for u in users
    )
    Rating.objects.bulk_create(
        Rating(user=u, kind=KIND, mu=20 + n / 4, sigma=3.0, games=MIN_GAMES, **fields)
        for n, u in enumerate(users)
    )
    for row in Rating.objects.filter(user__in=users):
        row.conservative = row.mu - 3 * row.sigma
        row.save()
    return users


def board_names(html: str) -> list[str]:
    return re.findall(r'<th scope="row"><a href="/players/([^/]+)/">', html)


def test_the_leaderboard_lists_settled_verified_ratings_best_first_a_page_at_a_time(alice):
    users = rated_people(PAGE_SIZE + 3)
    best_first = [u.username for u in reversed(users)]
    # Left out: a provisional rating, too few games, an unverified address.
    EmailAddress.objects.create(user=alice, email=alice.email, verified=False, primary=True)
    Rating.objects.create(user=alice, kind=KIND, mu=40, sigma=2, games=99, conservative=34)
    shaky, few = make_user("shaky"), make_user("few")
    for u in (shaky, few):
        EmailAddress.objects.create(user=u, email=u.email, verified=True, primary=True)
    Rating.objects.create(user=shaky, kind=KIND, mu=45, sigma=7, games=99, conservative=24)
    Rating.objects.create(user=few, kind=KIND, mu=45, sigma=2, games=MIN_GAMES - 1)

    url = reverse("leaderboard", args=[KIND])
    first = html_of(alice, url)
    assert board_names(first) == best_first[:PAGE_SIZE]
    second = html_of(alice, url + "?page=2")
    assert board_names(second) == best_first[PAGE_SIZE:]
    assert "Page 2 of 2" in second
    assert board_names(html_of(alice, url + "?page=99")) == best_first[PAGE_SIZE:]


def test_an_unknown_game_has_no_leaderboard(alice):
    client = logged_in_client(alice)
    assert client.get(reverse("leaderboard", args=["chess"])).status_code == 404


def test_the_leaderboard_and_the_player_page_cost_the_same_queries_however_many(alice, bob):
    def counts() -> list[int]:
        from django.db import connection
        from django.test.utils import CaptureQueriesContext

        found = []
        for url in (reverse("leaderboard", args=[KIND]), reverse("player", args=["alice"])):
            with CaptureQueriesContext(connection) as queries:
                assert logged_in_client(bob).get(url).status_code == 200
            found.append(len(queries))
        return found

    finished(KIND, [alice, bob], seed="q1")
    rated_people(3)
    few = counts()
    for n in range(4):
        finished(KIND, [alice, bob], seed=f"q{n + 2}")
    rated_people(30)
    assert counts() == few


def test_the_new_game_form_offers_the_rating_choice(alice):
    client = logged_in_client(alice)
    page = client.get(reverse("new-game")).content.decode()
    assert 'name="rated"' in page and "Rated when every seat is a person" in page
    data = {"name": "Rated", "kind": KIND, "visibility": "private", "max_players": 3}
    client.post(reverse("new-game"), {**data, "rated": "bots"})
    assert Game.objects.get(name="Rated").rated == Game.Rated.WITH_BOTS
    refused = client.post(reverse("new-game"), {**data, "name": "Odd", "rated": "always"})
    assert refused.status_code == 400 and "Choose one of the rating choices." in plain(
        refused.content.decode()
    )
    assert not Game.objects.filter(name="Odd").exists()


def test_the_chart_s_data():
    assert line_chart([1500], "one game") is None
    chart = line_chart([1500, 1540, 1520], "three")
    assert chart is not None
    assert chart.points == "40,110 177,10 314,60"  # left to right, the highest at the top
    assert [(t.y, t.label) for t in chart.ticks] == [(10, "1540"), (110, "1500")]
    assert chart.last == (314, 60)
    flat = line_chart([1500, 1500], "flat")
    assert flat is not None and flat.points == "40,60 314,60" and len(flat.ticks) == 1


def test_the_player_page_shows_each_game_s_own_statistics(alice, bob):
    games = [finished(KIND, [alice, bob], seed=f"stats{n}") for n in range(2)]
    hearts = finished("hearts", [alice, bob, *(make_user(f"h{n}") for n in range(2))])
    html = plain(html_of(bob, reverse("player", args=["alice"])))
    # One deal a game: her penalty per deal is the mean of her final scores.
    penalties = [(g.outcome or {})["scores"][0] for g in games]
    assert f"Penalty per deal {sum(penalties) / 2:.1f}" in html
    hands = Rating.objects.get(user=alice, kind="hearts").stats["hands"]
    points = (hearts.outcome or {})["scores"][0]
    assert hands >= 2 and f"Points per hand {points / hands:.1f}" in html
    assert "Moon shots" in html
