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


def test_the_redis_cache_keeps_one_client_per_connection_pool() -> None:
    """hundredten/redis_pool.py: every cache object of a process (Django keeps one per async
    context) and every call share one pool and one redis.Redis around it, instead of a new
    client per call (building one cost about as much as the command it sends)."""
    from hundredten.redis_pool import KeptClientRedisCache

    def cache_object() -> KeptClientRedisCache:
        options = {"pool_class": "hundredten.redis_pool.SharedConnectionPool"}
        return KeptClientRedisCache("redis://127.0.0.1:6379/15", {"OPTIONS": options})

    first, second = cache_object(), cache_object()
    client = first._cache.get_client("a")
    assert first._cache.get_client("b", write=True) is client
    assert second._cache.get_client("a") is client
    other = KeptClientRedisCache("redis://127.0.0.1:6379/14", {})._cache.get_client("a")
    assert other is not client and other.connection_pool is not client.connection_pool
