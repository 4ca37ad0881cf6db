"""The Redis cache's connections: one pool per process and URL.

`CACHES` names Django's `RedisCache` and `SharedConnectionPool` as its `pool_class` option
(both documented).

Django keeps a cache object per async context (`django.core.cache.caches` is an asgiref
`Local`), and `RedisCache` builds its connection pool lazily per cache object: under daphne
every request and every socket's database hop got a new pool, so a new TCP connection to
Redis (with its handshake) for the first command of each, about two thousand in a 100-game
benchmark run. redis-py's pools are thread-safe and reset themselves after a fork, so one per
process and URL serves every context; `from_url` is the constructor Django calls and redis-py
documents.

Django's client still builds a `redis.Redis` around the pool for every call. Keeping one per
pool instead (an override of `RedisCacheClient.get_client`) was measured in alternated pairs
and did not pay (bench/results/render-once.md, twelfth session), so it went.
"""

from __future__ import annotations

import threading
from typing import Any

import redis

_pools: dict[str, SharedConnectionPool] = {}
_pools_lock = threading.Lock()


class SharedConnectionPool(redis.ConnectionPool):
    @classmethod
    def from_url(cls, url: str, **kwargs: Any) -> SharedConnectionPool:
        key = repr((url, sorted(kwargs.items())))
        with _pools_lock:
            pool = _pools.get(key)
            if pool is None:
                pool = _pools[key] = super().from_url(url, **kwargs)
            return pool
