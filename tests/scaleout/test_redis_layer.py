"""Our channels-redis layer against the real Redis: a consumer waiting with nothing to
receive must keep waiting, however long, and get the next message."""

from __future__ import annotations

import asyncio
import os

import pytest

from hundredten.layers import RedisLayer

pytestmark = pytest.mark.scaleout


async def test_a_receive_outlasts_the_redis_read_timeout() -> None:
    # A one-second read timeout, so the test waits 2.5 s rather than the default's 5+.
    layer = RedisLayer(hosts=[{"address": os.environ["REDIS_URL"], "socket_timeout": 1.0}])
    channel = await layer.new_channel()

    async def send_later() -> None:
        await asyncio.sleep(2.5)  # over twice the read timeout with nothing to read
        await layer.send(channel, {"type": "game.changed", "version": 7})

    sender = asyncio.ensure_future(send_later())
    try:
        message = await asyncio.wait_for(layer.receive(channel), 10)
    finally:
        await sender
        await layer.flush()
    assert message == {"type": "game.changed", "version": 7}
    assert layer.brpop_timeout == 0.5
