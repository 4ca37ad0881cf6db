"""The cache (local memory in one process, Redis for several): sessions are read from it,
and it has room for every presence count."""

from __future__ import annotations

from typing import Any

from django.db import connection
from django.test.utils import CaptureQueriesContext

from games.live import presence
from tests.conftest import logged_in_client


def test_a_signed_in_request_reads_its_session_from_the_cache(alice: Any) -> None:
    client = logged_in_client(alice)
    with CaptureQueriesContext(connection) as queries:
        response = client.get("/")
    assert response.status_code == 200
    assert response.context["user"] == alice
    assert not [q["sql"] for q in queries.captured_queries if "django_session" in q["sql"]]


def test_every_presence_count_is_kept_with_many_games_open(db: None) -> None:
    games = range(1, 501)  # 500 players' tables: more keys than the cache's default room
    for game_id in games:
        assert presence.join(game_id, 7)
    assert [game_id for game_id in games if presence.connected_user_ids(game_id, [7]) != {7}] == []
