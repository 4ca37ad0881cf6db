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
    # A fresh context per call, as daphne gives each request and socket. The pool lives as
    # long as the process, so earlier tests may have opened connections in it: count only
    # what these calls add (one at most, when the pool had none yet).
    async def read_in_a_fresh_context() -> object:
        return await asyncio.create_task(
            sync_to_async(_pool_after_a_read)(), context=contextvars.Context()
        )

    pool = await read_in_a_fresh_context()
    made = pool._created_connections  # type: ignore[attr-defined]
    pools = [await read_in_a_fresh_context() for _ in range(5)]
    assert {id(each) for each in pools} == {id(pool)}
    assert pool._created_connections == made  # type: ignore[attr-defined]
