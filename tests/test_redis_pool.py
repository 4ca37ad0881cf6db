"""hundredten/redis_pool.py: one redis-py connection pool per process and Redis URL (no
Redis server needed: a pool connects only when a command is sent)."""

from __future__ import annotations

from django.core.cache.backends.redis import RedisCache

from hundredten.redis_pool import SharedConnectionPool

OPTIONS = {"pool_class": "hundredten.redis_pool.SharedConnectionPool"}


def pool_of(cache: RedisCache) -> object:
    return cache._cache._get_connection_pool(write=True)  # type: ignore[attr-defined]


def test_cache_objects_with_the_same_url_share_one_pool() -> None:
    first = RedisCache("redis://127.0.0.1:6379/3", {"OPTIONS": OPTIONS})
    second = RedisCache("redis://127.0.0.1:6379/3", {"OPTIONS": OPTIONS})
    assert first is not second
    assert pool_of(first) is pool_of(second)
    assert isinstance(pool_of(first), SharedConnectionPool)


def test_other_urls_and_options_get_their_own_pool() -> None:
    base = SharedConnectionPool.from_url("redis://127.0.0.1:6379/4")
    assert SharedConnectionPool.from_url("redis://127.0.0.1:6379/4") is base
    assert SharedConnectionPool.from_url("redis://127.0.0.1:6379/5") is not base
    assert SharedConnectionPool.from_url("redis://127.0.0.1:6379/4", socket_timeout=1) is not base
