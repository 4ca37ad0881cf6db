"""The Redis cache as configured (hundredten/settings.py): every request and socket of a
process uses one connection pool, so Redis connections are made once, not per request
(Django keeps a cache object per async context; each had its own pool and connection)."""

from __future__ import annotations

import asyncio
import contextvars

import pytest
from asgiref.sync import sync_to_async
from django.core.cache import caches

pytestmark = pytest.mark.scaleout


def _pool_after_a_read() -> object:
    cache = caches["default"]
    cache.get("pool-probe")
    return cache._cache._get_connection_pool(write=False)  # type: ignore[attr-defined]


async def test_requests_in_their_own_contexts_share_one_pool_and_its_connection() -> None:
    # A fresh context per call, as daphne gives each request and socket.
    pools = [
        await asyncio.create_task(
            sync_to_async(_pool_after_a_read)(), context=contextvars.Context()
        )
        for _ in range(5)
    ]
    assert len({id(pool) for pool in pools}) == 1
    pool = pools[0]
    assert len(pool._available_connections) == 1  # type: ignore[attr-defined]
