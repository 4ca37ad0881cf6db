"""Queries do not grow with the history: the lobby, the profile, a player page and the past
games cost the same at 10 games and at 1000:
test_history_pages_cost_the_same_queries_at_any_length,
test_the_query_count_is_exactly_the_same_for_10_and_1000_games.
"""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.conftest import logged_in_client
from tests.games.history_helpers import bulk_history, plain

pytestmark = pytest.mark.django_db


# --- bounded queries ----------------------------------------------------------------------------

# The most queries each page may take, whatever the length of the history: the session's
# user, then a page of games (a count for the pager) and its memberships; the player page
# adds the player, the per-kind record, the opponents, the ratings and their history, and the
# accuracy in analysed games (docs/analysis.md); the lobby has its other lists (and the
# ratings by the names); the past games page adds the user's friends, requests and blocks in
# one query (its "+ friend" buttons: docs/friends.md).
BOUNDS = {"lobby": 10, "profile": 5, "player": 9, "past-games": 5}


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
