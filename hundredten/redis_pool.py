"""The Redis cache's connections: one pool, and one client around it, per process.

`CACHES` names `KeptClientRedisCache` as its backend and `SharedConnectionPool` as its
`pool_class` option (documented).

The pool: Django keeps a cache object per async context (`django.core.cache.caches` is an
asgiref `Local`), and `RedisCache` builds its connection pool lazily per cache object: under
daphne every request and every socket's database hop got a new pool, so a new TCP connection
to Redis (with its handshake) for the first command of each, about two thousand in a
100-game benchmark run. redis-py's pools are thread-safe and reset themselves after a fork,
so one per process and URL serves every context; `from_url` is the constructor Django calls
(`RedisCacheClient._get_connection_pool`) and redis-py documents.

The client: Django's `RedisCacheClient.get_client` builds a new `redis.Redis` around the pool
for every cache call, and building one (its table of response callbacks) cost 71 us here
against 128 us for the GET it then sends (bench/results/scaleout.md). A `redis.Redis` is
thread-safe (each command takes a connection from the pool), so one per pool serves every
call. Django's comment on `get_client` invites a custom client (sharding); ours overrides it,
and the client class that `RedisCache.__init__` sets (`_class`), written against Django
5.2.19 and fenced in tests/fences/.
"""

from __future__ import annotations

import threading
from typing import Any

import redis
from django.core.cache.backends.redis import RedisCache, RedisCacheClient

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


# By pool (compared by identity). Two threads may both build one at first; the last kept
# serves from then on.
_clients: dict[redis.ConnectionPool, redis.Redis] = {}


class KeptClientRedisCacheClient(RedisCacheClient):
    """Django's client, handing out one `redis.Redis` per connection pool."""

    def get_client(self, key: Any = None, *, write: bool = False) -> Any:
        # The stubs do not declare the private names that Django's own get_client uses.
        pool = self._get_connection_pool(write)  # type: ignore[attr-defined]
        client = _clients.get(pool)
        if client is None:
            client = _clients[pool] = self._client(connection_pool=pool)  # type: ignore[attr-defined]
        return client


class KeptClientRedisCache(RedisCache):
    """Django's Redis cache with `KeptClientRedisCacheClient` (`RedisCache.__init__` names
    the client class it builds in `self._class`)."""

    def __init__(self, server: str | list[str], params: dict[str, Any]) -> None:
        super().__init__(server, params)
        self._class = KeptClientRedisCacheClient
