"""The channel layer as configured (channels-redis, hundredten/settings.py) against the real
Redis: a consumer waiting with nothing to receive keeps waiting past one blocking pop (5 s)
and gets the next message (redis-py's read timeout is longer than that pop)."""

from __future__ import annotations

import asyncio

import pytest
from channels.layers import get_channel_layer
from django.conf import settings

pytestmark = pytest.mark.scaleout


async def test_a_receive_outlasts_one_blocking_pop() -> None:
    config = settings.CHANNEL_LAYERS["default"]
    assert config["BACKEND"] == "channels_redis.core.RedisChannelLayer"
    layer = get_channel_layer()
    assert layer is not None
    channel = await layer.new_channel()

    async def send_later() -> None:
        await asyncio.sleep(6)  # over one 5 s BZPOPMIN with nothing to read
        await layer.send(channel, {"type": "game.changed", "version": 7})

    sender = asyncio.ensure_future(send_later())
    try:
        message = await asyncio.wait_for(layer.receive(channel), 15)
    finally:
        await sender
        await layer.flush()
    assert message == {"type": "game.changed", "version": 7}
